"""200 concurrent result reports through the services on a real SQLite store.

Each call is one `play.report_result` use case: look up the player and his table, append the
evidence, recompute the pairing's verdict (`rules.reconcile`), store the new result version
and audit it, queue the announcement — its own savepoint in the store's (group) transaction on
the single writer thread — and then the delivery of what it queued (the outbox pass). Prints
the latency of each call as the caller sees it (queueing and delivery included): median and
p99, the throughput, and the process's CPU time per report (all threads: on a shared machine
the steadier figure) — and, a figure no load moves, the SQL statements one report costs (the
writer connection's, as SQLite's trace hook reports them: an INSERT … RETURNING counts once
per step) and the Python function calls one report costs (cProfile on the store's thread and
the event loop's, in a last untimed run). Targets (issue 21): one report at a time ≤ 0.6 ms
median; 200 at once p99 < 100 ms with the median "well below it": at most 0.6 of it. (Half,
the target until issue 21's fourth round, no server can meet that answers callers in the order
their reports arrive: with 200 reports at once the median caller is answered after about half the
burst's work plus the start-up, the p99 after all of it plus the start-up, so the median is always a
little above half. 0.6 tells "each caller answered after his own commit" (about 0.53) from
"everyone after everyone's delivery" (1.0, the flaw issue 21 found).) The verdict takes the
median over the runs. `--discord-ms MS` makes every post to Discord take MS, as a real network
round trip does (the benches' Discord otherwise answers at once): it prints what a caller then
waits for, with no verdict — the targets are the bot's own work. `--answer-first` answers each
caller after his commit and delivers meanwhile, as the bot does since issue 21's answer-first
change (the CLI, the rehearsal and the tests wait for the delivery). Last, the floor under both
targets (`sql_floor`): the same reports' SQL statements replayed through the store with no use-case
Python at all — what no Python implementation of the use case over this schema goes below.

    .venv/bin/python bench/reports.py [--tables 200] [--repeat 3] [--discord-ms MS]
                                      [--answer-first]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sql_floor import copy_database, record, replay, stop_recording
from sqlite_utils import Database
from verdicts import Verdicts

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import Message, RecordingNotifier
from bot.services.tournament.play import report_result
from bot.store import (
    Change,
    Store,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    replace_pairings,
    set_status,
    update_round,
)

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def setup(tx: Tx, tables: int, slug: str, base: int) -> list[int]:
    """A tournament with 2 × `tables` linked players, round 1 paired and published; returns
    the Discord ids of each table's first player."""
    by = Change.admin(1, tx.now, "bench")
    t = create_tournament(tx.db, slug=slug, name="Bench", season="2024/2025",
                          round_starts=[START], waiting_minutes=10, game_limit_minutes=50,
                          by=by, settings={"platform_sync": False})
    ids = []
    for n in range(2 * tables):
        player = create_player(tx.db, name=f"Hráč {slug} {n}", herna_nick=f"{slug}-{n}",
                               discord_id=base + n, by=by)
        add_entry(tx.db, t.id, player.id, by, paid=True)
        ids.append(player.id)
    replace_pairings(tx.db, t.id, 1, [(k + 1, ids[2 * k], ids[2 * k + 1])
                                      for k in range(tables)], by)
    set_status(tx.db, t.id, TournamentStatus.RUNNING, by)
    update_round(tx.db, t.id, 1, by, published_at=tx.now)
    return [base + 2 * k for k in range(tables)]


def count_statements(db: Database, counts: list[str] | None) -> None:
    """On the store's thread: keep each statement SQLite runs; None stops."""
    db.conn.set_trace_callback(None if counts is None else counts.append)


async def count_calls(app: App, slug: str, discord_ids: list[int]) -> float:
    """Python function calls per report, one by one, on the store's thread and the loop's."""
    profiles = [cProfile.Profile(), cProfile.Profile()]
    await app.store.call(lambda db: profiles[0].enable())
    profiles[1].enable()
    for d in discord_ids:
        await one(app, slug, d, [])
    profiles[1].disable()
    await app.store.call(lambda db: profiles[0].disable())
    return sum(pstats.Stats(p).total_calls for p in profiles) / len(discord_ids)  # type: ignore[attr-defined]


