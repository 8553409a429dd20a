"""Notes the `stredisko` command adds to a use case's answer for the head administrator."""

from __future__ import annotations

from bot.i18n import t
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
