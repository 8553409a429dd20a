"""Two events open at once in one process that may be killed anywhere (issue 37.4).

    python two_events_driver.py SPEC DB SINK PROGRESS [--crash POINT:N] [--counts FILE]
                                [--answer-first]

One bot serves every unfinished event of its database: here the classic tournament of
driver.py (against the herna.net simulator) and the online duplicate game of
duplicate_driver.py, both in ONE database with ONE App — one store, one clock, one outbox, one
timer scheduler (every timer of both events fired by whichever timeline reaches it, each at its
own due time). SPEC (two-events.toml) names the two scenarios and moves the duplicate game's
start into the classic rounds.

The two drivers' step lists, merged in time order: a classic step has its moment; a duplicate
step's is known once the game has reached it (`BesideClassic.moment`: its round open, the game
over) — until then the shared timers are fired one moment at a time, up to the classic's next
step (and before a step that moves the clock on without firing them: `BesideClassic.leaps`).
At one moment the duplicate step goes first. The duplicate game fires no timer at or
after the classic's next moment (`BesideClassic.horizon`): its end does not run the classic's
timers ahead of the classic's steps.

PROGRESS keeps how many steps of each are done and which one is under way (`doing`): a restart
repeats the step that was cut short, then goes on choosing from the store, as the clean run
did. Crash points: driver.py's and duplicate_driver.py's, every one of them; a kill may be
placed within a step (`POINT:N@STEP`): a duplicate step by its name, a classic one as
`classic:I` (its index in the classic timeline).
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import driver
from driver import (
    _patch_answer,
    _patch_http,
    _patch_store,
    _save_progress,
    classic_step,
    enter,
    finish,
    herna_simulator,
    read_progress,
    session,
)
from duplicate_driver import _patch_board, _patch_deadline

from bot.clock import ManualClock
from bot.rehearse import duplicate_api as api
from bot.rehearse import engine
from bot.rehearse.duplicate import PROTEST_GAP, DuplicateRehearsal, game_start
from bot.rehearse.duplicate import Step as DuplicateStep
from bot.rehearse.duplicate import start_time as duplicate_start_time
from bot.rehearse.duplicate_scenario import DuplicateScenario, parse_duplicate_scenario
from bot.rehearse.output import Transcript
from bot.rehearse.scenario import Scenario, load_scenario
from bot.scheduler import Scheduler

CLASSIC, DUPLICATE = "classic", "duplicate"  # the two timelines, as PROGRESS names them


@dataclass(frozen=True)
class TwoEvents:
    classic: Scenario
    duplicate: DuplicateScenario


def load_two_events(path: Path) -> TwoEvents:
    """SPEC: `classic` and `duplicate` (scenario files, relative to it) and `duplicate_start`
    (the duplicate game's start, written over its [tournament] round_starts)."""
    spec = tomllib.loads(path.read_text(encoding="utf-8"))
    duplicate = path.parent / spec["duplicate"]
    text, moved = re.subn(r"^round_starts = .*$",
                          f'round_starts = ["{spec["duplicate_start"]}"]',
                          duplicate.read_text(encoding="utf-8"), count=1, flags=re.MULTILINE)
    if moved != 1:
        raise ValueError(f"{duplicate}: no [tournament] round_starts to move")
    return TwoEvents(load_scenario(path.parent / spec["classic"]),
                     parse_duplicate_scenario(text, str(duplicate)))


@dataclass
class BesideClassic(DuplicateRehearsal):
    """The online duplicate game beside a classic event, on one clock and one scheduler."""

    #: the classic's next moment: no timer due at or after it is fired here (None: no classic
    #: step is left)
    horizon: datetime | None = None

    async def _fire_next(self, limit: datetime, *, inclusive: bool = True) -> bool:
        if self.horizon is not None and limit >= self.horizon:
            limit, inclusive = self.horizon, False
        return await super()._fire_next(limit, inclusive=inclusive)

    async def moment(self, name: str) -> datetime | None:
        """When the step `name` acts, as the game stands now; None while it waits for the
        timers to move the game on (its round not yet open, the game still running)."""
        kind, _, rest = name.partition(":")
        if kind == "start":
            return game_start(self.scenario)
        if kind in ("slip", "leave"):
            index = int(rest.rsplit(":", 1)[1])
            e = next(e for e in self.scenario.events if e.index == index)
            opened = await api.round_opened_at(self.app, self.slug, e.round)
            return None if opened is None else opened + e.after
        if kind == "end" and await api.game_running(self.app, self.slug):
            return None
        if kind in ("protest", "decide"):
            return self.clock.now() + PROTEST_GAP
        return self.clock.now()  # the end of a game over, the final results

    @staticmethod
    def leaps(name: str) -> bool:
        """The step `name` moves the clock on without firing the timers due on the way (a
        protest, a decision a minute after the last step; the final results): the driver
        fires them first, as the bot's scheduler would have."""
        return name.partition(":")[0] in ("protest", "decide", "final")


@dataclass
class Interleaved:
    """The classic and the duplicate timeline merged in time order, resumable (PROGRESS)."""

    classic: engine.Rehearsal
    duplicate: BesideClassic
    clock: ManualClock
    progress: Path
    done: dict[str, int] = field(default_factory=dict)  # steps done, by timeline

    async def run(self, scheduler: Scheduler) -> None:
        state = read_progress(self.progress)
        self.done = {CLASSIC: int(state["done"]), DUPLICATE: int(state.get(DUPLICATE, 0))}
        classic, duplicate = self.classic.steps(), self.duplicate.steps()
        doing: str | None = state.get("doing")  # the step a kill cut short, repeated first
        while self.done[CLASSIC] < len(classic) or self.done[DUPLICATE] < len(duplicate):
            moment = (classic[self.done[CLASSIC]][0] if self.done[CLASSIC] < len(classic)
                      else None)
            self.duplicate.horizon = moment
            which = doing or await self._next(moment, duplicate)
            doing = None
            if which is None:  # a timer fired: choose again
                continue
            self._save(which)
            if which == CLASSIC:
                driver.CRASH.enter(f"{CLASSIC}:{self.done[CLASSIC]}")
                await classic_step(self.classic, scheduler, classic[self.done[CLASSIC]],
                                   lambda: self._save(CLASSIC))
            else:
                name, action = duplicate[self.done[DUPLICATE]]
                driver.CRASH.enter(name)
                await action()
            self.done[which] += 1
            self._save(None)

    async def _next(self, moment: datetime | None,
                    duplicate: list[DuplicateStep]) -> str | None:
        """Whose step comes next; None after firing the timers due at the earliest moment
        before the classic's next step, while the duplicate's next one waits for them."""
        if self.done[DUPLICATE] >= len(duplicate):
            return CLASSIC
        if moment is None:
            return DUPLICATE
        name = duplicate[self.done[DUPLICATE]][0]
        due = await self.duplicate.moment(name)
        if due is None or self.duplicate.leaps(name):
            if await self.duplicate._fire_next(min(due or moment, moment), inclusive=False):
                return None
            if due is None:
                return CLASSIC
        return DUPLICATE if due <= moment else CLASSIC

    def _save(self, doing: str | None) -> None:
        _save_progress(self.progress, self.done[CLASSIC], self.clock.now(),
                       duplicate=self.done[DUPLICATE], doing=doing)


async def play(spec_path: Path, db: Path, sink: Path, progress: Path) -> None:
    spec = load_two_events(spec_path)
    start = min(engine.start_time(spec.classic), duplicate_start_time(spec.duplicate))
    async with session(db, sink, read_progress(progress)["at"] or start) as (clock, app), \
            herna_simulator(clock) as (sim, herna):
        names: dict[int, str] = {}
        transcript = Transcript(clock, lambda pid: names.get(pid, str(pid)))
        classic = engine.Rehearsal(spec.classic, app, clock, sim, herna, transcript, names,
                                   skip_idle_polls=False)
        await enter(app, spec.classic.propozicie.slug, classic._create, classic.attach)
        duplicate = BesideClassic(spec.duplicate, app, clock, transcript, names)
        await enter(app, spec.duplicate.propozicie.slug, duplicate.create, duplicate.attach)
        await app.sender.flush()  # what a restarted bot does first
        await Interleaved(classic, duplicate, clock, progress).run(Scheduler(app))
        await finish(app)


def main(argv: list[str]) -> int:
    return driver.run_driver(argv, play, (_patch_store, _patch_http, _patch_board,
                                          _patch_deadline, _patch_answer))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

