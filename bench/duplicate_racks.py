"""Duplicate racks: a million seeded draws checked against the rule (issue 23 item 4).

Whole games on the SSS 100-tile set (DUPLICATE.md §4; the move engine's tile profiles own the
real one) under the cas-duplicate profile (003 r. 11–13: rounds 1–15 two vowels and two
consonants, later one and one, the blank both, all letters back on a redraw): each round the
"top" takes 1–7 tiles of the rack chosen by a seeded stand-in, the next rack is drawn. Every
draw is checked independently of `rules.duplicate.racks`' own arithmetic:
- the rack meets its round's rule, or no rack drawn from the tiles the redraw would use could
  (every split of the draw into blanks, vowels and consonants is tried);
- no tile is created or lost (rack + bag = leave + bag before);
- determinism: every 50th game is replayed from its seed and the tops and must match.
Run: .venv/bin/python bench/duplicate_racks.py [DRAWS]   (numbers printed, never asserted)
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import Counter

from verdicts import Verdicts

from rules.duplicate import draw_rack, duplicate_profile, replay

PROFILE = duplicate_profile("cas-duplicate")
TILES = dict(A=9, O=9, E=8, I=5, N=5, R=4, S=4, T=4, V=4, M=4, D=3, K=3, L=3, P=3, J=2, U=2, B=2)
TILES |= dict.fromkeys("ÁCHYZČÍŠÝŽÉĽŤÚĎFGŇÄĹŔXÓÔ", 1) | {"?": 2}
VOWELS = frozenset("AÁÄEÉIÍOÓÔUÚYÝ")
TARGET_SECONDS = 60.0  # the issue: a million draws in well under a minute


def could_meet(pool: Counter[str], size: int, vowels: int, consonants: int) -> bool:
    """Brute force over the draw's make-up: b blanks, v vowels, c consonants."""
    blanks = pool["?"]
    have_v = sum(n for t, n in pool.items() if t in VOWELS)
    have_c = sum(n for t, n in pool.items() if t != "?" and t not in VOWELS)
    k = min(size, blanks + have_v + have_c)
    return any(b + v >= vowels and b + (k - b - v) >= consonants
               for b in range(min(blanks, k) + 1) for v in range(min(have_v, k - b) + 1)
               if k - b - v <= have_c)


def game(seed: str, check: bool) -> tuple[int, int, list[tuple[str, ...]], list]:
    """One game's draws; returns (draws, redraws, tiles played each round, the draws)."""
    bag: dict[str, int] = dict(TILES)
    leave: tuple[str, ...] = ()
    played, draws, redraws = [], [], 0
    for round_no in range(1, 200):
        d = draw_rack(seed, round_no, bag, leave, VOWELS, PROFILE)
        draws.append(d)
        redraws += len(d.rejected)
        if d.ended:
            break
        if check:
            assert Counter(d.rack) + Counter(d.bag) == Counter(bag) + Counter(leave)
            phase = PROFILE.phase(round_no)
            v = sum(t in VOWELS or t == "?" for t in d.rack)
            c = sum(t not in VOWELS or t == "?" for t in d.rack)
            if not (v >= phase.vowels and c >= phase.consonants):
                assert not could_meet(Counter(bag) + Counter(leave), 7, phase.vowels,
                                      phase.consonants), (seed, round_no)
        h = hashlib.sha256(f"{seed}/{round_no}".encode()).digest()
        k = 1 + h[0] % len(d.rack)  # the stand-in top takes k tiles from a seeded offset
        start = h[1] % len(d.rack)
        top = tuple((d.rack * 2)[start:start + k])
        played.append(top)
        leave = tuple((Counter(d.rack) - Counter(top)).elements())
        bag = dict(d.bag)
    return len(draws), redraws, played, draws


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    total = redraws = games = waived = replays = 0
    start = time.perf_counter()
    while total < target:
        seed = hashlib.sha256(b"bench %d" % games).hexdigest()
        n, r, played, draws = game(seed, check=True)
        total, redraws, games = total + n, redraws + r, games + 1
        waived += sum(d.outcome == "waived" for d in draws)
        if games % 50 == 0:
            assert replay(seed, TILES, VOWELS, PROFILE, played) == draws
            replays += 1
    checked = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    timed = 0
    for g in range(200):
        timed += game(hashlib.sha256(b"timed %d" % g).hexdigest(), check=False)[0]
    wall = (time.perf_counter() - start) / timed
    per_draw = (time.process_time() - cpu) / timed  # CPU: the machine is shared
    print(f"{total:,} draws in {games:,} games checked: every rack met 003 r. 12 or no draw "
          f"could ({waived:,} waived by r. 13), no tile created or lost, {replays} games "
          f"replayed identically; {redraws:,} redraws ({redraws / total:.2%} of draws)")
    print(f"time: {checked:.1f} s wall with the checks; draws alone {per_draw * 1e6:.0f} µs "
          f"CPU each = {per_draw * 1e6:.1f} s per million ({wall * 1e6:.0f} µs wall each)")
    verdicts = Verdicts()
    verdicts.add(f"a million draws < {TARGET_SECONDS:.0f} s (CPU)",
                 per_draw * 1e6 < TARGET_SECONDS, f"{per_draw * 1e6:.1f} s")
    verdicts.print()


if __name__ == "__main__":
    main()
