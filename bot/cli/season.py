"""`stredisko season SEASON.toml [--db FILE] [--json] [--html DIR]`: a season's ladder (issue 14)
as text, as one JSON document, or as a page in the style of the results page.

Exit codes: 0 the ladder; 2 the file cannot be used (`SÚBOR:RIADOK: dôvod` on stderr, as a
usage error); 1 anything else (a database that cannot be read). The database (`--db`, else
the configured one) is only read: it names the registry's players and holds the tournaments
`tournament = "SLUG"` events take their final order from. When that file does not exist, only
the file's own [[player]]s are known and the database is not created. An event named there
that has not finished is shown as pending (issue 44.2). With `--html`, a season page a finish
left owed (a crash between its commit and the page) is written too, where it was owed, and
the debt cleared — the one write this command makes to the database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from bot.cli.common import Add, db_path, lock_wait_s
from bot.cli.common import run as run_use_case
from bot.cli.notes import database_problem
from bot.i18n import t
from bot.services.season import ladder as season
from bot.services.season.on_finish import repair_pages
from bot.store import Store

FILE_ERROR = 2


async def _load(file: str, db: Path, wait_s: float) -> season.SeasonView:
    if not db.exists():
        return await season.load(file, None)
    try:
        store = await Store.open(db, busy_timeout_ms=round(wait_s * 1000))
    except sqlite3.DatabaseError as exc:
        raise ValueError(database_problem(db, exc, wait_s)) from None
    try:
        return await season.load(file, store)
    finally:
        await store.close()


def _command() -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            view = asyncio.run(_load(args.file, db_path(args), lock_wait_s(args)))
        except season.SeasonFileError as exc:
            print(str(exc), file=sys.stderr)
            return FILE_ERROR
        if args.json:
            json.dump(season.document(view), sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            print("\n".join(season.ladder_lines(view)))
        if args.html:
            from bot.publish.season_page import write_season_page

            path = write_season_page(view, args.html)
            print(f"stredisko: stránka rebríčka: {path}", file=sys.stderr)
            if db_path(args).exists():
                for page in run_use_case(args, repair_pages):
                    print(t("season.page_repaired", season=page.season, file=page.file),
                          file=sys.stderr)
        return 0

    return run


def add_command(add: Add) -> None:
    """Add `season` to the `stredisko` parser (`add(name, help, run)` as in bot.cli)."""
    sub = add("season", "rebríček sezóny: kvalifikácia na M-SR, Slovenský pohár, Pohár ČAS "
              "(súbor TOML)", _command())
    sub.add_argument("file", metavar="SEZÓNA.toml")
    sub.add_argument("--json", action="store_true", help="rebríček ako jeden dokument JSON")
    sub.add_argument("--html", metavar="PRIEČINOK", help="zapísať stránku rebríčka")
