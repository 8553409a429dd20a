"""A player reported absent who came after the waiting period and then played (e-SP 4.3, 4.9,
RULES.md 3): the 4.3 forfeit stays proposed, the head administrator is told that the game was
played and its score — once, not again when nothing about it changed — and he rules either
way: the forfeit (never refused) or the game as played."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import refresh_pairing
from bot.services.tournament import admin
from bot.store import EvidenceKind, ResultStatus, append_evidence, get_result
from rules import End

from .conftest import ADMIN_ID, NAMES, START, World, add_game, sent


def refresh(pairing_id: int) -> Callable[[Tx], Any]:
    return lambda tx: refresh_pairing(tx, pairing_id, tx.by_scheduler("test"))


async def late_game(app: App, world: World, clock: ManualClock) -> Any:
    """Player 0 reports player 1 absent at 0:02; they play 0:14–0:40 (waiting ended at 0:10)."""
    table = world.tables[0]
    clock.set(START + timedelta(minutes=2))
    await app.run(lambda tx: append_evidence(tx.db, table.id, EvidenceKind.ABSENCE,
                                             tx.by_player(world.players[0].id)))
    await add_game(app, table, 420, 380, minutes=(14, 40))
    clock.set(START + timedelta(minutes=45))
    return table


async def test_a_late_arrival_who_played_keeps_the_forfeit_proposed_and_the_admin_is_told(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = await late_game(app, world, clock)
    result = await app.run(refresh(table.id))
    assert result.status is ResultStatus.PROPOSED and result.end_kind == "no_show"
    assert (result.first_score, result.second_score) == (100, 0)  # e-SP 4.9 row 5
    told = [text for _, key, text in sent(notifier, "admin") if key == "result.late_arrival"]
    assert len(told) == 1
    assert f"Príchod až po uplynutí čakacej lehoty: {NAMES[1]}" in told[0]
    assert "420:380" in told[0] and "e-SP 4.3" in told[0] and "4.9" in told[0]
    assert [k for _, k, _ in sent(notifier, "admin")].count("result.proposal") == 1
    assert sent(notifier, "channel") == []  # nothing announced before the admin rules
    await app.run(refresh(table.id))  # the same verdict again: nothing new to tell
    assert len(sent(notifier, "admin")) == 2


async def test_the_admin_may_rule_the_forfeit(
        app: App, world: World, clock: ManualClock) -> None:
    table = await late_game(app, world, clock)
    await app.run(refresh(table.id))
    reply = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                             (End.NO_SHOW, {"loser": table.second_id}),
                             "prišiel po čakacej lehote, e-SP 4.3")
    assert reply.ok and reply.key == "admin.ruled"
    result = await app.store.read(get_result, table.id)
    assert result.status is ResultStatus.PROVISIONAL and result.end_kind == "no_show"


async def test_the_admin_may_rule_the_game_as_played(
        app: App, world: World, clock: ManualClock) -> None:
    table = await late_game(app, world, clock)
    await app.run(refresh(table.id))
    reply = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                             (End.FINISHED, {"first_score": 420, "second_score": 380,
                                             "moved": [table.first_id, table.second_id]}),
                             "súper súhlasil s odohraním partie")
    assert reply.ok and reply.key == "admin.ruled"
    result = await app.store.read(get_result, table.id)
    assert (result.status, result.end_kind) == (ResultStatus.PROVISIONAL, "finished")
    assert (result.first_score, result.second_score) == (420, 380)
