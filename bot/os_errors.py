"""An operating-system error said in the reader's language: Python's `strerror` is English."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from bot.i18n import SLOVAK, t

#: the user the Docker image runs as (Dockerfile: `useradd --uid 10001`), named in every line
#: about permissions: a bind-mounted host folder or file must let this uid in
IMAGE_UID = 10001

#: errno → catalogue key (`os.<key>`); any other error keeps the system's own words
_KEYS = {
    errno.ENOENT: "missing",
    errno.EISDIR: "is_folder",
    errno.ENOTDIR: "not_folder",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.ENOSPC: "full",
    errno.EROFS: "read_only",
    errno.EEXIST: "exists",
    errno.ENAMETOOLONG: "too_long",
}


def errno_reason(code: int, fallback: str, locale: str = SLOVAK) -> str:
    """Why the system refused, e.g. "súbor alebo priečinok neexistuje" for ENOENT."""
    key = _KEYS.get(code)
    return t(f"os.{key}", locale) if key else fallback


def os_reason(error: OSError, locale: str = SLOVAK) -> str:
    return errno_reason(error.errno or 0, error.strerror or str(error), locale)


def input_reason(error: OSError, path: str | Path, locale: str = SLOVAK) -> str:
    """Why a file the user gave could not be read — a folder where the file should be named
    with its fix: `docker run -v host-file:…` makes a root-owned folder of a host file that
    does not exist yet, and `cp` then copies into it (issue 43.2)."""
    folder = isinstance(error, IsADirectoryError) or Path(path).is_dir()
    if folder and Path(path).suffix:  # "config.toml" a folder: what Docker makes of it
        return t("os.folder_not_file", locale, name=Path(path).name)
    return os_reason(error, locale)


#: refusals where who the process runs as decides (named with the uid: issue 43.2)
_WHO_MATTERS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def os_error(error: OSError, locale: str = SLOVAK) -> str:
    """The whole line's reason: the path the system named and why ("/x/y: neexistuje"); a
    refused permission also says who asked — this process's uid and the image's — and where a
    container may write (its /data)."""
    reason = os_reason(error, locale)
    if error.errno in _WHO_MATTERS:
        reason = t("os.who", locale, reason=reason, uid=os.getuid(), image_uid=IMAGE_UID)
    return f"{error.filename}: {reason}" if error.filename else reason


def no_write(path: str | Path, locale: str = SLOVAK) -> str:
    """`path` (a folder) may not be written by the user this process runs as: his uid, the
    image's, and how to give him the folder."""
    return t("os.no_write", locale, path=str(path), uid=os.getuid(), image_uid=IMAGE_UID)


def no_read(path: str | Path, locale: str = SLOVAK) -> str:
    """`path` (a file) may not be read by the user this process runs as: his uid, the image's,
    and why the secrets belong in the environment rather than in a `chmod 600` file."""
    return t("os.no_read", locale, path=str(path), uid=os.getuid(), image_uid=IMAGE_UID)


def database_access(path: str | Path, locale: str = SLOVAK) -> str | None:
    """The permissions line when this process may not use the database `path` — the file
    not writable, or its folder (SQLite writes its journal beside it) not writable or not
    enterable — else None. os.access asks for the real uid, the one that opens the file."""
    file = Path(path)
    folder = file.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        return no_write(folder, locale)
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        return no_write(file, locale)
    return None
