"""One bot per database (issue 20.2): `stredisko run` takes the database's lease before it
logs in, renews it every `RENEW_EVERY` and gives it back when it stops.

A second bot on a database already served is refused (one Slovak line, exit 2). A lease is
taken over only from a dead holder:
- on the same host, when its process is gone, or when its process id is ours but it is not
  us (a restarted container: the bot is always pid 1) — as `run_owner` judges sync runs;
- anywhere, when its heartbeat is older than `DEAD_AFTER` (`MISSED` renewals missed).
Taking, judging and writing happen in one transaction, so two bots starting together cannot
both win.

A holder that froze (SIGSTOP, a laptop asleep, a paused VM) past `DEAD_AFTER` is judged dead
and taken over; when it wakes it must not go on from memory (issue 36.1). Every take starts a
new generation (the fencing token); the holder's `Holding` claims each message for delivery in
a transaction that finds its generation still in the lease (`claim`) and, the moment it does
not, counts the lease as lost: no further delivery, and the bot stops. A freeze between the
claim and a post is caught by time (`confirm`, before every piece posted): the lease cannot
have been taken over while its heartbeat (renewed by each claim) is younger than
`claim_fresh()`; older, it is renewed first — or found lost."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlite_utils import Database

from bot.clock import Clock
from bot.services.delivery import periodic
from bot.services.results import run_owner
from bot.store import Store
from bot.store.lease import (
    Lease,
    claim_for_delivery,
    current_lease,
    release_lease,
    renew_lease,
    write_lease,
)

log = logging.getLogger("stredisko.lease")

RENEW_EVERY = timedelta(seconds=15)
MISSED = 4
DEAD_AFTER = RENEW_EVERY * MISSED  # a minute without a heartbeat: the holder is dead


def claim_fresh() -> timedelta:
    """How long after a claim its message may still be posted without claiming again: half
    of `DEAD_AFTER` (the other half covers the clock of a bot on another host)."""
    return DEAD_AFTER / 2


def holder_id() -> str:
    """This process's holder token: host, pid and the process's own random token."""
    me = run_owner.this_process()
    return f"{me['host']}:{me['pid']}:{me['token']}"


def why_dead(lease: Lease, now: datetime) -> str | None:
    """Why the lease's holder cannot be serving the database any more (None: it may be)."""
    age = now - lease.heartbeat_at
    if age > DEAD_AFTER:
        return f"posledný signál pred {int(age.total_seconds())} s"
    me = run_owner.this_process()
    if lease.host != me["host"]:
        return None
    if lease.pid == me["pid"]:
        return None if lease.holder == holder_id() else f"proces {lease.pid} sa reštartoval"
    return None if run_owner.process_alive(lease.pid) else f"proces {lease.pid} už nebeží"


def _take(db: Database, holder: str, now: datetime
          ) -> tuple[Lease | None, str | None, int | None]:
    """Take the lease unless a live holder has it: (that holder, None, None) when refused,
    (the dead holder taken over or None, why it was dead, the new generation) when taken."""
    held = current_lease(db)
    if held is not None and held.holder != holder:
        why = why_dead(held, now)
        if why is None:
            return held, None, None
    else:
        why = None
    me = run_owner.this_process()
    return held, why, write_lease(db, holder, me["host"], me["pid"], now)


class LeaseLost(Exception):
    """Another bot took the lease over: this one must not post anything more."""


class LeaseHeld(Exception):
    """Another live bot serves the database."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(lease.holder)
        self.lease = lease


@dataclass(slots=True)
class Holding:
    """This process's hold on the lease: its token and generation; `lost` once another bot
    took the lease over (then `stop`, if given, is set too: two must never serve)."""

    holder: str
    generation: int
    lost: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event | None = None
    #: the latest moment the lease was found held (a claim, a renewal), by the bot's clock
    confirmed_at: datetime | None = None

    def found_held(self, at: datetime) -> None:
        """The lease was found this holder's at `at` (a claim, a renewal)."""
        if self.confirmed_at is None or at > self.confirmed_at:
            self.confirmed_at = at

    def lose(self) -> None:
        if not self.lost.is_set():
            log.error("the database's lease was taken over by another bot: no more "
                      "deliveries, stopping")
        self.lost.set()
        if self.stop is not None:
            self.stop.set()

    async def claim(self, store: Store, row_id: int, at: datetime) -> bool | None:
        """Claim one pending message for delivery under this generation (`claim_for_delivery`,
        ahead of the queued jobs: a delivery waits on it). False: the lease is lost (and
        `lose` was called) — post nothing more; None: the message is no longer pending."""
        if self.lost.is_set():
            return False
        claimed = await store.call_urgent(claim_for_delivery, self.holder, self.generation,
                                          row_id, at)
        if claimed is False:
            self.lose()
        else:
            self.found_held(at)
        return claimed

    async def confirm(self, store: Store, clock: Clock) -> None:
        """Right before a post (each piece of a message, each DM): `LeaseLost` unless the lease
        was found held within `claim_fresh()` — renewed here if that is longer ago (the
        process froze after its claim), and again if the renewal itself came back late."""
        while True:
            if self.lost.is_set():
                raise LeaseLost(self.holder)
            now = clock.now()
            if self.confirmed_at is not None and now - self.confirmed_at <= claim_fresh():
                return
            if await store.call_urgent(renew_lease, self.holder, self.generation, now):
                self.found_held(now)
            else:
                self.lose()


async def acquire(store: Store, clock: Clock) -> Holding:
    """Take the database's lease for this process; `LeaseHeld` when a live bot has it.
    Returns the hold to claim messages with, renew and release it."""
    holder = holder_id()
    held, why, generation = await store.call(_take, holder, clock.now())
    if generation is None:
        assert held is not None
        raise LeaseHeld(held)
    if why is not None:
        log.warning("the database's lease taken over from %s@%s: %s", held and held.pid,
                    held and held.host, why)
    return Holding(holder, generation)


async def keep(store: Store, clock: Clock, holding: Holding, stop: asyncio.Event,
               every: float | None = None) -> None:
    """Renew the lease every `every` seconds (`RENEW_EVERY`) until `stop`; if another bot took
    it over (this one was judged dead: frozen, suspended), `lose` it: `lost` and `stop` set."""
    holding.stop = stop

    async def renew() -> None:
        now = clock.now()
        if holding.lost.is_set() or not await store.call(
                renew_lease, holding.holder, holding.generation, now):
            holding.lose()
        else:
            holding.found_held(now)

    await periodic.every(stop, every or RENEW_EVERY.total_seconds(), renew, log,
                         "lease renewal")


async def release(store: Store, holding: Holding, clock: Clock) -> None:
    await store.call(release_lease, holding.holder, clock.now())
