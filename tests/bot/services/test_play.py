"""The players' use cases: each happy path and each refusal, with the rule it cites."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import refresh_pairing
from bot.services.tournament import play
from bot.store import (
    EvidenceKind,
    ResultStatus,
    TournamentStatus,
    add_entry,
    create_player,
    get_entry,
    get_result,
    list_evidence,
    pairings_of_round,
    replace_pairings,
    update_player,
    update_round,
    withdraw,
)
from rules import End

from .conftest import ADMIN_ID, START, World, add_game, make_world, said, sent


async def unlinked(app: App, world: World, nick: str, entered: bool = True,
                   discord_name: str | None = None) -> int:
    def body(tx: Tx) -> int:
        player = create_player(tx.db, name="Mária Nováková", herna_nick=nick,
                               by=tx.by_admin(ADMIN_ID), discord_name=discord_name)
        if entered:
            add_entry(tx.db, world.tournament.id, player.id, tx.by_admin(ADMIN_ID))
        return player.id

    return await app.run(body)


# -- register ---------------------------------------------------------------------------


async def test_register_links_my_discord_account(app: App, world: World) -> None:
    await unlinked(app, world, "Majka", discord_name="Majka#1")  # as the registry has it
    reply = await play.register(app, world.slug, 5555, "majka#1", " majka ")
    assert reply.ok and reply.key == "play.registered"
    assert "Majka" in said(reply)
    again = await play.register(app, world.slug, 5555, "majka#1", "Majka")
    assert again.ok and again.key == "play.register_already"


@pytest.mark.parametrize(("discord_id", "nick", "key"), [
    (5555, "nikto", "play.register_unknown_nick"),
    (5555, "Cudzinec", "play.register_unknown_nick"),  # a player, but not in this tournament
    (1001, "Majka", "play.register_other_nick"),  # I am linked to my own nick already
    (5555, "kt-test-hrac2", "play.register_taken"),  # the nick is someone else's account
])
async def test_register_refusals(app: App, world: World, discord_id: int, nick: str,
                                 key: str) -> None:
    await unlinked(app, world, "Majka")
    if nick == "Cudzinec":
        await unlinked(app, world, "Cudzinec", entered=False)
    reply = await play.register(app, world.slug, discord_id, "x", nick)
    assert (reply.ok, reply.key) == (False, key)
    said(reply)


# -- check-in ---------------------------------------------------------------------------


async def test_check_in_only_within_the_window(app: App, clock: ManualClock) -> None:
    opens, closes = START - timedelta(hours=1), START - timedelta(minutes=15)
    world = await make_world(app, status=TournamentStatus.CHECKIN, checkin_opens_at=opens,
                             checkin_closes_at=closes)
    late = await play.check_in(app, world.slug, world.discord(0))  # the clock is at START
    assert (late.ok, late.key) == (False, "play.checkin_closed")
    assert "od 1. 3. 2025 9:00 do 9:45" in said(late)  # Bratislava time
    assert late.params["closes"] == closes


async def test_check_in_happy_path_and_once(app: App) -> None:
    world = await make_world(app, status=TournamentStatus.CHECKIN,
                             checkin_opens_at=START - timedelta(minutes=30),
                             checkin_closes_at=START + timedelta(minutes=30))
    reply = await play.check_in(app, world.slug, world.discord(1))
    assert reply.ok and reply.key == "play.checked_in"
    entry = await app.store.read(get_entry, world.tournament.id, world.players[1].id)
    assert entry.checked_in_at == START
    again = await play.check_in(app, world.slug, world.discord(1))
    assert again.key == "play.checked_in_already"


async def test_check_in_refused_without_a_window_or_when_not_in_checkin(
        app: App, world: World) -> None:
    reply = await play.check_in(app, world.slug, world.discord(0))
    assert (reply.ok, reply.key) == (False, "play.checkin_not_set")
    stranger = await play.check_in(app, world.slug, 424242)
    assert (stranger.ok, stranger.key) == (False, "common.not_linked")
    said(reply)


# -- the seat: who asks and where he sits (one query, refused in this order) --------------


async def test_seat_refusals_in_order_not_linked_not_entered_out_no_round_not_paired(
        app: App) -> None:
    world = await make_world(app, published=False, players=5)  # 5: the last one has a bye
    status = play.status

    async def key(discord_id: int) -> str:
        reply = await status(app, world.slug, discord_id)
        said(reply)
        return reply.key

    assert await key(424242) == "common.not_linked"
    outsider = await unlinked(app, world, "Cudzinec", entered=False)
    await app.run(lambda tx: update_player(tx.db, outsider, tx.by_admin(ADMIN_ID),
                                           discord_id=5555))
    assert await key(5555) == "common.not_entered"  # linked, in no tournament: before no round
    assert await key(world.discord(0)) == "common.no_round"  # round 1 not published yet
    await app.run(lambda tx: update_round(tx.db, world.tournament.id, 1,
                                          tx.by_admin(ADMIN_ID), published_at=tx.now))
    late = await unlinked(app, world, "Neskorý")  # entered after the pairing: no table
    await app.run(lambda tx: update_player(tx.db, late, tx.by_admin(ADMIN_ID),
                                           discord_id=6666))
    assert await key(6666) == "common.not_paired"
    await app.run(lambda tx: withdraw(tx.db, world.tournament.id, world.players[2].id,
                                      "odstúpil", tx.by_admin(ADMIN_ID)))
    assert await key(world.discord(2)) == "common.out"  # out comes before his table
    assert await key(world.discord(0)) == "play.status"
    assert await key(world.discord(4)) == "play.status_bye"
    bye = await play.report_result(app, world.slug, world.discord(4), 400, 300)
    assert (bye.ok, bye.key) == (False, "play.bye")


# -- status -----------------------------------------------------------------------------


async def test_status_shows_opponent_starter_times_and_the_record(
        app: App, world: World, clock: ManualClock) -> None:
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=45))
    await play.report_result(app, world.slug, world.discord(1), "388", "412")
    reply = await play.status(app, world.slug, world.discord(1))
    assert reply.ok and reply.key == "play.status"
    data = reply.data
    assert data["opponent"] == {"name": world.players[0].name,
                                "nick": world.players[0].herna_nick,
                                "discord_id": world.discord(0)}
    assert data["who_starts"] == world.players[0].name and data["i_start"] is False
    assert data["limit"] == START + timedelta(minutes=50) and data["waiting_over"]
    assert data["result"]["status"] == ResultStatus.PROVISIONAL
    assert [e["kind"] for e in data["evidence"]] == ["platform_game", "score_report"]
    assert "Partia riadne skončila" in said(reply)


async def test_status_for_a_bye(app: App) -> None:
    world = await make_world(app, players=5)
    reply = await play.status(app, world.slug, world.discord(4))
    assert reply.key == "play.status_bye" and reply.rule == "e-SP 4.9"
    said(reply)


# -- absence and arrival ----------------------------------------------------------------


async def test_report_absence_pings_the_opponent(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    clock.set(START + timedelta(minutes=2))
    reply = await play.report_absence(app, world.slug, world.discord(0))
    assert reply.ok and reply.rule == "e-SP 4.3"
    assert reply.params["waiting_ends"] == START + timedelta(minutes=10)
    ((target, key, text),) = sent(notifier, "dm")
    assert (target, key) == (world.players[1].id, "play.absence_ping")
    assert "0:100" in text and "e-SP 4.3" in text
    again = await play.report_absence(app, world.slug, world.discord(0))  # a retry
    assert again == reply  # answers as the first did …
    assert len(sent(notifier, "dm")) == 1  # … and the opponent is not pinged twice


async def test_report_absence_refusals(app: App, clock: ManualClock) -> None:
    world = await make_world(app, players=5)
    before = await play.report_absence(app, world.slug, world.discord(0))
    assert before.ok  # at the official start it is allowed
    bye = await play.report_absence(app, world.slug, world.discord(4))
    assert (bye.key, bye.rule) == ("play.bye", "e-SP 4.9")
    await play.arrive(app, world.slug, world.discord(3))
    here = await play.report_absence(app, world.slug, world.discord(2))
    assert (here.key, here.rule) == ("play.absence_opponent_here", "e-SP 4.3")
    clock.set(START + timedelta(minutes=51))
    late = await play.report_absence(app, world.slug, world.discord(2))
    assert (late.key, late.rule) == ("play.after_limit", "e-SP 4.3")
    for reply in (bye, here, late):
        said(reply)


async def test_absence_refused_before_the_start_or_when_a_game_exists(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app)
    await add_game(app, world.tables[0], 10, 0, end="unfinished")
    clock.set(START + timedelta(minutes=6))
    game = await play.report_absence(app, world.slug, world.discord(0))
    assert game.key == "play.absence_game_exists"

    early_app_world = await make_world(app, slug="kt-skoro")
    # move round 1 of the second tournament later than the clock
    from bot.store import update_round

    def later(tx: Tx) -> None:
        update_round(tx.db, early_app_world.tournament.id, 1, tx.by_admin(ADMIN_ID),
                     starts_at=START + timedelta(minutes=30),
                     limit_at=START + timedelta(minutes=80))

    await app.run(later)
    early = await play.report_absence(app, "kt-skoro", early_app_world.discord(0))
    assert (early.key, early.rule) == ("play.before_start", "e-SP 4.5")


async def test_arrival_ends_the_waiting_period_and_pings_the_reporter(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    clock.set(START + timedelta(minutes=8))
    reply = await play.arrive(app, world.slug, world.discord(1))
    assert reply.key == "play.arrived"
    assert ("dm", world.players[0].id, "play.arrived_ping") in [
        (w, target, m.key) for w, target, m in notifier.sent]
    clock.set(START + timedelta(minutes=20))
    result = await app.store.read(get_result, world.tables[0].id)
    assert result.status is ResultStatus.PENDING  # no no-show: he came in time
    late = await play.arrive(app, world.slug, world.discord(3))
    assert late.key == "play.arrived_late"
    said(late)


# -- agreed draw ------------------------------------------------------------------------


async def test_agreed_draw_confirmed_by_both_before_the_limit(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    table = world.tables[0]
    clock.set(START + timedelta(minutes=30))
    nothing = await play.confirm_draw(app, world.slug, world.discord(1))
    assert (nothing.key, nothing.rule) == ("play.draw_nothing_to_confirm", "e-SP 3.5")
    proposed = await play.propose_draw(app, world.slug, world.discord(0))
    assert proposed.key == "play.draw_proposed" and "300:300" in said(proposed)
    assert sent(notifier, "dm")[-1][1] == "play.draw_proposed_dm"
    twice = await play.propose_draw(app, world.slug, world.discord(0))  # a double click
    assert twice == proposed
    assert [key for _, key, _ in sent(notifier, "dm")].count("play.draw_proposed_dm") == 1
    confirmed = await play.confirm_draw(app, world.slug, world.discord(1))
    assert confirmed.ok and confirmed.key == "play.draw_confirmed"
    await add_game(app, table, 420, 300, end="draw", minutes=(5, 29))
    clock.set(START + timedelta(minutes=31))
    await app.run(lambda tx: refresh_pairing(tx, table.id, tx.by_platform()))  # as the sync does
    result = await play.status(app, world.slug, world.discord(0))
    assert result.data["result"]["end"] == End.AGREED_DRAW
    assert result.data["result"]["scores"] == [300, 300]
    assert result.data["result"]["points"] == [0.5, 0.5]


async def test_draw_after_the_limit_is_refused(app: App, world: World,
                                               clock: ManualClock) -> None:
    clock.set(START + timedelta(minutes=50, seconds=1))
    reply = await play.propose_draw(app, world.slug, world.discord(0))
    assert (reply.ok, reply.key, reply.rule) == (False, "play.after_limit", "e-SP 3.5")


# -- result report ----------------------------------------------------------------------


@pytest.mark.parametrize(("own", "opponent", "key"), [
    ("štyristo", "300", "play.score_not_number"),
    ("", "300", "play.score_not_number"),
    ("-5", "300", "play.score_out_of_range"),
    (-5, 300, "play.score_out_of_range"),
    ("1501", "300", "play.score_out_of_range"),
])
async def test_report_result_refuses_bad_scores(app: App, world: World, own: object,
                                                opponent: object, key: str) -> None:
    reply = await play.report_result(app, world.slug, world.discord(0), own, opponent)  # type: ignore[arg-type]
    assert (reply.ok, reply.key) == (False, key)
    said(reply)
    assert await app.store.read(list_evidence, world.tables[0].id) == []  # nothing recorded


async def test_report_result_in_a_bye_round_is_refused(app: App) -> None:
    world = await make_world(app, players=3)
    reply = await play.report_result(app, world.slug, world.discord(2), 100, 0)
    assert (reply.key, reply.rule) == ("play.bye", "e-SP 4.9")


async def test_a_report_contradicting_the_record_goes_to_the_admin(
        app: App, world: World, clock: ManualClock) -> None:
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=45))
    reply = await play.report_result(app, world.slug, world.discord(1), 412, 388)
    assert reply.key == "play.result_conflict" and reply.rule == "e-SP 4.7"
    assert "hlavný administrátor" in said(reply)
    result = await app.store.read(get_result, world.tables[0].id)
    assert result.verdict["kind"] == "needs_admin"


async def test_matching_reports_without_a_record_are_proposed_as_save_failed(
        app: App, world: World, clock: ManualClock) -> None:
    clock.set(START + timedelta(minutes=52))
    first = await play.report_result(app, world.slug, world.discord(2), " 401 ", "377")
    assert first.key == "play.result_recorded"
    await play.report_result(app, world.slug, world.discord(3), "377", "401")
    result = await app.store.read(get_result, world.tables[1].id)
    assert (result.status, result.end_kind) == (ResultStatus.PROPOSED, End.SAVE_FAILED)
    assert (result.first_score, result.second_score) == (401, 377)


# -- dispute ----------------------------------------------------------------------------


async def test_dispute_moves_a_provisional_result_to_disputed(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=45))
    await app.run(lambda tx: refresh_pairing(tx, world.tables[0].id, tx.by_scheduler()))
    empty = await play.dispute(app, world.slug, world.discord(1), "   ")
    assert (empty.key, empty.rule) == ("play.dispute_empty", "e-SP 4.7")
    reply = await play.dispute(app, world.slug, world.discord(1), "Mal som 398, nie 388.",
                               "https://cdn.example/snimka.png")
    assert reply.ok and reply.rule == "e-SP 4.7"
    result = await app.store.read(get_result, world.tables[0].id)
    assert result.status is ResultStatus.DISPUTED
    ((_, _, text),) = [m for m in sent(notifier, "admin") if m[1] == "play.dispute_admin"]
    assert "Mal som 398" in text and "snimka.png" in text


async def test_dispute_after_the_next_round_was_paired_is_refused(
        app: App, world: World, clock: ManualClock) -> None:
    a, b, c, d = (p.id for p in world.players)

    def pair_round_2(tx: Tx) -> None:
        replace_pairings(tx.db, world.tournament.id, 2, [(1, a, c), (2, b, d)],
                         tx.by_admin(ADMIN_ID))

    clock.set(START + timedelta(minutes=70))
    await app.run(pair_round_2)
    reply = await play.dispute(app, world.slug, world.discord(0), "zlý výsledok")
    assert (reply.ok, reply.key, reply.rule) == (False, "play.dispute_closed", "e-SP 4.7")


async def test_last_round_dispute_closes_ten_minutes_after_the_limit(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app, rounds=1)
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=59))
    await app.run(lambda tx: refresh_pairing(tx, world.tables[0].id, tx.by_scheduler()))
    assert (await play.dispute(app, world.slug, world.discord(0), "zlé skóre")).ok
    clock.set(START + timedelta(minutes=60))
    late = await play.dispute(app, world.slug, world.discord(0), "zlé skóre")
    assert late.key == "play.dispute_closed"



async def test_a_dispute_with_nothing_recorded_is_refused(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    clock.set(START + timedelta(minutes=20))
    reply = await play.dispute(app, world.slug, world.discord(0), "zlý výsledok")
    assert (reply.ok, reply.key, reply.rule) == (False, "play.dispute_nothing", "e-SP 4.7")
    assert "1. kole" in said(reply)
    assert notifier.sent == []  # the admin is not bothered



async def test_a_dispute_of_a_pending_result_resting_on_reports_is_accepted(
        app: App, world: World, clock: ManualClock) -> None:
    """No record, the verdict waits for the limit, but the players reported: "the server did
    not save our game" is something to dispute (e-SP 4.6, 4.7)."""
    clock.set(START + timedelta(minutes=40))
    await play.report_result(app, world.slug, world.discord(0), 400, 350)
    assert (await app.store.read(get_result, world.tables[0].id)).status is ResultStatus.PENDING
    reply = await play.dispute(app, world.slug, world.discord(1), "Server partiu neuložil.")
    assert reply.ok and reply.key == "play.dispute_recorded"

