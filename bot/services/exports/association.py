"""Files for the association: the results CSV and the updated online screlo list (readable
back by `setup.import_screlo_list`). Files for other programs have modules of their own:
`exports.tsh` (John Chew's tsh) and `exports.trf` (FIDE TRF).

Each export is a use case answering a Reply whose `data` is the file's text (UTF-8). The CSV
ones come in two FORMATS: "excel" (the default: what Excel on Slovak Windows opens by a double
click, `bot.services.exports.spreadsheet`) and "stroj" (the plain machine format, unchanged).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.i18n import t
from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.exports.spreadsheet import excel_csv
from bot.services.replies import Reply, done
from bot.services.tournament.views import tables_of
from bot.store import get_player, list_players
from rules import End
from rules.scoring import END_NAMES_SK

RESULT_COLUMNS = (
    "round", "table", "first", "first_nick", "second", "second_nick", "first_score",
    "second_score", "first_points", "second_points", "end", "rule", "status",
)
SCRELO_COLUMNS = ("herna", "meno", "screlo", "partie", "sezona")
#: the formats of a CSV export: for Excel on Slovak Windows (the default) or the plain one
#: other programs and older scripts read, byte for byte as before issue 19.3
FORMATS = ("excel", "stroj")
EXCEL, MACHINE = FORMATS


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


def _file(what: str, columns: tuple[str, ...], rows: list[dict[str, Any]], form: str) -> str:
    """The machine format as it always was, or the Excel one: Slovak headers (the catalogue's
    export.<what>.<column>) and typed cells (`spreadsheet.excel_csv`)."""
    if form == MACHINE:
        plain = [{k: _plain(v) for k, v in row.items()} for row in rows]
        return _csv(columns, plain)
    header = [t(f"export.{what}.{c}") for c in columns]
    return excel_csv(header, ([row[c] for c in columns] for row in rows))


def _plain(value: Any) -> Any:
    """A cell of the machine format: points as 1 / 0.5 / 0, None as nothing."""
    if isinstance(value, float):
        return _number(value)
    return "" if value is None else value


def _results(tx: Tx, slug: str, form: str) -> Reply:
    tour = lookup.tournament(tx, slug)
    excel = form == EXCEL
    rows = []
    for tb in tables_of(tx.db, tour):
        p, r = tb.pairing, tb.result
        first = get_player(tx.db, p.first_id)
        second = None if p.second_id is None else get_player(tx.db, p.second_id)
        scored = tb.scored and r is not None
        end = (r.end_kind or "") if r else ""
        status = str(r.status) if r else "pending"
        rows.append({
            "round": p.round_no, "table": p.table_no, "first": first.name,
            "first_nick": first.herna_nick, "second": second.name if second else "",
            "second_nick": second.herna_nick if second else "",
            "first_score": r.first_score if scored and r else None,
            "second_score": r.second_score if scored and r else None,
            "first_points": r.first_points if r else None,
            "second_points": r.second_points if r else None,
            "end": END_NAMES_SK[End(end)] if excel and end else end,
            "rule": (r.rule or "") if r else "",
            "status": t(f"export.status.{status}") if excel else status,
        })
    return done("cli.exported", data=_file("results", RESULT_COLUMNS, rows, form),
                what="results", count=len(rows))


def _screlo(tx: Tx, form: str) -> Reply:
    rows = [
        {"herna": p.herna_nick, "meno": p.name,
         "screlo": f"{p.screlo:.2f}" if form == MACHINE else round(p.screlo, 2),
         "partie": p.rated_games, "sezona": p.last_season or ""}
        for p in sorted(list_players(tx.db), key=lambda p: (-(p.screlo or 0), p.name))
        if p.screlo is not None
    ]
    return done("cli.exported", data=_file("screlo", SCRELO_COLUMNS, rows, form),
                what="screlo", count=len(rows))


async def results_csv(app: App, slug: str, form: str = EXCEL) -> Reply:
    """Every table: round, table, players, scores, points, how it ended, rule, status;
    `form` one of FORMATS."""
    return await app.run(_results, slug, form)


async def screlo_list_csv(app: App, form: str = EXCEL) -> Reply:
    """The registry's online screlo list (herna nick, name, screlo, rated games, last
    season), highest first; `form` one of FORMATS. Both read back through
    `setup.import_screlo_list`."""
    return await app.run(_screlo, form)
