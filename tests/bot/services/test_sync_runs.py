"""A sync run whose process died is closed as failed when the next run starts; a live one
(this process's, another host's, a fresh one) is left alone. The owners are real: a process
that really ran and ended, this process, this process id under another token."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from typing import Any

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.run_owner import STALE_AFTER, this_process
from bot.services.results.sync import sync_round
from bot.store import (
    Change,
    SyncKind,
    SyncOutcome,
    get_sync_run,
    running_sync_runs,
    start_sync_run,
)
from scrapers.herna import HernaClient
from scrapers.herna.simulator import Simulator

from .sync_world import START, at, read, round_games, setup_tournament


def ended_process() -> int:
    """The id of a process that ran and is gone."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def owners() -> dict[str, tuple[dict[str, Any] | None, timedelta, bool]]:
    """name -> (owner, how long before now the run started, whether it must be closed)."""
    me = this_process()
    return {
        "killed process": (me | {"pid": ended_process(), "token": "old"}, timedelta(0), True),
        "restarted with my pid": (me | {"token": "before-restart"}, timedelta(0), True),
        "too old, anybody's": (me | {"host": "elsewhere"}, STALE_AFTER * 2, True),
        "too old, no owner": (None, STALE_AFTER * 2, True),
        "this process": (me, timedelta(minutes=5), False),
        "another host": (me | {"host": "elsewhere"}, timedelta(minutes=5), False),
        "fresh, no owner": (None, timedelta(minutes=5), False),
    }


async def test_dead_runs_are_closed_as_failed_when_the_next_run_starts(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    s = await setup_tournament(app)
    sim.add_games(round_games())
    at(clock, 50)
    cases = owners()

    def start_them(tx: Tx) -> dict[str, int]:
        ids = {}
        for name, (owner, age, _) in cases.items():
            by = Change.scheduler(tx.now - age, "round sync")
            run = start_sync_run(tx.db, SyncKind.ROUND, by, tournament_id=s.tournament_id,
                                 owner=owner)
            ids[name] = run.id
        return ids

    ids = await app.run(start_them)
    summary = await sync_round(app, "kt-sync", 1, herna)
    assert summary.outcome is SyncOutcome.OK

    still = {r.id for r in await read(app, running_sync_runs)}
    for name, (_, _, dead) in cases.items():
        assert (ids[name] not in still) is dead, name
    closed = [await read(app, get_sync_run, ids[n]) for n, (_, _, dead) in cases.items() if dead]
    for run in closed:
        assert run.outcome is SyncOutcome.FAILED and run.finished_at == START + timedelta(
            minutes=50)
        assert run.summary["errors"][-1]["kind"] == "died" and run.summary["errors"][-1]["detail"]
    died = [m for where, _, m in notifier.sent if where == "admin" and m.key == "sync.fault.died"]
    assert sorted(m.params["run"] for m in died) == sorted(r.id for r in closed)
    text = t(died[0].key, "sk", **died[0].params)
    assert "neúspešnú" in text and "{" not in text

    notifier.sent.clear()
    await sync_round(app, "kt-sync", 1, herna)  # closed once: nobody told again
    assert "sync.fault.died" not in notifier.keys("admin")

