"""Online screlo speed: replaying 100,000 rated games in 5,000 tournaments through `rate`.

A population of 2,000 players; each tournament seats 8 of them for 5 rounds (20 games), with
outcomes drawn from the screlo expectation. Building the results is not timed; the replay is.
Target (issue 3): 100,000 games rated in under 2 s. A verdict line closes the run.
Run: .venv/bin/python bench/screlo.py   (numbers are printed, never asserted)
"""

from __future__ import annotations

import random
import time

from verdicts import Verdicts

from rules.model import Case, End, Rating, Result
from rules.profile import Profile
from rules.screlo import expected, replay

PROFILE = Profile.load("sss-online")
TOURNAMENTS, SEATS, ROUNDS, POPULATION = 5_000, 8, 5, 2_000


def build(rng: random.Random) -> list[list[Result]]:
    strength = {f"s{i:04d}": rng.gauss(1750, 180) for i in range(POPULATION)}
    events = []
    for _ in range(TOURNAMENTS):
        seats = rng.sample(sorted(strength), SEATS)
        results = []
        for rnd in range(1, ROUNDS + 1):
            rng.shuffle(seats)
            for a, b in zip(seats[::2], seats[1::2], strict=True):
                p = expected(strength[a] - strength[b], PROFILE)
                x = rng.random()
                points = 0.5 if x < 0.03 else 1.0 if x < p else 0.0
                case = Case(End.FINISHED, a, b, round=rnd)
                results.append(Result(case, points, 1 - points, 0, 0, frozenset(), True, "x"))
        events.append(results)
    return events


TARGET_S = 2.0


def main() -> None:
    events = build(random.Random(2024))
    games = sum(len(e) for e in events)
    best = float("inf")
    final: dict[str, Rating] = {}
    for _ in range(3):
        start = time.perf_counter()
        final = replay(events, PROFILE)
        best = min(best, time.perf_counter() - start)
    values = sorted(r.value for r in final.values())
    print(f"rated {games:,} games in {len(events):,} tournaments: {best:.3f} s "
          f"(best of 3; {games / best:,.0f} games/s)")
    print(f"{len(final):,} players; ratings {values[0]:.0f} … {values[-1]:.0f}, "
          f"median {values[len(values) // 2]:.0f}")
    verdicts = Verdicts()
    verdicts.add(f"{games:,} games rated < {TARGET_S:.0f} s", best < TARGET_S,
                 f"{best:.3f} s (best of 3)")
    verdicts.print()


if __name__ == "__main__":
    main()
