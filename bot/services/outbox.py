"""Delivering the outbox (DESIGN.md 4): at least once, never twice, never late.

A use case queues its messages as outbox rows in its own transaction (`Tx.announce` & co.).
`Sender.flush` delivers the due ones in the order they were written, each marked `sent` in its
own transaction right after the notifier returned. So:
- a crash before the commit: neither the change nor its messages exist;
- a crash after the commit: the messages are pending and the next start delivers them;
- a crash between delivery and marking: the message is delivered again with the same key —
  the Discord adapter sends it as the message's nonce with `enforce_nonce`, and Discord
  returns the first message instead of posting a second copy.
A message bound to a moment (`Timely`: its round still open, or a time) whose moment passed
before it could go out — the bot was down, the CLI queued it — is dropped with an audit line.
A notifier error leaves the message pending with a growing back-off; the messages after it to
the same place wait, so a channel never reads them out of order.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.services import periodic
from bot.services.notifier import Message, Notifier
from bot.store import Change, NotFoundError, Round, Tournament, get_round, get_tournament
from bot.store.outbox import (
    Destination,
    OutboxRow,
    decode_params,
    drop_message,
    failed_attempt,
    mark_sent,
    pending_messages,
)
from bot.store.rows import TournamentStatus

if TYPE_CHECKING:
    from sqlite_utils import Database

    from bot.services.app import App

log = logging.getLogger("stredisko.outbox")

MAX_ATTEMPTS = 8  # with the back-off below: about 20 minutes of retrying
FIRST_RETRY = timedelta(seconds=5)
LONGEST_RETRY = timedelta(minutes=10)


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
    failed: int = 0  # attempts that failed (the message stays pending or is given up)


def as_message(row: OutboxRow) -> Message:
    return Message(row.message_key, decode_params(row.params), ref=row.key)


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


def _retry_at(now: datetime, attempts: int) -> datetime | None:
    """When to try again after the attempt number `attempts + 1` failed; None: give up."""
    if attempts + 1 >= MAX_ATTEMPTS:
        return None
    return now + min(FIRST_RETRY * (2 ** attempts), LONGEST_RETRY)


async def deliver(notifier: Notifier, destination: Destination, target: int,
                  message: Message) -> None:
    """Hand one message to the notifier's method for its destination."""
    if destination is Destination.CHANNEL:
        await notifier.announce(target, message)
    elif destination is Destination.DM:
        await notifier.direct(target, message)
    else:
        await notifier.to_admin(target, message)


class Sender:
    """Delivers the outbox of one process; one pass at a time.

    Flushes asked for while a pass runs are folded together: one more pass serves them all
    (it starts after their commits, so it sees their messages). Under a burst of commands
    that is one read of the outbox per pass instead of one per command."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._lock = asyncio.Lock()
        self._asked = 0  # flushes asked for so far
        self._served = 0  # every flush asked for up to this one has had a pass after it
        self._last = Flushed()

    async def flush(self) -> Flushed:
        """Deliver what is pending (after the caller's commit); returns what the pass that
        served this call did."""
        self._asked += 1
        mine = self._asked
        async with self._lock:
            if self._served >= mine:
                return self._last
            serves = self._asked
            self._last = await self._pass()
            self._served = serves
            return self._last

    async def _pass(self) -> Flushed:
        store, clock = self.app.store, self.app.clock
        rows = await store.read(_pending_and_stale, clock.now())
        stale = [(row, why) for row, why in rows if why is not None]
        if stale:
            await store.call(_drop, stale, clock.now())
        sent = failed = 0
        waiting: set[tuple[str, int]] = set()  # places whose earlier message failed
        for row in (row for row, why in rows if why is None):
            place = (row.destination, row.target)
            now = clock.now()
            if place in waiting or (row.next_attempt_at is not None
                                    and row.next_attempt_at > now):
                waiting.add(place)  # a retry not due yet holds back what follows it
                continue
            try:
                await deliver(self.app.notifier, row.destination, row.target, as_message(row))
            except Exception as error:  # Discord 5xx, network: retried, never lost
                log.warning("message %s (%s) not delivered: %s", row.key, row.message_key,
                            error)
                waiting.add(place)
                failed += 1
                await store.call(failed_attempt, row.id, f"{type(error).__name__}: {error}",
                                 _retry_at(now, row.attempts),
                                 Change.scheduler(now, "doručenie zlyhalo"))
                continue
            await store.call(mark_sent, row.id, clock.now())
            sent += 1
        return Flushed(sent, len(stale), failed)

    async def run(self, stop: asyncio.Event, every: float) -> None:
        """Deliver what other processes (the CLI) queued and retry what failed, every
        `every` seconds until `stop` is set."""
        await periodic.every(stop, every, self.flush, log, "outbox flush")
