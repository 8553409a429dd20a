"""Delivering the outbox (DESIGN.md 4): at least once, never twice, never late.

A use case queues its messages as outbox rows in its own transaction (`Tx.announce` & co.).
`Sender.flush` delivers the due ones in the order they were written; what a pass delivered is
marked `sent` in one transaction right after its last delivery. So:
- a crash before the commit: neither the change nor its messages exist;
- a crash after the commit: the messages are pending and the next start delivers them;
- a crash between delivery and marking: the message is delivered again with the same key —
  the Discord adapter sends it as the message's nonce with `enforce_nonce`, and Discord
  returns the first message instead of posting a second copy.
The bot claims each message right before its delivery, in a transaction that finds its lease
generation still holding the database (`Sender._claim`, issue 36.1): a bot that froze past its
lease and was taken over posts nothing when it wakes, even in the middle of a pass.
A message bound to a moment (`Timely`: its round still open, or a time) whose moment passed
before it could go out — the bot was down, the CLI queued it — is dropped with an audit line.
A notifier error (a Discord outage) leaves the message pending with a growing back-off capped
at `LONGEST_RETRY`; it is retried for as long as it is still timely, however long the outage —
only its moment passing drops it (e-SP messages bound to a round: their round closed; a
standings, result or ruling announcement is never stale). The messages after it to the same
place wait, so a channel never reads them out of order. Once Discord takes messages again, the
head admin is told (through the outbox) which ones went out late and which were dropped
(`tell_after_outage`); `stredisko outbox` and `/admin odchadzajuce` list, resend and drop them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.i18n import CatalogueError
from bot.services.delivery import lease, periodic
from bot.services.delivery.queued_before import as_today
from bot.services.notifier import Message, Notifier
from bot.store import Change, NotFoundError, Round, Tournament, get_round, get_tournament
from bot.store.outbox import (
    Destination,
    OutboxRow,
    decode_params,
    drop_message,
    failed_attempt,
    found_delivered,
    give_up,
    mark_all_sent,
    mark_told,
    pending_messages,
    queue_message,
    untold_after_failures,
)
from bot.store.rows import TournamentStatus

if TYPE_CHECKING:
    from sqlite_utils import Database

    from bot.clock import Clock
    from bot.services.delivery.lease import Holding
    from bot.store import Store

log = logging.getLogger("stredisko.outbox")


class Wiring(Protocol):
    """What a `Sender` uses of the `App` (bot.services.app) that builds it — named here so that
    the outbox does not import the module importing it."""

    @property
    def store(self) -> Store: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def notifier(self) -> Notifier: ...
    @property
    def lease(self) -> Holding | None: ...

# Retries double from 5 s and never wait more than 5 minutes: a message is tried again within
# 5 minutes of Discord's return, without hammering it meanwhile. There is no last attempt.
FIRST_RETRY = timedelta(seconds=5)
LONGEST_RETRY = timedelta(minutes=5)
#: the head admin's report on what an outage delayed or dropped (never itself reported)
OUTAGE_REPORT = "outbox.outage_report"
#: what the head admin is told of a message today's catalogue cannot word
UNWORDABLE = "outbox.unwordable"
#: Discord collapses a repeated nonce only within minutes: a message that may have been handed
#: to it longer ago than this (before a crash, or by an attempt that failed on the way back) is
#: read back from the channel before it is sent again
NONCE_WINDOW = timedelta(minutes=2)
CLOCK_SKEW = timedelta(seconds=30)  # our clock against Discord's, when reading back
#: how far back a freshly started bot looks for what an outage before its start delayed
REPORT_LOOKBACK = timedelta(days=2)
#: how many recent transactions' snapshots, and recent passes' records of what they handled,
#: are kept (an older snapshot is not used: its pass reads afresh)
KEPT_SNAPSHOTS = 64


@dataclass(frozen=True, slots=True)
class Timely:
    """While a message still means something: until its round closes (`round_no`) and/or
    until a moment (`until`). A DM telling a player whom he plays in round 3 is stale once
    round 3 is closed or its limit has passed."""

    tournament_id: int
    round_no: int | None = None
    until: datetime | None = None

    @classmethod
    def of_round(cls, rnd: Round, until: datetime | None = None) -> Timely:
        """A message about a round in play: stale once it closes (or `until` passes)."""
        return cls(rnd.tournament_id, rnd.number, until)


@dataclass(frozen=True, slots=True)
class Flushed:
    sent: int = 0
    dropped: int = 0
    failed: int = 0  # attempts that failed (the message stays pending, retried later)


def as_message(row: OutboxRow) -> Message:
    params = as_today(row.message_key, decode_params(row.params))  # queued by an older version
    return Message(row.message_key, params, ref=row.key, tournament_id=row.tournament_id)


def round_over(t: Tournament, rnd: Round | None) -> str | None:
    """Why what is said about this round (or this tournament) no longer holds: the tournament
    finished, or the round closed (None: it still does). Shared by the outbox and the timers."""
    if t.status is TournamentStatus.FINISHED:
        return "turnaj je skončený"
    if rnd is not None and rnd.closed_at is not None:
        return f"{rnd.number}. kolo je uzavreté"
    return None


def staleness(db: Database, row: OutboxRow, now: datetime) -> str | None:
    """Why the message's moment has passed (None: it may still go out)."""
    if row.valid_until is not None and now > row.valid_until:
        return f"platné do {row.valid_until.isoformat()}"
    if row.round_no is None or row.tournament_id is None:
        return None
    try:
        rnd = get_round(db, row.tournament_id, row.round_no)
        tournament = get_tournament(db, row.tournament_id)
    except NotFoundError:
        return "kolo už neexistuje"
    return round_over(tournament, rnd)


