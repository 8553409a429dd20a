"""Files for other programs and for the association: results CSV, a TSH `.t` file, and the
updated online screlo list (readable back by `setup.import_screlo_list`).

Each export is a use case answering a Reply whose `data` is the file's text (UTF-8).

TSH `.t` (John Chew's tsh): one line per player, the line number is the player's number:
`Surname, Given rating opp1 opp2 …; score1 score2 …; p12 f1 f2 …`. Opponent 0 is a bye (or a
round the player did not play); the scores are the player's own, so far as results exist
(a round without a result ends the score list, as tsh reads a round not yet entered); `p12`
says who started: 1 first, 2 second, 0 bye — starts matter for the SP 1.3 balance.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Reply, done
from bot.services.views import seed_rating, tables_of
from bot.store import get_player, list_entries, list_players

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


def tsh_name(name: str) -> str:
    """"Anna Nováková" → "Nováková, Anna" (tsh sorts by surname); digits are dropped (tsh
    reads the first number on the line as the rating)."""
    parts = "".join(c for c in name if not c.isdigit()).split()
    if len(parts) < 2:
        return " ".join(parts) or "?"
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


def _tsh(tx: Tx, slug: str) -> Reply:
    t = lookup.tournament(tx, slug)
    profile = tx.profile(t.profile)
    entries = list_entries(tx.db, t.id)
    number = {e.player_id: n for n, e in enumerate(entries, start=1)}
    tables = tables_of(tx.db, t)
    rounds = sorted({tb.pairing.round_no for tb in tables})
    seat: dict[tuple[int, int], tuple[int, int | None, int | None]] = {}
    for tb in tables:
        p, r = tb.pairing, tb.result
        scores = (r.first_score, r.second_score) if tb.scored and r else (None, None)
        seat[(p.round_no, p.first_id)] = (1 if p.second_id else 0, p.second_id, scores[0])
        if p.second_id is not None:
            seat[(p.round_no, p.second_id)] = (2, p.first_id, scores[1])
    lines = []
    for e in entries:
        opponents, scores, firsts = [], [], []
        complete = True
        for n in rounds:
            start, opponent, score = seat.get((n, e.player_id), (0, None, 0))
            opponents.append(str(number[opponent]) if opponent else "0")
            firsts.append(str(start))
            complete = complete and score is not None
            if complete:
                scores.append(str(score))
        name = tsh_name(get_player(tx.db, e.player_id).name)
        rating = round(seed_rating(e, profile))
        lines.append(f"{name} {rating} {' '.join(opponents)}; {' '.join(scores)}; "
                     f"p12 {' '.join(firsts)}".rstrip())
    return done("cli.exported", data="\n".join(lines) + "\n", what="tsh", count=len(lines))


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


async def tsh_file(app: App, slug: str) -> Reply:
    return await app.run(_tsh, slug)


async def screlo_list_csv(app: App) -> Reply:
    """The registry's online screlo list (herna nick, name, screlo, rated games, last
    season), highest first."""
    return await app.run(_screlo)
