"""Files for the association: the results CSV and the updated online screlo list (readable
back by `setup.import_screlo_list`). Files for other programs have modules of their own:
`export_tsh` (John Chew's tsh) and `export_trf` (FIDE TRF).

Each export is a use case answering a Reply whose `data` is the file's text (UTF-8).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Reply, done
from bot.services.views import tables_of
from bot.store import get_player, list_players

RESULT_COLUMNS = (
    "round", "table", "first", "first_nick", "second", "second_nick", "first_score",
    "second_score", "first_points", "second_points", "end", "rule", "status",
)
SCRELO_COLUMNS = ("herna", "meno", "screlo", "partie", "sezona")


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _number(value: float | None) -> str:
    """Points as 1 / 0.5 / 0; nothing when there is no result."""
    if value is None:
        return ""
    return f"{value:g}"


def _results(tx: Tx, slug: str) -> Reply:
    t = lookup.tournament(tx, slug)
    rows = []
    for tb in tables_of(tx.db, t):
        p, r = tb.pairing, tb.result
        first = get_player(tx.db, p.first_id)
        second = None if p.second_id is None else get_player(tx.db, p.second_id)
        scored = tb.scored and r is not None
        rows.append({
            "round": p.round_no, "table": p.table_no, "first": first.name,
            "first_nick": first.herna_nick, "second": second.name if second else "",
            "second_nick": second.herna_nick if second else "",
            "first_score": r.first_score if scored and r else "",
            "second_score": r.second_score if scored and r else "",
            "first_points": _number(r.first_points) if r else "",
            "second_points": _number(r.second_points) if r else "",
            "end": (r.end_kind or "") if r else "", "rule": (r.rule or "") if r else "",
            "status": str(r.status) if r else "pending",
        })
    return done("cli.exported", data=_csv(RESULT_COLUMNS, rows), what="results",
                count=len(rows))


def _screlo(tx: Tx) -> Reply:
    rows = [
        {"herna": p.herna_nick, "meno": p.name, "screlo": f"{p.screlo:.2f}",
         "partie": p.rated_games, "sezona": p.last_season or ""}
        for p in sorted(list_players(tx.db), key=lambda p: (-(p.screlo or 0), p.name))
        if p.screlo is not None
    ]
    return done("cli.exported", data=_csv(SCRELO_COLUMNS, rows), what="screlo",
                count=len(rows))


async def results_csv(app: App, slug: str) -> Reply:
    """Every table: round, table, players, scores, points, how it ended, rule, status."""
    return await app.run(_results, slug)


async def screlo_list_csv(app: App) -> Reply:
    """The registry's online screlo list (herna nick, name, screlo, rated games, last
    season), highest first."""
    return await app.run(_screlo)
