"""The head administrator's use cases and the review queue."""

from __future__ import annotations

from datetime import timedelta

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import confirm_round, refresh_pairing, refresh_round
from bot.services.tournament import admin, play
from bot.store import ResultStatus, get_entry, get_result, list_audit, list_discrepancies
from rules import Case, End

from .conftest import ADMIN_ID, START, World, add_game, said, sent


async def no_show_proposal(app: App, world: World, clock: ManualClock) -> int:
    """Player 0 reports player 1 absent; after the waiting period it is proposed."""
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    clock.set(START + timedelta(minutes=12))
    table = world.tables[0].id
    await app.run(lambda tx: refresh_pairing(tx, table, tx.by_scheduler("waiting end")))
    return table


async def test_review_queue_shows_evidence_side_by_side(
        app: App, world: World, clock: ManualClock) -> None:
    table = await no_show_proposal(app, world, clock)
    await add_game(app, world.tables[1], 400, 300)
    clock.set(START + timedelta(minutes=45))
    await play.report_result(app, world.slug, world.discord(3), 400, 300)  # contradicts
    await app.run(lambda tx: refresh_pairing(tx, world.tables[1].id, tx.by_scheduler()))
    reply = await admin.review_queue(app, world.slug, ADMIN_ID)
    assert reply.ok and reply.params["n"] == 2
    first, second = reply.data["results"]
    assert first["pairing_id"] == table and first["verdict"]["kind"] == "proposal"
    assert [e["kind"] for e in first["timeline"]] == ["absence"]
    assert first["timeline"][0]["by"] == world.players[0].name
    # whose each piece is, by store id (names may repeat): the chat sorts reports per player
    assert first["timeline"][0]["actor_id"] == str(world.players[0].id)
    assert second["reports"][0]["actor_id"] == str(world.players[3].id)
    assert first["allowed"][0] == End.NO_SHOW
    assert second["verdict"]["code"] == "report_conflicts_record"
    assert len(second["platform"]) == 1 and len(second["reports"]) == 1
    assert End.NO_SHOW not in second["allowed"]  # a record proves both sat down (e-SP 4.2)
    said(reply)


async def test_approve_makes_the_proposal_provisional(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = await no_show_proposal(app, world, clock)
    reply = await admin.approve(app, world.slug, ADMIN_ID, table)
    assert reply.ok and reply.rule == "e-SP 4.9"
    result = await app.store.read(get_result, table)
    assert (result.status, result.end_kind) == (ResultStatus.PROVISIONAL, End.NO_SHOW)
    assert "result.ruling" in notifier.keys("channel")
    again = await admin.approve(app, world.slug, ADMIN_ID, table)
    assert (again.ok, again.key) == (False, "admin.nothing_to_approve")
    said(reply), said(again)


async def test_only_the_head_admin_may_act(app: App, world: World, clock: ManualClock) -> None:
    table = await no_show_proposal(app, world, clock)
    reply = await admin.approve(app, world.slug, world.discord(0), table)
    assert (reply.ok, reply.key, reply.rule) == (False, "policy.not_admin", "e-SP 2.5")
    unknown = await admin.approve(app, world.slug, ADMIN_ID, 9999)
    assert unknown.key == "admin.unknown_pairing"


async def test_rule_a_conflict_with_an_allowed_end(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388)
    clock.set(START + timedelta(minutes=45))
    await play.report_result(app, world.slug, world.discord(1), 420, 388)
    no_reason = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                                 (End.FINISHED, {"first_score": 412, "second_score": 388}), " ")
    assert (no_reason.key, no_reason.rule) == ("admin.reason_required", "e-SP 2.6")
    not_allowed = await admin.rule(app, world.slug, ADMIN_ID, table.id, (End.NO_SHOW, {
        "loser": table.second_id}), "neprišiel")
    assert not_allowed.key == "admin.ruling_not_allowed" and "finished" in said(not_allowed)
    bad = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                           (End.TIME_LOSS, {"loser": 12345}), "čas")
    # the case check's refusal is a catalogue message of its own, citing the rule
    assert (bad.key, bad.rule) == ("case.loser_stranger", "e-SP 4.9")
    assert said(bad).startswith("Takéto rozhodnutie nemožno zapísať: hráč 12345 (--loser)")
    unknown = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                               (End.FINISHED, {"score": 1}), "x")
    assert unknown.key == "admin.bad_case" and "score" in said(unknown)
    # a ruled score obeys the profile's bound like herna.net's records (plausible.max_score)
    too_high = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                                (End.FINISHED, {"first_score": 1600, "second_score": 300,
                                                "moved": [table.first_id, table.second_id]}),
                                "preklep")
    assert (too_high.key, too_high.params) == ("play.score_out_of_range",
                                               {"value": 1600, "max": 1500})
    reply = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                             (End.FINISHED, {"first_score": 412, "second_score": 388,
                                             "moved": [table.first_id, table.second_id]}),
                             "záznam herna.net platí, hlásenie bolo preklep")
    assert reply.ok and reply.key == "admin.ruled"
    result = await app.store.read(get_result, table.id)
    assert result.status is ResultStatus.PROVISIONAL and result.rated
    announced = [text for _, key, text in sent(notifier, "channel") if key == "result.ruling"]
    assert announced and "preklep" in announced[0]
    audit = await app.store.read(list_audit, action="evidence.ruling")
    assert audit[0].reason == "záznam herna.net platí, hlásenie bolo preklep"
    # the same ruling again (a retry): the same answer, no second ruling, said once
    again = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                             (End.FINISHED, {"first_score": 412, "second_score": 388,
                                             "moved": [table.first_id, table.second_id]}),
                             "záznam herna.net platí, hlásenie bolo preklep")
    assert again == reply
    assert len(await app.store.read(list_audit, action="evidence.ruling")) == 1
    assert [key for _, key, _ in sent(notifier, "channel")].count("result.ruling") == 1


