"""64 players issue `/vysledok` at the same moment, through discord.py's real dispatch, against
the real bot (player and head-admin cogs, `runner.build_bot`) on a real SQLite store.

Set-up: a temporary store with a 64-player tournament (players and entries written with the
store helpers, as the cog tests seed them; every player linked to his Discord account), round 1
paired and published through the services (`rounds.pair_round`, `rounds.publish_round`), a
manual clock inside the round. The HTTP side is the offline harness (test code in
`tests/bot/discord/harness`), so this measures the bot's own work (payload parsing, the command
tree, the rate limit, the service transaction on the store thread, rendering, the answer) plus
the harness's recording.

Each burst is one round: both players of every table report the same score (agreeing), all 64
at once (`asyncio.gather`), so every report is appended evidence and recomputes its pairing's
verdict (pending until the game time limit: the game may still be played, e-SP 4.5). Between
bursts the scheduler fires the round's timers at the limit (the agreed reports become
proposals, e-SP 4.6), the head admin approves them (e-SP 4.9), closes the round, pairs and
publishes the next one through the services (Swiss pairing on those results), and the clock
moves into it: every burst is real work, never a refusal. Prints, over all bursts:

- time to the first response (the interaction callback: the answer, or the defer when the
  answer would wait behind others' transactions), median/p99/max, and how many were deferred;
- time to the final answer (the last message on the interaction's routes), median/p99/max;
- how many reports were accepted (answered "recorded", and found in the store);
- CPU per report (all threads, and the store's thread alone: robust on a busy machine);
- RSS after the imports, with the tournament loaded, and at the end (VmRSS, peak ru_maxrss).

    .venv/bin/python bench/discord_dispatch.py [--players 64] [--bursts 5] [--profile N]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlite_utils import Database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verdicts import Verdicts, rss_mib  # noqa: E402

from bot.clock import ManualClock  # noqa: E402
from bot.discord.notifier import DiscordNotifier  # noqa: E402
from bot.discord.ratelimit import RateLimiter  # noqa: E402
from bot.discord.runner import build_bot  # noqa: E402
from bot.scheduler import Scheduler  # noqa: E402
from bot.services.app import App, Tx  # noqa: E402
from bot.services.replies import Reply  # noqa: E402
from bot.services.tournament import admin, rounds  # noqa: E402
from bot.store import (  # noqa: E402
    Change,
    EvidenceKind,
    Store,
    add_entry,
    create_player,
    create_tournament,
    list_evidence,
    list_players,
    pairings_of_round,
)
from tests.bot.discord.harness import TALLY, DiscordHarness, Exchange, FakeUser  # noqa: E402

SLUG = "online-bench"
ADMIN = "hlavny"
ADMIN_ID = 10**17  # the head admin's Discord account, named by the tournament (the policy)
START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # round 1: 9:00 in Bratislava
ROUND_EVERY = timedelta(hours=1)
REPORT_AT = timedelta(minutes=20)  # inside the round, before the 50-minute limit
CLOSE_AT = timedelta(minutes=55)  # after the limit: the head admin closes the round
WEBHOOK_PATHS = ("/interactions/", "/webhooks/")  # the answer's routes (not announcements)


# -- set-up --------------------------------------------------------------------------------


def seed(tx: Tx, discord_ids: list[int], rounds_planned: int) -> int:
    """The tournament, its players (linked) and entries; returns the tournament id."""
    by = Change.admin(ADMIN, tx.now, "bench set-up")
    t = create_tournament(
        tx.db, slug=SLUG, name="Online kvalifikácia (bench)", season="2026/27",
        round_starts=[START + k * ROUND_EVERY for k in range(rounds_planned)],
        waiting_minutes=10, game_limit_minutes=50, by=by, admin_ids=[ADMIN_ID],
        # No herna.net in the bench: the players' reports are all the evidence there is.
        settings={"platform_sync": False})
    for n, discord_id in enumerate(discord_ids):
        player = create_player(tx.db, name=f"Hráč Číslo {n:02d}", herna_nick=f"hrac{n:02d}",
                               discord_id=discord_id, by=by, screlo=1900.0 - 5 * n)
        add_entry(tx.db, t.id, player.id, by, paid=True)
    return t.id


def round_counts(db: Database, tournament_id: int, round_no: int) -> tuple[int, int]:
    """Score reports stored in the round, and its tables where both players' reports are."""
    per_table = [
        sum(1 for e in list_evidence(db, p.id) if e.kind is EvidenceKind.SCORE_REPORT)
        for p in pairings_of_round(db, tournament_id, round_no)]
    return sum(per_table), sum(1 for n in per_table if n == 2)