async def one(app: App, slug: str, discord_id: int, latencies: list[float]) -> None:
    began = time.perf_counter()
    reply = await report_result(app, slug, discord_id, "412", "388")
    latencies.append(time.perf_counter() - began)
    if not reply.ok:
        raise SystemExit(f"report refused: {reply.key} {reply.params}")


ONE_MEDIAN_MS = 0.6
BURST_P99_MS = 100.0
BURST_MEDIAN_SHARE = 0.6  # of the p99 (see the module docstring)


class SlowDiscord(RecordingNotifier):
    """A Discord whose every post takes `latency_s` (a real one is a network round trip, and
    rate-limited per channel besides): what a caller then waits for."""

    def __init__(self, latency_s: float) -> None:
        super().__init__()
        self.latency_s = latency_s

    async def announce(self, tournament_id: int, message: Message) -> None:
        await asyncio.sleep(self.latency_s)
        await super().announce(tournament_id, message)

    async def direct(self, player_id: int, message: Message) -> None:
        await asyncio.sleep(self.latency_s)
        await super().direct(player_id, message)

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        await asyncio.sleep(self.latency_s)
        await super().to_admin(tournament_id, message)


async def floor(app: App, folder: Path, tables: int
                ) -> tuple[float, float, float, float, float]:
    """What the reports' own SQL costs with no use-case Python (`sql_floor`): one call's
    statements recorded per report, replayed one by one and all at once on copies of the
    database taken before them. Returns (statements per report, one-by-one median, the
    statements' own share of it (median), burst median, burst p99), in milliseconds but the
    first."""
    slug = "floor"
    discord_ids = await app.run(setup, tables, slug, 90_000_000)
    assert isinstance(discord_ids, list)
    copies = [folder / "floor-one.db", folder / "floor-burst.db"]
    for copy in copies:
        copy_database(app.store.path, copy)
    recorder = await app.store.call(record)
    calls = []
    for d in discord_ids:
        start = len(recorder.statements)
        await one(app, slug, d, [])
        calls.append(start)
    await app.settle()
    await app.store.call(stop_recording)
    ends = [*calls[1:], len(recorder.statements)]
    statements = [recorder.statements[a:b] for a, b in zip(calls, ends, strict=True)]
    alone, inside = await replay(copies[0], statements, concurrent=False)
    burst = sorted((await replay(copies[1], statements, concurrent=True))[0])
    return (statistics.median(map(len, statements)), statistics.median(alone) * 1000,
            statistics.median(inside) * 1000, statistics.median(burst) * 1000,
            p99(burst) * 1000)


