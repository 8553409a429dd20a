"""Notes the `stredisko` command adds to a use case's answer for the head administrator."""

from __future__ import annotations

import errno
from pathlib import Path

from bot.i18n import t
from bot.os_errors import errno_reason


def database_error(path: Path, error: Exception) -> str:
    """Why the database file cannot be opened, as far as the system tells (sqlite's own
    message names no cause)."""
    folder = path.parent
    if not folder.exists():
        reason = f"{folder}: {errno_reason(errno.ENOENT, str(error))}"
    elif folder.is_file():
        reason = f"{folder}: {errno_reason(errno.ENOTDIR, str(error))}"
    else:
        reason = str(error)
    return t("os.database", file=str(path), reason=reason)
