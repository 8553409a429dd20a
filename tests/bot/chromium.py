"""Headless Chromium for the tests of pages people look at (the results page, the hall's
word-check page): find or install the browser, run it, read the PNG screenshots it writes."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).parents[2]

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


def ensure_chromium() -> str:
    """The path of a `chromium` binary, installing the Debian package when it is missing.

    Skips only when the install fails because no package source can be reached; any other
    failure is an error with apt's own words.
    """
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.geteuid() != 0 and shutil.which("sudo") is None:
        pytest.fail("chromium is missing and apt-get needs root: run `apt-get install chromium`")
    # pytest-xdist workers (and parallel sessions) install one at a time: apt holds its own
    # lock and fails rather than waits; the first installs, the next finds the binary.
    with (Path(tempfile.gettempdir()) / "stredisko-apt-chromium.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = shutil.which("chromium") or shutil.which("chromium-browser")
        if found:
            return found
        # apt-get update may exit 0 although every source failed; then the install finds no
        # package, and the update's own output tells that the sources were out of reach.
        update = _apt("update")
        install = _apt("install", "-y", "chromium")
    if install.returncode != 0:
        output = update.stdout + update.stderr + install.stdout + install.stderr
        if any(sign in output for sign in UNREACHABLE):
            pytest.skip("chromium is not installed and no package source is reachable")
        pytest.fail(f"apt-get install chromium failed:\n{output[-2000:]}")
    found = shutil.which("chromium")
    if not found:
        pytest.fail("apt-get installed chromium but no `chromium` binary is on PATH")
    return found


def browser_flags(profile: Path) -> list[str]:
    """Flags for a quiet, offline headless run with a throw-away profile folder."""
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
    ]


def run_chromium(binary: str, args: list[str], *extra: str) -> str:
    done = subprocess.run(
        [binary, *args, *extra], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB(A) rows of an 8-bit PNG (what Chromium writes). Pillow decodes
    it: a pure-Python decoder took seconds per full-page screenshot (issue 21)."""
    with Image.open(path) as image:
        assert image.format == "PNG", "not a PNG"
        assert image.mode in ("RGB", "RGBA"), f"unexpected PNG mode {image.mode}"
        data, (width, height) = image.tobytes(), image.size
    stride = len(data) // height
    return width, height, [data[y * stride : (y + 1) * stride] for y in range(height)]


def screenshots_dir() -> Path:
    """Where the screenshots go: $STREDISKO_SCREENSHOTS or build/screenshots (git ignores
    build/); kept after the run for a person to look at."""
    folder = Path(os.environ.get("STREDISKO_SCREENSHOTS") or ROOT / "build" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def ink_of(shot: Path, size: tuple[int, int]) -> tuple[float, int, list[bytes]]:
    """How much of a screenshot is dark (a pixel whose darkest channel is below 200), how many
    shades it has, and its RGB pixels (an alpha channel is left out)."""
    with Image.open(shot) as image:
        assert image.format == "PNG", "not a PNG"
        assert image.mode in ("RGB", "RGBA"), f"unexpected PNG mode {image.mode}"
        assert image.size == size
        rgb = image.convert("RGB")  # from RGBA: the alpha is dropped, not composited
    darkest = ImageChops.darker(ImageChops.darker(*rgb.split()[:2]), rgb.split()[2])
    total = size[0] * size[1]
    ink = sum(darkest.histogram()[:200]) / total
    shades = len(rgb.getcolors(total) or ())
    data = rgb.tobytes()
    return ink, shades, [data[i : i + 3] for i in range(0, len(data), 3)]
