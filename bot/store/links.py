"""Requests to link a Discord account to a registry player (table `link_requests`).

A request is one row per (event, player, account): asking again in the same event finds the
same row. The account it links is the player's in every event (his `discord_id` is one), but
the request is each event's: its head admin sees it in his review queue and decides it, and a
rejection in one event is not one in another (issue 44.8) — there the account may ask its head
admin. Its status moves
pending → approved / rejected by the head admin; a decided request may be reopened when the
same account asks again after the player was unlinked (`reopen_link_request`). Every write
appends its audit row.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.rows import Change
from bot.store.sql import insert_row, must, one, rows, update

PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"


@dataclass(frozen=True, slots=True)
class LinkRequest:
    id: int
    tournament_id: int
    player_id: int
    discord_id: int
    discord_name: str
    requested_at: datetime
    status: str
    decided_at: datetime | None
    decided_by: str | None
    reason: str | None


def add_link_request(db: Database, tournament_id: int, player_id: int, discord_id: int,
                     discord_name: str, by: Change) -> LinkRequest:
    request = insert_row(db, LinkRequest, "link_requests", {
        "tournament_id": tournament_id, "player_id": player_id, "discord_id": discord_id,
        "discord_name": discord_name, "requested_at": by.at})
    record(db, by, "identity.request", tournament_id=tournament_id,
           subject=f"player:{player_id}",
           data={"request": request.id, "discord_id": discord_id, "discord_name": discord_name})
    return request


def get_link_request(db: Database, request_id: int) -> LinkRequest:
    return must(one(db, LinkRequest, "SELECT * FROM link_requests WHERE id = ?", [request_id]),
                f"link request {request_id}")


def find_link_request(db: Database, tournament_id: int, player_id: int,
                      discord_id: int) -> LinkRequest | None:
    return one(db, LinkRequest,
               "SELECT * FROM link_requests WHERE tournament_id = ? AND player_id = ? "
               "AND discord_id = ?", [tournament_id, player_id, discord_id])


def asked_before(db: Database, player_id: int, discord_id: int) -> bool:
    """The account asked for the player in some event already (then the registry alone no
    longer links it: a head admin decided, or decides)."""
    return db.execute("SELECT 1 FROM link_requests WHERE player_id = ? AND discord_id = ?",
                      [player_id, discord_id]).fetchone() is not None


def pending_for(db: Database, player_id: int) -> list[LinkRequest]:
    """The player's pending requests, in every event."""
    return rows(db, LinkRequest, "SELECT * FROM link_requests WHERE player_id = ? AND "
                "status = ? ORDER BY id", [player_id, PENDING])


def list_link_requests(db: Database, tournament_id: int, *,
                       status: str | None = PENDING) -> list[LinkRequest]:
    sql = "SELECT * FROM link_requests WHERE tournament_id = ?"
    params: list[object] = [tournament_id]
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    return rows(db, LinkRequest, sql + " ORDER BY id", params)


def decide_link_request(db: Database, request_id: int, status: str, by: Change) -> LinkRequest:
    """Approve or reject a request (`by.reason` is kept as the reason)."""
    if status not in (APPROVED, REJECTED):
        raise ValueError(f"a link request is approved or rejected, not {status!r}")
    found = get_link_request(db, request_id)
    diff = update(db, "link_requests", "id = ?", [request_id], {
        "status": status, "decided_at": by.at, "decided_by": by.actor_id, "reason": by.reason})
    record(db, by, f"identity.request_{status}", tournament_id=found.tournament_id,
           subject=f"player:{found.player_id}", data={"request": request_id, **diff})
    return get_link_request(db, request_id)


def reopen_link_request(db: Database, request_id: int, discord_name: str,
                        by: Change) -> LinkRequest:
    """The same account asks again for a player it was once approved for (and who was unlinked
    since): the request waits for the head admin again."""
    diff = update(db, "link_requests", "id = ?", [request_id], {
        "status": PENDING, "decided_at": None, "decided_by": None, "reason": None,
        "discord_name": discord_name, "requested_at": by.at})
    found = get_link_request(db, request_id)
    record(db, by, "identity.request", tournament_id=found.tournament_id,
           subject=f"player:{found.player_id}", data={"request": request_id, **diff})
    return found
