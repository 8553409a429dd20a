"""The bot's lease on the database (issue 20.2): one row naming the one `stredisko run` that
serves the file — its holder token, host and process id, and when it last renewed the lease.
Two bots on one file would fire each timer once (the timers are rows) but could hand the same
message to Discord twice; the lease keeps a second bot from starting at all."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from bot.store.sql import rows
from bot.store.times import to_text


@dataclass(frozen=True, slots=True)
class Lease:
    id: int
    holder: str
    host: str
    pid: int
    acquired_at: datetime
    heartbeat_at: datetime


def current_lease(db: Database) -> Lease | None:
    found = rows(db, Lease, "SELECT * FROM bot_lease WHERE id = 1")
    return found[0] if found else None


def write_lease(db: Database, holder: str, host: str, pid: int, at: datetime) -> None:
    """Take the lease (a new holder, or the same one again)."""
    db.execute(
        """INSERT INTO bot_lease (id, holder, host, pid, acquired_at, heartbeat_at)
           VALUES (1, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, host = excluded.host,
               pid = excluded.pid, acquired_at = excluded.acquired_at,
               heartbeat_at = excluded.heartbeat_at""",
        [holder, host, pid, to_text(at), to_text(at)])


def renew_lease(db: Database, holder: str, at: datetime) -> bool:
    """The holder's heartbeat; False when the lease is no longer his (taken over)."""
    cursor = db.execute("UPDATE bot_lease SET heartbeat_at = ? WHERE id = 1 AND holder = ?",
                        [to_text(at), holder])
    return cursor.rowcount == 1


def release_lease(db: Database, holder: str) -> None:
    """A clean stop: the next bot starts at once."""
    db.execute("DELETE FROM bot_lease WHERE id = 1 AND holder = ?", [holder])
