"""Notes the `stredisko` command adds to a use case's answer for the head administrator."""

from __future__ import annotations

import errno
from pathlib import Path

from bot.i18n import t
from bot.os_errors import errno_reason
from bot.services import lookup
from bot.services.app import Tx
from bot.store import get_round


def late_start(tx: Tx, slug: str, round_no: int) -> str | None:
    """A warning when round `round_no` is paired after its official start had passed: the
    players learn their opponents late and have less time before the limit (e-SP 4.5)."""
    rnd = get_round(tx.db, lookup.tournament(tx, slug).id, round_no)
    if tx.now < rnd.starts_at:
        return None
    return t("cli.pair_late", round=round_no, start=rnd.starts_at, limit=rnd.limit_at)


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
