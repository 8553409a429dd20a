"""The audit log (append-only): every change, when, who, what and why.

Choice: every write helper of the store appends its own audit row in the same transaction, so
no use case can forget it. Services call `record` directly only for events that change no
table (an announcement sent, a refusal worth remembering).
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from bot.store.rows import AuditEntry, Change
from bot.store.sql import dumps, rows
from bot.store.times import to_text


def record(
    db: Database,
    by: Change,
    action: str,
    *,
    tournament_id: int | None = None,
    subject: str | None = None,
    data: dict[str, Any] | None = None,
) -> int:
    """Append one audit row; returns its id. `by.reason` is stored as the reason."""
    # one fixed statement, its parameters converted here: every write pays for this (issue 21)
    cursor = db.execute(_INSERT, (to_text(by.at), str(by.actor), by.actor_id, tournament_id,
                                  action, subject, by.reason, dumps(data) if data else "{}"))
    return int(cursor.lastrowid or 0)


_INSERT = ("INSERT INTO audit (at, actor_kind, actor_id, tournament_id, action, subject, "
           "reason, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


def list_audit(
    db: Database,
    *,
    tournament_id: int | None = None,
    action: str | None = None,
    after_id: int = 0,
    limit: int = 1000,
) -> list[AuditEntry]:
    """Audit rows in the order they were written, optionally of one tournament / action."""
    where: list[str] = ["id > ?"]
    params: list[Any] = [after_id]
    if tournament_id is not None:
        where.append("tournament_id = ?")
        params.append(tournament_id)
    if action is not None:
        where.append("action = ?")
        params.append(action)
    sql = f"SELECT * FROM audit WHERE {' AND '.join(where)} ORDER BY id LIMIT ?"
    return rows(db, AuditEntry, sql, [*params, limit])
