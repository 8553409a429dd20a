"""The bundled rehearsal (`make demo`: 24 players, 7 rounds, examples/rehearsal/kt-online-24.toml)
timed end to end: wall and CPU time of 3 runs, where the wall time goes at the top level
(the engine's steps, the sync passes, the timers, the store transactions, herna.net requests),
and a cProfile summary (top 10 cumulative), the resident memory after each run. Targets: the
default run (idle polls skipped) under 30 s of CPU (a `make demo` that answers within half a
minute on a busy 2-core machine), the process under 150 MiB (the bound the bot keeps, bench/
discord_dispatch.py), and the same document with or without skipping. Prints numbers and a
verdict; asserts none.

Each run is done twice: `every poll` polls herna.net every 5 minutes as the live bot does;
`idle polls skipped` (the default) leaves out a poll while the simulator shows exactly what
the round's last pass saw (see `bot.rehearse.engine`). The simulator runs in the same process
and event loop, so rendering its pages is inside the measured times.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts, rss_mib

from bot.rehearse.engine import Outcome, Rehearsal, rehearse
from bot.rehearse.events import Events
from bot.rehearse.scenario import Scenario, load_scenario
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.results import sync
from scrapers.herna.client import HernaClient

SCENARIO = Path(__file__).resolve().parent.parent / "examples" / "rehearsal" / "kt-online-24.toml"
RUNS = 3
CPU_TARGET_S = 30.0
RSS_TARGET_MIB = 150.0
# (label, owner, attribute): async callables whose wall time is summed; they may nest
# (a sync pass inside a poll step runs store transactions and herna.net requests)
TIMED: list[tuple[str, Any, str]] = [
    ("steps: game/player events", Events, "run"),
    ("steps: polls (poll_round)", Rehearsal, "_poll"),
    ("steps: pair, close round", Rehearsal, "_pair"),
    ("steps: the end", Rehearsal, "_end"),
    ("timers (Scheduler.run_due)", Scheduler, "run_due"),
    ("sync passes (sync_round)", sync, "sync_round"),
    ("herna.net requests", HernaClient, "_request"),
    ("store transactions (App.run)", App, "run"),
]


@contextmanager
def timed(totals: dict[str, list[float]]) -> Iterator[None]:
    """Wrap every TIMED callable so that its wall time and call count add up in `totals`."""
    saved = [(owner, name, getattr(owner, name)) for _, owner, name in TIMED]

    def wrap(label: str, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            begin = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                entry = totals[label]
                entry[0] += time.perf_counter() - begin
                entry[1] += 1
        return wrapper

    for (label, owner, name), (_, _, fn) in zip(TIMED, saved, strict=True):
        setattr(owner, name, wrap(label, fn))
    try:
        yield
    finally:
        for owner, name, fn in saved:
            setattr(owner, name, fn)


async def one_run(scenario: Scenario, folder: Path, n: int, skip_idle: bool
                  ) -> tuple[float, float, Outcome]:
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = await rehearse(scenario, folder / f"bench-{n}.db", skip_idle_polls=skip_idle)
    return time.perf_counter() - wall, time.process_time() - cpu, outcome


def runs(scenario: Scenario, folder: Path, skip_idle: bool, label: str
         ) -> tuple[dict[str, Any], float, float]:
    """RUNS timed runs; returns the last run's JSON document and the median wall and CPU."""
    print(f"-- {label}")
    walls, cpus = [], []
    for n in range(RUNS):
        wall, cpu, outcome = asyncio.run(one_run(scenario, folder,
                                                 n + (10 if skip_idle else 0), skip_idle))
        walls.append(wall)
        cpus.append(cpu)
        rss, peak = rss_mib()
        print(f"run {n + 1}: wall {wall:.2f} s, CPU {cpu:.2f} s, RSS {rss:.1f} MiB "
              f"(peak {peak:.1f}), transcript {len(outcome.transcript)} lines")
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"median: wall {wall:.2f} s, CPU {cpu:.2f} s")
    return outcome.document, wall, cpu


def breakdown(scenario: Scenario, folder: Path, skip_idle: bool) -> None:
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    with timed(totals):
        wall, _, _ = asyncio.run(one_run(scenario, folder, 90 + skip_idle, skip_idle))
    print(f"where the wall time goes (one run, {wall:.2f} s; the rows nest):")
    for label, _, _ in TIMED:
        seconds, calls = totals[label]
        print(f"  {label:<32} {seconds:6.2f} s  {seconds / wall:5.1%}  {int(calls):6d} calls")


def profile(scenario: Scenario, folder: Path) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    asyncio.run(one_run(scenario, folder, 99, True))
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(10)
    print("cProfile, top 10 cumulative (coroutines count once per resumption):")
    print("\n".join(line for line in text.getvalue().splitlines()[4:] if line.strip()))


def main() -> None:
    scenario = load_scenario(SCENARIO)
    print(f"rehearsal of {SCENARIO.name}: {len(scenario.propozicie.players)} players, "
          f"{len(scenario.round_starts)} rounds, {len(scenario.events)} events; {RUNS} runs")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        documents = []
        for skip_idle, label in ((False, "before: every poll"),
                                 (True, "after: idle polls skipped")):
            document, wall, cpu = runs(scenario, folder, skip_idle, label)
            documents.append(document)
            breakdown(scenario, folder, skip_idle)
        same = documents[0] == documents[1]
        print("same JSON document (results, standings, transcript) before and after: "
              f"{'yes' if same else 'NO (a bug in the skipping)'}")
        profile(scenario, folder)
    _, peak = rss_mib()
    verdicts = Verdicts()
    verdicts.add(f"`make demo`'s rehearsal (idle polls skipped): CPU median < {CPU_TARGET_S:.0f} s",
                 cpu < CPU_TARGET_S, f"{cpu:.2f} s (wall {wall:.2f} s)")
    verdicts.add(f"peak RSS < {RSS_TARGET_MIB:.0f} MiB", peak < RSS_TARGET_MIB,
                 f"{peak:.1f} MiB after every run and the profile")
    verdicts.add("skipping idle polls changes nothing", same, "same JSON document" if same
                 else "the documents differ")
    verdicts.print()


if __name__ == "__main__":
    main()
