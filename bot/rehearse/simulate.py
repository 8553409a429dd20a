"""`stredisko simulator`: the local herna.net (`scrapers.herna.simulator`) serving the games of
a file, to practise a sync — fed from the bot's side, as scrapers know herna.net, not
tournaments (`bot.rehearse.feed` reads the file).

It takes new games while it runs: the file is read again whenever it changes (looked at every
`WATCH_SECONDS`); a game it has not served yet is added, one already served stays as it was
(games are numbered in the file's order, so new ones go at its end). A file that turns bad
while running is reported in one line and the games served so far stay.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from bot.rehearse.feed import FedGame, FeedError, load_games
from scrapers.herna import layout
from scrapers.herna.simulator import Simulator

WATCH_SECONDS = 2.0


def _stamp(path: Path) -> tuple[float, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_mtime, found.st_size


class Feeder:
    """Adds to the simulator the games of the file it has not served yet."""

    def __init__(self, sim: Simulator, games: Path, propozicie: Path | None,
                 out: TextIO) -> None:
        self.sim, self.games, self.propozicie, self.out = sim, games, propozicie, out
        self.served: set[str] = set()
        self.seen: tuple[float, int] | None = None

    def load(self) -> int:
        """Read the file now; the number of games added. FeedError when it is bad."""
        self.seen = _stamp(self.games)
        fresh = [g for g in load_games(self.games, self.propozicie)
                 if g.record.game_id not in self.served]
        for game in fresh:
            self._add(game)
        return len(fresh)

    def _add(self, game: FedGame) -> None:
        self.sim.add_game(game.record, release_at=game.release_at, finish_at=game.finish_at)
        self.served.add(game.record.game_id)

    def changed(self) -> bool:
        return _stamp(self.games) != self.seen

    async def watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            if not self.changed():
                continue
            try:
                added = self.load()
            except FeedError as error:  # keep serving what was served
                print(f"{error} (podávané partie ostávajú: {len(self.served)})", file=self.out,
                      flush=True)
                continue
            print(f"súbor {self.games} sa zmenil: pridané partie {added}, podávané spolu "
                  f"{len(self.served)}", file=self.out, flush=True)


async def serve(args: argparse.Namespace, out: TextIO) -> None:
    offset = args.clock - datetime.now(UTC) if args.clock is not None else timedelta(0)
    sim = Simulator({args.user: args.password}, clock=lambda: datetime.now(UTC) + offset)
    feeder = Feeder(sim, Path(args.games), Path(args.propozicie) if args.propozicie else None,
                    out)
    first = feeder.load()
    async with sim.serve(port=args.port) as url:
        print(url, flush=True, file=out)
        print(f"herna.net simulátor na {url} – prihlasovacie meno: {args.user}, heslo: "
              f"{args.password}", flush=True, file=out)
        print(f"partie zo súboru {args.games}: {first}, teraz viditeľné: {len(sim.visible())} "
              f"(simulovaný čas {layout.page_time(sim.clock())}); nové partie na konci súboru "
              "pridám, keď ho uložíš; Ctrl-C ukončí", flush=True, file=out)
        await feeder.watch()


def run(args: argparse.Namespace) -> int:
    try:
        with suppress(KeyboardInterrupt):
            asyncio.run(serve(args, sys.stdout))
    except FeedError as error:
        print(error, file=sys.stderr)
        return 2
    return 0
