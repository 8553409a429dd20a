"""The association's online screlo list (CSV) → the registry's ratings: nick or name, screlo,
rated games and optionally the last season played, set as published; players we do not know
are listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.services import bounds
from bot.services.app import App, Tx
from bot.services.replies import Reply, done
from bot.services.tournament.csv_rows import (
    SCRELO_COLUMNS,
    file_rows,
    number_cell,
    read_csv,
    text_cell,
)
from bot.services.tournament.propozicie import SetupError, season_start
from bot.store import Change, find_player_by_nick, get_player, later_season, list_players, record


@dataclass(frozen=True, slots=True)
class ScreloRow:
    row: int
    nick: str
    name: str
    screlo: float
    games: int | None
    last_season: str | None


def parse_screlo_csv(text: str) -> list[ScreloRow]:
    found = []
    for n, row in read_csv(text, SCRELO_COLUMNS):
        nick, name = (text_cell(n, row, "nick", "herna", bounds.nick),
                      text_cell(n, row, "name", "meno"))
        if not nick and not name:
            raise SetupError(n, "chýba prezývka z herna.net aj meno")
        value = number_cell(n, row.get("screlo", ""), "screlo", "screlo")
        if value is None:
            raise SetupError(n, "chýba online screlo")
        games = number_cell(n, row.get("games", ""), "games", "partie")
        season = row.get("last_season") or None
        if season is not None:
            try:
                season_start(season)
            except ValueError as exc:
                raise SetupError(n, str(exc)) from None
        found.append(ScreloRow(n, nick, name, float(value),
                               None if games is None else int(games), season))
    return found


def _set_registry_rating(db: Database, player_id: int, value: float, games: int,
                         last_season: str | None, by: Change) -> None:
    """The association's published list sets the rating as it is, with no history row of a
    tournament or a decay. Own query: bot.store has no writer for this (asked for in the
    report: `set_rating(db, player_id, value, games, by, last_season=None)`). The last season
    only moves forward (issue 44.8): a list older than a qualifier we recorded keeps ours."""
    later = (last_season if last_season is not None
             and later_season(last_season, get_player(db, player_id).last_season) else None)
    db.execute("UPDATE players SET screlo = ?, rated_games = ?, "
               "last_season = COALESCE(?, last_season) WHERE id = ?",
               [value, games, later, player_id])
    record(db, by, "rating.import", subject=f"player:{player_id}",
           data={"screlo": value, "games": games, "last_season": last_season})


def _import_screlo(tx: Tx, rows: list[ScreloRow], admin_id: str) -> Reply:
    by = tx.by_admin(admin_id, "zoznam online screla")
    by_name: dict[str, list[Any]] = {}
    for p in list_players(tx.db):
        by_name.setdefault(p.name.casefold(), []).append(p)
    updated, unknown = 0, []
    for row in rows:
        player = find_player_by_nick(tx.db, row.nick) if row.nick else None
        if player is None and row.name and len(by_name.get(row.name.casefold(), [])) == 1:
            player = by_name[row.name.casefold()][0]
        if player is None:
            unknown.append(row.nick or row.name)
            continue
        games = player.rated_games if row.games is None else row.games
        _set_registry_rating(tx.db, player.id, row.screlo, games, row.last_season, by)
        updated += 1
    return done("setup.screlo_imported", updated=updated, unknown_count=len(unknown),
                unknown=", ".join(unknown) or "—")


async def import_screlo_list(app: App, path: str | Path, admin_id: str) -> Reply:
    """Update the registry from the association's online screlo list (nick or name, screlo,
    rated games, optionally the last season played); players we do not know are listed."""
    rows = file_rows(path, parse_screlo_csv)
    if isinstance(rows, Reply):
        return rows
    return await app.run(_import_screlo, rows, admin_id)
