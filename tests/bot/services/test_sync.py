"""The result sync against the local herna.net simulator over real HTTP (127.0.0.1) and a real
SQLite store: records released over time on a ManualClock, flagged records, faults, the
nightly summary. Fixtures `app`, `clock`, `notifier` come from conftest.py."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import confirm_round
from bot.services.results.nightly import nightly
from bot.services.results.plan import SyncRefused
from bot.services.results.round_poll import RoundPoller, poll_round
from bot.services.results.sync import sync_command, sync_round, sync_tournament
from bot.store import (
    PlatformRecord,
    ResultStatus,
    SyncKind,
    SyncOutcome,
    SyncRun,
    TournamentStatus,
    apply_rating,
    get_platform_record,
    last_sync_run,
)
from scrapers.herna import Credentials, HernaClient
from scrapers.herna.generate import STANDARD_TABLE
from scrapers.herna.simulator import Simulator

from .sync_world import (
    NICKS,
    PASSWORD,
    SLUG,
    START,
    at,
    evidence,
    game,
    polite_off,
    read,
    result,
    round_games,
    setup_tournament,
    slovak,
)


async def test_two_passes_find_the_games_as_they_appear_without_duplicates(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    s = await setup_tournament(app)
    for record in round_games():
        sim.add_game(record, release_at=record.ended)  # shown once finished
    at(clock, 35)
    first = await sync_round(app, SLUG, 1, herna)
    assert first.outcome is SyncOutcome.OK
    assert sorted(first.added) == ["100", "101"] and first.fetched == 2
    assert first.open_tables == 2
    assert notifier.keys("channel").count("result.official") == 2
    for table in s.tables[:2]:
        stored = await result(app, table)
        assert stored is not None and stored.status is ResultStatus.PROVISIONAL
        assert stored.end_kind == "finished"
        assert (stored.first_score, stored.second_score) == (400, 350)

    at(clock, 50)
    second = await sync_round(app, SLUG, 1, herna)
    assert sorted(second.added) == ["102", "103"]
    assert second.fetched == 2  # the finished games of the first pass were not fetched again
    assert second.open_tables == 0
    assert notifier.keys("channel").count("result.official") == 4

    again = await sync_tournament(app, SLUG, herna)  # everything fetched again
    assert again.fetched == 4 and again.unchanged == 4
    assert again.added == [] and again.changed == [] and again.results == []
    for table in s.tables:
        assert len(await evidence(app, table)) == 1
    run = await read(app, last_sync_run, SyncKind.ROUND)
    assert isinstance(run, SyncRun) and run.summary["unchanged"] == 4
    assert notifier.keys("admin") == []  # nothing needed the head admin


async def test_an_unfinished_game_that_finishes_becomes_new_evidence(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    s = await setup_tournament(app)
    sim.add_game(round_games()[0])  # shown in progress from its start
    at(clock, 10)
    first = await sync_round(app, SLUG, 1, herna)
    assert first.added == ["100"] and first.open_tables == 4
    (running,) = await evidence(app, s.tables[0])
    assert running.payload["end"] == "unfinished" and running.payload["ended"] is None
    pending = await result(app, s.tables[0])
    assert pending is not None and pending.status is ResultStatus.PENDING

    at(clock, 40)
    second = await sync_round(app, SLUG, 1, herna)
    assert second.changed == ["100"] and second.added == []
    rows = await evidence(app, s.tables[0])
    assert [e.payload["end"] for e in rows] == ["unfinished", "finished"]
    assert rows[1].at == START + timedelta(minutes=30)  # `at` = when the game ended
    assert rows[1].payload["nicks"] == [NICKS[0], NICKS[1]]
    assert rows[1].payload["moves"] == {str(s.players[0]): 12, str(s.players[1]): 11}
    record = await read(app, get_platform_record, "100")
    assert isinstance(record, PlatformRecord) and record.changes == 1
    finished = await result(app, s.tables[0])
    assert finished is not None and finished.status is ResultStatus.PROVISIONAL


async def test_flagged_records_are_kept_but_never_scored(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    s = await setup_tournament(app)
    slow = replace(STANDARD_TABLE, tempo="2x15")
    sim.add_games([
        game("200", NICKS[0], NICKS[1], 3, settings=slow),  # table 1: wrong tempo
        game("201", NICKS[2], NICKS[3], -10, 20),  # table 2: before the official start
        game("202", NICKS[4], "Neznámy99", 4),  # table 3: a nick the registry does not know
        game("203", NICKS[6], NICKS[2], 5),  # Anča07 (table 4) and Ľubo03 (table 2)
        game("204", "Cudzí1", "Cudzí2", 5),  # nobody of ours: not even fetched
    ])
    at(clock, 45)
    summary = await sync_round(app, SLUG, 1, herna)
    assert summary.outcome is SyncOutcome.OK
    assert summary.fetched == 4
    flags = {f["game_id"]: f["flags"] for f in summary.flagged}
    assert flags == {"200": ["wrong_settings"], "201": ["started_before_round"],
                     "202": ["unknown_nick"]}
    for table in s.tables[:3]:
        stored = await result(app, table)
        assert stored is not None and stored.status is ResultStatus.PROPOSED
        assert stored.verdict["kind"] == "needs_admin"
        assert stored.verdict["code"] == "flagged_record"
        assert stored.first_points is None  # not scored
    (unknown,) = await evidence(app, s.tables[2])
    assert unknown.payload["nicks"] == [NICKS[4], "Neznámy99"]
    assert unknown.payload["second"] == s.players[5]  # stands for the paired opponent
    assert "result.official" not in notifier.keys("channel")

    (loose,) = summary.unmatched
    assert loose["game_id"] == "203" and loose["flags"] == ["not_paired"]
    assert await evidence(app, s.tables[3]) == []
    assert await read(app, get_platform_record, "203") is not None
    assert await read(app, get_platform_record, "204") is None
    text = slovak(notifier)["sync.unmatched.not_paired"]
    assert "203" in text and "Anča07 – Ľubo03" in text and "(e-SP 2.4)" in text
    assert "1. 3. 2025 10:05" in text  # the start, in Bratislava time
    assert notifier.keys("admin").count("result.needs_admin") == 3

    await sync_round(app, SLUG, 1, herna)  # the same again: nothing new, nobody told again
    assert notifier.keys("admin").count("sync.unmatched.not_paired") == 1


async def test_a_server_error_midway_keeps_what_was_fetched(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    s = await setup_tournament(app)
    sim.add_games(round_games())
    sim.slow(0.3, path="/partia/102")  # one record answers late, and with a 500
    sim.fail(None, path="/partia/102")
    at(clock, 50)
    broken = await sync_round(app, SLUG, 1, herna)
    assert broken.outcome is SyncOutcome.PARTIAL
    assert "102" in broken.pending and broken.errors[0]["kind"] == "unavailable"
    assert broken.fetched == 3
    stored = [t for t in s.tables if await evidence(app, t)]
    assert len(stored) == broken.fetched == len(broken.added)
    run = await read(app, last_sync_run, SyncKind.ROUND, outcome=SyncOutcome.PARTIAL)
    assert isinstance(run, SyncRun) and "102" in run.summary["pending"]
    text = slovak(notifier)["sync.fault.unavailable"]
    assert "Uložené záznamy: 3, nenačítané: 1" in text

    sim.clear_faults()
    at(clock, 53)
    healed = await sync_round(app, SLUG, 1, herna)
    assert healed.outcome is SyncOutcome.OK
    assert len(healed.added) == 4 - broken.fetched
    for table in s.tables:
        assert len(await evidence(app, table)) == 1


async def test_herna_down_fails_the_run_and_tells_the_admin(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    await setup_tournament(app)
    sim.add_games(round_games())
    sim.fail(None, path="/partie")
    at(clock, 50)
    summary = await sync_round(app, SLUG, 1, herna)
    assert summary.outcome is SyncOutcome.FAILED and summary.fetched == 0
    assert notifier.keys("admin") == ["sync.fault.unavailable"]
    assert await read(app, last_sync_run, SyncKind.ROUND) is None  # no successful run
    reply = await sync_command(app, SLUG, herna)
    assert not reply.ok and reply.key == "sync.failed"


async def test_the_poller_stops_when_every_table_has_a_counting_game(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    await setup_tournament(app)
    for record in round_games():
        sim.add_game(record, release_at=record.ended)
    at(clock, 20)

    async def wait(seconds: float) -> None:
        clock.advance(timedelta(seconds=seconds))

    passes = await RoundPoller(app, SLUG, 1, herna, every=timedelta(minutes=10),
                               sleep=wait).run()
    # passes at 20, 30, 40 and 50 minutes; at 50 every table has its game
    assert [len(p.added) for p in passes] == [0, 1, 2, 1]
    assert passes[-1].open_tables == 0
    assert clock.now() == START + timedelta(minutes=60)


async def test_polling_ends_after_the_limit_and_a_missing_game_goes_to_the_admin(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    s = await setup_tournament(app)
    sim.add_games(round_games()[:3])  # table 4 never plays
    at(clock, 45)
    assert await poll_round(app, SLUG, 1, herna) is not None
    at(clock, 55)  # past the limit: the pass checked herna.net after it
    last = await poll_round(app, SLUG, 1, herna)
    assert last is not None and last.open_tables == 1
    stored = await result(app, s.tables[3])
    assert stored is not None and stored.status is ResultStatus.PROPOSED
    assert stored.verdict["code"] == "both_no_show"
    at(clock, 66)  # limit + 15 minutes
    assert await poll_round(app, SLUG, 1, herna) is None


async def test_bad_requests_are_refused_with_a_reason(
        app: App, sim: Simulator, herna: HernaClient) -> None:
    await setup_tournament(app, rounds=3)
    with pytest.raises(SyncRefused) as unknown:
        await sync_round(app, SLUG, 7, herna)
    assert unknown.value.reply.key == "sync.unknown_round"
    with pytest.raises(SyncRefused) as unpaired:
        await sync_round(app, SLUG, 2, herna)
    assert unpaired.value.reply.key == "sync.not_paired"
    reply = await sync_command(app, "neexistuje", herna)
    assert not reply.ok and reply.key == "common.unknown_tournament"
    assert sim.requests == []  # nothing was asked of herna.net


async def test_sync_command_reports_progress(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    await setup_tournament(app)
    sim.add_games(round_games())
    at(clock, 50)
    seen: list[str] = []
    reply = await sync_command(app, SLUG, herna, lambda done, total: seen.append(
        f"{done}/{total}"))
    assert reply.ok and reply.key == "sync.done"
    assert reply.params["added"] == 4 and reply.params["tournament"] == "Online KT"
    assert seen == ["1/4", "2/4", "3/4", "4/4"]
    assert "Načítaných partií: 4, nové záznamy 4" in t(reply.key, "sk", **reply.params)


# -- nightly ------------------------------------------------------------------------------


async def test_nightly_reports_a_discrepancy_and_leaves_the_confirmed_result(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    s = await setup_tournament(app, rounds=1, status=TournamentStatus.FINISHED)
    await setup_tournament(app, slug="kt-draft", rounds=1, status=TournamentStatus.CHECKIN)
    games = round_games()
    sim.add_games(games)
    at(clock, 50)
    await sync_round(app, SLUG, 1, herna)
    at(clock, 61)
    await app.run(lambda tx: confirm_round(tx, s.tournament_id, 1, tx.by_scheduler("4.7")))
    confirmed = await result(app, s.tables[0])
    assert confirmed is not None and confirmed.status is ResultStatus.CONFIRMED

    # herna.net later shows the first game with other scores
    sim.add_game(replace(games[0], first_score=300, second_score=380))
    clock.set(datetime(2025, 3, 2, 2, 0, tzinfo=UTC))  # 03:00 in Bratislava
    notifier.sent.clear()
    (summary,) = await nightly(app, herna)
    assert summary.slug == SLUG and summary.kind is SyncKind.NIGHTLY
    assert summary.outcome is SyncOutcome.OK
    assert summary.changed == ["100"] and summary.unchanged == 3
    assert len(summary.discrepancies) == 1
    after = await result(app, s.tables[0])
    assert after == confirmed  # e-SP 4.7: never changes again
    assert len(await evidence(app, s.tables[0])) == 2  # the new record is kept as evidence
    texts = slovak(notifier)
    assert "potvrdený výsledok 400:350" in texts["sync.discrepancy"]
    assert "(e-SP 4.7)" in texts["sync.discrepancy"]
    assert "Načítaných partií z herna.net: 4" in texts["sync.nightly"]
    (report,) = [m for w, _, m in notifier.sent if m.key == "sync.nightly"]
    assert report.params["changed"] == 1 and report.params["new_discrepancies"] == 1
    run = await read(app, last_sync_run, SyncKind.NIGHTLY, tournament_id=s.tournament_id)
    assert isinstance(run, SyncRun) and run.summary["discrepancies"] == summary.discrepancies


async def test_nightly_skips_what_is_confirmed_and_rated(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    s = await setup_tournament(app, rounds=1, status=TournamentStatus.FINISHED)
    sim.add_games(round_games())
    at(clock, 61)
    await sync_round(app, SLUG, 1, herna)
    await app.run(lambda tx: confirm_round(tx, s.tournament_id, 1, tx.by_scheduler("4.7")))
    assert [x.slug for x in await nightly(app, herna)] == [SLUG]  # finished, not yet rated
    await app.run(lambda tx: apply_rating(tx.db, s.players[0], 1710.0, 1, tx.by_scheduler(),
                                          tournament_id=s.tournament_id))
    requests = len(sim.requests)
    assert await nightly(app, herna) == []
    assert len(sim.requests) == requests  # herna.net was not asked at all
    idle = await read(app, last_sync_run, SyncKind.NIGHTLY)
    assert isinstance(idle, SyncRun) and idle.tournament_id is None  # the night still ran


async def test_the_bots_round_poll_logs_in_only_while_there_is_something_to_find(
        app: App, clock: ManualClock, sim: Simulator) -> None:
    from bot.services.results.round_poll import poll_current_round

    await setup_tournament(app)
    for record in round_games():
        sim.add_game(record, release_at=record.ended)
    async with sim.serve() as url:
        def open_client() -> HernaClient:
            return HernaClient(Credentials("sss", PASSWORD), polite_off(url))

        at(clock, 40)
        first = await poll_current_round(app, SLUG, open_client)
        assert first is not None and first.open_tables > 0
        at(clock, 55)
        last = await poll_current_round(app, SLUG, open_client)
        assert last is not None and last.open_tables == 0
        logins = sim.logins
        assert await poll_current_round(app, SLUG, open_client) is None  # all tables decided
        assert sim.logins == logins  # nothing to look for: herna.net is left alone
