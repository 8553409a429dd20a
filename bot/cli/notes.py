"""Notes the `stredisko` command adds to a use case's answer for the head administrator."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from bot.i18n import t
from bot.os_errors import database_access, errno_reason


def database_error(path: Path, error: Exception) -> str:
    """Why the database file cannot be opened, as far as the system tells (sqlite's own
    message names no cause)."""
    folder = path.parent
    if not folder.exists():
        reason = f"{folder}: {errno_reason(errno.ENOENT, str(error))}"
    elif folder.is_file():
        reason = f"{folder}: {errno_reason(errno.ENOTDIR, str(error))}"
    else:  # SQLite's "unable to open database file" / "readonly database": whose permission
        reason = database_access(path) or str(error)
    return t("os.database", file=str(path), reason=reason)


def database_problem(path: Path, error: sqlite3.DatabaseError, waited_s: float) -> str:
    """One Slovak line naming the file for what SQLite said in English: another process holds
    the write lock past the busy timeout, the file is no SQLite database (or is truncated,
    damaged), or it cannot be opened at all."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return t("os.database_locked", file=str(path), seconds=waited_s)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return t("os.database_damaged", file=str(path), reason=str(error))
    return database_error(path, error)