def p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def main(tables: int, repeat: int, discord_ms: float, answer_first: bool) -> None:
    runs: dict[str, list[tuple[float, float, float]]] = {"concurrent": [], "one by one": []}
    statements = 0.0
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        clock = ManualClock(START + timedelta(minutes=55))
        notifier = SlowDiscord(discord_ms / 1000) if discord_ms else RecordingNotifier()
        app = App(store, clock, notifier, answer_first=answer_first)
        print(f"{tables} report_result calls per run, real SQLite (WAL) in {folder}; "
              + (f"each post to Discord takes {discord_ms:g} ms" if discord_ms
                 else "Discord answers at once (the bot's own work alone)")
              + ("; answered after the commit, delivered meanwhile (the bot)" if answer_first
                 else "; answered once delivered"))
        for attempt in range(2 * repeat):
            concurrent = attempt % 2 == 0  # interleaved: both kinds see the same machine
            slug = f"bench{attempt}"
            discord_ids = await app.run(setup, tables, slug, 100_000 * (attempt + 1))
            assert isinstance(discord_ids, list)
            latencies: list[float] = []
            counts: list[str] = []
            if not concurrent and attempt == 1:  # the statements of one report, counted once
                await store.call(count_statements, counts)
            began, cpu = time.perf_counter(), time.process_time()
            if concurrent:
                await asyncio.gather(*(one(app, slug, d, latencies) for d in discord_ids))
            else:
                for d in discord_ids:
                    await one(app, slug, d, latencies)
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
            await app.settle()  # deliveries left running after the answers (answer_first)
            if counts:
                await store.call(count_statements, None)  # after the last pass's marks
                # less the COMMIT of the call that began counting and the BEGIN of this one
                statements = (len(counts) - 2) / len(discord_ids)
            ms = sorted(x * 1000 for x in latencies)
            worst = p99(ms)
            how = "concurrent" if concurrent else "one by one"
            runs[how].append((statistics.median(ms), worst, cpu * 1000 / len(ms)))
            print(f"{how:>10}: median {statistics.median(ms):6.2f} ms   p99 {worst:6.1f} ms   "
                  f"max {ms[-1]:6.1f} ms   total {wall * 1000:7.1f} ms   "
                  f"{len(ms) / wall:5.0f} reports/s   CPU {cpu * 1000 / len(ms):5.2f} ms/report")
        slug = "calls"
        discord_ids = await app.run(setup, tables, slug, 100_000 * (2 * repeat + 1))
        assert isinstance(discord_ids, list)
        calls = await count_calls(app, slug, discord_ids)
        floors = await floor(app, Path(folder), tables)
        await store.close()
    one_median = statistics.median(r[0] for r in runs["one by one"])
    burst_median = statistics.median(r[0] for r in runs["concurrent"])
    burst_p99 = statistics.median(r[1] for r in runs["concurrent"])
    cpu = statistics.median(r[2] for r in runs["one by one"])
    if discord_ms:  # the targets are the bot's own work: here only what a caller waits
        print(f"No verdict with --discord-ms: one at a time median {one_median:.1f} ms, "
              f"{tables} at once median {burst_median:.1f} ms, p99 {burst_p99:.1f} ms "
              f"(each report queues one message for the head admin)")
        return
    verdicts = Verdicts()
    verdicts.add(f"one report at a time: median ≤ {ONE_MEDIAN_MS} ms", one_median <= ONE_MEDIAN_MS,
                 f"{one_median:.2f} ms")
    verdicts.add(f"{tables} at once: p99 < {BURST_P99_MS:.0f} ms", burst_p99 < BURST_P99_MS,
                 f"{burst_p99:.1f} ms")
    verdicts.add(f"{tables} at once: median ≤ {BURST_MEDIAN_SHARE} × the p99",
                 burst_median <= BURST_MEDIAN_SHARE * burst_p99,
                 f"median {burst_median:.1f} ms, p99 {burst_p99:.1f} ms "
                 f"({burst_median / burst_p99:.2f})")
    verdicts.print(f"medians of {repeat} runs each; CPU one by one {cpu:.2f} ms/report; "
                   f"SQL statements per report {statements:.1f}; Python calls per report "
                   f"{calls:.0f}")
    count, alone, inside, burst, burst99 = floors
    print(f"The floor (bench/sql_floor.py): the reports' own {count:.0f} statements each, "
          f"replayed through the store with no use-case Python — one at a time median "
          f"{alone:.2f} ms (the statements {inside:.2f} ms, the transaction's BEGIN and COMMIT "
          f"and the hand-offs {alone - inside:.2f} ms), {tables} at once median {burst:.1f} ms, "
          f"p99 {burst99:.1f} ms; "
          f"the use case's Python and the rest: one at a time {one_median - alone:.2f} ms, "
          f"{tables} at once p99 +{burst_p99 - burst99:.1f} ms (one run)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--discord-ms", type=float, default=0.0, metavar="MS",
                        help="each post to Discord takes MS (default 0: the bot's own work; "
                             "no verdict otherwise)")
    parser.add_argument("--answer-first", action="store_true",
                        help="answer each caller after his commit, as the bot does")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.repeat, args.discord_ms, args.answer_first))
