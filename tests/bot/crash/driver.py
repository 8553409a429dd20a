"""A whole small tournament played by a process that may be killed anywhere (the crash campaign).

    python driver.py SCENARIO DB SINK PROGRESS [--crash POINT:N] [--counts FILE] [--answer-first]

It is the rehearsal (`bot.rehearse.engine`: the real services, store, timers and herna.net
scraper against the simulator on 127.0.0.1, on a simulated clock) run step by step. After each
step it writes the step's number to PROGRESS; started again on the same DB it resumes: it
attaches to the tournament, delivers the pending outbox (what a bot does at start) and re-runs
the step that was cut short — so every step must be safe to repeat, which is what the campaign
proves. The clock resumes at the moment the killed process had reached (its step's start, or the
last timer it fired if later: `resume_clock`): a crash costs no time.

Messages go to SINK, a file standing in for Discord: one JSON line per delivered message,
deduplicated by the message's nonce as Discord's `enforce_nonce` does (a repeat is logged as
such, not delivered twice).

`--crash POINT:N` ends the process with os._exit (as abruptly as SIGKILL: no cleanup, no
flush) at the N-th passage of POINT (`POINT:N@STEP`: counted from the named step's start, for a
driver that names its steps — the hall driver):
- `commit:before` — a transaction's work done, before its COMMIT (the store thread);
- `commit:after` — right after a COMMIT, before the caller hears of it;
- `send:before` / `send:after` — around handing a message to "Discord" (after: delivered but
  not yet marked sent);
- `http` — before an HTTP request to herna.net leaves;
- `answer:after` — a use case that queued messages has answered its caller: with
  `--answer-first` while its delivery is still to come or under way, otherwise after it.
`--counts FILE` writes how often each point was passed (the campaign draws N from them).

`--answer-first` plays with the App as the bot's runner makes it (`App(answer_first=True)`,
bot/discord/runner.py): each caller is answered after his commit and the next step goes on while
his messages are delivered — each post to "Discord" is a round trip (the sink yields to the
loop before and after it), so the two interleave as with a real Discord. At the game's end the
deliveries still running are awaited (`App.settle`, as at the runner's stop) before the last
pass. Without it the caller waits for the delivery (the rehearsal's, the CLI's App).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from bot.clock import ManualClock
from bot.console import render_message
from bot.rehearse.engine import (
    POLL,
    SIM_PASSWORD,
    SIM_USER,
    Rehearsal,
    Step,
    _polite_off,
    start_time,
)
from bot.rehearse.output import Transcript
from bot.rehearse.scenario import load_scenario
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.notifier import Message
from bot.store import NotFoundError, Store, Tournament, get_tournament_by_slug
from bot.store.db import Store as StoreClass
from scrapers.herna import Credentials, HernaClient
from scrapers.herna.simulator import Simulator

KILLED = 137  # the exit code of a process killed by SIGKILL


class Crash:
    """Counts passages of the crash points; ends the process at the chosen one. "POINT:N@STEP"
    (a driver that names its steps, `enter`): the N-th passage counted from STEP's start."""

    def __init__(self, spec: str | None) -> None:
        self.counts: Counter[str] = Counter()
        self.point, self.at, self.step = None, 0, None
        if spec:
            spec, _, step = spec.partition("@")
            point, n = spec.rsplit(":", 1)
            self.point, self.at, self.step = point, int(n), step or None

    def enter(self, step: str) -> None:
        """The driver starts `step`: a kill named for it is armed from here."""
        if self.step is not None and step == self.step and self.point is not None:
            self.at += self.counts[self.point]
            self.step = None

    def hit(self, point: str) -> None:
        self.counts[point] += 1
        if point == self.point and self.step is None and self.counts[point] == self.at:
            os._exit(KILLED)


CRASH = Crash(None)
ANSWER_FIRST = False  # --answer-first: the App as the bot's runner makes it
#: this process's mark on what it hands "Discord" (a repeat by the same process is no restart's)
RUN = secrets.token_hex(6)
_handed_on = 0  # use cases whose queued messages App.run handed on (`_patch_answer`)


def make_app(store: Store, clock: ManualClock, sink: Path) -> App:
    """The App of a run: the bot's (`--answer-first`) or the waiting one (see the module)."""
    return App(store, clock, Sink(sink), answer_first=ANSWER_FIRST)


async def finish(app: App) -> None:
    """The game is over: the deliveries still running after their answers end (as at the
    runner's stop), then one more pass (the bot's periodic one)."""
    await app.settle()
    await app.sender.flush()


