"""The player registry, shared by all tournaments."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.rows import Change, DuplicateError, Player
from bot.store.sql import check_columns, insert, must, one, rows, update

#: What `update_player` may change (ratings change through `ratings.apply_rating`).
EDITABLE = ("name", "herna_nick", "discord_id", "discord_name", "sss_member", "last_season")


def _refuse_duplicates(db: Database, herna_nick: str | None, discord_id: int | None,
                       except_id: int | None = None) -> None:
    if herna_nick is not None:
        taken = find_player_by_nick(db, herna_nick)
        if taken is not None and taken.id != except_id:
            raise DuplicateError(
                f"herna nick {herna_nick!r} already belongs to {taken.name} (player {taken.id})"
            )
    if discord_id is not None:
        taken = find_player_by_discord(db, discord_id)
        if taken is not None and taken.id != except_id:
            raise DuplicateError(
                f"Discord account {discord_id} already belongs to {taken.name} "
                f"(player {taken.id})"
            )


def create_player(
    db: Database,
    *,
    name: str,
    herna_nick: str,
    by: Change,
    discord_id: int | None = None,
    discord_name: str | None = None,
    sss_member: bool = False,
    screlo: float | None = None,
    rated_games: int = 0,
    last_season: str | None = None,
) -> Player:
    """Register a player; the herna nick is unique case-insensitively, the Discord id too."""
    name, herna_nick = name.strip(), herna_nick.strip()
    if not name or not herna_nick:
        raise ValueError("a player needs a name and a herna.net nick")
    _refuse_duplicates(db, herna_nick, discord_id)
    player_id = insert(
        db,
        "players",
        {
            "name": name,
            "herna_nick": herna_nick,
            "herna_key": nick_key(herna_nick),
            "discord_id": discord_id,
            "discord_name": discord_name,
            "sss_member": sss_member,
            "screlo": screlo,
            "rated_games": rated_games,
            "last_season": last_season,
            "created_at": by.at,
        },
    )
    record(db, by, "player.create", subject=f"player:{player_id}",
           data={"name": name, "herna_nick": herna_nick, "screlo": screlo})
    return get_player(db, player_id)


def get_player(db: Database, player_id: int) -> Player:
    return must(one(db, Player, "SELECT * FROM players WHERE id = ?", [player_id]),
                f"player {player_id}")


def nick_key(herna_nick: str) -> str:
    """The form nicks are compared in: case-insensitive for every letter, Ď and ď too."""
    return herna_nick.strip().casefold()


def find_player_by_nick(db: Database, herna_nick: str) -> Player | None:
    """Case-insensitive, as herna.net treats nicks."""
    return one(db, Player, "SELECT * FROM players WHERE herna_key = ?", [nick_key(herna_nick)])


def players_with_discord_names(db: Database) -> list[Player]:
    """Every registry player with a recorded Discord name (to find namesakes)."""
    return rows(db, Player, "SELECT * FROM players WHERE discord_name IS NOT NULL "
                "AND discord_name <> '' ORDER BY id")


def find_player_by_discord(db: Database, discord_id: int) -> Player | None:
    return one(db, Player, "SELECT * FROM players WHERE discord_id = ?", [discord_id])


def list_players(db: Database) -> list[Player]:
    return rows(db, Player, "SELECT * FROM players ORDER BY name, id")


def update_player(db: Database, player_id: int, by: Change, **changes: Any) -> Player:
    """Change the `EDITABLE` fields given as keywords, e.g. `discord_id=…, discord_name=…`."""
    check_columns(changes, EDITABLE, "update_player")
    _refuse_duplicates(db, changes.get("herna_nick"), changes.get("discord_id"), player_id)
    if "herna_nick" in changes:
        changes["herna_nick"] = changes["herna_nick"].strip()
        changes["herna_key"] = nick_key(changes["herna_nick"])
    diff = update(db, "players", "id = ?", [player_id], changes)
    record(db, by, "player.update", subject=f"player:{player_id}", data=diff)
    return get_player(db, player_id)
