"""Store latency: 200 concurrent small writes (evidence append + its audit row) via store.call.

Prints the median and p99 latency of one call (submit → result, queueing included) and the
throughput, over several bursts on a real SQLite file (WAL, synchronous=NORMAL). Target: the
p99 under 100 ms — the bound a burst of 200 whole result reports must keep (bench/reports.py),
so the bare store write must keep it with room to spare.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlite_utils import Database
from verdicts import Verdicts

from bot.store import (
    Change,
    EvidenceKind,
    Store,
    add_entry,
    append_evidence,
    create_player,
    create_tournament,
    replace_pairings,
)

WRITERS = 200
P99_TARGET_MS = 100.0
BURSTS = 10
START = datetime(2025, 3, 1, 9, tzinfo=UTC)


def setup(db: Database) -> int:
    by = Change.admin("bench", START)
    tournament = create_tournament(db, slug="bench", name="Bench", season="2024/2025",
                                   round_starts=[START], waiting_minutes=10,
                                   game_limit_minutes=50, by=by)
    ids = []
    for nick in ("a", "b"):
        ids.append(create_player(db, name=nick, herna_nick=nick, by=by).id)
        add_entry(db, tournament.id, ids[-1], by)
    return replace_pairings(db, tournament.id, 1, [(1, ids[0], ids[1])], by)[0].id


async def timed_write(store: Store, pairing: int, n: int) -> float:
    by = Change.player("a", START + timedelta(milliseconds=n))
    began = time.perf_counter()
    await store.call(append_evidence, pairing, EvidenceKind.ARRIVAL, by, payload={"n": n})
    return time.perf_counter() - began


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        pairing = await store.call(setup)
        latencies: list[float] = []
        began = time.perf_counter()
        for burst in range(BURSTS):
            latencies += await asyncio.gather(
                *(timed_write(store, pairing, burst * WRITERS + n) for n in range(WRITERS)))
        elapsed = time.perf_counter() - began
        await store.close()
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"store.call, {BURSTS} bursts x {WRITERS} concurrent writes "
          "(evidence append + audit row):")
    print(f"  median latency {statistics.median(latencies) * 1000:8.2f} ms")
    print(f"  p99 latency    {p99 * 1000:8.2f} ms")
    print(f"  max latency    {latencies[-1] * 1000:8.2f} ms")
    print(f"  throughput     {len(latencies) / elapsed:8.0f} writes/s")
    verdicts = Verdicts()
    verdicts.add(f"{WRITERS} concurrent writes: p99 < {P99_TARGET_MS:.0f} ms",
                 p99 * 1000 < P99_TARGET_MS, f"{p99 * 1000:.1f} ms over {BURSTS} bursts")
    verdicts.print()


if __name__ == "__main__":
    asyncio.run(main())