def must_ok(reply: Reply | Any, what: str) -> None:
    if not isinstance(reply, Reply) or not reply.ok:
        raise SystemExit(f"bench set-up failed at {what}: {str(reply)[:300]}")


@dataclass
class Bench:
    h: DiscordHarness
    app: App
    clock: ManualClock
    tournament_id: int
    users: dict[int, FakeUser]  # by Discord id
    player_discord: dict[int, int]  # store player id -> Discord id
    limiter_now: list[float]
    scheduler: Scheduler
    approved: int = 0
    cpu_s: float = 0.0  # CPU time of the bursts, all threads (robust on a busy machine)
    store_cpu_s: float = 0.0  # of it, the store's thread
    rng: random.Random = field(default_factory=lambda: random.Random(20261121))

    async def open_round(self, round_no: int) -> None:
        """Pair and publish `round_no` (closing the previous one), then enter it."""
        starts = START + (round_no - 1) * ROUND_EVERY
        if round_no > 1:
            self.clock.set(starts - ROUND_EVERY + CLOSE_AT)
            await self.scheduler.run_due()  # the game limit: the reports become proposals
            await self.approve_all(round_no - 1)
            must_ok(await rounds.close_round(self.app, SLUG, round_no - 1, ADMIN),
                    f"close round {round_no - 1}")
        must_ok(await rounds.pair_round(self.app, SLUG, round_no, ADMIN), f"pair {round_no}")
        must_ok(await rounds.publish_round(self.app, SLUG, round_no, ADMIN),
                f"publish {round_no}")
        self.clock.set(starts + REPORT_AT)
        await self.scheduler.run_due()  # round start, waiting period over
        # the round's posts and DMs went out long before anyone reports (the bot answers
        # first and delivers meanwhile: here it has delivered by the time the burst comes)
        await self.app.settle()
        self.limiter_now[0] += 60.0  # a minute later for the rate limit: nobody is spamming

    async def approve_all(self, round_no: int) -> None:
        """The head admin works through the review queue: with no herna.net record, agreeing
        reports are a proposal (e-SP 4.6) that only he makes official (e-SP 4.9)."""
        pairings = await self.app.store.read(pairings_of_round, self.tournament_id, round_no)
        for pairing in pairings:
            if pairing.second_id is not None:
                must_ok(await admin.approve(self.app, SLUG, ADMIN_ID, pairing.id),
                        f"approve table {pairing.table_no}")
                self.approved += 1

    async def reports(self, round_no: int) -> list[tuple[FakeUser, dict[str, str]]]:
        """Both players of every table with the same (random) final score of their game."""
        tables = await self.app.store.read(pairings_of_round, self.tournament_id, round_no)
        out: list[tuple[FakeUser, dict[str, str]]] = []
        for table in tables:
            first, second = table.first_id, table.second_id
            if second is None:
                continue  # a bye has nothing to report
            a, b = self.rng.randint(250, 520), self.rng.randint(250, 520)
            if a == b:
                a += 1
            out.append((self.users[self.player_discord[first]],
                        {"moje_skore": a, "skore_supera": b}))
            out.append((self.users[self.player_discord[second]],
                        {"moje_skore": b, "skore_supera": a}))
        self.rng.shuffle(out)  # who presses Enter first is not table order
        return out


def linked(db: Database) -> dict[int, int]:
    return {player.id: player.discord_id for player in list_players(db)
            if player.discord_id is not None}


