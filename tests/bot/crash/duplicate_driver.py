"""A whole duplicate game played by a process that may be killed anywhere (issue 24.4).

    python duplicate_driver.py SCENARIO DB SINK PROGRESS [--crash POINT:N] [--counts FILE]
                               [--answer-first]

The duplicate rehearsal (`bot.rehearse.duplicate`: the duplicate services, the real store and
timers on a simulated clock) run step by step, like the classic `driver.py` whose crash
machinery it shares: after each step it writes the step's number to PROGRESS; started again on
the same DB it resumes — attaches to the event, delivers the pending outbox (what a bot does at
start) and re-runs the step that was cut short. Messages go to SINK, deduplicated by nonce.

Crash points: `commit:before`, `commit:after`, `send:before`, `send:after`, `answer:after`
(driver.py; `--answer-first`: the bot's App, as there), and
- `board:before` / `board:after` — around handing "Discord" a message that carries the board
  image (a round's rack, a top with the new board): "while posting the board";
- `deadline` — a round's deadline timer is due, its close not yet begun: "at the deadline";
- `close:after` — the close is written (scores, the top, the DMs queued), its timer not yet
  claimed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import driver
from driver import (
    Sink,
    _patch_answer,
    _patch_store,
    _progress,
    _save_progress,
    enter,
    finish,
    session,
)

from bot import scheduler
from bot.clock import ManualClock
from bot.rehearse.duplicate import DuplicateRehearsal, start_time
from bot.rehearse.duplicate_scenario import DuplicateScenario, load_duplicate_scenario
from bot.rehearse.output import Transcript
from bot.services.app import App
from bot.services.notifier import Message
from bot.services.tournament import timers as timer_service

DEADLINE_KIND = "dup_deadline"


def _patch_board() -> None:
    post = Sink._post

    def posting(self: Sink, where: str, target: int, message: Message) -> None:
        board = "image" in message.params
        if board:
            driver.CRASH.hit("board:before")
        post(self, where, target, message)
        if board:
            driver.CRASH.hit("board:after")

    Sink._post = posting  # type: ignore[method-assign]


def _patch_deadline() -> None:
    """The scheduler closes a round before it claims the deadline's timer (`prepare_timer`)."""
    prepare = timer_service.prepare_timer

    async def preparing(app: Any, timer: Any) -> None:
        if timer.kind == DEADLINE_KIND:
            driver.CRASH.hit("deadline")
        await prepare(app, timer)
        if timer.kind == DEADLINE_KIND:
            driver.CRASH.hit("close:after")

    scheduler.prepare_timer = preparing  # type: ignore[attr-defined]


#: builds the game's rehearsal for a run (the hall driver's arbiter also writes a console file
#: next to SINK)
Make = Callable[[DuplicateScenario, App, ManualClock, Transcript, dict[int, str], Path],
                DuplicateRehearsal]


async def play_game(scenario: DuplicateScenario, make: Make, db: Path, sink: Path,
                    progress: Path) -> None:
    """Play `scenario`'s steps from the first not yet done (`progress`), each step named to the
    crash (`POINT:N@STEP`)."""
    done, at = _progress(progress)
    async with session(db, sink, at or start_time(scenario)) as (clock, app):
        names: dict[int, str] = {}
        transcript = Transcript(clock, lambda pid: names.get(pid, str(pid)))
        r = make(scenario, app, clock, transcript, names, sink)
        await enter(app, scenario.propozicie.slug, r.create, r.attach)
        await app.sender.flush()  # what a restarted bot does first
        for i, (name, action) in enumerate(r.steps()):
            if i < done:
                continue
            _save_progress(progress, i, clock.now())  # a restart resumes at this moment
            driver.CRASH.enter(name)
            await action()
            _save_progress(progress, i + 1, clock.now())
        await finish(app)


async def play(scenario_path: Path, db: Path, sink: Path, progress: Path) -> None:
    await play_game(load_duplicate_scenario(scenario_path),
                    lambda sc, app, clock, transcript, names, _: DuplicateRehearsal(
                        sc, app, clock, transcript, names), db, sink, progress)


def main(argv: list[str]) -> int:
    return driver.run_driver(argv, play,
                             (_patch_store, _patch_board, _patch_deadline, _patch_answer))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
