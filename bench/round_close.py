"""Closing a round of 64 players end to end on a real store (target < 200 ms, worst round).

For rounds 1–6 of a 7-round online qualifier: `close_round` (refresh the 32 pairings from
their herna.net records, the standings after the round, the announcement), then
`pair_round` of the next round (refresh again, confirm the round — the e-SP 4.7 window —
with the e-SP 3.6 exclusion check, Swiss pairing by `rules`, storing the tables), then
`publish_round` of it (the tables announced, every player's DM queued and delivered). Each game is
one platform record entered as the sync would; the clock is a ManualClock. Prints the time of
each step per round and a verdict on the worst sum (the median beside it).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from verdicts import Verdicts

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.evidence_map import game_payload
from bot.services.tournament.rounds import close_round, pair_round, publish_round
from bot.services.tournament.setup import create_from_file
from bot.store import EvidenceKind, Store, append_evidence, get_tournament_by_slug
from bot.store import pairings_of_round as pairings

PLAYERS = 64
ROUNDS = 7
SLUG = "bench-64"
TARGET_MS = 200.0  # issue 4: a round's close, the next pairing and its publication
START = datetime(2025, 3, 1, 9, tzinfo=UTC)  # 10:00 in Bratislava (CET)


def propozicie() -> str:
    starts = ", ".join(f'"2025-03-01 {10 + n}:00"' for n in range(ROUNDS))
    lines = ["[tournament]", 'name = "Bench 64"', f'slug = "{SLUG}"', f"rounds = {ROUNDS}",
             f"round_starts = [{starts}]", "waiting_minutes = 10", "platform_sync = false"]
    for n in range(PLAYERS):
        lines += ["[[player]]", f'id = "p{n}"', f'name = "Hráč {n}"', f'herna = "nick{n}"',
                  f"screlo = {2200 - 9 * n}", f"games = {n * 3}"]
    return "\n".join(lines) + "\n"


def games(tx: Tx, round_no: int, seed: int) -> None:
    """One finished herna.net game per table, as the sync would append it."""
    rng = random.Random(seed)
    t = get_tournament_by_slug(tx.db, SLUG)
    begin = START + timedelta(hours=round_no - 1)
    for p in pairings(tx.db, t.id, round_no):
        if p.second_id is None:
            continue
        payload = game_payload(
            game_id=f"r{round_no}t{p.table_no}", first=p.first_id, second=p.second_id,
            first_score=rng.randint(280, 480), second_score=rng.randint(280, 480),
            end="finished", started=begin + timedelta(minutes=5),
            ended=begin + timedelta(minutes=40), moves={p.first_id: 12, p.second_id: 12})
        append_evidence(tx.db, p.id, EvidenceKind.PLATFORM_GAME, tx.by_platform(),
                        payload=payload, at=begin + timedelta(minutes=5))


async def timed(call: object) -> float:
    began = time.perf_counter()
    reply = await call  # type: ignore[misc]
    elapsed = (time.perf_counter() - began) * 1000
    assert getattr(reply, "ok", False), reply
    return elapsed


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "propozicie.toml"
        path.write_text(propozicie(), encoding="utf-8")
        store = await Store.open(Path(folder) / "bench.db")
        clock = ManualClock(START - timedelta(hours=1))
        app = App(store, clock, RecordingNotifier())
        assert (await create_from_file(app, path, "bench")).ok
        assert (await pair_round(app, SLUG, 1, "bench")).ok
        totals = []
        print(f"{PLAYERS} players, {PLAYERS // 2} tables per round (ms)")
        print("round  close  pair-next  publish-next  total")
        clock.set(START)
        assert (await publish_round(app, SLUG, 1, "bench")).ok
        for n in range(1, ROUNDS):
            await app.run(games, n, n)
            clock.set(START + timedelta(hours=n - 1, minutes=55))
            close = await timed(close_round(app, SLUG, n, "bench"))
            pair = await timed(pair_round(app, SLUG, n + 1, "bench"))
            clock.set(START + timedelta(hours=n))
            publish = await timed(publish_round(app, SLUG, n + 1, "bench"))
            totals.append(close + pair + publish)
            print(f"{n:5d}  {close:5.1f}  {pair:9.1f}  {publish:12.1f}  {totals[-1]:5.1f}")
        verdicts = Verdicts()
        verdicts.add(f"every round closed, the next paired and published < {TARGET_MS:.0f} ms",
                     max(totals) < TARGET_MS,
                     f"worst {max(totals):.1f} ms, median {statistics.median(totals):.1f} ms")
        verdicts.print()
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
