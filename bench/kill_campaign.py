"""The kill campaign at scale: the small tournament (5 players, 3 rounds, every event type) played
by a process killed at random — at a random passage of a random crash point (before or after a
COMMIT, before or after handing a message to "Discord", before a herna.net request) or by a
SIGKILL at a random moment — with up to three kills in a row (a crash during recovery), then
restarted until it finishes and compared with a run nobody killed (tests/bot/crash/campaign.py).

Prints what it measured: kills, restarts, messages lost and doubled, other state that differed,
deliveries Discord recognised by their nonce, and the head admin's notices of cut-short sync
runs; then a verdict on the targets: nothing lost, nothing twice, every campaign's final state
equal to the clean run's. Asserts nothing.

    python bench/kill_campaign.py [CAMPAIGNS] [SEED]      (default 40 campaigns, seed 11)
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts

from tests.bot.crash.campaign import Outcome, clean_run, killed_run, random_kills


def main(campaigns: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        clean, counts, seconds = clean_run(root / "clean")
        print(f"clean run: {seconds:.1f} s; passages per point: {counts}")
        print(f"clean run delivered {sum(clean.delivered.values())} messages, "
              f"{len(clean.results)} results, {len(clean.timers)} timers")
        plans = [random_kills(rng, counts, seconds, rng.randint(1, 3))
                 for _ in range(campaigns)]
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes: list[Outcome] = list(pool.map(
                lambda n: killed_run(root / f"c{n}", plans[n], clean), range(campaigns)))
        took = time.perf_counter() - started
    kinds = Counter(k.rsplit(":", 1)[0] if isinstance(k, str) else "SIGKILL"
                    for plan in plans for k in plan)
    print(f"{campaigns} campaigns in {took:.0f} s; kills asked for: {dict(kinds)}")
    print(f"processes killed: {sum(o.kills for o in outcomes)}, "
          f"restarts: {sum(o.restarts for o in outcomes)}")
    print(f"messages lost: {sum(o.comparison.lost for o in outcomes)}, "
          f"doubled: {sum(o.comparison.duplicated for o in outcomes)}")
    differing = [(plans[n], o.comparison.differences) for n, o in enumerate(outcomes)
                 if o.comparison.differences]
    print(f"campaigns with other state differing (results, evidence, timers, outbox, "
          f"screlo, integrity, running syncs): {len(differing)}")
    for plan, what in differing:
        print(f"  {plan}: {what}")
    print(f"deliveries repeated after a kill and recognised by their nonce: "
          f"{sum(o.repeats for o in outcomes)}")
    print(f"head admin told of a sync run cut short: {sum(o.notices for o in outcomes)}")
    lost = sum(o.comparison.lost for o in outcomes)
    doubled = sum(o.comparison.duplicated for o in outcomes)
    verdicts = Verdicts()
    verdicts.add("no message lost (at least once)", lost == 0, f"{lost} lost")
    verdicts.add("no message delivered twice (never twice)", doubled == 0, f"{doubled} doubled")
    verdicts.add("every campaign ends as the clean run", not differing,
                 f"{len(differing)} of {campaigns} campaigns differ")
    verdicts.print(f"{campaigns} campaigns, seed {seed}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40,
         int(sys.argv[2]) if len(sys.argv) > 2 else 11)
