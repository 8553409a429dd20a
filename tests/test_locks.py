"""The locks in requirements/ (issue 15) still fit pyproject.toml: CI installs test.txt with
--no-deps on the project and the image installs runtime.txt, so a dependency added to
pyproject.toml without `make lock` must fail here, not in a deployer's container."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)(?:\s*;\s*([^\\]+?))?\s*\\?$")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pins(lock: str) -> dict[str, str]:
    """name → version of the pins that apply to this interpreter (each must carry a hash)."""
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=\S)", text):
        match = PIN.match(block.splitlines()[0])
        if match is None:
            continue
        name, version, marker = match.groups()
        assert "--hash=sha256:" in block, f"{lock}: {name} has no hash"
        if marker is None or Marker(marker).evaluate():
            found[canonicalize_name(name)] = version
    return found


@pytest.mark.parametrize(("lock", "requirements"), [
    ("runtime.txt", PYPROJECT["project"]["dependencies"]),
    ("test.txt", [*PYPROJECT["project"]["dependencies"],
                  *PYPROJECT["project"]["optional-dependencies"]["test"]]),
    ("build.txt", PYPROJECT["build-system"]["requires"]),
])
def test_lock_pins_what_pyproject_asks_for(lock: str, requirements: list[str]) -> None:
    pinned = pins(lock)
    for line in requirements:
        wanted = Requirement(line)
        version = pinned.get(canonicalize_name(wanted.name))
        assert version is not None, f"{lock} lacks {wanted.name}: run `make lock`"
        assert wanted.specifier.contains(version, prereleases=True), (
            f"{lock} pins {wanted.name}=={version}, pyproject.toml asks {wanted}: run `make lock`")


def test_tests_run_on_the_versions_the_image_ships() -> None:
    runtime, test = pins("runtime.txt"), pins("test.txt")
    assert {name: test.get(name) for name in runtime} == runtime


def test_the_harness_tools_stay_out_of_the_runtime_lock() -> None:
    # the Discord harness's spec check is test code (issue 34.1): the image does without it
    assert not {"jsonschema", "referencing", "regex"} & set(pins("runtime.txt"))
    assert {"jsonschema", "regex"} <= set(pins("test.txt"))