async def build(h: DiscordHarness, app: App, clock: ManualClock, n_players: int,
                rounds_planned: int) -> Bench:
    # The real limiter (5 commands / 10 s), on a clock the bench moves between rounds.
    limiter_now = [0.0]
    cog = h.bot.get_cog("PlayerCog")  # type: ignore[attr-defined]
    cog.limiter = RateLimiter(clock=lambda: limiter_now[0])
    users = [h.member(f"Hráč {n:02d}") for n in range(n_players)]
    tournament_id = await app.run(seed, [u.id for u in users], rounds_planned)
    assert isinstance(tournament_id, int)
    player_discord = await app.store.read(linked)
    return Bench(h, app, clock, tournament_id, {u.id: u for u in users}, player_discord,
                 limiter_now, Scheduler(app))


# -- measuring -----------------------------------------------------------------------------


def final_answer_s(ex: Exchange) -> float | None:
    """When the player saw his last answer: the last call on the interaction's routes."""
    times = [c.at for c in ex.calls if c.path.startswith(WEBHOOK_PATHS)]
    return max(times) - ex.started if times else None


def summary(label: str, values_s: list[float | None]) -> str:
    ms = sorted(v * 1000 for v in values_s if v is not None)
    if not ms:
        return f"{label:<24} no answers"
    p99 = percentile(ms, 0.99)
    missing = len(values_s) - len(ms)
    return (f"{label:<24} median {statistics.median(ms):7.2f} ms  p99 {p99:7.2f} ms  "
            f"max {ms[-1]:7.2f} ms  (n={len(ms)}{f', UNANSWERED {missing}' if missing else ''})")


FIRST_P99_MS = 100.0  # issue 6: the first response, p99
RSS_MIB = 150.0  # issue 6: the running bot with a 64-player tournament


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


async def burst(b: Bench, round_no: int) -> tuple[list[Exchange], float, int, int, int]:
    """One round's 64 reports at once; returns the exchanges, the wall time, the answers that
    say "recorded", and the store's count of reports and of tables with both."""
    work = await b.reports(round_no)
    store_cpu = await b.app.store.read(lambda _db: time.thread_time())
    began, cpu = time.perf_counter(), time.process_time()
    exchanges = list(await asyncio.gather(*(
        b.h.slash("vysledok", user=user, options=options) for user, options in work)))
    wall = time.perf_counter() - began
    b.cpu_s += time.process_time() - cpu
    b.store_cpu_s += await b.app.store.read(lambda _db: time.thread_time()) - store_cpu
    accepted = sum(1 for ex in exchanges if _recorded(ex))
    reports, both = await b.app.store.read(round_counts, b.tournament_id, round_no)
    return exchanges, wall, accepted, reports, both


def _recorded(ex: Exchange) -> bool:
    # The final answer's text: play.result_recorded in Slovak ("… je zaznamenané …").
    answers = [ex.message, *ex.followups] if ex.message else ex.followups
    return any("je zaznamenané" in m.content for m in answers if m is not None)


async def run(n_players: int, bursts: int, profile_top: int) -> None:
    rss_start, _ = rss_mib()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        try:
            clock = ManualClock(START - timedelta(days=1))
            holder: list[App] = []  # the App needs the bot's notifier, the cogs the App
            bot = build_bot(holder, SLUG)
            # as the bot runs it (`runner`): each caller answered after his commit
            holder.append(App(store, clock, DiscordNotifier(bot, store), answer_first=True))
            async with DiscordHarness(bot) as h:
                b = await build(h, holder[0], clock, n_players, bursts + 1)
                await measure(b, bursts, profile_top, rss_start)
                await holder[0].settle()
        finally:
            await store.close()


