"""An operating system's refusal in Slovak, naming the path — and, where who asks decides
(a permission, a read-only file system), the uid that asked and the image's (issue 43.2:
`export … -o vysledky.csv` in the container said only "chýba oprávnenie")."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from bot.os_errors import IMAGE_UID, input_reason, os_error


@pytest.mark.parametrize(("code", "reason"), [
    (errno.EACCES, "chýba oprávnenie"),
    (errno.EPERM, "chýba oprávnenie"),
    (errno.EROFS, "súborový systém je len na čítanie"),
])
def test_a_refused_write_names_the_path_and_who_asked(code: int, reason: str) -> None:
    line = os_error(OSError(code, os.strerror(code), "/app/vysledky.csv"))
    assert line == (f"/app/vysledky.csv: {reason} (stredisko beží ako používateľ uid "
                    f"{os.getuid()}; v obraze Docker uid {IMAGE_UID}, ktorý smie zapisovať len "
                    "do /data – napr. -o /data/vysledky.csv)")
    assert "Errno" not in line and os.strerror(code) not in line


def test_other_refusals_stay_short() -> None:
    assert os_error(FileNotFoundError(errno.ENOENT, "No such file", "/x/y")) == (
        "/x/y: súbor alebo priečinok neexistuje")


def test_a_folder_given_as_a_file(tmp_path: Path) -> None:
    docker_made = tmp_path / "config.toml"
    docker_made.mkdir()
    plain = tmp_path / "vysledky"
    plain.mkdir()
    error = IsADirectoryError(errno.EISDIR, "Is a directory")
    assert "rmdir config.toml" in input_reason(error, docker_made)
    assert input_reason(error, plain) == "je to priečinok, nie súbor"