def _patch_store() -> None:
    """Crash points around each write job's commit: after its work, inside the transaction
    (`commit:before`), and once its group has committed (`commit:after`)."""
    execute_group = StoreClass._execute_group

    def crashing(self: Store, db: Any, jobs: list[Any], lead: list[Any] = ()) -> None:  # type: ignore[assignment]
        def at_commit(fn: Any) -> Any:
            def work(db: Any, *a: Any, **k: Any) -> Any:
                value = fn(db, *a, **k)
                CRASH.hit("commit:before")
                return value
            return work

        writes = sum(1 for job in (*lead, *jobs) if job[3])
        # a job is (fn, args, kwargs, write, …): only its function is wrapped; `lead`: the
        # deferred jobs (a delivery pass's marks) heading the transaction
        execute_group(self, db, *([(at_commit(job[0]), *job[1:]) if job[3] else job
                                   for job in group] for group in (jobs, lead)))
        for _ in range(writes):
            CRASH.hit("commit:after")

    StoreClass._execute_group = crashing  # type: ignore[method-assign]


def _patch_answer() -> None:
    """`answer:after`: App.run has answered a caller whose use case queued messages (counted by
    `App.after_commit`, which it calls for them)."""
    run, after_commit = App.run, App.after_commit

    def handing_on(self: App, *args: Any, **kwargs: Any) -> Any:
        global _handed_on
        _handed_on += 1
        return after_commit(self, *args, **kwargs)

    async def answering(self: App, *args: Any, **kwargs: Any) -> Any:
        before = _handed_on
        value = await run(self, *args, **kwargs)
        if _handed_on != before:
            CRASH.hit("answer:after")
        return value

    App.after_commit = handing_on  # type: ignore[method-assign]
    App.run = answering  # type: ignore[method-assign]


def _patch_http() -> None:
    send = httpx.AsyncClient.send

    async def crashing(self: httpx.AsyncClient, request: httpx.Request, **kwargs: Any) -> Any:
        CRASH.hit("http")
        return await send(self, request, **kwargs)

    httpx.AsyncClient.send = crashing  # type: ignore[method-assign]


class Sink:
    """Discord, as far as delivery goes: a message with a nonce seen before is not posted again."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _seen(self) -> set[str]:
        if not self.path.exists():
            return set()
        lines = self.path.read_text(encoding="utf-8").splitlines()
        return {json.loads(line)["nonce"] for line in lines if line}

    def _post(self, where: str, target: int, message: Message) -> None:
        CRASH.hit("send:before")
        nonce = message.ref or ""
        repeat = nonce in self._seen()
        line = {"nonce": nonce, "where": where, "target": target, "repeat": repeat,
                "key": message.key, "run": RUN,
                "text": "\n".join(render_message(message))}
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:  # one write(2) per line: a kill leaves whole lines only
            os.write(fd, (json.dumps(line, ensure_ascii=False) + "\n").encode())
        finally:
            os.close(fd)
        CRASH.hit("send:after")

    async def _round_trip(self, where: str, target: int, message: Message) -> None:
        """A post is a round trip: the loop runs other work on the way there and back."""
        await asyncio.sleep(0)
        self._post(where, target, message)
        await asyncio.sleep(0)

    async def announce(self, tournament_id: int, message: Message) -> None:
        await self._round_trip("channel", tournament_id, message)

    async def direct(self, player_id: int, message: Message) -> None:
        await self._round_trip("dm", player_id, message)

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        await self._round_trip("admin", tournament_id, message)


def read_progress(path: Path) -> dict[str, Any]:
    """What PROGRESS holds (`_save_progress`): `done` and `at` (a datetime, or None before the
    first step), and whatever else a driver keeps there."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"done": 0}
    data["at"] = datetime.fromisoformat(data["at"]) if data.get("at") else None
    return dict(data)


def _progress(path: Path) -> tuple[int, datetime | None]:
    data = read_progress(path)
    return int(data["done"]), data["at"]


def _last_fired(db: Any) -> datetime | None:
    at = db.execute("SELECT max(fired_at) FROM timers").fetchone()[0]
    return datetime.fromisoformat(at) if at else None


