"""The herna.net fault suite, through the real client and the sync service: the simulator over
real HTTP where it can produce the fault, respx (everything else passed through to the
simulator) where it cannot. Every case ends the same way: what was stored before is as it was,
the sync run is closed (never 'running'), and the head admin gets ONE clear Slovak line.
Retry-After and the read's deadline run on a fake clock: nothing really sleeps."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any

import httpx
import pytest
import respx

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.results.sync import sync_round
from bot.store import (
    SyncKind,
    SyncOutcome,
    SyncRun,
    get_result,
    last_sync_run,
    list_evidence,
    running_sync_runs,
)
from scrapers.herna import Credentials, HernaClient, pages
from scrapers.herna.simulator import Simulator

from ...scrapers.test_client_bounds import FakeTime
from .sync_world import PASSWORD, at, polite_off, read, round_games, setup_tournament

GAME = "/partia/102"  # the one record the faulty pass fetches (the history lists it)
HISTORY = "/partie"


Arrange = Callable[[Simulator], AbstractContextManager[Any] | None]


def respx_raises(path: str, error: Exception) -> Arrange:
    """A transport fault on `path` only; every other request reaches the simulator."""
    def arrange(sim: Simulator) -> AbstractContextManager[Any]:
        mock = respx.mock(assert_all_called=False)
        mock.route(path=path).mock(side_effect=error)
        mock.route().pass_through()
        return mock
    return arrange


def sim_fault(method: str, *args: Any, **kwargs: Any) -> Arrange:
    def arrange(sim: Simulator) -> None:
        getattr(sim, method)(*args, **kwargs)
    return arrange


def half_a_page(sim: Simulator) -> None:
    page = pages.game_page(round_games()[2], "sss").encode()
    sim.garble(page[: len(page) // 2], path=GAME)


DATE = "Sat, 01 Mar 2025 09:50:00 GMT"
TO_LOGIN = {"Location": f"/prihlasenie?dalej={GAME}"}

# (id, the fault, client settings, the fault's kind, the run's outcome, the sleeps, or None).
# A fault on the one new record fails the pass; the endless pager keeps the pages it read.
CASES: list[tuple[str, Arrange, dict[str, Any], str, SyncOutcome, list[float] | None]] = [
    ("500 history", sim_fault("fail", None, path=HISTORY, status=500), {},
     "unavailable", SyncOutcome.FAILED, [1.0, 2.0]),
    ("503 record", sim_fault("fail", None, path=GAME, status=503), {},
     "unavailable", SyncOutcome.FAILED, [1.0, 2.0]),
    ("429 Retry-After seconds",
     sim_fault("fail", None, path=HISTORY, status=429, headers={"Retry-After": "7"}), {},
     "rate_limited", SyncOutcome.FAILED, [7.0, 7.0]),
    ("429 Retry-After date",
     sim_fault("fail", None, path=GAME, status=429,
               headers={"Date": DATE, "Retry-After": "Sat, 01 Mar 2025 09:50:20 GMT"}), {},
     "rate_limited", SyncOutcome.FAILED, [20.0, 20.0]),
    ("429 Retry-After capped",
     sim_fault("fail", None, path=HISTORY, status=429, headers={"Retry-After": "86400"}), {},
     "rate_limited", SyncOutcome.FAILED, [120.0, 120.0]),
    ("429 without Retry-After", sim_fault("fail", None, path=HISTORY, status=429), {},
     "rate_limited", SyncOutcome.FAILED, [1.0, 2.0]),
    ("429 past the deadline",
     sim_fault("fail", None, path=HISTORY, status=429, headers={"Retry-After": "5000"}),
     {"retry_after_max": 10_000.0}, "rate_limited", SyncOutcome.FAILED, []),
    ("read timeout", sim_fault("slow", 0.5, path=GAME), {"timeout": 0.2, "retries": 0},
     "unavailable", SyncOutcome.FAILED, []),
    ("connect timeout", respx_raises(GAME, httpx.ConnectTimeout("no route")), {},
     "unavailable", SyncOutcome.FAILED, [1.0, 2.0]),
    ("cut mid-body",
     respx_raises(GAME, httpx.RemoteProtocolError("peer closed connection without sending "
                                                  "complete message body")), {},
     "unavailable", SyncOutcome.FAILED, [1.0, 2.0]),
    ("redirect to login", sim_fault("fail", None, path=GAME, status=302, headers=TO_LOGIN),
     {}, "login_failed", SyncOutcome.FAILED, []),
    ("garbled html", sim_fault("garble", b"<html><p>\xff\xfe\x00 nic", path=GAME), {},
     "layout_changed", SyncOutcome.FAILED, []),
    ("truncated page", half_a_page, {}, "layout_changed", SyncOutcome.FAILED, []),
    ("huge page", sim_fault("garble", b"<html>" + b"x" * 300_000, path=GAME),
     {"max_page_bytes": 100_000}, "too_large", SyncOutcome.FAILED, []),
    ("endless pager", sim_fault("endless_history"), {"max_pages": 5},
     "page_cap", SyncOutcome.PARTIAL, []),  # the pages read are used: 102 is stored
    ("endless pager, slow site", sim_fault("endless_history"),
     {"max_pages": 100_000, "read_deadline": 300.0, "step": 7.0},
     "deadline", SyncOutcome.FAILED, []),
]


def _stored(app: App, tables: list[Any]) -> Any:
    async def read_all() -> list[Any]:
        return [(await read(app, list_evidence, table.id), await read(app, get_result, table.id))
                for table in tables]
    return read_all()


@pytest.mark.parametrize(("arrange", "settings", "kind", "outcome", "slept"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
async def test_a_herna_fault_loses_nothing_closes_the_run_and_says_one_line(
        app: App, clock: ManualClock, sim: Simulator, notifier: RecordingNotifier,
        arrange: Arrange, settings: dict[str, Any], kind: str, outcome: SyncOutcome,
        slept: list[float] | None) -> None:
    s = await setup_tournament(app)
    games = round_games()
    for record in games:
        sim.add_game(record, release_at=record.ended)
    settings = dict(settings)
    fake = FakeTime(step=settings.pop("step", 0.0))
    async with sim.serve() as url:
        options = polite_off(url)
        options = replace(options, **({"retries": 2, "backoff": 1.0} | settings))
        async with HernaClient(Credentials("sss", PASSWORD), options, sleep=fake.sleep,
                               clock=fake.clock) as herna:
            at(clock, 35)  # tables 1 and 2 finished and scored
            assert (await sync_round(app, "kt-sync", 1, herna)).outcome is SyncOutcome.OK
            before = await _stored(app, s.tables[:2])
            notifier.sent.clear()
            fake.slept.clear()

            at(clock, 42)  # table 3's game (102) is new: the faulty pass fetches it alone
            with arrange(sim) or nullcontext():
                summary = await sync_round(app, "kt-sync", 1, herna)

    assert summary.outcome is outcome, summary.errors
    assert summary.errors[0]["kind"] == kind
    assert summary.added == (["102"] if outcome is SyncOutcome.PARTIAL else [])
    assert await _stored(app, s.tables[:2]) == before  # nothing lost
    run = await read(app, last_sync_run, SyncKind.ROUND, tournament_id=s.tournament_id,
                     outcome=None)
    assert isinstance(run, SyncRun) and run.outcome is outcome and run.finished_at is not None
    assert await read(app, running_sync_runs) == []
    (line,) = [m for where, _, m in notifier.sent if where == "admin"]
    assert line.key == f"sync.fault.{kind}"
    text = t(line.key, "sk", **line.params)
    assert "{" not in text and "{" not in t(line.key, "en", **line.params)
    assert "prihlásenie" not in text or kind == "login_failed"  # a 429 is no login refusal
    if slept is not None:
        assert fake.slept == slept