async def test_a_dispute_after_the_next_round_was_published_names_the_confirmed_round(
        app: App, world: World, clock: ManualClock) -> None:
    """Round 2 is published: a /namietka goes to the player's empty round-2 table, so it is
    refused — saying that round 1's result was confirmed when round 2 was paired (e-SP 4.7)."""
    a, b, c, d = (p.id for p in world.players)
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=45))
    await app.run(lambda tx: refresh_pairing(tx, world.tables[0].id, tx.by_scheduler()))

    def pair_and_publish_round_2(tx: Tx) -> None:
        by = tx.by_admin(ADMIN_ID)
        replace_pairings(tx.db, world.tournament.id, 2, [(1, a, c), (2, b, d)], by)
        update_round(tx.db, world.tournament.id, 2, by, published_at=tx.now)

    clock.set(START + timedelta(minutes=70))
    await app.run(pair_and_publish_round_2)
    late = await play.dispute(app, world.slug, world.discord(1), "mal som 398")
    assert (late.ok, late.key, late.params["round"]) == (False, "play.dispute_closed", 1)
    assert "1. kola uplynula" in said(late)
    # table 2 of round 1 had no result at all: nothing to dispute in round 2 either
    nothing = await play.dispute(app, world.slug, world.discord(2), "?")
    assert (nothing.key, nothing.params["round"]) == ("play.dispute_nothing", 2)
    round_2 = await app.store.read(pairings_of_round, world.tournament.id, 2)
    for pairing in [*world.tables, *round_2]:  # no dispute was attached anywhere
        kinds = [e.kind for e in await app.store.read(list_evidence, pairing.id)]
        assert EvidenceKind.DISPUTE not in kinds


# -- withdrawal -------------------------------------------------------------------------


async def test_withdraw_asks_first_then_withdraws(
        app: App, world: World, notifier: RecordingNotifier) -> None:
    ask = await play.withdraw(app, world.slug, world.discord(2))
    assert ask.ok and ask.data == {"needs_confirmation": True}
    assert "štartovné sa nevracia" in said(ask) and ask.rule == "e-SP 3.6"
    entry = await app.store.read(get_entry, world.tournament.id, world.players[2].id)
    assert entry.withdrawn_at is None
    done = await play.withdraw(app, world.slug, world.discord(2), confirmed=True)
    assert done.key == "play.withdrawn_ok"
    assert ("channel", "play.withdrawn") in [(w, m.key) for w, _, m in notifier.sent]
    after = await play.status(app, world.slug, world.discord(2))
    assert (after.ok, after.key) == (False, "common.out")
