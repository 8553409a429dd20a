"""The result lifecycle on a real store: pending → proposed → provisional → confirmed,
disputes, discrepancies, exclusions and the audit trail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import (
    add_ruling,
    apply_proposal,
    confirm_round,
    dispute_deadline,
    refresh_pairing,
    refresh_round,
    round_clock,
)
from bot.store import (
    EvidenceKind,
    ResultStatus,
    StoredResult,
    SyncKind,
    SyncOutcome,
    append_evidence,
    finish_sync_run,
    get_entry,
    get_result,
    get_round,
    list_audit,
    list_discrepancies,
    list_entries,
    replace_pairings,
    result_history,
    start_sync_run,
    update_round,
)
from rules import Case, End

from .conftest import ADMIN_ID, NAMES, START, World, add_game, make_world, sent


async def run(app: App, fn: Callable[..., Any], *args: Any) -> Any:
    return await app.run(fn, *args)


def evidence(pairing_id: int, kind: EvidenceKind, player_id: int,
             payload: dict[str, Any] | None = None) -> Callable[[Tx], None]:
    def body(tx: Tx) -> None:
        append_evidence(tx.db, pairing_id, kind, tx.by_player(player_id), payload=payload)
    return body


def refresh(pairing_id: int) -> Callable[[Tx], StoredResult | None]:
    return lambda tx: refresh_pairing(tx, pairing_id, tx.by_scheduler("test"))


def confirm(world: World, round_no: int = 1) -> Callable[[Tx], list[StoredResult]]:
    return lambda tx: confirm_round(tx, world.tournament.id, round_no,
                                    tx.by_scheduler("next round paired"))


def approve(pairing_id: int) -> Callable[[Tx], StoredResult | None]:
    return lambda tx: apply_proposal(tx, pairing_id, "schválené",
                                     tx.by_admin(ADMIN_ID, "schválené"))


async def test_round_clock_caps_the_waiting_period_at_the_limit(app: App, world: World) -> None:
    def body(tx: Tx) -> Any:
        rnd = get_round(tx.db, world.tournament.id, 1)
        profile = tx.profile("sss-online")
        normal = round_clock(world.tournament, rnd, profile)
        long_wait = round_clock(replace(world.tournament, waiting_minutes=90), rnd, profile)
        return normal, long_wait

    normal, long_wait = await run(app, body)
    assert normal.waiting_ends == START + timedelta(minutes=10)
    assert normal.limit == START + timedelta(minutes=50)
    assert long_wait.waiting_ends == long_wait.limit


async def test_no_show_goes_pending_proposed_provisional_confirmed(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    present, absent = world.players[0].id, world.players[1].id
    clock.advance(timedelta(minutes=2))
    await run(app, evidence(table.id, EvidenceKind.ABSENCE, present))
    pending = await run(app, refresh(table.id))
    assert pending.status is ResultStatus.PENDING
    assert pending.verdict["code"] == "waiting_period"

    clock.set(START + timedelta(minutes=11))
    proposed = await run(app, refresh(table.id))
    assert proposed.status is ResultStatus.PROPOSED
    assert proposed.verdict["kind"] == "proposal"
    assert proposed.end_kind == End.NO_SHOW
    assert (proposed.first_score, proposed.second_score) == (100, 0)
    assert proposed.forfeited == [str(absent)]
    assert "e-SP 4.3" in proposed.rule
    again = await run(app, refresh(table.id))
    assert again.version == proposed.version  # nothing new: no new version
    assert [k for _, k, _ in sent(notifier, "admin")] == ["result.proposal"]

    provisional = await run(app, approve(table.id))
    assert provisional.status is ResultStatus.PROVISIONAL
    assert provisional.verdict["code"] == "ruling"
    assert provisional.end_kind == End.NO_SHOW
    assert "result.ruling" in [k for _, k, _ in sent(notifier, "channel")]

    still_open = await run(app, confirm(world))
    assert [r.pairing_id for r in still_open] == [world.tables[1].id]  # nobody reported there
    confirmed = await app.store.read(get_result, table.id)
    assert confirmed.status is ResultStatus.CONFIRMED
    history = await app.store.read(result_history, table.id)
    assert [v.status for v in history] == [ResultStatus.PENDING, ResultStatus.PROPOSED,
                                           ResultStatus.PROVISIONAL, ResultStatus.CONFIRMED]


async def test_a_finished_game_is_announced_with_its_rule(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=45))
    result = await run(app, refresh(world.tables[0].id))
    assert result.status is ResultStatus.PROVISIONAL
    assert (result.first_points, result.second_points) == (1.0, 0.0)
    assert result.rule == "e-SP 3.5"
    ((_, key, text),) = sent(notifier, "channel")
    assert key == "result.official"
    assert "412:388" in text and "e-SP 3.5" in text and "Ďuro Ďurkovič" in text


async def test_points_follow_the_pairing_when_the_other_player_started(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 300, 420, swap=True)  # herna let the second player start
    clock.set(START + timedelta(minutes=45))
    conflict = await run(app, refresh(table.id))
    assert conflict.verdict["code"] == "wrong_starter_played"
    ruled = await run(app, lambda tx: add_ruling(
        tx, table.id, Case(End.FINISHED, str(table.second_id), str(table.first_id), 300, 420,
                           moved=frozenset({str(table.first_id), str(table.second_id)})),
        "partia platí, začal nesprávny hráč omylom", tx.by_admin(ADMIN_ID, "test")))
    assert ruled.kind is EvidenceKind.RULING
    result = await run(app, refresh(table.id))
    # the pairing's first player scored 420 and won, whoever herna let start
    assert (result.first_score, result.second_score) == (420, 300)
    assert (result.first_points, result.second_points) == (1.0, 0.0)


async def test_a_confirmed_result_never_changes_and_a_disagreement_is_reported_once(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    await add_game(app, table, 400, 300)
    clock.set(START + timedelta(minutes=55))
    await run(app, refresh(table.id))
    await run(app, confirm(world))
    confirmed = await app.store.read(get_result, table.id)
    assert confirmed.status is ResultStatus.CONFIRMED
    # a record that arrives late shows a later game in time: it would count (e-SP 4.5)
    await add_game(app, table, 300, 410, game_id="g2", minutes=(41, 48))
    after = await run(app, refresh(table.id))
    assert after == confirmed
    (found,) = await app.store.read(list_discrepancies, world.tournament.id)
    assert found.recomputed["scores"] == [300, 410]
    await run(app, refresh(table.id))
    assert len(await app.store.read(list_discrepancies, world.tournament.id)) == 1
    admin_keys = [k for _, k, _ in sent(notifier, "admin")]
    assert admin_keys.count("result.discrepancy") == 1


async def test_a_disputed_result_waits_for_a_ruling(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 400, 300)
    clock.set(START + timedelta(minutes=55))
    provisional = await run(app, refresh(table.id))

    def dispute(tx: Tx) -> StoredResult:
        from bot.services.results.lifecycle import stored_fields
        from bot.store import put_result
        append_evidence(tx.db, table.id, EvidenceKind.DISPUTE, tx.by_player(table.second_id),
                        payload={"text": "skóre bolo 300:400"})
        return put_result(tx.db, table.id, stored_fields(provisional, ResultStatus.DISPUTED),
                          provisional.version, tx.by_player(table.second_id))

    disputed = await run(app, dispute)
    await add_game(app, table, 399, 300, game_id="g1")  # even a changed record waits
    assert await run(app, refresh(table.id)) == disputed
    case = Case(End.FINISHED, str(table.first_id), str(table.second_id), 300, 400,
                moved=frozenset({str(table.first_id), str(table.second_id)}))
    await run(app, lambda tx: add_ruling(tx, table.id, case, "snímka obrazovky potvrdila 300:400",
                                         tx.by_admin(ADMIN_ID, "dispute")))
    ruled = await run(app, refresh(table.id))
    assert ruled.status is ResultStatus.PROVISIONAL
    assert (ruled.first_points, ruled.second_points) == (0.0, 1.0)
    assert "snímka obrazovky" in ruled.verdict["text"]


async def test_second_no_move_forfeit_excludes_the_player(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    t = world.tournament
    a, b, c, d = (p.id for p in world.players)
    # round 1: b does not come against a
    clock.set(START + timedelta(minutes=2))
    await run(app, evidence(world.tables[0].id, EvidenceKind.ABSENCE, a))
    clock.set(START + timedelta(minutes=55))
    await run(app, refresh(world.tables[0].id))
    await run(app, approve(world.tables[0].id))
    await add_game(app, world.tables[1], 350, 360)
    await run(app, confirm(world, 1))
    assert len(await app.store.read(list_entries, t.id, active_only=True)) == 4

    # round 2: b does not come against c either
    def pair_round_2(tx: Tx) -> list[Any]:
        by = tx.by_admin(ADMIN_ID, "round 2")
        tables = replace_pairings(tx.db, t.id, 2, [(1, c, b), (2, d, a)], by)
        update_round(tx.db, t.id, 2, by, published_at=tx.now)
        return tables

    tables = await run(app, pair_round_2)
    start2 = START + timedelta(hours=2)
    clock.set(start2 + timedelta(minutes=3))
    await run(app, evidence(tables[0].id, EvidenceKind.ABSENCE, c))
    clock.set(start2 + timedelta(minutes=55))
    await add_game(app, tables[1], 380, 370, round_start=start2)
    await run(app, refresh(tables[0].id))
    await run(app, approve(tables[0].id))
    await run(app, confirm(world, 2))

    active = {e.player_id for e in await app.store.read(list_entries, t.id, active_only=True)}
    assert active == {a, c, d}
    excluded = [(target, text) for target, key, text in sent(notifier)
                if key in ("result.excluded", "result.excluded_dm")]
    assert (t.id, excluded[0][1]) == excluded[0] and "e-SP 3.6" in excluded[0][1]
    assert excluded[1][0] == b and "Slovenského pohára" in excluded[1][1]
    # the reason names the opponents, not their store ids (the admin, the channel, the DM)
    reason = (await app.store.read(get_entry, t.id, b)).excluded_reason
    assert f"súper {NAMES[0]}" in reason and f"súper {NAMES[2]}" in reason
    assert all(f"súper {NAMES[0]}" in text for _, text in excluded)
    # confirming again excludes nobody twice
    await run(app, confirm(world, 2))
    assert [k for _, k, _ in sent(notifier)].count("result.excluded") == 1


async def test_the_audit_log_explains_a_result(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    clock.set(START + timedelta(minutes=2))
    await run(app, evidence(table.id, EvidenceKind.ABSENCE, world.players[0].id))
    clock.set(START + timedelta(minutes=12))
    await run(app, refresh(table.id))
    await run(app, approve(table.id))
    audit = await app.store.read(list_audit, tournament_id=world.tournament.id)
    mine = [e for e in audit if e.subject == f"pairing:{table.id}"]
    actions = [e.action for e in mine]
    assert actions == ["evidence.absence", "result.put", "evidence.ruling", "result.put"]
    ruling = mine[2]
    assert (ruling.actor_kind, ruling.actor_id, ruling.reason) == ("admin", str(ADMIN_ID),
                                                                    "schválené")
    assert mine[1].data["status"] == "proposed" and mine[3].data["status"] == "provisional"


async def test_unreadable_evidence_goes_to_the_admin_instead_of_failing(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]

    def broken(tx: Tx) -> None:
        append_evidence(tx.db, table.id, EvidenceKind.PLATFORM_GAME, tx.by_platform(),
                        payload={"game_id": "x"})

    await run(app, broken)
    result = await run(app, refresh(table.id))
    assert result.status is ResultStatus.PROPOSED
    assert result.verdict["code"] == "bad_evidence"
    assert "no_show" in result.verdict["allowed"] and "bye" not in result.verdict["allowed"]


async def test_no_record_waits_for_a_sync_past_the_deadline(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app, settings={"platform_sync": True})
    table = world.tables[0]
    clock.set(START + timedelta(minutes=2))
    await run(app, evidence(table.id, EvidenceKind.ABSENCE, world.players[0].id))
    clock.set(START + timedelta(minutes=12))
    waiting = await run(app, refresh(table.id))
    assert (waiting.status, waiting.verdict["code"]) == (ResultStatus.PENDING, "awaiting_sync")

    def synced(tx: Tx) -> None:
        run_row = start_sync_run(tx.db, SyncKind.ROUND, tx.by_scheduler(),
                                 tournament_id=world.tournament.id)
        finish_sync_run(tx.db, run_row.id, SyncOutcome.OK, tx.by_scheduler())

    await run(app, synced)
    proposed = await run(app, refresh(table.id))
    assert proposed.end_kind == End.NO_SHOW


async def test_refresh_round_and_the_dispute_deadline(
        app: App, world: World, clock: ManualClock) -> None:
    clock.set(START + timedelta(minutes=51))
    results = await run(app, lambda tx: refresh_round(tx, world.tournament.id, 1,
                                                      tx.by_scheduler("limit")))
    # nobody did anything at either table: both forfeited, proposed to the admin (e-SP 4.9)
    assert [r.end_kind for r in results] == [End.BOTH_NO_SHOW, End.BOTH_NO_SHOW]
    assert {r.status for r in results} == {ResultStatus.PROPOSED}

    def deadlines(tx: Tx) -> tuple[Any, Any]:
        t, profile = world.tournament, tx.profile("sss-online")
        first = dispute_deadline(tx.db, t, get_round(tx.db, t.id, 1), profile)
        last = dispute_deadline(tx.db, t, get_round(tx.db, t.id, 3), profile)
        return first, last

    first, last = await run(app, deadlines)
    assert first is None  # round 2 not paired yet: the window is open
    assert last == START + timedelta(hours=4, minutes=60)
