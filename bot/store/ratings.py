"""Online screlo changes: the player's current rating and its append-only history."""

from __future__ import annotations

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.players import get_player
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
) -> RatingChange:
    """Set a player's online screlo and rated games, keeping the before/after in history.

    With `tournament_id` it is that tournament's rating change (once per player and
    tournament; `season` then becomes the player's last season played); without, it is a
    decay for an inactive season.
    """
    player = get_player(db, player_id)
    if tournament_id is not None and one(
        db, RatingChange,
        "SELECT * FROM rating_history WHERE player_id = ? AND tournament_id = ?",
        [player_id, tournament_id],
    ):
        raise DuplicateError(
            f"tournament {tournament_id} has already changed the rating of {player.name}"
        )
    history_id = insert(db, "rating_history", {
        "player_id": player_id,
        "tournament_id": tournament_id,
        "kind": "decay" if tournament_id is None else "tournament",
        "before_value": player.screlo,
        "before_games": player.rated_games,
        "after_value": after_value,
        "after_games": after_games,
        "at": by.at,
    })
    db.execute(
        "UPDATE players SET screlo = ?, rated_games = ?, "
        "last_season = COALESCE(?, last_season) WHERE id = ?",
        [after_value, after_games, season, player_id],
    )
    record(db, by, "rating.apply", tournament_id=tournament_id, subject=f"player:{player_id}",
           data={"before": [player.screlo, player.rated_games],
                 "after": [after_value, after_games]})
    return must(one(db, RatingChange, "SELECT * FROM rating_history WHERE id = ?",
                    [history_id]), f"rating change {history_id}")


def rating_history(db: Database, player_id: int) -> list[RatingChange]:
    return rows(db, RatingChange,
                "SELECT * FROM rating_history WHERE player_id = ? ORDER BY at, id", [player_id])
