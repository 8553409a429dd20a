"""What the lifecycle tells people: verdict texts name players (never store ids), read in one
query per call (exclusion reasons: test_lifecycle.py); a corrected result is announced only
when what players see changed; a round's confirmation is announced once, not every time it is
confirmed again."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.evidence_map import pairing_evidence, player_names
from bot.services.results.lifecycle import (
    confirm_round,
    refresh_pairing,
    refresh_round,
)
from bot.services.tournament import play
from bot.store import (
    EvidenceKind,
    ResultStatus,
    append_evidence,
    get_result,
)

from .conftest import NAMES, START, World, add_game, make_world, sent

#: A store id where a name belongs: "Prehra na čas: 2", "súper 3", "lehote: 2;", "(2)" — not
#: a count, a round or points ("a): 2 partie", "(1. kolo", "(0:1)").
STORE_ID = re.compile(r"(?:súper|čas:|partie:|lehote:|\() ?\d+(?![.:\d]| parti)")


def refresh(pairing_id: int) -> Callable[[Tx], Any]:
    return lambda tx: refresh_pairing(tx, pairing_id, tx.by_scheduler("test"))


def confirm(world: World, round_no: int = 1) -> Callable[[Tx], Any]:
    return lambda tx: confirm_round(tx, world.tournament.id, round_no,
                                    tx.by_scheduler("window closed"))


def absence(pairing_id: int, reporter: int) -> Callable[[Tx], Any]:
    return lambda tx: append_evidence(tx.db, pairing_id, EvidenceKind.ABSENCE,
                                      tx.by_player(reporter))


def keys(notifier: RecordingNotifier, where: str) -> list[str]:
    return [key for _, key, _ in sent(notifier, where)]


# -- names, not store ids -------------------------------------------------------------------


async def test_a_time_loss_is_announced_with_the_loser_s_name(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    await add_game(app, table, 420, 380, end="time_loss", on=table.first_id)
    clock.set(START + timedelta(minutes=45))
    result = await app.run(refresh(table.id))
    assert result.verdict["text"].startswith(f"Prehra na čas: {NAMES[0]}")
    ((_, key, text),) = sent(notifier, "channel")
    assert key == "result.official" and f"Prehra na čas: {NAMES[0]}" in text
    assert not STORE_ID.search(text), text


async def test_a_no_show_proposal_names_the_absent_player_to_the_admin(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    clock.set(START + timedelta(minutes=2))
    await app.run(absence(table.id, world.players[0].id))
    clock.set(START + timedelta(minutes=11))
    await app.run(refresh(table.id))
    ((_, key, text),) = sent(notifier, "admin")
    assert key == "result.proposal"
    assert f"Neprítomnosť v čakacej lehote: {NAMES[1]}" in text
    assert not STORE_ID.search(text), text


async def test_refreshing_a_round_reads_the_names_once(
        app: App, world: World, clock: ManualClock) -> None:
    for n, table in enumerate(world.tables):
        await add_game(app, table, 400 + n, 300, end="resigned", on=table.second_id,
                       game_id=f"g{n}")
    clock.set(START + timedelta(minutes=45))

    def body(tx: Tx) -> tuple[list[Any], list[str]]:
        statements: list[str] = []
        tx.db.conn.set_trace_callback(statements.append)
        try:
            results = refresh_round(tx, world.tournament.id, 1, tx.by_scheduler("test"))
        finally:
            tx.db.conn.set_trace_callback(None)
        return results, [s for s in statements if "SELECT id, name FROM players" in s]

    results, name_queries = await app.run(body)
    assert len(name_queries) == 1
    assert [r.verdict["text"].split(" (")[0] for r in results] == [
        f"Vzdanie partie: {NAMES[1]}", f"Vzdanie partie: {NAMES[3]}"]


async def test_pairing_evidence_and_player_names(app: App, world: World) -> None:
    table = world.tables[1]

    def body(tx: Tx) -> tuple[Any, dict[str, str], dict[str, str]]:
        evidence, _ = pairing_evidence(tx.db, table, world.tournament)
        return evidence, player_names(tx.db, [table.first_id, None, 999_999]), player_names(
            tx.db, [])

    evidence, names, none = await app.run(body)
    assert evidence.name(str(table.first_id)) == NAMES[2]
    assert evidence.name(str(table.second_id)) == NAMES[3]
    assert names == {str(table.first_id): NAMES[2]}  # an unknown id is simply absent
    assert none == {}


# -- "Opravený výsledok" only when something a player sees changed --------------------------


async def test_a_report_agreeing_with_the_record_announces_nothing(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388)
    clock.set(START + timedelta(minutes=45))
    first = await app.run(refresh(table.id))
    assert keys(notifier, "channel") == ["result.official"]
    reply = await play.report_result(app, world.slug, world.discord(1), 388, 412)
    assert reply.ok
    after = await app.store.read(get_result, table.id)
    assert after.version > first.version  # the evidence list changed: a new version ...
    assert keys(notifier, "channel") == ["result.official"]  # ... but nothing to announce


async def test_a_changed_result_is_announced_as_corrected(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388, minutes=(2, 20), game_id="g1")
    clock.set(START + timedelta(minutes=25))
    await app.run(refresh(table.id))
    # a rematch before the limit: the last game counts (e-SP 4.5)
    await add_game(app, table, 300, 450, minutes=(22, 45), game_id="g2")
    clock.set(START + timedelta(minutes=46))
    corrected = await app.run(refresh(table.id))
    assert (corrected.first_score, corrected.second_score) == (300, 450)
    assert keys(notifier, "channel") == ["result.official", "result.corrected"]


# -- the round's confirmation is announced once ---------------------------------------------


async def test_confirming_again_announces_only_news(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=55))  # table 2: nothing recorded, still open
    still_open = await app.run(confirm(world))
    assert [r.pairing_id for r in still_open] == [world.tables[1].id]
    assert keys(notifier, "channel").count("result.round_confirmed") == 1
    again = await app.run(confirm(world))  # e.g. the timer, then the admin finishing
    assert [r.pairing_id for r in again] == [world.tables[1].id]  # the admin is still told
    assert keys(notifier, "channel").count("result.round_confirmed") == 1

    # the open table gets its result later (announced as a result): confirming it does not
    # announce the window's end again (issue 44: it was said twice)
    await add_game(app, world.tables[1], 350, 360, game_id="g2")
    assert await app.run(confirm(world)) == []
    assert keys(notifier, "channel").count("result.round_confirmed") == 1
    status = (await app.store.read(get_result, world.tables[1].id)).status
    assert status is ResultStatus.CONFIRMED
    await app.run(confirm(world))
    assert keys(notifier, "channel").count("result.round_confirmed") == 1


async def test_a_round_with_everything_open_is_announced_once(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    clock.set(START + timedelta(minutes=5))  # nothing recorded yet at either table
    assert len(await app.run(confirm(world))) == 2
    assert len(await app.run(confirm(world))) == 2
    texts = [text for _, key, text in sent(notifier, "channel")
             if key == "result.round_confirmed"]
    assert len(texts) == 1
    assert "administrátora (ich výsledok oznámim, keď rozhodne): 2." in texts[0]


async def test_a_bye_is_announced_as_a_bye(app: App, notifier: RecordingNotifier) -> None:
    world = await make_world(app, players=5)
    bye = next(p for p in world.tables if p.second_id is None)
    notifier.sent.clear()
    await app.run(refresh(bye.id))
    [(_, key, text)] = [m for m in sent(notifier, "channel") if "voľno" in m[2]]
    assert key == "result.bye"
    assert "— voľno, 1 bod, 20:0 (e-SP 4.9)" in text and " – —" not in text


async def test_a_proposal_that_stays_the_same_reaches_the_admin_once(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    await add_game(app, table, 300, 280, end="unfinished")
    clock.set(START + timedelta(minutes=50))  # the limit: still being played
    first = await app.run(refresh(table.id))
    assert (first.status, first.end_kind) == (ResultStatus.PROPOSED, "over_limit")
    clock.set(START + timedelta(minutes=55))  # the record of its end, after the limit
    await add_game(app, table, 380, 350, minutes=(5, 53))
    second = await app.run(refresh(table.id))
    assert (second.end_kind, second.first_score) == ("over_limit", 0)
    assert second.version > first.version  # the evidence changed ...
    assert keys(notifier, "admin") == ["result.proposal"]  # ... the proposal did not
