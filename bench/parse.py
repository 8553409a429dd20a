"""How many herna.net pages the parser reads per second (target: ≥ 300 pages/s).

Timed in process CPU time, so a busy shared machine skews it less. Pages are rendered by the
simulator's templates from generated games (a 64-player round, all end kinds), the same HTML
the scraper reads from the simulator. Prints numbers; asserts none.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts

from scrapers.herna import pages, parser
from scrapers.herna.generate import generate_round

TARGET = 300.0


def rate(label: str, docs: list[str], parse, seconds: float = 2.0) -> float:
    parse(docs[0])  # warm-up: compiles the CSS selectors once
    # CPU time of this process: other jobs on a shared machine do not count against us.
    done, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for doc in docs:
            parse(doc)
        done += len(docs)
    per_second = done / elapsed
    size = sum(map(len, docs)) / len(docs) / 1024
    print(
        f"{label:<28} {per_second:8.0f} pages/s  ({1000 / per_second:.2f} ms/page, "
        f"{size:.1f} KiB/page)"
    )
    return per_second


def main() -> None:
    games = generate_round(64, datetime(2026, 3, 7, 8, 0, tzinfo=UTC), seed=7)
    game_pages = [pages.game_page(g, user="sss") for g in games]
    history_pages = [
        pages.history_page(games[i : i + 20], i // 20 + 1, 2, user="sss") for i in (0, 20)
    ]
    # What one round costs: 32 records + 2 history pages.
    mixed = game_pages + history_pages
    history = set(history_pages)
    rates = {
        "game records": rate("game records", game_pages, parser.parse_game),
        "history pages": rate("history pages (20 rows)", history_pages, parser.parse_history),
        "one round": rate(
            "one round (32 + 2 pages)",
            mixed,
            lambda d: parser.parse_history(d) if d in history else parser.parse_game(d),
        ),
    }
    # The verdict covers every figure printed above: one below the target fails it.
    verdicts = Verdicts()
    for name, per_second in rates.items():
        verdicts.add(f"{name}: ≥ {TARGET:.0f} pages/s (CPU)", per_second >= TARGET,
                     f"{per_second:,.0f} pages/s")
    verdicts.print()


if __name__ == "__main__":
    main()
