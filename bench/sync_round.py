"""Wall time to sync a 64-player round (32 records) from the local simulator into a fresh SQLite
store: history, records, evidence, reconciliation, result versions and announcements, with
politeness limits off (target: < 1 s, median of the runs). Also the re-sync of the same round
(every record fetched again, nothing new; the same target). Prints numbers and a verdict;
asserts none.

The simulator runs in the same process and event loop, so its page rendering is inside the
measured time too.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.sync import sync_round, sync_tournament
from bot.store import (
    Change,
    Store,
    add_entry,
    create_player,
    create_tournament,
    replace_pairings,
)
from scrapers.herna.client import Credentials, HernaClient, HernaSettings
from scrapers.herna.generate import generate_round
from scrapers.herna.records import GameRecord
from scrapers.herna.simulator import Simulator

TARGET = 1.0
RUNS = 5
START = datetime(2026, 3, 7, 8, 0, tzinfo=UTC)
SLUG = "bench-kt"


def seed(tx: Tx, games: list[GameRecord]) -> None:
    """64 players paired exactly as the generated games were played (the starter first)."""
    by = Change.admin(1, tx.now, "bench")
    t = create_tournament(tx.db, slug=SLUG, name="Bench", season="2025/2026",
                          round_starts=[START], waiting_minutes=10, game_limit_minutes=50, by=by)
    ids: dict[str, int] = {}
    for nick in sorted({n for g in games for n in g.nicks}):
        ids[nick] = create_player(tx.db, name=f"Hráč {nick}", herna_nick=nick, by=by).id
        add_entry(tx.db, t.id, ids[nick], by, paid=True)
    tables = [(k + 1, ids[g.first], ids[g.second]) for k, g in enumerate(games)]
    replace_pairings(tx.db, t.id, 1, tables, by)


async def one_run(url: str, games: list[GameRecord], folder: Path, n: int
                  ) -> tuple[float, float, int, int]:
    notifier = RecordingNotifier()
    store = await Store.open(folder / f"bench-{n}.db")
    app = App(store, ManualClock(START + timedelta(hours=1)), notifier)
    await app.run(seed, games)
    settings = HernaSettings(base_url=url, max_concurrent=None, per_second=None, backoff=0.0)
    async with HernaClient(Credentials("sss", "heslo"), settings) as herna:
        begin = time.perf_counter()
        first = await sync_round(app, SLUG, 1, herna)
        middle = time.perf_counter()
        again = await sync_tournament(app, SLUG, herna)
        end = time.perf_counter()
    await store.close()
    assert again.unchanged == len(first.added)  # a sanity check of the bench itself
    return middle - begin, end - middle, len(first.added), len(notifier.sent)


async def main() -> None:
    games = generate_round(64, START, seed=11)
    sim = Simulator({"sss": "heslo"}, clock=lambda: START + timedelta(hours=1))
    sim.add_games(games)
    with tempfile.TemporaryDirectory() as tmp:
        async with sim.serve() as url:
            runs = [await one_run(url, games, Path(tmp), n) for n in range(RUNS)]
    first = [r[0] for r in runs]
    again = [r[1] for r in runs]
    _, _, records, messages = runs[0]
    print(f"64-player round: {records} records stored as evidence, {messages} messages queued")
    print(f"first sync over {RUNS} runs: best {min(first):.3f} s, "
          f"median {statistics.median(first):.3f} s, worst {max(first):.3f} s")
    print(f"re-sync (all fetched again, nothing new): best {min(again):.3f} s, "
          f"median {statistics.median(again):.3f} s, worst {max(again):.3f} s")
    verdicts = Verdicts()
    for what, times in (("first sync", first), ("re-sync", again)):
        median = statistics.median(times)
        verdicts.add(f"{what} of the round: median < {TARGET:.1f} s", median < TARGET,
                     f"{median:.3f} s over {RUNS} runs")
    verdicts.print()


if __name__ == "__main__":
    asyncio.run(main())
