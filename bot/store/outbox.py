"""The outbox: every message a change causes, stored in the change's own transaction.

A row is written `pending` by `queue_message` (inside the use case's transaction, so a
rolled-back change leaves no message and a committed one cannot lose its message) and leaves
`pending` exactly once: `sent` after delivery, `dropped` when its moment passed before it could
be delivered, `failed` after too many refused attempts (only before issue 20: the sender now
retries a timely message for as long as it takes; `stredisko outbox resend` revives one). A
trigger refuses a second exit, so no code path can mark a message sent twice.

Parameters keep their types through the database: a datetime is stored tagged, so the
delivered text shows it in Bratislava time exactly as the text rendered at once would.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlite_utils import Database

from bot.i18n import Term
from bot.store.audit import record
from bot.store.rows import Change
from bot.store.sql import dumps, rows
from bot.store.times import from_text, to_text

_DATETIME_TAG = "$datetime"
_TERM_TAG = "$term"  # a catalogue phrase (`i18n.Term`): {"$term": key, "params": {…}}


class Destination(StrEnum):
    CHANNEL = "channel"  # the tournament's control-centre channel
    DM = "dm"  # one player
    ADMIN = "admin"  # the head administrator


class OutboxStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    DROPPED = "dropped"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    key: str
    destination: Destination
    target: int
    tournament_id: int | None
    round_no: int | None
    valid_until: datetime | None
    message_key: str
    params: dict[str, Any]
    created_at: datetime
    status: OutboxStatus
    attempts: int
    next_attempt_at: datetime | None
    last_error: str | None
    done_at: datetime | None
    lease_generation: int | None = None  # the bot's lease generation that claimed it (36.1)


# -- typed parameters ----------------------------------------------------------------------


_PLAIN = frozenset({str, int, float, type(None)})  # exact types: most parameters, as they are


def encode_params(value: Any) -> Any:
    """Parameters as JSON-safe data; datetimes and catalogue phrases tagged so they come back
    as what they were (a phrase is rendered in the reader's language when delivered)."""
    if type(value) in _PLAIN:  # one set lookup before the isinstance chain (issue 21)
        return value
    if isinstance(value, datetime):
        return {_DATETIME_TAG: to_text(value)}
    if isinstance(value, Term):
        return {_TERM_TAG: str(value), "params": encode_params(value.params)}
    if isinstance(value, Mapping):
        return {str(k): encode_params(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode_params(v) for v in value]
    if value is None or isinstance(value, str | int | float):  # bool is an int
        return value
    raise TypeError(f"a message parameter cannot be stored: {type(value).__name__} {value!r}")


def decode_params(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {_DATETIME_TAG}:
            return from_text(value[_DATETIME_TAG])
        if set(value) == {_TERM_TAG, "params"}:
            return Term(value[_TERM_TAG], **decode_params(value["params"]))
        return {k: decode_params(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_params(v) for v in value]
    return value


def message_key(destination: str, target: int, key: str, params: Mapping[str, Any],
                at: datetime) -> str:
    """The message's stable key: the same message caused at the same moment is the same row
    (a use case that says one thing twice says it once); it is also the delivery's nonce."""
    return _key_of(destination, target, key, encode_params(dict(params)), to_text(at))


def _key_of(destination: str, target: int, key: str, encoded: Any, at_text: str,
            encoded_text: str | None = None) -> str:
    """The hash of `dumps([destination, target, key, encoded, at_text])`; `encoded_text`:
    `dumps(encoded)` when the caller has it — canonical JSON writes a list's items as they are
    written alone, so the text is put together from it instead of encoding the params again."""
    if encoded_text is None:
        encoded_text = dumps(encoded)
    text = (f"[{dumps(str(destination))},{dumps(int(target))},{dumps(key)},{encoded_text},"
            f"{dumps(at_text)}]")
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# -- writing -------------------------------------------------------------------------------


def queue_message(
    db: Database,
    destination: Destination,
    target: int,
    key: str,
    params: Mapping[str, Any],
    at: datetime,
    *,
    tournament_id: int | None = None,
    round_no: int | None = None,
    valid_until: datetime | None = None,
    ref: str | None = None,
) -> str:
    """Store one pending message (idempotent on its key: `ref`, by default its
    `message_key`); returns the key."""
    encoded_text = dumps(encode_params(dict(params)))  # once, for the key and for the row
    at_text = to_text(at)
    ref = ref or _key_of(destination, target, key, None, at_text, encoded_text)
    db.execute(
        """INSERT INTO outbox (key, destination, target, tournament_id, round_no, valid_until,
                               message_key, params, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING""",
        [ref, Destination(destination), target, tournament_id, round_no,
         None if valid_until is None else to_text(valid_until), key,
         encoded_text, at_text],
    )
    return ref


def _leave_pending(db: Database, row_id: int, status: OutboxStatus, at: datetime,
                   error: str | None = None) -> bool:
    cursor = db.execute(
        "UPDATE outbox SET status = ?, done_at = ?, last_error = coalesce(?, last_error) "
        "WHERE id = ? AND status = 'pending'",
        [status, to_text(at), error, row_id],
    )
    return cursor.rowcount == 1


def mark_sent(db: Database, row_id: int, at: datetime) -> bool:
    """The message was delivered; False if it had already left `pending`."""
    return _leave_pending(db, row_id, OutboxStatus.SENT, at)


def found_delivered(db: Database, row: OutboxRow, by: Change) -> bool:
    """Read back from Discord: it was delivered before a crash, so it is not sent again."""
    if not _leave_pending(db, row.id, OutboxStatus.SENT, by.at):
        return False
    record(db, by, "outbox.found_delivered", tournament_id=row.tournament_id, subject=row.key,
           data={"message": row.message_key, "destination": row.destination,
                 "target": row.target})
    return True


def mark_all_sent(db: Database, row_ids: list[int], at: datetime) -> int:
    """A delivery pass's messages were delivered: all marked at once; returns how many left
    `pending` now (one already out is left as it is, as `mark_sent` does)."""
    cursor = db.conn.executemany(
        "UPDATE outbox SET status = ?, done_at = ? WHERE id = ? AND status = 'pending'",
        [(OutboxStatus.SENT, to_text(at), row_id) for row_id in row_ids])
    return cursor.rowcount


def drop_message(db: Database, row: OutboxRow, why: str, by: Change) -> bool:
    """Its moment passed: never sent late. Audited with the reason."""
    if not _leave_pending(db, row.id, OutboxStatus.DROPPED, by.at, why):
        return False
    record(db, by, "outbox.dropped", tournament_id=row.tournament_id, subject=row.key,
           data={"message": row.message_key, "destination": row.destination,
                 "target": row.target, "why": why})
    return True


def failed_attempt(db: Database, row_id: int, error: str, retry_at: datetime | None,
                   by: Change) -> None:
    """A delivery attempt failed: try again at `retry_at`, or give up (None), audited."""
    if retry_at is not None:
        db.execute(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? "
            "WHERE id = ? AND status = 'pending'",
            [error[:500], to_text(retry_at), row_id],
        )
        return
    db.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ? AND status = 'pending'",
               [row_id])
    found = get_message(db, row_id)
    if found is not None:
        give_up(db, found, error, by)


def give_up(db: Database, row: OutboxRow, error: str, by: Change) -> bool:
    """Never to be sent: given up with the reason, audited. Called as it is for a message
    that can never go out as it stands (no attempt counted: Discord did not refuse it)."""
    if not _leave_pending(db, row.id, OutboxStatus.FAILED, by.at, error[:500]):
        return False
    record(db, by, "outbox.failed", tournament_id=row.tournament_id, subject=row.key,
           data={"message": row.message_key, "attempts": row.attempts, "error": error[:500]})
    return True


# -- reading -------------------------------------------------------------------------------


def pending_messages(db: Database, limit: int = 500) -> list[OutboxRow]:
    """Pending messages, oldest first (those waiting for a retry included: they hold back the
    later messages to the same place)."""
    return rows(db, OutboxRow,
                "SELECT * FROM outbox WHERE status = 'pending' ORDER BY id LIMIT ?", [limit])


def get_message(db: Database, row_id: int) -> OutboxRow | None:
    found = rows(db, OutboxRow, "SELECT * FROM outbox WHERE id = ?", [row_id])
    return found[0] if found else None


def list_outbox(db: Database, status: OutboxStatus | None = None) -> list[OutboxRow]:
    if status is None:
        return rows(db, OutboxRow, "SELECT * FROM outbox ORDER BY id")
    return rows(db, OutboxRow, "SELECT * FROM outbox WHERE status = ? ORDER BY id",
                [OutboxStatus(status)])


def count_pending(db: Database) -> int:
    return int(db.execute("SELECT count(*) FROM outbox WHERE status = 'pending'").fetchone()[0])


# -- the head admin's hand on the outbox (`stredisko outbox`, `/admin odchadzajuce`) ---------


def requeue_message(db: Database, row: OutboxRow, by: Change) -> str:
    """Send a message again: a pending one is due at once; a sent, dropped or failed one (a row
    leaves `pending` once) is copied into a new pending row with a new key — so a new nonce —
    and no moment bound to it: the head admin decided it still matters. Audited."""
    if row.status is OutboxStatus.PENDING:
        db.execute("UPDATE outbox SET next_attempt_at = NULL WHERE id = ? AND status = 'pending'",
                   [row.id])
        ref = row.key
    else:
        copies = db.execute("SELECT count(*) FROM outbox WHERE key LIKE ?",
                            [f"{row.key[:16]}%"]).fetchone()[0]
        ref = f"{row.key[:16]}{hashlib.sha256(f'{row.key}/{copies}'.encode()).hexdigest()[:16]}"
        queue_message(db, row.destination, row.target, row.message_key,
                      decode_params(row.params), by.at, tournament_id=row.tournament_id,
                      ref=ref)
    record(db, by, "outbox.resent", tournament_id=row.tournament_id, subject=row.key,
           data={"message": row.message_key, "was": row.status, "as": ref})
    return ref


def copies_of(db: Database, row: OutboxRow) -> list[OutboxRow]:
    """The copies `requeue_message` made of this message or of its original, oldest first
    (they share the first 16 characters of the original's key: the rest is a hash, so no
    other message does) — the row itself too when it is one."""
    return rows(db, OutboxRow, """
        SELECT * FROM outbox WHERE key LIKE ? AND id > (
            SELECT min(id) FROM outbox WHERE key LIKE ?) ORDER BY id""",
        [f"{row.key[:16]}%"] * 2)


def outbox_page(db: Database, tournament_id: int | None, *, everything: bool = False,
                limit: int = 50) -> list[OutboxRow]:
    """The newest messages of a tournament — its DMs too: each carries its event (issue
    44.5) — newest first, only what is pending, failed or dropped unless `everything`.
    `tournament_id` None: every message, those bound to no event too (the operator's)."""
    where = "" if everything else "AND status <> 'sent'"
    scope = "" if tournament_id is None else "AND tournament_id = ?"
    params: list[Any] = [] if tournament_id is None else [tournament_id]
    return rows(db, OutboxRow, f"SELECT * FROM outbox WHERE 1 = 1 {where} {scope} "
                "ORDER BY id DESC LIMIT ?", [*params, limit])


# -- what an outage delayed or dropped, told to the head admin once -------------------------


def untold_after_failures(db: Database, since: datetime) -> list[OutboxRow]:
    """Messages that left `pending` from `since` on while Discord was failing — tried and
    refused at least once, or held back behind such a message to the same place — and that
    the head admin has not been told about yet. Oldest first."""
    return rows(db, OutboxRow, """
        SELECT o.* FROM outbox o
        WHERE o.status IN ('sent', 'dropped') AND o.done_at >= ?
          AND NOT EXISTS (SELECT 1 FROM outbox_told WHERE outbox_id = o.id)
          AND (o.attempts > 0 OR EXISTS (
                SELECT 1 FROM outbox f
                WHERE f.attempts > 0 AND f.id < o.id AND f.destination = o.destination
                  AND f.target = o.target AND f.done_at >= o.created_at))
        ORDER BY o.id""", [to_text(since)])


def mark_told(db: Database, ids: list[int], report_key: str, at: datetime) -> None:
    db.conn.executemany("INSERT OR IGNORE INTO outbox_told (outbox_id, report_key, told_at) "
                   "VALUES (?, ?, ?)", [(i, report_key, to_text(at)) for i in ids])
