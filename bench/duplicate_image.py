"""How fast the duplicate board image is drawn (issue 24 item 8: < 200 ms per image).

Renders boards of a growing game (empty → about 60 tiles, blanks and a highlighted top, a full
rack) with `bot.publish.board_image`, the way the notifier does at send time, and prints the
median and the slowest time per image, the PNG size, the target and a verdict. The machine may
be shared: the load average is printed with the figures.

    .venv/bin/python bench/duplicate_image.py [--images N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verdicts import Verdicts

from bot.publish import board_image
from rules.duplicate.tiles import TileSet

TARGET_S = 0.200
TILE_SET = "sss-100"


def boards(count: int, seed: int = 24) -> list[dict[str, object]]:
    """`count` image parameters: a board filling up row by row with words of random letters
    (not a real game — the drawing cost depends on how many tiles, not on the words)."""
    rng = random.Random(seed)
    letters = [ch.upper() for ch in TileSet.load(TILE_SET).letters]
    rows = [["."] * 15 for _ in range(15)]
    found: list[dict[str, object]] = []
    for i in range(count):
        row, col = (i * 2) % 15, rng.randrange(0, 9)
        top = [(row, col + k) for k in range(rng.randrange(2, 7))]
        for r, c in top:
            letter = rng.choice(letters)
            rows[r][c] = letter.lower() if rng.random() < 0.05 else letter
        rack = "".join(rng.choice(letters) for _ in range(6)) + "?"
        found.append({"board": "\n".join("".join(r) for r in rows) + "\n",
                      "highlight": [list(sq) for sq in top], "tiles": TILE_SET, "rack": rack})
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=40, help="images to draw (default 40)")
    args = parser.parse_args(argv)
    params = boards(args.images)
    board_image.render_params(params[0])  # the font and the tile set load once per process
    times, cpu, sizes = [], [], []
    for image in params:
        started, started_cpu = time.perf_counter(), time.process_time()
        png = board_image.render_params(image)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        sizes.append(len(png))
    median, worst = statistics.median(times), max(times)
    print(f"board images: {len(times)} drawn ({board_image.WIDTH} px wide, {TILE_SET})")
    print(f"  wall: median {median * 1000:.1f} ms, slowest {worst * 1000:.1f} ms; "
          f"CPU: median {statistics.median(cpu) * 1000:.1f} ms; "
          f"PNG {statistics.median(sizes) / 1024:.1f} KiB median")
    print(f"  load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    verdicts = Verdicts()
    verdicts.add("board image < 200 ms (median)", median < TARGET_S, f"{median * 1000:.1f} ms")
    verdicts.add("board image < 200 ms (slowest)", worst < TARGET_S, f"{worst * 1000:.1f} ms")
    verdicts.print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