def _pending_and_stale(db: Database, now: datetime) -> list[tuple[OutboxRow, str | None]]:
    """The pending messages, oldest first, each with why its moment has passed (or None)."""
    return [(row, staleness(db, row, now)) for row in pending_messages(db)]


def _drop(db: Database, stale: list[tuple[OutboxRow, str]], now: datetime) -> None:
    by = Change.scheduler(now, "správa neodoslaná: jej čas uplynul")
    for row, why in stale:
        drop_message(db, row, why, by)


def _unwordable(db: Database, row: OutboxRow, error: str, by: Change) -> None:
    """A message the catalogue cannot word (its template and its parameters do not fit): no
    retry would change that, and a pending one would hold back every later message to its
    place. Given up (audited), and the head admin told, once."""
    give_up(db, row, error, by)  # no attempt counted: it is no outage to report
    tournament_id = _report_to(row)
    if tournament_id is not None and row.message_key != UNWORDABLE:
        queue_message(db, Destination.ADMIN, tournament_id, UNWORDABLE,
                      {"id": row.id, "message": row.message_key, "error": error[:300],
                       "rule": "DESIGN.md 4"}, by.at, tournament_id=tournament_id)


def _retry_at(now: datetime, attempts: int) -> datetime:
    """When to try again after the attempt number `attempts + 1` failed: never given up (only
    staleness ends a pending message), the wait capped at `LONGEST_RETRY`."""
    return now + min(FIRST_RETRY * (2 ** min(attempts, 16)), LONGEST_RETRY)


