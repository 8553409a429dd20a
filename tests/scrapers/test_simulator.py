"""The whole path over real HTTP on 127.0.0.1: the client against the local simulator."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from scrapers.herna.client import Credentials, HernaClient, HernaSettings
from scrapers.herna.errors import HernaUnavailable, PageMissing
from scrapers.herna.generate import generate_round
from scrapers.herna.records import EndKind
from scrapers.herna.simulator import Simulator

START = datetime(2026, 3, 7, 8, 0, tzinfo=UTC)  # the round's official start
PASSWORD = "heslo-simulátora"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(START + timedelta(hours=2))


@pytest.fixture
def sim(clock) -> Simulator:
    simulator = Simulator({"sss": PASSWORD}, clock=clock, page_size=5)
    simulator.add_games(generate_round(24, START, seed=3))  # 12 games: 3 history pages
    return simulator


def herna(url: str, **settings) -> HernaClient:
    values = {"max_concurrent": None, "per_second": None, "backoff": 0.0, "timeout": 5.0}
    return HernaClient(
        Credentials("sss", PASSWORD), HernaSettings(base_url=url, **(values | settings))
    )


async def test_login_history_pagination_and_records(sim, caplog):
    caplog.set_level(logging.DEBUG)
    expected = {r.game_id: r for r in sim.visible()}
    async with sim.serve() as url, herna(url, max_concurrent=2, per_second=200) as client:
        history = await client.history(START)
        records = [r async for r in client.records(START)]
    assert {e.game_id for e in history} == set(expected)
    assert sorted(records, key=lambda r: r.game_id) == sorted(
        expected.values(), key=lambda r: r.game_id
    )
    assert sum(1 for r in sim.requests if r.startswith("GET /partie")) == 2 * 3  # twice, 3 pages
    assert sim.logins == 1
    assert PASSWORD not in caplog.text and "HTTP Request: POST" in caplog.text


async def test_history_since_stops_paging_early(sim):
    newest = sim.visible()[:4]
    async with sim.serve() as url, herna(url) as client:
        history = await client.history(newest[-1].started)
    assert [e.game_id for e in history] == [g.game_id for g in newest]
    assert [r for r in sim.requests if r.startswith("GET /partie")] == ["GET /partie?strana=1"]


async def test_one_players_history(sim):
    game = sim.visible()[7]
    async with sim.serve() as url, herna(url) as client:
        history = await client.history(START, nick=game.second)
    assert [e.game_id for e in history] == [game.game_id]


async def test_unfinished_then_finished_later(sim, clock):
    game = sim.visible()[0]
    clock.now = game.started + (game.ended - game.started) / 2
    async with sim.serve() as url, herna(url) as client:
        during = await client.record(game.game_id)
        clock.now = game.ended
        after = await client.record(game.game_id)
    assert during.end is EndKind.UNFINISHED and during.ended is None
    assert 0 < during.first_moves < game.first_moves
    assert after == game


async def test_games_appear_at_their_release_time(sim, clock):
    late = replace(sim.visible()[0], game_id="999001")
    sim.add_game(late, release_at=clock.now + timedelta(minutes=5))
    async with sim.serve() as url, herna(url) as client:
        before = {e.game_id for e in await client.history(START)}
        clock.now += timedelta(minutes=5)
        after = {e.game_id for e in await client.history(START)}
        with pytest.raises(PageMissing):
            await client.record("123")
    assert after - before == {"999001"}


async def test_session_logged_out_midway(sim):
    got = []
    async with sim.serve() as url, herna(url, max_concurrent=1) as client:
        async for record in client.records(START):
            got.append(record)
            if len(got) == 3:
                sim.logout_all()
    assert len(got) == 12 and len({r.game_id for r in got}) == 12
    assert sim.logins == 2  # one re-login, shared by the fetches that found the session gone


async def test_500_midway_is_retried(sim):
    sim.fail(times=3, path="/partia/")
    async with sim.serve() as url, herna(url, retries=3) as client:
        scrape = await client.scrape(START)
    assert scrape.complete and len(scrape.records) == 12
    assert client.requests == 1 + 3 + 12 + 3  # login, 3 history pages, 12 records, 3 retries


async def test_a_game_that_keeps_failing_leaves_the_rest(sim):
    broken = sim.visible()[5].game_id
    sim.fail(times=None, path=f"/partia/{broken}")
    async with sim.serve() as url, herna(url, retries=2) as client:
        scrape = await client.scrape(START)
    assert isinstance(scrape.error, HernaUnavailable) and scrape.error.pending == (broken,)
    assert len(scrape.records) == 11 and broken not in {r.game_id for r in scrape.records}


async def test_slow_page_times_out_then_succeeds(sim):
    game = sim.visible()[0]
    sim.slow(1.0, path=f"/partia/{game.game_id}", times=1)
    async with sim.serve() as url, herna(url, timeout=0.2, retries=1) as client:
        assert await client.record(game.game_id) == game


async def test_simulator_command_prints_its_address():
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "scrapers.herna.simulator",
        "--players",
        "4",
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode().strip()
        assert line.startswith("http://127.0.0.1:") and line.endswith("/")
        async with httpx.AsyncClient() as http:
            page = await http.get(f"{line}prihlasenie")
        assert page.status_code == 200 and 'id="prihlasenie"' in page.text
    finally:
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 20) is not None
