"""Restart-safe deadlines and the nightly job (DESIGN.md section 4).

Timers are rows in the store. `Scheduler.start()` fires every overdue one, then keeps firing
them as they fall due. Each timer is claimed (`fire_timer`) and worked (`handle_timer`) in ONE
`app.run` transaction: a crash before the commit leaves it pending, so the next start retries
it; after the commit it is fired and never repeats. Time comes from the app's clock, so a
rehearsal or a test with a `ManualClock` moves it and calls `run_due()` / `wake()`.

The nightly sync is an APScheduler 3.x cron job (in memory, Europe/Bratislava) calling the
callback given to the Scheduler. The callback records its own run (`start_sync_run` /
`finish_sync_run`, kind nightly, one per event); on start, if some event's last successful
nightly run is older than the last scheduled time, it is run once at once for those events
(catch-up after downtime).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, time, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot.clock import BRATISLAVA
from bot.services.app import App, Tx
from bot.services.results.nightly import nightly_due
from bot.services.tournament.timers import handle_timer, prepare_timer
from bot.store import Timer, due_timers, fire_timer, next_due, record

log = logging.getLogger(__name__)

#: the nightly job, given the time it runs for (its last scheduled time): an event whose own
#: nightly run succeeded since then is not synced again
Nightly = Callable[[datetime], Awaitable[Any]]


def _fire(tx: Tx, timer: Timer) -> bool:
    """Claim the timer and do its work, together; False if someone else already fired it."""
    if not fire_timer(tx.db, timer.id, tx.by_scheduler(f"due at {timer.due_at.isoformat()}")):
        return False
    handle_timer(tx, timer)
    return True


def _record_failure(tx: Tx, timer: Timer, error: str) -> None:
    record(tx.db, tx.by_scheduler("timer failed; retried at the next start"), "timer.failed",
           tournament_id=timer.tournament_id, subject=timer.key, data={"error": error})


def last_scheduled(now: datetime, at: time) -> datetime:
    """The latest moment at or before `now` when the daily job at `at` (Bratislava) was due."""
    local = now.astimezone(BRATISLAVA)
    day = local.date()
    for _ in range(3):  # today, or yesterday (a DST gap day may need one more step)
        candidate = datetime.combine(day, at, tzinfo=BRATISLAVA)
        if candidate <= local:
            return candidate
        day -= timedelta(days=1)
    return datetime.combine(day, at, tzinfo=BRATISLAVA)


class Scheduler:
    """Fires stored timers exactly once and runs the nightly job."""

    def __init__(self, app: App, *, nightly: Nightly | None = None,
                 nightly_at: time = time(3, 0), max_sleep: float = 60.0) -> None:
        self.app = app
        self.nightly = nightly
        self.nightly_at = nightly_at
        self.max_sleep = max_sleep
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._cron: AsyncIOScheduler | None = None
        self._stopping = False
        self._failed: set[int] = set()  # timers that raised: left pending for the next start
        self.fired = 0  # how many timers this scheduler fired (for the log and the tests)

    # -- timers ---------------------------------------------------------------------------

    async def run_due(self) -> int:
        """Fire every timer due now (by the app's clock); returns how many fired."""
        fired = 0
        while True:
            due = await self.app.store.read(due_timers, self.app.clock.now())
            todo = [t for t in due if t.id not in self._failed]
            if not todo:
                return fired
            for timer in todo:
                if await self._fire_one(timer):
                    fired += 1
            # handling a timer may add timers already due (auto-apply after 0 min): go again

    async def fire(self, timer: Timer) -> bool:
        """Fire one due timer, as `run_due` fires each: for a caller that steps the timers one
        at a time (the season rehearsal says whose event each one's messages are)."""
        return await self._fire_one(timer)

    async def _fire_one(self, timer: Timer) -> bool:
        try:
            # heavy work a timer can do before its claim, off the store's thread (a duplicate
            # round's close); it is guarded, so a crash here leaves the timer to retry it
            await prepare_timer(self.app, timer)
            outcome = await self.app.run(_fire, timer)
        except Exception as error:  # a bug in one timer must not stop the others
            log.exception("timer %s failed", timer.key)
            self._failed.add(timer.id)
            await self.app.run(_record_failure, timer, f"{type(error).__name__}: {error}")
            return False
        if outcome is True:
            self.fired += 1
            return True
        if outcome is not False:  # a Refusal rolled the claim back: treat as a failure
            self._failed.add(timer.id)
        return False

    def wake(self) -> None:
        """New timers were added (or the clock moved): look again now."""
        self._wake.set()

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                await self.run_due()
                upcoming = await self.app.store.read(next_due)
            except Exception:  # the store failed: keep the loop alive, try again later
                log.exception("scheduler loop")
                upcoming = None
            delay = self.max_sleep
            if upcoming is not None:
                seconds = (upcoming - self.app.clock.now()).total_seconds()
                # a due timer still pending here failed: wait, do not spin
                delay = min(self.max_sleep, seconds) if seconds > 0 else self.max_sleep
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    # -- nightly --------------------------------------------------------------------------

    async def nightly_due(self) -> bool:
        """Whether some event's successful nightly run is older than the last scheduled time
        (per event: one event's run does not cover another's, `results.nightly.nightly_due`)."""
        scheduled = last_scheduled(self.app.clock.now(), self.nightly_at)
        return bool(await self.app.run(nightly_due, scheduled))

    async def _run_nightly(self) -> None:
        if self.nightly is None:
            return
        try:
            await self.nightly(last_scheduled(self.app.clock.now(), self.nightly_at))
        except Exception:  # logged; the next night (or the next start's catch-up) retries
            log.exception("nightly job failed")

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Fire what is overdue, catch up a missed nightly run, then keep running."""
        self._stopping = False
        await self.run_due()
        if self.nightly is not None:
            self._cron = AsyncIOScheduler(timezone=BRATISLAVA)
            trigger = CronTrigger(hour=self.nightly_at.hour, minute=self.nightly_at.minute,
                                  timezone=BRATISLAVA)
            self._cron.add_job(self._run_nightly, trigger, id="nightly", coalesce=True,
                               max_instances=1, misfire_grace_time=3600)
            self._cron.start()
            if await self.nightly_due():
                await self._run_nightly()
        self._task = asyncio.create_task(self._loop(), name="stredisko-scheduler")

    async def stop(self) -> None:
        """Stop cleanly: the loop ends after the timer in hand; the cron job is removed."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, timeout=10)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
            self._task = None
        if self._cron is not None:
            self._cron.shutdown(wait=False)
            self._cron = None