async def measure(b: Bench, bursts: int, profile_top: int, rss_start: float) -> None:
    await b.open_round(1)
    await burst(b, 1)  # warm-up round: imports, caches, the command tree
    b.cpu_s = b.store_cpu_s = 0.0
    rss_loaded, peak_loaded = rss_mib()
    firsts: list[float | None] = []
    finals: list[float | None] = []
    walls: list[float] = []
    totals = [0, 0, 0, 0]  # sent, accepted answers, stored reports, tables with both
    tables = deferred = 0
    loop_profile = cProfile.Profile() if profile_top else None
    store_profile = cProfile.Profile() if profile_top else None
    for round_no in range(2, bursts + 2):
        await b.open_round(round_no)
        if loop_profile and store_profile:
            # cProfile sees one thread: one profiler on the event loop, one on the store's.
            await b.app.store.read(lambda _db: store_profile.enable())
            loop_profile.enable()
        exchanges, wall, accepted, reports, both = await burst(b, round_no)
        if loop_profile and store_profile:
            loop_profile.disable()
            await b.app.store.read(lambda _db: store_profile.disable())
        firsts += [ex.first_response_s for ex in exchanges]
        finals += [final_answer_s(ex) for ex in exchanges]
        walls.append(wall)
        now_deferred = sum(1 for ex in exchanges if ex.deferred)
        deferred += now_deferred
        print(f"round {round_no}: {len(exchanges)} reports in {wall * 1000:6.1f} ms, "
              f"{accepted} accepted, {now_deferred} deferred")
        for i, value in enumerate((len(exchanges), accepted, reports, both)):
            totals[i] += value
        tables += len(exchanges) // 2
    rss_end, peak_end = rss_mib()
    print(f"players {len(b.users)}, bursts {bursts} (one round each, after a warm-up round), "
          f"python {sys.version.split()[0]}")
    print(summary("first response (ack)", firsts) + f", {deferred} of them a defer")
    print(summary("final answer", finals))
    print(f"burst wall time: median {statistics.median(walls) * 1000:.1f} ms, "
          f"max {max(walls) * 1000:.1f} ms")
    print(f"CPU per report: {b.cpu_s / totals[0] * 1000:.3f} ms (all threads, the harness "
          f"included), of which the store thread {b.store_cpu_s / totals[0] * 1000:.3f} ms")
    print(f"accepted reports: {totals[1]} of {totals[0]} answered 'recorded'; store: "
          f"{totals[2]} score reports, {totals[3]} of {tables} tables with both reports")
    print(f"after each game time limit the head admin approved {b.approved} agreed results "
          "(e-SP 4.6, 4.9): every closed round, the warm-up included")
    print(f"RSS: at start {rss_start:.1f} MiB; tournament loaded {rss_loaded:.1f} MiB "
          f"(peak {peak_loaded:.1f}); end {rss_end:.1f} MiB (peak {peak_end:.1f})")
    first_p99 = percentile([x for x in firsts if x is not None], 0.99) * 1000
    verdicts = Verdicts()
    verdicts.add(f"first response p99 < {FIRST_P99_MS:.0f} ms", first_p99 < FIRST_P99_MS,
                 f"{first_p99:.1f} ms over {len(firsts)} reports")
    verdicts.add("every report answered and accepted", totals[1] == totals[0] == totals[2],
                 f"{totals[1]} of {totals[0]} answered 'recorded', {totals[2]} stored")
    verdicts.add(f"RSS with the {len(b.users)}-player tournament < {RSS_MIB:.0f} MiB",
                 peak_end < RSS_MIB, f"peak {peak_end:.1f} MiB")
    verdicts.add("every request as Discord's OpenAPI spec accepts it (the harness checks each)",
                 TALLY.requests > 0 and TALLY.violating == 0, str(TALLY))
    verdicts.print()
    for name, profiler in (("event loop", loop_profile), ("store thread", store_profile)):
        if profiler:
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out).sort_stats("tottime")
            stats.print_stats(profile_top)
            print(f"--- cProfile, {name} (by own time) ---\n{out.getvalue()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="cProfile the bursts and print the top N functions")
    args = parser.parse_args(argv)
    asyncio.run(run(args.players, args.bursts, args.profile))


if __name__ == "__main__":
    main()
