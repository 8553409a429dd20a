"""Entries: who plays in a tournament, in registration order, and their state in it."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.players import get_player
from bot.store.rows import Change, DuplicateError, Entry, StoreError
from bot.store.sql import insert, must, one, rows, update


def add_entry(
    db: Database,
    tournament_id: int,
    player_id: int,
    by: Change,
    *,
    paid: bool = False,
) -> Entry:
    """Register a player; membership and the seed (online screlo, rated games) are copied
    from the registry now, so later rating changes do not move the seeding (e-SP 2.4)."""
    if get_entry(db, tournament_id, player_id) is not None:
        raise DuplicateError(f"player {player_id} is already registered")
    player = get_player(db, player_id)
    (next_no,) = db.execute(
        "SELECT COALESCE(MAX(registration_no), 0) + 1 FROM entries WHERE tournament_id = ?",
        [tournament_id],
    ).fetchone()
    insert(
        db,
        "entries",
        {
            "tournament_id": tournament_id,
            "player_id": player_id,
            "registration_no": next_no,
            "registered_at": by.at,
            "paid": paid,
            "member": player.sss_member,
            "seed_rating": player.screlo,
            "seed_games": player.rated_games,
        },
    )
    record(db, by, "entry.add", tournament_id=tournament_id, subject=f"player:{player_id}",
           data={"registration_no": next_no, "paid": paid})
    return _must_entry(db, tournament_id, player_id)


def get_entry(db: Database, tournament_id: int, player_id: int) -> Entry | None:
    return one(db, Entry, "SELECT * FROM entries WHERE tournament_id = ? AND player_id = ?",
               [tournament_id, player_id])


def _must_entry(db: Database, tournament_id: int, player_id: int) -> Entry:
    return must(get_entry(db, tournament_id, player_id),
                f"entry of player {player_id} in tournament {tournament_id}")


def list_entries(db: Database, tournament_id: int, *, active_only: bool = False) -> list[Entry]:
    """In registration order; `active_only` leaves out the withdrawn and the excluded."""
    extra = " AND withdrawn_at IS NULL AND excluded_at IS NULL" if active_only else ""
    return rows(db, Entry, f"SELECT * FROM entries WHERE tournament_id = ?{extra} "
                "ORDER BY registration_no", [tournament_id])


def _change(db: Database, tournament_id: int, player_id: int, by: Change, action: str,
            changes: dict[str, Any]) -> Entry:
    diff = update(db, "entries", "tournament_id = ? AND player_id = ?",
                  [tournament_id, player_id], changes)
    record(db, by, action, tournament_id=tournament_id, subject=f"player:{player_id}",
           data=diff)
    return _must_entry(db, tournament_id, player_id)


def set_paid(db: Database, tournament_id: int, player_id: int, paid: bool, by: Change) -> Entry:
    return _change(db, tournament_id, player_id, by, "entry.paid", {"paid": paid})


def check_in(db: Database, tournament_id: int, player_id: int, by: Change) -> Entry:
    """Record the check-in at `by.at`; checking in again keeps the first time (no new audit)."""
    entry = _must_entry(db, tournament_id, player_id)
    if entry.out is not None:
        raise StoreError(f"player {player_id} is out of the tournament: {entry.out}")
    if entry.checked_in_at is not None:
        return entry
    return _change(db, tournament_id, player_id, by, "entry.check_in",
                   {"checked_in_at": by.at})


def withdraw(db: Database, tournament_id: int, player_id: int, reason: str,
             by: Change) -> Entry:
    """The player withdraws (e-SP 3.6); `reason` is kept with the entry."""
    return _leave(db, tournament_id, player_id, reason, by, "withdrawn")


def exclude(db: Database, tournament_id: int, player_id: int, reason: str,
            by: Change) -> Entry:
    """The player is excluded (e-SP 3.6); `reason` cites the clause."""
    return _leave(db, tournament_id, player_id, reason, by, "excluded")


def _leave(db: Database, tournament_id: int, player_id: int, reason: str, by: Change,
           how: str) -> Entry:
    if not reason.strip():
        raise ValueError(f"{how}: a reason is required")
    entry = _must_entry(db, tournament_id, player_id)
    if getattr(entry, f"{how}_at") is not None:
        raise StoreError(f"player {player_id} is already {how}: {getattr(entry, how + '_reason')}")
    return _change(db, tournament_id, player_id, by, f"entry.{how}",
                   {f"{how}_at": by.at, f"{how}_reason": reason.strip()})
