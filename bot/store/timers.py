"""Timers: deadlines kept in the store, so a restart loses nothing and repeats nothing.

The scheduler loads `due_timers(now)` and, for each, claims it with `fire_timer` in the same
`store.call` as the work the timer triggers: the claim and the work commit together, and
only the call whose claim succeeded does the work.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.rows import Change, Timer, TimerStatus
from bot.store.sql import must, one, rows, to_db


def add_timer(
    db: Database,
    kind: str,
    key: str,
    due_at: datetime,
    by: Change,
    *,
    tournament_id: int | None = None,
    payload: dict[str, Any] | None = None,
) -> tuple[Timer, bool]:
    """Create the timer unless one with `key` exists. Returns (the timer, whether created).

    Keys name the deadline, e.g. 'kt-2025-03:r2:waiting_end:table4', so adding it again after
    a restart is harmless.
    """
    cursor = db.execute(
        """INSERT INTO timers (kind, tournament_id, key, due_at, payload, created_at)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING""",
        [kind, tournament_id, key, to_db(due_at), to_db(payload or {}), to_db(by.at)],
    )
    created = cursor.rowcount == 1
    if created:
        record(db, by, "timer.add", tournament_id=tournament_id, subject=key,
               data={"kind": kind, "due_at": due_at})
    return must(get_timer(db, key), f"timer {key!r}"), created


def get_timer(db: Database, key: str) -> Timer | None:
    return one(db, Timer, "SELECT * FROM timers WHERE key = ?", [key])


def due_timers(db: Database, now: datetime, *, limit: int = 1000) -> list[Timer]:
    """Pending timers due at or before `now`, earliest first."""
    return rows(db, Timer, """SELECT * FROM timers WHERE status = 'pending' AND due_at <= ?
                              ORDER BY due_at, id LIMIT ?""", [now, limit])


def next_due(db: Database) -> datetime | None:
    """When the earliest pending timer is due (for the scheduler's sleep)."""
    first = one(db, Timer, """SELECT * FROM timers WHERE status = 'pending'
                              ORDER BY due_at, id LIMIT 1""")
    return None if first is None else first.due_at


def fire_timer(db: Database, timer_id: int, by: Change) -> bool:
    """Claim a pending timer at `by.at`. True only for the one call that fired it."""
    cursor = db.execute(
        "UPDATE timers SET fired_at = ?, status = 'fired' WHERE id = ? AND status = 'pending'",
        [to_db(by.at), timer_id],
    )
    fired = cursor.rowcount == 1
    if fired:
        timer = must(one(db, Timer, "SELECT * FROM timers WHERE id = ?", [timer_id]),
                     f"timer {timer_id}")
        record(db, by, "timer.fire", tournament_id=timer.tournament_id, subject=timer.key,
               data={"kind": timer.kind, "due_at": timer.due_at})
    return fired


def cancel_timer(db: Database, key: str, by: Change) -> bool:
    """Cancel a pending timer; False if it does not exist or already fired / was cancelled."""
    timer = get_timer(db, key)
    if timer is None or timer.status is not TimerStatus.PENDING:
        return False
    db.execute("UPDATE timers SET status = 'cancelled' WHERE id = ?", [timer.id])
    record(db, by, "timer.cancel", tournament_id=timer.tournament_id, subject=key,
           data={"kind": timer.kind})
    return True


def list_timers(
    db: Database, tournament_id: int | None = None, status: TimerStatus | None = None
) -> list[Timer]:
    sql = "SELECT * FROM timers WHERE 1"
    params: list[Any] = []
    if tournament_id is not None:
        sql += " AND tournament_id = ?"
        params.append(tournament_id)
    if status is not None:
        sql += " AND status = ?"
        params.append(TimerStatus(status))
    return rows(db, Timer, sql + " ORDER BY due_at, id", params)
