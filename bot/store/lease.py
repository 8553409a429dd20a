"""The bot's lease on the database (issue 20.2): one row naming the one `stredisko run` that
serves the file — its holder token, host and process id, and when it last renewed the lease.
Two bots on one file would fire each timer once (the timers are rows) but could hand the same
message to Discord twice; the lease keeps a second bot from starting at all.

Its `generation` is the fencing token (issue 36.1): it grows by one at every take, and a
holder claims each message for delivery only in a transaction that finds its own token and
generation still in the row (`claim_for_delivery`). A bot frozen (SIGSTOP, a laptop asleep)
past its minute and taken over finds a newer generation when it wakes, and posts nothing more.
A clean stop marks the row released instead of deleting it, so generations never repeat."""

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
    generation: int = 1
    released_at: datetime | None = None


def current_lease(db: Database) -> Lease | None:
    """The lease as held now (None: nobody holds it — never taken, or given back)."""
    found = rows(db, Lease, "SELECT * FROM bot_lease WHERE id = 1 AND released_at IS NULL")
    return found[0] if found else None


def write_lease(db: Database, holder: str, host: str, pid: int, at: datetime) -> int:
    """Take the lease (a new holder, or the same one again): the next generation, returned."""
    db.execute(
        """INSERT INTO bot_lease (id, holder, host, pid, acquired_at, heartbeat_at, generation)
           VALUES (1, ?, ?, ?, ?, ?, 1)
           ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, host = excluded.host,
               pid = excluded.pid, acquired_at = excluded.acquired_at,
               heartbeat_at = excluded.heartbeat_at, generation = bot_lease.generation + 1,
               released_at = NULL""",
        [holder, host, pid, to_text(at), to_text(at)])
    return int(db.execute("SELECT generation FROM bot_lease WHERE id = 1").fetchone()[0])


def renew_lease(db: Database, holder: str, generation: int, at: datetime) -> bool:
    """The holder's heartbeat; False when the lease is no longer his (taken over)."""
    cursor = db.execute(
        "UPDATE bot_lease SET heartbeat_at = ? "
        "WHERE id = 1 AND holder = ? AND generation = ? AND released_at IS NULL",
        [to_text(at), holder, generation])
    return cursor.rowcount == 1


def claim_for_delivery(db: Database, holder: str, generation: int, row_id: int,
                       at: datetime) -> bool | None:
    """Before one delivery, in one transaction: whether this holder's generation still holds
    the lease (renewing its heartbeat: nobody may take it over for `DEAD_AFTER` from `at`) and,
    if so, the pending message `row_id` claimed for it. False: the lease is lost — deliver
    nothing; None: the message is no longer pending (another pass delivered or dropped it)."""
    if not renew_lease(db, holder, generation, at):
        return False
    cursor = db.execute(
        "UPDATE outbox SET lease_generation = ? WHERE id = ? AND status = 'pending'",
        [generation, row_id])
    return True if cursor.rowcount == 1 else None


def release_lease(db: Database, holder: str, at: datetime) -> None:
    """A clean stop: the next bot starts at once (the row stays, for its generation)."""
    db.execute("UPDATE bot_lease SET released_at = ? "
               "WHERE id = 1 AND holder = ? AND released_at IS NULL", [to_text(at), holder])
