"""The scheduler: every due timer fires exactly once, across crashes and restarts; the nightly
job runs on its cron and catches up a missed night."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import pytest

import bot.scheduler as scheduler_module
from bot.clock import BRATISLAVA, ManualClock
from bot.scheduler import Scheduler, last_scheduled
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.tournament.play import report_absence
from bot.services.tournament.timers import schedule_round_timers
from bot.store import (
    ResultStatus,
    Store,
    SyncKind,
    SyncOutcome,
    TimerKind,
    TimerStatus,
    add_timer,
    finish_sync_run,
    get_result,
    get_round,
    list_audit,
    list_timers,
    result_history,
    start_sync_run,
)
from rules import End

from .conftest import START, World, make_world

ROOT = Path(__file__).resolve().parents[2]

# A scheduler in a process of its own, killed with SIGKILL: "after" once it has fired what is
# due (a crash after the commit), "inside" while handling a timer of the given kind, before
# the commit of that timer's transaction.
CHILD = textwrap.dedent("""
    import asyncio, os, signal, sys
    from datetime import datetime
    import bot.scheduler as s
    from bot.clock import ManualClock
    from bot.services.app import App
    from bot.services.notifier import RecordingNotifier
    from bot.store import Store

    path, now, mode, kind = sys.argv[1], datetime.fromisoformat(sys.argv[2]), sys.argv[3], \\
        sys.argv[4]
    original = s.handle_timer

    def dying(tx, timer):
        original(tx, timer)
        if mode == "inside" and timer.kind == kind:
            os.kill(os.getpid(), signal.SIGKILL)  # the work is done, the commit is not

    s.handle_timer = dying

    async def main():
        store = await Store.open(path)
        scheduler = s.Scheduler(App(store, ManualClock(now), RecordingNotifier()))
        await scheduler.start()
        os.kill(os.getpid(), signal.SIGKILL)  # dropped without stop() or close()

    asyncio.run(main())
