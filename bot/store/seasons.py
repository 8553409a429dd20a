"""A season's ladder as last announced, and the page it owes (issue 44.2): one row per season
file, keyed by the file's resolved path (`season_ladders`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from bot.store.times import from_text, to_text


@dataclass(frozen=True, slots=True)
class SeasonLadder:
    file: str
    season: str
    qualified: tuple[str, ...] | None  # None: never announced
    page_dir: str | None  # a page owed there; None: none owed
    page_owed_by: int | None  # the tournament whose finish owes it


_COLUMNS = "file, season, qualified, page_dir, page_owed_by"


def _row(found: tuple[str, str, str | None, str | None, int | None]) -> SeasonLadder:
    file, season, qualified, page_dir, owed_by = found
    return SeasonLadder(file, season, None if qualified is None else tuple(json.loads(qualified)),
                        page_dir, owed_by)


def season_ladder(db: Database, file: str) -> SeasonLadder | None:
    found = db.execute(f"SELECT {_COLUMNS} FROM season_ladders WHERE file = ?", [file]).fetchone()
    return None if found is None else _row(found)


def _ensure(db: Database, file: str, season: str) -> None:
    db.execute("INSERT INTO season_ladders (file, season) VALUES (?, ?) "
               "ON CONFLICT (file) DO UPDATE SET season = excluded.season", [file, season])


def record_announced(db: Database, file: str, season: str, qualified: list[str],
                     tournament_id: int, at: datetime) -> None:
    """The qualifying places as the announcement (made or found needless) leaves them."""
    _ensure(db, file, season)
    db.execute("UPDATE season_ladders SET qualified = ?, announced_at = ?, announced_after = ? "
               "WHERE file = ?", [json.dumps(qualified, ensure_ascii=False), to_text(at),
                                  tournament_id, file])


def owe_page(db: Database, file: str, season: str, page_dir: str, tournament_id: int | None,
             at: datetime) -> None:
    """The page is owed in `page_dir`: in the transaction that changed the ladder."""
    _ensure(db, file, season)
    db.execute("UPDATE season_ladders SET page_dir = ?, page_owed_by = ?, page_owed_at = ? "
               "WHERE file = ?", [page_dir, tournament_id, to_text(at), file])


def page_paid(db: Database, file: str, page_dir: str, owed_at: datetime | None = None) -> bool:
    """The page owed in `page_dir` is written; a debt recorded after `owed_at` (a later
    finish while this one was writing) stays. True when a debt was cleared."""
    sql = "UPDATE season_ladders SET page_dir = NULL, page_owed_by = NULL, page_owed_at = NULL " \
          "WHERE file = ? AND page_dir = ?"
    params: list[object] = [file, page_dir]
    if owed_at is not None:
        sql += " AND page_owed_at = ?"
        params.append(to_text(owed_at))
    return db.execute(sql, params).rowcount > 0


def owed_pages(db: Database) -> list[tuple[SeasonLadder, datetime]]:
    """Every page owed, with when it was owed (oldest first)."""
    found = db.execute(f"SELECT {_COLUMNS}, page_owed_at FROM season_ladders "
                       "WHERE page_dir IS NOT NULL ORDER BY page_owed_at, id").fetchall()
    return [(_row(row[:5]), from_text(row[5])) for row in found]