async def resume_clock(store: Store, clock: ManualClock) -> None:
    """A restarted process's clock: not before the last timer the killed one fired. PROGRESS
    holds the cut-short step's start, and a step repeated from there moves the clock as it did
    (to its events, by its own gaps) — except to the timers it fired, which a repeat finds
    fired: resumed before them, the next steps would act earlier than the clean run's (a
    duplicate game's protests before the game's end)."""
    fired = await store.read(_last_fired)
    if fired is not None and fired > clock.now():
        clock.set(fired)


def _save_progress(path: Path, done: int, at: datetime, **more: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"done": done, "at": at.isoformat(), **more}), encoding="utf-8")
    os.replace(tmp, path)


@asynccontextmanager
async def session(db: Path, sink: Path, at: datetime) -> AsyncIterator[tuple[ManualClock, App]]:
    """One process's clock (resumed: `resume_clock`) and App on the store at `db`."""
    clock = ManualClock(at)
    store = await Store.open(db)
    try:
        await resume_clock(store, clock)
        yield clock, make_app(store, clock, sink)
    finally:
        await store.close()


@asynccontextmanager
async def herna_simulator(clock: ManualClock) -> AsyncIterator[tuple[Simulator, HernaClient]]:
    """herna.net as the rehearsal plays it: the simulator on 127.0.0.1 and a client of it."""
    sim = Simulator({SIM_USER: SIM_PASSWORD}, clock=clock.now)
    async with sim.serve() as url, HernaClient(
            Credentials(SIM_USER, SIM_PASSWORD), _polite_off(url)) as herna:
        yield sim, herna


async def enter(app: App, slug: str, create: Callable[[], Awaitable[None]],
                attach: Callable[[Tournament], Awaitable[None]]) -> None:
    """Create the event `slug`, or attach to it when an earlier process did."""
    existing = await app.store.read(_tournament, slug)
    if existing is None:
        await create()
    else:
        await attach(existing)


async def classic_step(r: Rehearsal, scheduler: Scheduler, step: Step,
                       reached: Callable[[], None]) -> None:
    """One step of the classic timeline: the timers due before it, its moment (`reached`
    notes it: a restart resumes there), its action."""
    moment, order, _, action = step
    await r._advance(scheduler, moment, inclusive=order > POLL)
    reached()
    await action()


async def play(scenario_path: Path, db: Path, sink: Path, progress: Path) -> None:
    scenario = load_scenario(scenario_path)
    done, at = _progress(progress)
    async with session(db, sink, at or start_time(scenario)) as (clock, app), \
            herna_simulator(clock) as (sim, herna):
        names: dict[int, str] = {}
        transcript = Transcript(clock, lambda pid: names.get(pid, str(pid)))
        r = Rehearsal(scenario, app, clock, sim, herna, transcript, names,
                      skip_idle_polls=False)
        await enter(app, scenario.propozicie.slug, r._create, r.attach)
        await app.sender.flush()  # what a restarted bot does first
        scheduler = Scheduler(app)
        for i, step in enumerate(r.steps()):
            if i < done:
                continue
            await classic_step(r, scheduler, step,
                               lambda i=i: _save_progress(progress, i, clock.now()))
            _save_progress(progress, i + 1, clock.now())
        await finish(app)


def _tournament(db: Any, slug: str) -> Tournament | None:
    try:
        return get_tournament_by_slug(db, slug)
    except NotFoundError:
        return None


def run_driver(argv: list[str], game: Callable[[Path, Path, Path, Path], Awaitable[None]],
               patches: Iterable[Callable[[], None]]) -> int:
    """A driver's command line (SCENARIO DB SINK PROGRESS [--crash POINT:N] [--counts FILE]
    [--answer-first]): arm the crash, patch the crash points in, play `game`, write the points'
    hit counts."""
    global CRASH, ANSWER_FIRST, RUN
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", type=Path)
    parser.add_argument("db", type=Path)
    parser.add_argument("sink", type=Path)
    parser.add_argument("progress", type=Path)
    parser.add_argument("--crash")
    parser.add_argument("--counts", type=Path)
    parser.add_argument("--answer-first", action="store_true")
    args = parser.parse_args(argv)
    CRASH, ANSWER_FIRST = Crash(args.crash), args.answer_first
    RUN = secrets.token_hex(6)  # a run forked from the zygote: a mark of its own
    for patch in patches:
        patch()
    asyncio.run(game(args.scenario, args.db, args.sink, args.progress))
    if args.counts is not None:
        args.counts.write_text(json.dumps(CRASH.counts), encoding="utf-8")
    return 0


def main(argv: list[str]) -> int:
    return run_driver(argv, play, (_patch_store, _patch_http, _patch_answer))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
