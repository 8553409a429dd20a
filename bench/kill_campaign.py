"""The kill campaign at scale: the small tournament (5 players, 3 rounds, every event type) played
by a process killed at random — at a random passage of a random crash point (before or after a
COMMIT, before or after handing a message to "Discord", before a herna.net request) or by a
SIGKILL at a random moment — with up to three kills in a row (a crash during recovery), then
restarted until it finishes and compared with a run nobody killed (tests/bot/crash/campaign.py).

`--duplicate` plays a whole online duplicate game instead (issue 24.4: tests/bot/crash/
duplicate_driver.py, its scenario tests/bot/rehearse/scenarios/duplicate-small.toml), killed
also at a round's deadline and while the board is being posted; besides the messages it
compares the racks and deadlines, every slip, every score (each slip scored once), the
timers and the outbox with the clean run.

`--hall` plays the same game in a live hall (tests/bot/crash/hall_driver.py): every arbiter's
step typed at the console through the hall CLI's parser and handlers (`stredisko duplicate
start|rack|draw|slip|close|protest|decide|final|standings`), killed also once a command has run
but before its answer is on the screen (`typed:after`) and once it is (`print:after`); the
cut-short command is typed again in full after the restart. Besides the tables of
`--duplicate` it compares every answer the console printed with the clean run's (a command
typed again must be answered alike).

`--two-events` plays both at once (issue 37.4: tests/bot/crash/two_events_driver.py, its spec
tests/bot/crash/two-events.toml): the classic tournament and the online duplicate game open
together in one process, one database and one App (one store, clock, outbox and timer
scheduler), their steps interleaved in time order (the duplicate game's rounds during the
classic round 2), killed at every crash point of either; besides the tables of both it compares
each event's status, the entries, rounds and result versions, and the audit log (but for the
sync runs, which a kill makes run again).

`--answer-first` (with the classic game, `--duplicate` or `--two-events`) plays it with the App
as the bot's runner makes it: each caller answered after his commit while his messages are
delivered, the next step going on meanwhile (tests/bot/crash/driver.py `--answer-first`),
killed also right after such an answer (`answer:after`). Its clean run is also compared with
the waiting mode's (the mode must not change what the game ends with). A hall's console is no
bot: `--hall` has no answer-first mode.

Prints what it measured: kills, restarts, messages lost and doubled, other state that differed,
deliveries Discord recognised by their nonce (and any a process handed over twice itself),
and the head admin's notices of cut-short sync runs; then a verdict on the targets: nothing
lost, nothing twice, every campaign's final state equal to the clean run's. Asserts nothing.

    python bench/kill_campaign.py [CAMPAIGNS] [SEED] [--duplicate | --hall | --two-events]
                                  [--answer-first]
                                                                        (default 40, seed 11)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts

from tests.bot.crash.campaign import (
    CLASSIC,
    DUPLICATE,
    HALL,
    TWO_EVENTS,
    Game,
    Outcome,
    answered_first,
    clean_run,
    compare,
    killed_run,
    random_kills,
)


def _shown_again(folder: Path) -> int:
    """Console answers beyond the first of one command (a hall game: it was typed again)."""
    path = folder / "console"
    if not path.exists():
        return 0
    typed = Counter((e["step"], tuple(e["argv"])) for e in
                    map(json.loads, path.read_text(encoding="utf-8").splitlines()))
    return sum(n - 1 for n in typed.values())


def main(campaigns: int, seed: int, game: Game, waiting: Game | None = None) -> None:
    """`waiting`: the same game in the waiting mode, whose clean run `game`'s must equal."""
    rng = random.Random(seed)
    verdicts = Verdicts()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        clean, counts, seconds = clean_run(root / "clean", game)
        print(f"{game.title}: clean run {seconds:.1f} s; passages per point: {counts}")
        if waiting is not None:
            modes = compare(clean_run(root / "waiting", waiting)[0], clean)
            print(f"its clean run against the waiting mode's: {modes}")
            verdicts.add("the bot's mode ends as the waiting mode (clean runs)", modes.clean,
                         "equal" if modes.clean else f"{modes}")
        print(f"clean run delivered {sum(clean.delivered.values())} messages; rows compared: "
              + ", ".join(f"{len(rows)} {name}" for name, rows in clean.state.items()))
        plans = [random_kills(rng, counts, seconds, rng.randint(1, 3), game.points)
                 for _ in range(campaigns)]
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes: list[Outcome] = list(pool.map(
                lambda n: killed_run(root / f"c{n}", plans[n], clean, game),
                range(campaigns)))
        took = time.perf_counter() - started
        shown_again = sum(_shown_again(root / f"c{n}") for n in range(campaigns))
    kinds = Counter(k.rsplit(":", 1)[0] if isinstance(k, str) else "SIGKILL"
                    for plan in plans for k in plan)
    print(f"{campaigns} campaigns in {took:.0f} s; kills asked for: {dict(kinds)}")
    print(f"processes killed: {sum(o.kills for o in outcomes)}, "
          f"restarts: {sum(o.restarts for o in outcomes)}")
    print(f"messages lost: {sum(o.comparison.lost for o in outcomes)}, "
          f"doubled: {sum(o.comparison.duplicated for o in outcomes)}, "
          f"leaked (never in the clean run): {sum(o.comparison.leaked for o in outcomes)}")
    differing = [(plans[n], o.comparison.differences) for n, o in enumerate(outcomes)
                 if o.comparison.differences]
    print("rows not as in the clean run, over all campaigns: " + ", ".join(
        f"{name} {sum(o.comparison.rows.get(name, 0) for o in outcomes)}"
        for name in clean.state))
    print(f"campaigns with other state differing ({', '.join(clean.state)}, integrity, "
          f"running syncs): {len(differing)}")
    for plan, what in differing:
        print(f"  {plan}: {what}")
    resent = sum(o.comparison.resent for o in outcomes)
    print(f"deliveries repeated after a kill and recognised by their nonce: "
          f"{sum(o.repeats for o in outcomes) - resent}; handed over twice by one process: "
          f"{resent}")
    print(f"head admin told of a sync run cut short: {sum(o.notices for o in outcomes)}")
    if game.console:
        print(f"commands typed again after their answer was on the screen (each answered as the "
              f"clean run's console, or the campaign differs): {shown_again}")
    lost = sum(o.comparison.lost for o in outcomes)
    doubled = sum(o.comparison.duplicated for o in outcomes)
    leaked = sum(o.comparison.leaked for o in outcomes)
    verdicts.add("no message lost (at least once)", lost == 0, f"{lost} lost")
    verdicts.add("no message delivered twice (never twice)", doubled == 0, f"{doubled} doubled")
    verdicts.add("no message the clean run never sent", leaked == 0, f"{leaked} leaked")
    verdicts.add("no process hands a message over twice (no nonce needed)", resent == 0,
                 f"{resent} handed over twice")
    verdicts.add("every campaign ends as the clean run", not differing,
                 f"{len(differing)} of {campaigns} campaigns differ")
    verdicts.print(f"{game.title}: {campaigns} campaigns, seed {seed}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("campaigns", type=int, nargs="?", default=40)
    parser.add_argument("seed", type=int, nargs="?", default=11)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--duplicate", action="store_true", help="a duplicate game (issue 24)")
    which.add_argument("--hall", action="store_true",
                       help="the duplicate game in a hall, at the arbiter's console")
    which.add_argument("--two-events", action="store_true",
                       help="the classic tournament and the duplicate game at once (issue 37)")
    parser.add_argument("--answer-first", action="store_true",
                        help="the bot's App: each caller answered before his delivery")
    args = parser.parse_args()
    if args.hall and args.answer_first:
        parser.error("--hall is played at the arbiter's console, not by the bot: "
                     "it has no answer-first mode")
    chosen = (HALL if args.hall else DUPLICATE if args.duplicate
              else TWO_EVENTS if args.two_events else CLASSIC)
    if args.answer_first:
        main(args.campaigns, args.seed, answered_first(chosen), chosen)
    else:
        main(args.campaigns, args.seed, chosen)