""")


def child(db: Path, now: datetime, mode: str, kind: str = "") -> int:
    done = subprocess.run([sys.executable, "-c", CHILD, str(db), now.isoformat(), mode, kind],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == -9, done.stderr
    return done.returncode


async def restarted(db: Path, now: datetime) -> tuple[App, Scheduler]:
    app = App(await Store.open(db), ManualClock(now), RecordingNotifier())
    scheduler = Scheduler(app)
    await scheduler.start()
    return app, scheduler


def schedule_round_1(world: World):  # type: ignore[no-untyped-def]
    def body(tx: Tx) -> None:
        schedule_round_timers(tx, world.tournament, get_round(tx.db, world.tournament.id, 1))
    return body


async def test_killed_mid_waiting_period_and_mid_deadline_loses_and_repeats_nothing(
        app: App, world: World, clock: ManualClock, db_path: Path) -> None:
    await app.run(schedule_round_1(world))
    clock.set(START + timedelta(minutes=3))
    await report_absence(app, world.slug, world.discord(0))
    await app.store.close()
    table = world.tables[0].id

    # 1. killed in the middle of the waiting period, after firing the round start
    child(db_path, START + timedelta(minutes=5), "after")
    # 2. killed after the deadline passed, while handling it, before its commit
    child(db_path, START + timedelta(minutes=12), "inside", TimerKind.WAITING_END)

    probe = await Store.open(db_path)
    timers = {t.kind: t.status for t in await probe.read(list_timers, world.tournament.id)}
    assert timers[TimerKind.ROUND_START] is TimerStatus.FIRED
    assert timers[TimerKind.WAITING_END] is TimerStatus.PENDING  # the crash rolled it back
    before = await probe.read(get_result, table)
    assert before.status is ResultStatus.PENDING  # the proposal was never half-written
    await probe.close()

    # 3. a normal restart fires the deadline once; 4. another restart repeats nothing
    for attempt in range(2):
        again, scheduler = await restarted(db_path, START + timedelta(minutes=12))
        await scheduler.stop()
        result = await again.store.read(get_result, table)
        assert (result.status, result.end_kind) == (ResultStatus.PROPOSED, End.NO_SHOW)
        proposals = again.notifier.keys("admin")  # type: ignore[attr-defined]
        assert proposals == (["result.proposal"] if attempt == 0 else [])
        await again.store.close()

    probe = await Store.open(db_path)
    history = await probe.read(result_history, table)
    assert [v.status for v in history].count(ResultStatus.PROPOSED) == 1
    fires = [e.data["kind"] for e in await probe.read(list_audit, action="timer.fire")]
    assert fires.count(TimerKind.WAITING_END) == 1 and fires.count(TimerKind.ROUND_START) == 1
    await probe.close()


async def test_a_failing_timer_is_rolled_back_recorded_and_retried_at_the_next_start(
        app: App, world: World, clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    await app.run(schedule_round_1(world))

    def broken(tx: Tx, timer: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(scheduler_module, "handle_timer", broken)
    scheduler = Scheduler(app)
    assert await scheduler.run_due() == 0
    assert await scheduler.run_due() == 0  # not retried in a loop by the same scheduler
    failed = await app.store.read(list_audit, action="timer.failed")
    assert len(failed) == 1 and "bug" in failed[0].data["error"]
    monkeypatch.undo()
    assert await Scheduler(app).run_due() == 1


async def test_the_loop_fires_timers_as_they_fall_due(app: App, world: World,
                                                      clock: ManualClock) -> None:
    scheduler = Scheduler(app, max_sleep=0.05)
    await scheduler.start()

    def later(tx: Tx) -> None:
        add_timer(tx.db, TimerKind.GAME_LIMIT, "kt:r1:limit", START + timedelta(minutes=50),
                  tx.by_scheduler(), tournament_id=world.tournament.id, payload={"round_no": 1})

    await app.run(later)
    scheduler.wake()
    await asyncio.sleep(0.1)
    assert scheduler.fired == 0  # not due yet
    clock.set(START + timedelta(minutes=50))
    scheduler.wake()
    for _ in range(100):
        if scheduler.fired:
            break
        await asyncio.sleep(0.02)
    await scheduler.stop()
    assert scheduler.fired == 1
    assert "timer.game_limit" in app.notifier.keys("channel")  # type: ignore[attr-defined]


def test_last_scheduled_is_today_or_yesterday_in_bratislava() -> None:
    at = time(3, 0)
    morning = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)  # 10:00 in Bratislava
    assert last_scheduled(morning, at) == datetime(2025, 3, 1, 3, 0, tzinfo=BRATISLAVA)
    night = datetime(2025, 3, 1, 1, 0, tzinfo=UTC)  # 2:00 in Bratislava
    assert last_scheduled(night, at) == datetime(2025, 2, 28, 3, 0, tzinfo=BRATISLAVA)
    summer = datetime(2025, 7, 1, 1, 30, tzinfo=UTC)  # 3:30 CEST
    assert last_scheduled(summer, at).astimezone(UTC) == datetime(2025, 7, 1, 1, 0, tzinfo=UTC)


async def test_nightly_catches_up_once_and_is_on_the_cron(app: App) -> None:
    calls: list[datetime] = []

    async def nightly(since: datetime) -> None:
        def body(tx: Tx) -> None:
            run = start_sync_run(tx.db, SyncKind.NIGHTLY, tx.by_scheduler("nightly"))
            finish_sync_run(tx.db, run.id, SyncOutcome.OK, tx.by_scheduler("nightly"))
        calls.append(app.clock.now())
        await app.run(body)

    first = Scheduler(app, nightly=nightly, nightly_at=time(3, 0))
    await first.start()
    assert calls == [START]  # never ran before: caught up at once
    job = first._cron.get_job("nightly") if first._cron else None
    assert job is not None
    assert str(job.trigger) == "cron[hour='3', minute='0']"
    assert job.next_run_time.tzinfo is not None
    assert job.next_run_time.astimezone(BRATISLAVA).hour == 3
    await first.stop()

    second = Scheduler(app, nightly=nightly, nightly_at=time(3, 0))
    await second.start()
    await second.stop()
    assert calls == [START]  # the last run is newer than the last scheduled time
    assert second._cron is None and second._task is None


async def test_a_failing_nightly_job_does_not_stop_the_scheduler(
        app: App, world: World) -> None:
    async def nightly(since: datetime) -> None:
        raise RuntimeError("herna.net down")

    scheduler = Scheduler(app, nightly=nightly)
    await scheduler.start()  # logged, not raised
    assert await scheduler.nightly_due()  # no successful run: tomorrow's start catches up
    await scheduler.stop()


async def test_make_world_is_reusable_for_other_tournaments(app: App) -> None:
    other = await make_world(app, slug="kt-druhy", players=2, rounds=1)
    assert other.tournament.rounds_planned == 1 and len(other.tables) == 1
