"""A Debian package a test needs, installed when it is missing (chromium, hunspell-sk).

CI installs nothing beforehand: the first test that needs a package installs it with apt-get
(root or password-less sudo), one xdist worker at a time; it skips only when no package source
can be reached, and fails with apt's own words for anything else.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

UNREACHABLE = (
    "Could not resolve",
    "Temporary failure resolving",
    "Failed to fetch",
    "Unable to fetch some archives",
    "Network is unreachable",
    "Connection timed out",
    "Unable to connect",
)


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(
        [*sudo, "apt-get", *args], capture_output=True, text=True, env=env, timeout=900
    )


def ensure_packages(found: Callable[[], str | None], packages: list[str], what: str) -> str:
    """`found()`'s answer (a path), installing `packages` first when it has none."""
    path = found()
    if path:
        return path
    install_line = f"apt-get install {' '.join(packages)}"
    if os.geteuid() != 0 and shutil.which("sudo") is None:
        pytest.fail(f"{what} is missing and apt-get needs root: run `{install_line}`")
    # pytest-xdist workers (and parallel sessions) install one at a time: apt holds its own
    # lock and fails rather than waits; the first installs, the next finds the package.
    lock_path = Path(tempfile.gettempdir()) / f"stredisko-apt-{packages[0]}.lock"
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = found()
        if path:
            return path
        # apt-get update may exit 0 although every source failed; then the install finds no
        # package, and the update's own output tells that the sources were out of reach.
        update = _apt("update")
        install = _apt("install", "-y", *packages)
    if install.returncode != 0:
        output = update.stdout + update.stderr + install.stdout + install.stderr
        if any(sign in output for sign in UNREACHABLE):
            pytest.skip(f"{what} is not installed and no package source is reachable")
        pytest.fail(f"{install_line} failed:\n{output[-2000:]}")
    path = found()
    if not path:
        pytest.fail(f"{install_line} succeeded but {what} is still not there")
    return path
