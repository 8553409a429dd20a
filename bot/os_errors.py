"""An operating-system error said in the reader's language: Python's `strerror` is English."""

from __future__ import annotations

import errno

from bot.i18n import SLOVAK, t

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


def os_error(error: OSError, locale: str = SLOVAK) -> str:
    """The whole line's reason: the path the system named and why ("/x/y: neexistuje")."""
    reason = os_reason(error, locale)
    return f"{error.filename}: {reason}" if error.filename else reason
