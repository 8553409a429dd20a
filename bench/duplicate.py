"""Duplicate move generation speed (issue 23.3): a whole 40-round game's tops, all moves of a
rack without a blank mid-game, and racks with two blanks.

Targets (issue 23): all moves, no blank, mid-game < 20 ms median; two blanks worst case < 1 s;
a whole 40-round game's tops < 10 s. The lexicon: `--words FILE` (one form per line, e.g. the
Slovak stand-in `stredisko lexicon standin sk` builds, or `unmunch sk_SK.dic sk_SK.aff`), else
a synthetic list, compiled into the DAWG (`rules.lexicon.compile_graph`); or `--lexicon FILE`,
a lexicon `stredisko lexicon build` made (loads in a fraction of a second). Racks are drawn
from a seeded sss-100 bag (no vowel rule: that is the rack draw's business); the top goes on
the board each round.
Run: .venv/bin/python bench/duplicate.py [--words FILE | --lexicon FILE] [--rounds 40] [--seed 1]
[--expect DIGEST] (numbers are printed, never asserted). A change meant to speed generation up
must not change what it finds: the bench prints a digest of every position's move count and
best score (same words and seed, same positions); `--expect` compares it with a digest printed
before the change.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import time
import unicodedata
from pathlib import Path

from verdicts import Verdicts

from rules.duplicate.board import Board
from rules.duplicate.generate import generate
from rules.duplicate.tiles import BLANK, TileSet
from rules.duplicate.top import top_moves
from rules.lexicon import compile_graph
from rules.lexicon.graph import WordGraph

TILES = TileSet.load("sss-100")


def synthetic_words(rng: random.Random, count: int) -> list[str]:
    """Pronounceable Slovak-looking forms from syllables (a stand-in for the stand-in)."""
    onsets = ["", "b", "c", "č", "d", "h", "ch", "j", "k", "l", "m", "n", "p", "r", "s", "š",
              "t", "v", "z", "ž", "st", "pr", "kr", "tr", "sl", "zv", "ml", "dr"]
    nuclei = ["a", "e", "i", "o", "u", "y", "á", "é", "í", "ú", "ie", "ia", "ô", "ä"]
    codas = ["", "", "", "n", "l", "k", "s", "t", "m", "j", "r", "c"]
    words: set[str] = set()
    while len(words) < count:
        stem = "".join(rng.choice(onsets) + rng.choice(nuclei) for _ in range(rng.randint(1, 3)))
        stem += rng.choice(codas)
        for ending in ("", "a", "y", "u", "om", "ami", "e", "ou", "ách"):
            words.add(stem + ending)
    return sorted(words)


def read_words(path: Path) -> list[str]:
    text = unicodedata.normalize("NFC", path.read_text(encoding="utf-8", errors="replace"))
    letters = TILES.blank_letters
    forms = {w.split("/")[0].strip().lower() for w in text.splitlines()}
    return sorted(w for w in forms if len(w) >= 2 and set(w) <= letters)


def build_graph(words: list[str]) -> tuple[WordGraph, str]:
    return compile_graph(words), "compiled DAWG (rules.lexicon.compile_graph)"


def draw(rng: random.Random, bag: list[str], rack: str) -> str:
    while len(rack) < TILES.rack_size and bag:
        rack += bag.pop(rng.randrange(len(bag)))
    return rack


def play_game(graph: WordGraph, rng: random.Random, rounds: int
              ) -> tuple[list[float], list[Board]]:
    bag = [letter for letter, n in TILES.bag.items() for _ in range(n)]
    board, rack = Board.empty(), ""
    times, boards = [], []
    for _ in range(rounds):
        rack = draw(rng, bag, rack)
        if not rack:
            break
        start = time.process_time()
        tops = top_moves(board, rack, graph, TILES)
        times.append(time.process_time() - start)
        boards.append(board)
        if not tops.tops:
            bag.extend(rack)
            rack = ""
            continue
        top = tops.tops[0]
        board = board.place({(r, c): (letter, blank) for r, c, letter, blank in top.tiles})
        left = list(rack)
        for *_, letter, blank in top.tiles:
            left.remove(BLANK if blank else letter.upper())
        rack = "".join(left)
    return times, boards


def timed(board: Board, rack: str, graph: WordGraph, found: list[tuple[int, int]]
          ) -> tuple[float, int]:
    """CPU seconds of this process to generate every move (a `Move` each), and their number;
    appends (number, best score) to `found` for the digest."""
    start = time.process_time()
    moves = generate(board, rack, graph, TILES)
    took = time.process_time() - start
    found.append((len(moves), max((move.score for move in moves), default=0)))
    return took, len(moves)


def verdict(ok: bool) -> str:
    return "OK" if ok else "TOO SLOW"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=Path)
    parser.add_argument("--lexicon", type=Path,
                        help="a built lexicon (stredisko lexicon build) instead of --words")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expect", help="the digest of an earlier run (same words, seed)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    if args.lexicon:
        from bot.services.lexicon.files import load

        lexicon = load(args.lexicon)
        graph, forms = lexicon.graph, lexicon.forms
        source, kind = f"{args.lexicon} ({lexicon.id}, {lexicon.title})", "built DAWG"
    else:
        if args.words:
            words, source = read_words(args.words), str(args.words)
        else:
            words, source = synthetic_words(rng, 400_000), "synthetic Slovak-looking forms"
        (graph, kind), forms = build_graph(words), len(words)
    print(f"lexicon: {source}: {forms:,} forms, {kind}, "
          f"ready in {time.perf_counter() - start:.1f} s")
    print(f"times are CPU seconds of this process (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores: wall time on a shared machine says little)")

    verdicts = Verdicts()
    game, boards = play_game(graph, rng, args.rounds)
    total = sum(game)
    print(f"a whole game's tops (count + every top, 003 tie order): {len(game)} rounds in "
          f"{total:.2f} s "
          f"(slowest round {max(game) * 1000:.0f} ms) — target < 10 s: {verdict(total < 10)}")
    verdicts.add(f"a whole {len(game)}-round game's tops < 10 s", total < 10, f"{total:.2f} s")

    mid = [b for b in boards[5:30] if not b.is_empty] or boards
    letters = [ch for ch, n in TILES.bag.items() if ch != BLANK for _ in range(n)]
    found: list[tuple[int, int]] = []
    plain, counts = [], []
    for board in mid:
        for _ in range(4):
            took, n = timed(board, "".join(rng.sample(letters, 7)), graph, found)
            plain.append(took)
            counts.append(n)
    median = statistics.median(plain)
    print(f"all moves, no blank, mid-game: median {median * 1000:.1f} ms, "
          f"max {max(plain) * 1000:.1f} ms over {len(plain)} racks "
          f"(median {statistics.median(counts):.0f} moves) — target < 20 ms median: "
          f"{verdict(median < 0.020)}")
    verdicts.add("all moves, no blank, mid-game: median < 20 ms", median < 0.020,
                 f"{median * 1000:.1f} ms")

    blanks = []
    for board in mid:
        for _ in range(2):
            took, n = timed(board, "".join(rng.sample(letters, 5)) + "??", graph, found)
            blanks.append((took, n))
    worst = max(blanks)
    print(f"two blanks, mid-game: worst {worst[0] * 1000:.0f} ms ({worst[1]:,} moves), median "
          f"{statistics.median(t for t, _ in blanks) * 1000:.0f} ms over {len(blanks)} racks "
          f"— target < 1 s worst: {verdict(worst[0] < 1.0)}")
    verdicts.add("two blanks, mid-game: worst < 1 s", worst[0] < 1.0, f"{worst[0] * 1000:.0f} ms")

    digest = hashlib.sha256(repr(found).encode()).hexdigest()[:16]
    check = "" if args.expect is None else \
        (" — same as --expect" if digest == args.expect else " — DIFFERS from --expect")
    print(f"moves found (count and best score of each of the {len(found)} racks above): "
          f"{sum(n for n, _ in found):,} in all, digest {digest}{check}")
    verdicts.print("CPU seconds of this process")


if __name__ == "__main__":
    main()