async def test_a_ruling_resolves_a_dispute(app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388)
    clock.set(START + timedelta(minutes=45))
    await app.run(lambda tx: refresh_pairing(tx, table.id, tx.by_scheduler()))
    await play.dispute(app, world.slug, world.discord(1), "súper sa odpojil, nie koniec hry")
    queue = await admin.review_queue(app, world.slug, ADMIN_ID)
    assert [i["status"] for i in queue.data["results"]] == ["disputed"]
    case = Case(End.DISCONNECTED, str(table.first_id), str(table.second_id), 412, 388,
                loser=str(table.first_id))
    reply = await admin.rule(app, world.slug, ADMIN_ID, table.id, case, "odpojenie potvrdené")
    assert reply.ok
    result = await app.store.read(get_result, table.id)
    assert result.status is ResultStatus.PROVISIONAL
    assert (result.first_points, result.second_points) == (0.0, 1.0)
    assert result.second_score == 462  # raised to win by 50 (e-SP 4.8)


async def test_a_confirmed_result_cannot_be_ruled(app: App, world: World,
                                                  clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388)
    clock.set(START + timedelta(minutes=55))
    await app.run(lambda tx: confirm_round(tx, world.tournament.id, 1, tx.by_scheduler()))
    reply = await admin.rule(app, world.slug, ADMIN_ID, table.id,
                             (End.OVER_LIMIT, {}), "neskoro")
    assert (reply.key, reply.rule) == ("admin.confirmed", "e-SP 4.7")


async def test_exclude_and_reinstate(app: App, world: World,
                                     notifier: RecordingNotifier) -> None:
    player = world.players[3].id
    no_reason = await admin.exclude(app, world.slug, ADMIN_ID, player, "")
    assert no_reason.key == "admin.reason_required"
    reply = await admin.exclude(app, world.slug, ADMIN_ID, player, "nešportové správanie")
    assert reply.ok and reply.rule == "e-SP 3.6"
    entry = await app.store.read(get_entry, world.tournament.id, player)
    assert entry.excluded_reason == "nešportové správanie"
    assert ("dm", player, "result.excluded_dm") in [(w, t, m.key) for w, t, m in notifier.sent]
    repeat = await admin.exclude(app, world.slug, ADMIN_ID, player, "nešportové správanie")
    assert repeat == reply  # a retry: the same answer, announced once
    assert [m.key for _, _, m in notifier.sent].count("result.excluded") == 1
    twice = await admin.exclude(app, world.slug, ADMIN_ID, player, "znova")
    assert twice.key == "admin.already_out"
    back = await admin.reinstate(app, world.slug, ADMIN_ID, player, "omyl, vylúčenie zrušené")
    assert back.ok
    entry = await app.store.read(get_entry, world.tournament.id, player)
    assert entry.out is None
    repeat = await admin.reinstate(app, world.slug, ADMIN_ID, player, "omyl, vylúčenie zrušené")
    assert repeat == back
    again = await admin.reinstate(app, world.slug, ADMIN_ID, player, "znova")
    assert again.key == "admin.not_out"
    stranger = await admin.exclude(app, world.slug, ADMIN_ID, 4242, "x")
    assert stranger.key == "admin.unknown_player"
    reinstated = await app.store.read(list_audit, action="entry.reinstate")
    assert [a.reason for a in reinstated] == ["omyl, vylúčenie zrušené"]


async def test_resolve_a_discrepancy(app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 400, 300)
    clock.set(START + timedelta(minutes=55))
    await app.run(lambda tx: confirm_round(tx, world.tournament.id, 1, tx.by_scheduler()))
    await add_game(app, table, 300, 410, game_id="g2", minutes=(41, 48))

    def recompute(tx: Tx) -> None:
        refresh_round(tx, world.tournament.id, 1, tx.by_scheduler())

    await app.run(recompute)
    queue = await admin.review_queue(app, world.slug, ADMIN_ID)
    (item,) = queue.data["discrepancies"]
    assert item["recomputed"]["scores"] == [300, 410] and item["status"] == "confirmed"
    reply = await admin.resolve_discrepancy(app, world.slug, ADMIN_ID, item["discrepancy_id"],
                                            "potvrdený výsledok platí (e-SP 4.7)")
    assert reply.ok
    assert await app.store.read(list_discrepancies, world.tournament.id) == []
    twice = await admin.resolve_discrepancy(app, world.slug, ADMIN_ID,
                                            item["discrepancy_id"], "znova")
    assert twice.key == "admin.discrepancy_resolved"
    unknown = await admin.resolve_discrepancy(app, world.slug, ADMIN_ID, 777, "x")
    assert unknown.key == "admin.unknown_discrepancy"
