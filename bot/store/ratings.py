"""Online screlo changes: the player's current rating and its append-only history.

The history is a chain per player: each row's before is the registry as it stood (the previous
row's after). A tournament's row also keeps that event's own change (`event_*`), computed from
its entries' seeds; the two differ when another event of the player finished during it
(issue 44.1, DESIGN.md 6b).
"""

from __future__ import annotations

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.players import get_player, update_player
from bot.store.rows import Change, DuplicateError, RatingChange
from bot.store.sql import insert, must, one, rows


def apply_rating(
    db: Database,
    player_id: int,
    after_value: float,
    after_games: int,
    by: Change,
    *,
    tournament_id: int | None = None,
    season: str | None = None,
    event_before: tuple[float | None, int] | None = None,
    event_after: tuple[float, int] | None = None,
) -> RatingChange:
    """Set a player's online screlo and rated games, keeping the before/after in history.

    With `tournament_id` it is that tournament's rating change (once per player and
    tournament; `season` then becomes the player's last season played unless he has a later
    one); `event_before`/`event_after` are the event's own figures (default: the registry
    before and `after_value`, i.e. nothing else changed it during the event). Without, it is a
    decay for an inactive season.
    """
    player = get_player(db, player_id)
    if tournament_id is not None and rating_change_of(db, player_id, tournament_id):
        raise DuplicateError(
            f"tournament {tournament_id} has already changed the rating of {player.name}"
        )
    own: dict[str, float | int | None] = {}
    if tournament_id is not None:
        before = event_before or (player.screlo, player.rated_games)
        after = event_after or (after_value, after_games)
        own = {"event_before_value": before[0], "event_before_games": before[1],
               "event_after_value": after[0], "event_after_games": after[1]}
    history_id = insert(db, "rating_history", {
        "player_id": player_id,
        "tournament_id": tournament_id,
        "kind": "decay" if tournament_id is None else "tournament",
        "before_value": player.screlo,
        "before_games": player.rated_games,
        "after_value": after_value,
        "after_games": after_games,
        "at": by.at,
        **own,
    })
    later = season if season is not None and later_season(season, player.last_season) else None
    db.execute(
        "UPDATE players SET screlo = ?, rated_games = ?, "
        "last_season = COALESCE(?, last_season) WHERE id = ?",
        [after_value, after_games, later, player_id],
    )
    record(db, by, "rating.apply", tournament_id=tournament_id, subject=f"player:{player_id}",
           data={"before": [player.screlo, player.rated_games],
                 "after": [after_value, after_games]}
           | ({"event": [[own["event_before_value"], own["event_before_games"]],
                         [own["event_after_value"], own["event_after_games"]]]}
              if own else {}))
    return must(one(db, RatingChange, "SELECT * FROM rating_history WHERE id = ?",
                    [history_id]), f"rating change {history_id}")


def later_season(season: str, last: str | None) -> bool:
    """Whether `season` comes after `last` (None: none yet). Seasons are ordered by their
    first calendar year ("2026/27" and "2026/2027" begin in 2026; SP A4/A5), so an older
    season's event finishing after a newer one's never moves `last_season` back (which would
    make the next decay judge an active player inactive, e-SP 2.4)."""
    return last is None or _first_year(season) > _first_year(last)


def _first_year(season: str) -> int:
    return int(season.strip()[:4])


def advance_last_season(db: Database, player_id: int, season: str, by: Change) -> bool:
    """The player played a qualifier in `season`: his last season moves to it if it is later
    (never back). Returns whether it moved."""
    if not later_season(season, get_player(db, player_id).last_season):
        return False
    update_player(db, player_id, by, last_season=season)
    return True


def rating_history(db: Database, player_id: int) -> list[RatingChange]:
    """The player's rows in the order they were applied (the chain's order)."""
    return rows(db, RatingChange,
                "SELECT * FROM rating_history WHERE player_id = ? ORDER BY id", [player_id])


def rating_change_of(db: Database, player_id: int, tournament_id: int) -> RatingChange | None:
    """The tournament's row in the player's history (None: it did not change his rating)."""
    return one(db, RatingChange,
               "SELECT * FROM rating_history WHERE player_id = ? AND tournament_id = ?",
               [player_id, tournament_id])
