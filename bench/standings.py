"""How fast `rules.standings` ranks a big tournament (targets: DESIGN.md section 6 / issue 2).

Builds random results with `rules.score` (random pairings, random ends), then prints the median
wall and CPU time of several runs of `standings` for 1,000 players × 7 rounds (target 50 ms)
and 10,000 players × 13 rounds (target 1 s). The numbers are printed, never asserted.
"""

from __future__ import annotations

import os
import random
import statistics
import time

from verdicts import Verdicts

from rules import Case, End, Profile, Result, score, standings

SIZES = ((1_000, 7, 0.050), (10_000, 13, 1.0))
RUNS = 7


def random_case(rng: random.Random, first: str, second: str, round_no: int) -> Case:
    """A plausible mix: mostly finished games, some of every other row of RULES.md section 2."""
    both = frozenset({first, second})
    a, b = rng.randint(150, 550), rng.randint(150, 550)
    end = rng.choices(
        [
            End.FINISHED,
            End.TIME_LOSS,
            End.RESIGNED,
            End.DISCONNECTED,
            End.NO_SHOW,
            End.AGREED_DRAW,
            End.OVER_LIMIT,
        ],
        weights=[80, 5, 4, 3, 3, 3, 2],
    )[0]
    if end in (End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED):
        return Case(
            end, first, second, a, b, loser=rng.choice((first, second)), moved=both, round=round_no
        )
    if end is End.NO_SHOW:
        return Case(end, first, second, loser=second, moved=frozenset({first}), round=round_no)
    return Case(end, first, second, a, b, moved=both, round=round_no)


def tournament(
    players: int, rounds: int, profile: Profile, seed: int
) -> tuple[list[str], list[Result]]:
    rng = random.Random(seed)
    ids = [f"p{i:05d}" for i in range(players)]
    results = []
    for round_no in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        if len(order) % 2:
            results.append(score(Case(End.BYE, order.pop(), None, round=round_no), profile))
        for k in range(0, len(order), 2):
            results.append(score(random_case(rng, order[k], order[k + 1], round_no), profile))
    return ids, results


def main() -> None:
    profile = Profile.load("sss-online")
    verdicts = Verdicts()
    print(f"standings: median of {RUNS} runs (sss-online, random pairings)")
    for players, rounds, target in SIZES:
        ids, results = tournament(players, rounds, profile, seed=players)
        wall, cpu = [], []
        for _ in range(RUNS):
            start, start_cpu = time.perf_counter(), time.process_time()
            standings(ids, results, profile)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        median, median_cpu = statistics.median(wall), statistics.median(cpu)
        print(
            f"  {players:>6} players × {rounds:>2} rounds ({len(results):>6} results): "
            f"{median * 1000:8.1f} ms wall, {median_cpu * 1000:8.1f} ms CPU "
            f"(target {target * 1000:.0f} ms)"
        )
        verdicts.add(f"{players:,} players × {rounds} rounds ranked in ≤ {target * 1000:.0f} ms "
                     "(median wall)", median <= target, f"{median * 1000:.1f} ms")
    # wall time includes waiting for the CPU on a busy machine; CPU time is this process only
    verdicts.print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
