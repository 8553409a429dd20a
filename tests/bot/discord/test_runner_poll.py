"""The bot's round poll (`runner.round_poll`, started by `serve` every `sync.poll_minutes`):
against the herna.net simulator over real HTTP on 127.0.0.1 and a real SQLite store, with an
interval of a few milliseconds. Fixtures `app`, `clock`, `notifier` come from tests/bot/conftest.py.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.config import load_config
from bot.discord import runner
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.store import (
    Change,
    ResultStatus,
    Store,
    StoredResult,
    SyncKind,
    SyncOutcome,
    SyncRun,
    TablePairing,
    add_entry,
    create_player,
    create_tournament,
    get_result,
    last_sync_run,
    pairings_of_round,
    replace_pairings,
    update_round,
)
from scrapers.herna import Credentials, GameRecord, HernaClient, HernaSettings, layout
from scrapers.herna.simulator import Simulator

from ..conftest import START, World, herna_game, make_world
from .conftest import RUN_ADMIN, config_file, fake_gateway

PASSWORD = "heslo-simulátora"
EVERY = 0.01  # seconds between ticks


def table_game(world: World, table: int, game_id: str) -> GameRecord:
    """The round-1 game of `table` (1-based) between the players the pairing seats there."""
    pairing = world.tables[table - 1]
    nicks = {p.id: p.herna_nick for p in world.players}
    assert pairing.second_id is not None
    return herna_game(game_id, nicks[pairing.first_id], nicks[pairing.second_id],
                      START + timedelta(minutes=2), (410, 380), minutes=28)


@dataclass
class Poll:
    """A running `round_poll` task, the ticks it made and the herna.net clients it opened."""

    task: asyncio.Task[None]
    stop: asyncio.Event
    ticks: list[int]
    opened: list[int]

    async def until(self, what: Callable[[], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not what():
            assert not self.task.done(), "the round poll ended by itself"
            assert time.monotonic() < deadline, "the round poll never got there"
            await asyncio.sleep(EVERY)

    async def ticks_pass(self, n: int) -> None:
        target = len(self.ticks) + n
        await self.until(lambda: len(self.ticks) >= target)


@pytest.fixture
def sim(clock: ManualClock) -> Simulator:
    return Simulator({"sss": PASSWORD}, clock=clock.now)


@pytest.fixture
async def poll_kit(
    app: App, sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Callable[..., Poll]]:
    """Starts `round_poll` for the world's tournament against the simulator; every poll still
    running at the end is stopped (and must stop)."""
    real_tick = runner.poll_events  # one tick, over every event the poll covers
    started: list[Poll] = []

    async with sim.serve() as url:
        settings = HernaSettings(base_url=url, max_concurrent=None, per_second=None,
                                 backoff=0.0, timeout=5.0, retries=0)

        def start(slug: str, every: float = EVERY,
                  open_client: Callable[[HernaSettings], HernaClient] | None = None) -> Poll:
            ticks: list[int] = []
            opened: list[int] = []

            async def counted_tick(*args: Any, **kwargs: Any) -> Any:
                ticks.append(len(ticks))
                return await real_tick(*args, **kwargs)

            def herna() -> HernaClient:
                opened.append(len(opened))
                if open_client is not None:
                    return open_client(settings)
                return HernaClient(Credentials("sss", PASSWORD), settings)

            monkeypatch.setattr(runner, "poll_events", counted_tick)
            stop = asyncio.Event()
            task = asyncio.create_task(runner.round_poll(app, slug, herna, every, stop))
            poll = Poll(task, stop, ticks, opened)
            started.append(poll)
            return poll

        yield start
        for poll in started:
            poll.stop.set()
            if not poll.task.cancelled():  # a test may have had it cancelled on purpose
                await asyncio.wait_for(poll.task, 5)


async def official(app: App, table: TablePairing) -> StoredResult | None:
    return await app.run(lambda tx: get_result(tx.db, table.id))


def channel_results(notifier: RecordingNotifier) -> int:
    return notifier.keys("channel").count("result.official")


async def synced_world(app: App, clock: ManualClock) -> World:
    world = await make_world(app, settings={"platform_sync": True})
    clock.set(START + timedelta(minutes=35))  # both games ended, the limit not yet passed
    return world


# -- a new game is stored and announced; a decided round leaves herna.net alone; stop ------


async def test_the_poll_stores_and_announces_games_then_leaves_herna_alone_and_stops(
    app: App, clock: ManualClock, notifier: RecordingNotifier, sim: Simulator,
    poll_kit: Callable[..., Poll],
) -> None:
    world = await synced_world(app, clock)
    sim.add_game(table_game(world, 1, "501"))
    poll = poll_kit(world.slug)

    await poll.until(lambda: channel_results(notifier) == 1)
    first = await official(app, world.tables[0])
    assert first is not None and first.status is ResultStatus.PROVISIONAL
    assert (first.first_score, first.second_score, first.end_kind) == (410, 380, "finished")
    waiting = await official(app, world.tables[1])  # table 2 has not played yet
    assert waiting is None or waiting.status is ResultStatus.PENDING
    await poll.ticks_pass(2)  # still looking for table 2: every tick logs in (a tick that
    # has just begun opens its client a moment later: wait for it, a tick that never does fails)
    await poll.until(lambda: len(poll.opened) == len(poll.ticks))
    assert sim.logins >= 2

    sim.add_game(table_game(world, 2, "502"))
    await poll.until(lambda: channel_results(notifier) == 2)
    second = await official(app, world.tables[1])
    assert second is not None and second.status is ResultStatus.PROVISIONAL

    # every table has its counting game: ticks go on, herna.net is not asked anything
    await poll.ticks_pass(1)
    logins, requests, opened = sim.logins, len(sim.requests), len(poll.opened)
    await poll.ticks_pass(5)
    assert (sim.logins, len(sim.requests), len(poll.opened)) == (logins, requests, opened)
    assert channel_results(notifier) == 2  # nothing announced twice

    poll.stop.set()
    await asyncio.wait_for(poll.task, 1)
    assert poll.task.exception() is None
    ticks = len(poll.ticks)
    await asyncio.sleep(EVERY * 5)
    assert len(poll.ticks) == ticks  # stopped means stopped


async def test_a_poll_with_nothing_to_find_never_logs_in(
    app: App, clock: ManualClock, sim: Simulator, poll_kit: Callable[..., Poll],
) -> None:
    world = await synced_world(app, clock)
    sim.add_game(table_game(world, 1, "501"))
    sim.add_game(table_game(world, 2, "502"))
    clock.set(START + timedelta(minutes=50 + 15))  # the limit + margin passed: nothing to poll
    poll = poll_kit(world.slug)
    await poll.ticks_pass(5)
    assert sim.logins == 0 and sim.requests == [] and poll.opened == []


# -- herna.net failing does not stop the loop ----------------------------------------------


async def test_the_poll_keeps_running_while_herna_fails_and_stores_once_it_is_back(
    app: App, clock: ManualClock, notifier: RecordingNotifier, sim: Simulator,
    poll_kit: Callable[..., Poll],
) -> None:
    world = await synced_world(app, clock)
    sim.add_game(table_game(world, 1, "501"))
    sim.fail(None)  # 500 to everything, login included
    poll = poll_kit(world.slug)

    await poll.until(lambda: "sync.fault.unavailable" in notifier.keys("admin"))
    await poll.ticks_pass(2)
    assert await official(app, world.tables[0]) is None and channel_results(notifier) == 0

    sim.clear_faults()
    await poll.until(lambda: channel_results(notifier) == 1)
    stored = await official(app, world.tables[0])
    assert stored is not None and (stored.first_score, stored.second_score) == (410, 380)


async def test_an_unexpected_error_in_a_tick_is_logged_and_the_next_tick_runs(
    app: App, clock: ManualClock, notifier: RecordingNotifier, sim: Simulator,
    poll_kit: Callable[..., Poll], caplog: pytest.LogCaptureFixture,
) -> None:
    world = await synced_world(app, clock)
    sim.add_game(table_game(world, 1, "501"))
    failures = [RuntimeError("herna.net client could not be opened")]

    def flaky(settings: HernaSettings) -> HernaClient:
        if failures:
            raise failures.pop()
        return HernaClient(Credentials("sss", PASSWORD), settings)

    with caplog.at_level(logging.ERROR, "stredisko.runner"):
        poll = poll_kit(world.slug, open_client=flaky)
        await poll.until(lambda: channel_results(notifier) == 1)
    assert [r.getMessage() for r in caplog.records] == [
        f"round poll failed; trying again in {EVERY:g} s"]
    assert len(poll.ticks) >= 2


# -- a stop during a long wait ends the loop at once -----------------------------------------


async def test_stop_ends_the_wait_at_once_not_after_the_interval(
    app: App, clock: ManualClock, sim: Simulator, poll_kit: Callable[..., Poll],
) -> None:
    world = await synced_world(app, clock)
    poll = poll_kit(world.slug, every=3600.0)
    await poll.until(lambda: len(poll.ticks) == 1 and sim.logins == 1)
    await asyncio.sleep(0.05)
    poll.stop.set()
    # at once: the next tick is an hour away; the bound leaves a loaded machine its slowness
    await asyncio.wait_for(poll.task, 30)
    assert len(poll.ticks) == 1


# -- shutdown: a pass in flight finishes; only one that outlives the grace is cancelled ------


async def last_round_sync(app: App) -> SyncRun | None:
    return await app.run(lambda tx: last_sync_run(tx.db, SyncKind.ROUND, outcome=None))


GAME_PAGES = layout.GAME_PATH.split("{")[0]  # "/partia/"


async def game_page_in_flight(sim: Simulator, poll: Poll) -> None:
    await poll.until(lambda: any(r.startswith(f"GET {GAME_PAGES}") for r in sim.requests))


async def test_stop_lets_the_pass_in_flight_finish_and_record_its_sync_run(
    app: App, clock: ManualClock, notifier: RecordingNotifier, sim: Simulator,
    poll_kit: Callable[..., Poll],
) -> None:
    world = await synced_world(app, clock)
    sim.add_game(table_game(world, 1, "501"))
    sim.slow(0.3, path=GAME_PAGES)  # the record page answers late: the pass is mid-way
    poll = poll_kit(world.slug, every=3600.0)
    await game_page_in_flight(sim, poll)
    running = await last_round_sync(app)
    assert running is not None and running.outcome is SyncOutcome.RUNNING

    await runner.stop_background(poll.task, poll.stop, grace=10.0)
    assert poll.task.done() and not poll.task.cancelled() and poll.task.exception() is None
    finished = await last_round_sync(app)
    assert finished is not None and finished.id == running.id
    assert finished.outcome is SyncOutcome.OK and finished.finished_at is not None
    stored = await official(app, world.tables[0])  # the pass's work is kept, and announced
    assert stored is not None and (stored.first_score, stored.second_score) == (410, 380)
    assert channel_results(notifier) == 1
    assert len(poll.ticks) == 1  # no second tick after the stop


async def test_a_pass_that_outlives_the_grace_is_cancelled(
    app: App, clock: ManualClock, sim: Simulator, poll_kit: Callable[..., Poll],
) -> None:
    world = await synced_world(app, clock)
    sim.add_game(table_game(world, 1, "501"))
    page = sim.hold(path=GAME_PAGES)  # the record page answers only when the test says
    poll = poll_kit(world.slug, every=3600.0)
    await game_page_in_flight(sim, poll)
    try:
        # the page is held until after the stop: a stop that waited for the pass would
        # never come back (the wait_for's minute is only a hang guard, not a speed limit)
        await asyncio.wait_for(runner.stop_background(poll.task, poll.stop, grace=0.05), 60)
        assert poll.task.cancelled()
    finally:
        page.set()
    stuck = await last_round_sync(app)
    assert stuck is not None and stuck.outcome is SyncOutcome.RUNNING  # what the grace avoids


# -- serve() runs the poll when a herna.net login and a tournament are configured ------------


def _live_tournament(path: Path, nicks: list[str], starts: datetime) -> None:
    """A tournament in the file `path` whose round 1 started at `starts`, tables 1–2 and 3–4."""
    by = Change.admin(1, starts, "test setup")

    def build(db: Any) -> None:
        t = create_tournament(db, slug="kt-live", name="Online KT naživo", season="2026/27",
                              round_starts=[starts], waiting_minutes=10, game_limit_minutes=50,
                              by=by, admin_ids=[RUN_ADMIN.id])
        ids = []
        for n, nick in enumerate(nicks):
            player = create_player(db, name=f"Hráč {n}", herna_nick=nick, by=by)
            add_entry(db, t.id, player.id, by, paid=True)
            ids.append(player.id)
        replace_pairings(db, t.id, 1, [(1, ids[0], ids[1]), (2, ids[2], ids[3])], by)
        update_round(db, t.id, 1, by, published_at=starts)

    with Store(path) as store:
        store.call_sync(build)


async def test_serve_polls_the_round_with_the_configured_login_and_stops_with_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    fake_gateway(monkeypatch)
    starts = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=40)
    nicks = ["Ďurko01", "Žofka02", "Ľubo03", "Šimon04"]
    path = config_file(tmp_path, tournament="kt-live")
    _live_tournament(tmp_path / "stredisko.db", nicks, starts)
    sim = Simulator({"sss": PASSWORD})  # on the system clock, like the bot
    sim.add_game(herna_game("601", nicks[0], nicks[1], starts + timedelta(minutes=2),
                            (410, 380), minutes=28))
    async with sim.serve() as url:
        path.write_text(
            path.read_text(encoding="utf-8")
            + f'[herna]\nbase_url = "{url}"\nretries = 0\nmax_concurrent = 0\n'
              f'per_second = 0\n[sync]\npoll_minutes = 1\n', encoding="utf-8")
        config = load_config(path, env={"HERNA_USER": "sss", "HERNA_PASSWORD": PASSWORD})
        stop = asyncio.Event()
        with caplog.at_level(logging.INFO):
            task = asyncio.create_task(runner.serve(config, "token", sync_commands=False,
                                                    stop=stop))
            deadline = time.monotonic() + 20
            # the notifier tries to announce the stored result (no Discord channel here)
            while "result.official" not in caplog.text:
                assert not task.done(), caplog.text
                assert time.monotonic() < deadline, f"nothing announced: {sim.requests}"
                await asyncio.sleep(0.02)
            stop.set()
            assert await asyncio.wait_for(task, 10) == 0
    assert sim.logins == 1  # one tick, one login; the next tick is a minute away
    assert PASSWORD not in caplog.text
    with Store(tmp_path / "stredisko.db") as store:
        tables = store.call_sync(lambda db: [
            get_result(db, p.id) for p in pairings_of_round(db, 1, 1)])
        run = store.call_sync(lambda db: last_sync_run(db, SyncKind.ROUND, outcome=None))
    assert tables[0] is not None and (tables[0].first_score, tables[0].second_score) == (410, 380)
    assert tables[1] is not None and tables[1].status is ResultStatus.PENDING  # no game yet
    assert run is not None and run.outcome is SyncOutcome.OK  # no run left "running"


# -- a bot serving several events (issue 37.2) ----------------------------------------------


async def test_without_a_pinned_event_the_poll_covers_every_running_classic_event(
    app: App, clock: ManualClock, notifier: RecordingNotifier, sim: Simulator,
    poll_kit: Callable[..., Poll],
) -> None:
    """`round_poll` with no slug reads the running classic events afresh at each tick: an
    event created while it runs is polled from then on, no restart."""
    first = await synced_world(app, clock)
    poll = poll_kit("")  # `[discord] tournament` unset
    sim.add_game(table_game(first, 1, "501"))
    await poll.until(lambda: channel_results(notifier) == 1)

    second = await make_world(app, slug="kt-druhy", settings={"platform_sync": True})
    sim.add_game(table_game(second, 2, "601"))
    await poll.until(lambda: channel_results(notifier) == 2)
    found = await official(app, second.tables[1])
    assert found is not None and found.status is ResultStatus.PROVISIONAL
    assert await official(app, first.tables[0]) is not None


async def test_a_tick_over_two_events_logs_in_to_herna_once(
    app: App, clock: ManualClock, sim: Simulator, poll_kit: Callable[..., Poll],
) -> None:
    """Issue 44.8: two running classic events, each with tables still without a game — a tick
    reads herna.net for both through one client and one login (each event had its own)."""
    first = await synced_world(app, clock)
    second = await make_world(app, slug="kt-druhy", settings={"platform_sync": True})
    poll = poll_kit("")
    await poll.ticks_pass(3)
    poll.stop.set()
    await asyncio.wait_for(poll.task, 5)
    ticks = len(poll.ticks)
    assert len(poll.opened) == ticks and sim.logins == ticks
    for world in (first, second):  # and each event was polled at every tick
        runs = await app.run(lambda tx, w=world: [
            r for r in tx.db.execute("SELECT id FROM sync_runs WHERE tournament_id = ?",
                                     [w.tournament.id]).fetchall()])
        assert len(runs) == ticks
