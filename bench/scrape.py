"""Wall time to fetch the history and the 32 records of a 64-player round from the local
simulator over real HTTP, politeness limits off (target: < 1 s). Prints numbers; asserts none.

The simulator runs in the same process and event loop, so its page rendering is inside the
measured time too.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdicts import Verdicts

from scrapers.herna.client import Credentials, HernaClient, HernaSettings
from scrapers.herna.generate import generate_round
from scrapers.herna.simulator import Simulator

TARGET = 1.0
RUNS = 7


async def one_run(url: str, since: datetime) -> tuple[float, int, int]:
    settings = HernaSettings(base_url=url, max_concurrent=None, per_second=None, backoff=0.0)
    begin = time.perf_counter()
    async with HernaClient(Credentials("sss", "heslo"), settings) as herna:
        records = [r async for r in herna.records(since)]
    return time.perf_counter() - begin, len(records), herna.requests


async def main() -> None:
    start = datetime(2026, 3, 7, 8, 0, tzinfo=UTC)
    sim = Simulator({"sss": "heslo"}, clock=lambda: start + timedelta(hours=1))
    sim.add_games(generate_round(64, start, seed=11))
    # Older rounds in the archive: the history must stop paging once it reaches them.
    for n in range(1, 4):
        sim.add_games(generate_round(64, start - timedelta(days=7 * n), seed=n, first_id=n * 1000))
    async with sim.serve() as url:
        runs = [await one_run(url, start) for _ in range(RUNS)]
    times = [t for t, _, _ in runs]
    _, records, requests = runs[0]
    best, median = min(times), statistics.median(times)
    print(f"64-player round: {records} records, {requests} requests (login + history + records)")
    print(
        f"wall time over {RUNS} runs: best {best:.3f} s, median {median:.3f} s, "
        f"worst {max(times):.3f} s"
    )
    verdicts = Verdicts()
    verdicts.add(f"a 64-player round's history and records: median < {TARGET:.1f} s",
                 median < TARGET, f"{median:.3f} s")
    verdicts.print(f"median of {RUNS} runs")


if __name__ == "__main__":
    asyncio.run(main())
