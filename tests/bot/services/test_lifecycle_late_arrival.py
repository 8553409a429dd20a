"""A player reported absent who came after the waiting period and then played (RULES.md 2,
Interpretation of e-SP 4.3 and 5): the game counts as played and is announced, and the head
administrator is told once — not again when nothing about it changed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.lifecycle import refresh_pairing
from bot.services.notifier import RecordingNotifier
from bot.store import EvidenceKind, ResultStatus, append_evidence

from .conftest import NAMES, START, World, add_game, sent


def refresh(pairing_id: int) -> Callable[[Tx], Any]:
    return lambda tx: refresh_pairing(tx, pairing_id, tx.by_scheduler("test"))


async def test_a_late_arrival_who_played_counts_and_the_admin_is_told(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    clock.set(START + timedelta(minutes=2))
    await app.run(lambda tx: append_evidence(tx.db, table.id, EvidenceKind.ABSENCE,
                                             tx.by_player(world.players[0].id)))
    await add_game(app, table, 420, 380, minutes=(14, 40))  # the waiting period ended at 10
    clock.set(START + timedelta(minutes=45))
    result = await app.run(refresh(table.id))
    assert result.status is ResultStatus.PROVISIONAL and result.end_kind == "finished"
    assert (result.first_score, result.second_score) == (420, 380)
    ((_, key, text),) = sent(notifier, "admin")
    assert key == "result.late_arrival"
    assert f"Príchod až po uplynutí čakacej lehoty: {NAMES[1]}" in text
    assert "e-SP 4.3" in text and "e-SP 5" in text
    assert [k for _, k, _ in sent(notifier, "channel")] == ["result.official"]
    await app.run(refresh(table.id))  # the same verdict again: nothing new to tell
    assert len(sent(notifier, "admin")) == 1