def _report_line(row: OutboxRow) -> str:
    """One message in the head admin's outage report: its number (for `stredisko outbox
    resend`), what it was, and how late it went out or why it was dropped."""
    about = f" · {row.round_no}. kolo" if row.round_no is not None else ""
    head = f"č. {row.id} · {row.message_key}{about}"
    if row.status == "dropped":
        return f"{head} · zahodená: {row.last_error or '?'}"
    late = int(((row.done_at or row.created_at) - row.created_at).total_seconds() // 60)
    return f"{head} · o {late} min neskôr"


def _report_to(row: OutboxRow) -> int | None:
    """Whose head admin hears about the message: its event's. A DM carries its event (issue
    44.5); one that names none (a registry DM, or queued before DMs carried their event) is
    no event's head admin's business — `stredisko outbox` shows it to the operator. (It went
    to the newest tournament's, by `max(id)`, before: another event's head admin.)"""
    if row.tournament_id is not None:
        return row.tournament_id
    if row.destination is not Destination.DM:
        return row.target
    return None


def tell_after_outage(db: Database, since: datetime, now: datetime) -> int:
    """Tell each tournament's head admin (one outbox message each, written in this transaction
    with the marks, so he is told once) which messages an outage delayed and which it dropped
    since `since`. Returns how many messages were reported."""
    reports: dict[int, list[OutboxRow]] = {}
    quiet: list[int] = []
    for row in untold_after_failures(db, since):
        tournament_id = None if row.message_key == OUTAGE_REPORT else _report_to(row)
        if tournament_id is None:
            quiet.append(row.id)
        else:
            reports.setdefault(tournament_id, []).append(row)
    mark_told(db, quiet, "", now)
    for tournament_id, told in reports.items():
        late = [_report_line(r) for r in told if r.status == "sent"]
        dropped = [_report_line(r) for r in told if r.status == "dropped"]
        key = queue_message(db, Destination.ADMIN, tournament_id, OUTAGE_REPORT,
                            {"n_late": len(late), "n_dropped": len(dropped),
                             "late": "\n".join(late) or "—",
                             "dropped": "\n".join(dropped) or "—",
                             "rule": "DESIGN.md 4"},
                            now, tournament_id=tournament_id)
        mark_told(db, [r.id for r in told], key, now)
    return sum(len(told) for told in reports.values())


async def deliver(notifier: Notifier, destination: Destination, target: int,
                  message: Message) -> None:
    """Hand one message to the notifier's method for its destination."""
    if destination is Destination.CHANNEL:
        await notifier.announce(target, message)
    elif destination is Destination.DM:
        await notifier.direct(target, message)
    else:
        await notifier.to_admin(target, message)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The pending outbox (with each row's staleness) as a use case's own transaction saw it,
    how many passes had begun then, and which of the store's transactions it was
    (`Sender.snapshot`)."""

    rows: list[tuple[OutboxRow, str | None]]
    epoch: int
    transaction: int = 0


class Sender:
    """Delivers the outbox of one process; one pass at a time.

    Flushes asked for while a pass runs are folded together: one more pass serves them all
    (it starts after their commits, so it sees their messages), and a caller whose own
    messages the last pass handled needs none. Under a burst of commands that is one read of
    the outbox and one transaction of marks per pass instead of one per command. The pass's
    reads and writes go before the queued use cases (`Store.read_urgent`, `call_urgent`), so a
    caller waits for its own commit and its own messages, not for everyone's.

    A use case's transaction reads the outbox for the pass that follows it, once per group at
    its end (`snapshot_at_commit`), saving that pass its own read. Never twice: a snapshot is
    read only while no pass is between its read and its marks; passes begun since are left
    out of it by the rows they handled, and it is not used at all if one of them failed a
    message, left one waiting or broke off (`_still_true`) — so every row a used snapshot
    lists as pending is still undelivered and in no pass's hands. A caller uses its own
    transaction's snapshot (committed with it, listing the whole group's messages), so one
    pass serves a group instead of one for its first caller and a fresh read for the
    others.

    Nobody waits for a pass's marks: they ride at the head of the store's next transaction
    (`Store.defer`), so whatever reads the outbox after them sees them — in that same
    transaction too — and the pass counts as delivering until they are applied there (a use
    case's snapshot read in a later savepoint of that transaction sees them as sent; if the
    transaction then fails, that use case fails with it and its snapshot is never used). A
    caller is answered once its messages are delivered, and one by one a report is one
    transaction, not two.
    """

    def __init__(self, app: Wiring) -> None:
        self.app = app
        self._lock = asyncio.Lock()
        self._asked = 0  # flushes asked for so far
        self._served = 0  # every flush asked for up to this one has had a pass after it
        self._last = Flushed()
        self._handled: frozenset[str] = frozenset()  # keys the last pass sent or dropped
        # Each flush's pass by the epoch it began at: the keys it (and a pass nested in it)
        # sent, found sent or dropped — None when one of them failed a message, left one
        # waiting or broke off: then the rows it read may have changed otherwise.
        self._passes: dict[int, frozenset[str] | None] = {}
        self._handling: set[str] | None = None  # the running flush's pass so far (None: failed)
        # each recent transaction's newest snapshot (written on the store's thread)
        self._newest: dict[int, Snapshot] = {}
        self._epoch = 0  # passes begun
        # passes between their read and their marks (the store's thread ends them)
        self._delivering = 0
        self._counting = threading.Lock()
        # From when to look for messages an outage delayed (None: no failure since the last
        # report). At start: a while back, for an outage the previous process lived through.
        self._untold_since: datetime | None = app.clock.now() - REPORT_LOOKBACK
        self._started_at = app.clock.now()  # what was queued before: maybe handed over already

    def snapshot(self, db: Database, now: datetime) -> Snapshot | None:
        """On the store's thread, inside a use case's transaction: the outbox for the pass
        after its commit (None while a pass is delivering: its rows may be in flight). Kept as
        its transaction's newest, which every caller of that (group) transaction uses."""
        epoch = self._epoch
        if self._delivering:
            return None
        transaction = self.app.store.transaction
        found = Snapshot(_pending_and_stale(db, now), epoch, transaction)
        self._newest[transaction] = found
        self._newest.pop(transaction - KEPT_SNAPSHOTS, None)
        return found

    def snapshot_at_commit(self, now: datetime) -> None:
        """From inside a use case that queued messages: the `snapshot` for the pass after its
        transaction, read once at the transaction's end (`Store.before_commit`) — so a group of
        use cases reads the outbox once, not once each, and its snapshot lists every message
        the group queued."""
        self.app.store.before_commit("outbox snapshot", lambda db: self.snapshot(db, now))

    def _delivered(self, ended: list[bool]) -> None:
        """A pass is no longer delivering (once: `ended` says whether it already was ended):
        its marks are applied in the store's transaction, or failed — then its messages stay
        pending and go out again, with the same nonce."""
        with self._counting:
            if not ended:
                ended.append(True)
                self._delivering -= 1

    def _mark(self, db: Database, row_ids: list[int], at: datetime, ended: list[bool]) -> int:
        """On the store's thread, at the head of a transaction: a pass's marks, after which
        the pass is no longer delivering (a snapshot read later in this transaction sees
        them)."""
        marked = mark_all_sent(db, row_ids, at)
        self._delivered(ended)
        return marked

    def _marks_done(self, marks: Future[int], ended: list[bool]) -> None:
        if marks.exception() is not None:
            log.error("delivered messages not marked sent: %s", marks.exception())
        self._delivered(ended)

    async def flush(self, refs: Iterable[str] = (), snapshot: Snapshot | None = None,
                    transaction: int | None = None) -> Flushed:
        """Deliver what is pending (after the caller's commit); returns what the pass that
        served this call did. `refs`: the keys of the caller's own messages — handled by the
        last pass, they need no other. `snapshot`: the outbox as the caller's transaction read
        it; `transaction`: the store's transaction the caller's job ran in, whose newest
        snapshot is used instead (`_still_true`)."""
        self._asked += 1
        mine = self._asked
        wanted = frozenset(refs)
        async with self._lock:
            if self._served >= mine or (wanted and wanted <= self._handled):
                return self._last
            serves = self._asked
            if transaction is None and snapshot is not None:
                transaction = snapshot.transaction
            if transaction is not None:  # its group's newest: it lists the whole group's messages
                snapshot = self._newest.get(transaction, snapshot)
            fresh = self._still_true(snapshot)
            began = self._epoch
            self._epoch += 1
            self._handling = set()
            handled: frozenset[str] | None = None
            try:
                self._last = await self._pass(fresh)
                if self._handling is not None:
                    handled = frozenset(self._handling)
            finally:
                self._passes[began] = handled
                self._passes.pop(began - KEPT_SNAPSHOTS, None)
                self._handling = None
            self._served = serves
            return self._last

    def _still_true(self, snapshot: Snapshot | None) -> Snapshot | None:
        """`snapshot` as it stands now, or None when it may be wrong. Passes begun since it
        was read (passes run one at a time: they have ended) may have delivered some of its
        rows: those are left out. If one of them failed a message, left one waiting for a
        retry or broke off, its rows may have changed otherwise: the snapshot is not used."""
        if snapshot is None or snapshot.epoch == self._epoch:
            return snapshot
        handled: set[str] = set()
        for epoch in range(snapshot.epoch, self._epoch):
            keys = self._passes.get(epoch)
            if keys is None:  # failed, or too long ago to know
                return None
            handled |= keys
        return Snapshot([(row, why) for row, why in snapshot.rows if row.key not in handled],
                        self._epoch, snapshot.transaction)

    async def _pass(self, snapshot: Snapshot | None = None) -> Flushed:
        """One delivery pass. It counts as delivering (`_delivering`) until its marks are
        applied — or, without marks, until it ends."""
        if self.app.lease is not None and self.app.lease.lost.is_set():
            return Flushed()  # another bot serves the database now: it delivers
        with self._counting:
            self._delivering += 1
        delivered: list[OutboxRow] = []
        ended: list[bool] = []  # the pass no longer counts as delivering
        try:
            flushed, retrying, oldest = await self._deliver(snapshot, delivered)
        finally:  # what was delivered is marked, in one statement, even if the pass broke off
            marks: Future[int] | None = None
            try:
                if delivered:  # nobody waits for the marks
                    marks = self.app.store.defer(
                        self._mark, [row.id for row in delivered], self.app.clock.now(), ended)
            finally:
                if marks is None:
                    self._delivered(ended)
                else:
                    marks.add_done_callback(lambda done: self._marks_done(done, ended))
        await self._tell_if_back(retrying, oldest)
        return flushed

    async def _deliver(self, snapshot: Snapshot | None, delivered: list[OutboxRow]
                       ) -> tuple[Flushed, bool, datetime | None]:
        """Deliver the due messages, each appended to `delivered` once it went out: what was
        done, whether one waits for a retry, and when the oldest pending was written."""
        store, clock = self.app.store, self.app.clock
        rows = (snapshot.rows if snapshot is not None
                else await store.read_urgent(_pending_and_stale, clock.now()))
        stale = [(row, why) for row, why in rows if why is not None]
        if stale:
            await store.call_urgent(_drop, stale, clock.now())
        found: list[OutboxRow] = []  # read back: delivered before a crash, marked there
        failed = 0
        waiting: set[tuple[str, int]] = set()  # places whose earlier message failed
        for row in (row for row, why in rows if why is None):
            place = (row.destination, row.target)
            now = clock.now()
            if place in waiting or (row.next_attempt_at is not None
                                    and row.next_attempt_at > now):
                waiting.add(place)  # a retry not due yet holds back what follows it
                continue
            try:
                posted = await self._delivered_before(row, now)
                if posted is None:
                    found.append(row)
                    continue
                claimed = await self._claim(row)
                if claimed is None:  # dropped meanwhile (`stredisko outbox drop`)
                    continue
                await deliver(self.app.notifier, row.destination, row.target,
                              replace(as_message(row), posted=posted))
            except lease.LeaseLost:  # taken over (maybe mid-message): not one post more
                self._handling = None
                break
            except CatalogueError as error:  # a fault of ours, not Discord's: never retried
                log.error("message %s (%s) cannot be worded: %s", row.key, row.message_key,
                          error)
                failed += 1
                await store.call_urgent(_unwordable, row, str(error),
                                        Change.scheduler(now, "správu nemožno zostaviť"))
                continue
            except Exception as error:  # Discord 5xx, network: retried, never lost
                log.warning("message %s (%s) not delivered: %s", row.key, row.message_key,
                            error)
                waiting.add(place)
                failed += 1
                await store.call_urgent(
                    failed_attempt, row.id, f"{type(error).__name__}: {error}",
                    _retry_at(now, row.attempts), Change.scheduler(now, "doručenie zlyhalo"))
                continue
            delivered.append(row)
        self._handled = frozenset(row.key for row in (*delivered, *found, *(r for r, _ in stale)))
        if self._handling is not None:  # a flush's pass (or one nested in it): what it did
            if waiting or failed:
                self._handling = None
            else:
                self._handling |= self._handled
        return (Flushed(len(delivered) + len(found), len(stale), failed), bool(waiting),
                rows[0][0].created_at if rows else None)

    async def _claim(self, row: OutboxRow) -> bool | None:
        """Right before a delivery: the message claimed under this bot's lease generation, in
        the transaction that finds the generation still holding the lease (issue 36.1); then
        `confirm`, in case the claim came back late (the process froze meanwhile). None: the
        message is no longer pending; `LeaseLost`: the lease was taken over. Without a lease
        (the rehearsal, tests) every message is claimed."""
        holding, clock = self.app.lease, self.app.clock
        if holding is None:
            return True
        claimed = await holding.claim(self.app.store, row.id, clock.now())
        if claimed is False:
            raise lease.LeaseLost(holding.holder)
        if claimed:
            await holding.confirm(self.app.store, clock)
        return claimed

    async def _delivered_before(self, row: OutboxRow, now: datetime) -> int | None:
        """A message this process did not queue (pending at its start: maybe handed to Discord
        before a crash) or one an attempt failed for, older than Discord's nonce window: read
        the place back. None: all of it is there — marked sent (audited) instead of posting a
        copy; else how many of its first pieces are (a crash between two pieces), which the
        delivery then leaves out."""
        maybe_handed = row.attempts > 0 or row.created_at < self._started_at
        read_back = getattr(self.app.notifier, "delivered_pieces", None)
        if not maybe_handed or read_back is None or now - row.created_at <= NONCE_WINDOW:
            return 0
        found, total = await read_back(row.destination, row.target, as_message(row),
                                       row.created_at - CLOCK_SKEW)
        if found < total:
            return found
        await self.app.store.call_urgent(
            found_delivered, row, Change.scheduler(now, "správa už bola doručená pred pádom"))
        return None

    async def _tell_if_back(self, retrying: bool, oldest_pending: datetime | None) -> None:
        """After a pass that left no message waiting for a retry (Discord took everything),
        tell the head admin what the outage delayed or dropped; while some message waits for
        a retry, remember from when to look."""
        now = self.app.clock.now()
        if retrying:
            since = min(now, oldest_pending or now)
            self._untold_since = min(self._untold_since or since, since)
            return
        if self._untold_since is not None:
            since, self._untold_since = self._untold_since, None
            if await self.app.store.call_urgent(tell_after_outage, since, now):
                await self._pass()  # the report itself goes out now

    async def run(self, stop: asyncio.Event, every: float) -> None:
        """Deliver what other processes (the CLI) queued and retry what failed, every
        `every` seconds until `stop` is set."""
        await periodic.every(stop, every, self.flush, log, "outbox flush")
