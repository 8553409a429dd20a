"""How the simulator's game file loads as it grows (issue 36.4): `load_games` on a results CSV
of 2,000 to 64,000 games, the time per game at each size. Linear growth keeps the time per game
flat; the verdict compares the largest file's time per game with the smallest's (CPU time of
this process, best of three, so a busy shared machine skews it less). Prints numbers; asserts
none.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts

from bot.rehearse.feed import load_games

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROPOZICIE = EXAMPLES / "propozicie.toml"
PLAYERS = ("anna", "boris", "cyril", "dana", "emil", "filip")  # the propozície's ids
SIZES = (2_000, 8_000, 32_000, 64_000)
RATIO = 2.0  # the largest file's time per game at most this many times the smallest's


def results_csv(games: int, folder: Path) -> Path:
    """A results CSV of `games` rows over the propozície's three rounds, every end kind that
    needs no player."""
    rows = ["kolo;prvý;druhý;skóre;koniec;na_koho;začiatok;trvanie;ťahy"]
    for i in range(games):
        first = i % len(PLAYERS)
        second = (first + 1 + (i // len(PLAYERS)) % (len(PLAYERS) - 1)) % len(PLAYERS)
        end = ("finished", "passes", "draw")[i % 3]
        rows.append(f"{1 + i % 3};{PLAYERS[first]};{PLAYERS[second]};{300 + i % 150}:"
                    f"{320 + i % 90};{end};;{2 + i % 5};{25 + i % 20};12:12")
    path = folder / f"vysledky-{games}.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def per_game_us(path: Path, games: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        loaded = load_games(path, PROPOZICIE)
        best = min(best, time.process_time() - start)
        assert len(loaded) == games  # a load that dropped rows would look fast
    return best / games * 1e6


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="stredisko-feed-"))
    load_games(results_csv(100, folder), PROPOZICIE)  # warm-up: imports, the parser
    figures = {}
    for games in SIZES:
        figures[games] = per_game_us(results_csv(games, folder), games)
        print(f"{games:>7,} games  {figures[games] * games / 1e6:7.2f} s  "
              f"{figures[games]:6.1f} µs per game")
    ratio = figures[SIZES[-1]] / figures[SIZES[0]]
    verdicts = Verdicts()
    verdicts.add(f"linear: µs per game at {SIZES[-1]:,} ≤ {RATIO}× at {SIZES[0]:,}",
                 ratio <= RATIO, f"{ratio:.2f}×")
    verdicts.print()


if __name__ == "__main__":
    main()
