"""Evidence about a pairing (append-only) and the platform records seen on herna.net."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.pairings import tournament_of_pairing
from bot.store.rows import (
    Change,
    Evidence,
    EvidenceKind,
    PlatformRecord,
    RecordChange,
)
from bot.store.sql import dumps, insert, insert_written, must, one, rows, to_db


def append_evidence(
    db: Database,
    pairing_id: int,
    kind: EvidenceKind,
    by: Change,
    *,
    payload: dict[str, Any] | None = None,
    at: datetime | None = None,
    attachment_url: str | None = None,
    tournament_id: int | None = None,
) -> Evidence:
    """Append one piece of evidence. `at` is when it happened (default: `by.at`, when it was
    recorded); the actor is `by`'s. `tournament_id`: the pairing's, when the caller has it."""
    kind = EvidenceKind(kind)
    if tournament_id is None:
        tournament_id = tournament_of_pairing(db, pairing_id)  # NotFoundError if none
    evidence = insert_written(db, Evidence, "evidence", {
        "pairing_id": pairing_id,
        "kind": kind,
        "actor_kind": by.actor,
        "actor_id": by.actor_id,
        "at": at or by.at,
        "recorded_at": by.at,
        "payload": payload or {},
        "attachment_url": attachment_url,
    })
    record(db, by, f"evidence.{kind}", tournament_id=tournament_id,
           subject=f"pairing:{pairing_id}", data={"evidence_id": evidence.id})
    return evidence


def list_evidence(db: Database, pairing_id: int) -> list[Evidence]:
    """A pairing's evidence in the order it happened (ties: the order it was recorded)."""
    return rows(db, Evidence, "SELECT * FROM evidence WHERE pairing_id = ? ORDER BY at, id",
                [pairing_id])


def upsert_platform_record(
    db: Database, game_id: str, payload: dict[str, Any], by: Change
) -> tuple[RecordChange, PlatformRecord]:
    """Remember the latest payload of a herna.net game seen at `by.at`.

    Returns NEW or CHANGED (then the caller appends it as evidence) or UNCHANGED (a re-fetch
    of the same record: only `last_seen_at` moves, nothing is audited). Payloads are compared
    as canonical JSON, so key order does not matter.
    """
    text = dumps(payload)
    seen = to_db(by.at)
    old = get_platform_record(db, game_id)
    if old is None:
        insert(db, "platform_records", {"game_id": game_id, "payload": text,
                                        "first_seen_at": seen, "last_seen_at": seen,
                                        "changed_at": seen})
        change = RecordChange.NEW
    elif dumps(old.payload) == text:
        db.execute("UPDATE platform_records SET last_seen_at = ? WHERE game_id = ?",
                   [seen, game_id])
        change = RecordChange.UNCHANGED
    else:
        db.execute("""UPDATE platform_records SET payload = ?, last_seen_at = ?,
                      changed_at = ?, changes = changes + 1 WHERE game_id = ?""",
                   [text, seen, seen, game_id])
        change = RecordChange.CHANGED
    if change is not RecordChange.UNCHANGED:
        record(db, by, f"platform_record.{change}", subject=f"herna:{game_id}")
    return change, must(get_platform_record(db, game_id), f"platform record {game_id}")


def get_platform_record(db: Database, game_id: str) -> PlatformRecord | None:
    return one(db, PlatformRecord, "SELECT * FROM platform_records WHERE game_id = ?",
               [game_id])


#: audit action: the head admin of an event was told of a record with no table (issue 44.3)
UNMATCHED_TOLD = "platform_record.unmatched_told"


def unmatched_told(db: Database, tournament_id: int, game_id: str) -> bool:
    """Whether the event's head admin was already told of this record having no table."""
    found = db.execute("SELECT 1 FROM audit WHERE tournament_id = ? AND action = ? "
                       "AND subject = ? LIMIT 1",
                       [tournament_id, UNMATCHED_TOLD, f"herna:{game_id}"]).fetchone()
    return found is not None


def mark_unmatched_told(db: Database, tournament_id: int, game_id: str, by: Change) -> None:
    record(db, by, UNMATCHED_TOLD, tournament_id=tournament_id, subject=f"herna:{game_id}")
