"""One bot per database (issue 20.2): `stredisko run` takes the database's lease before it
logs in, renews it every `RENEW_EVERY` and gives it back when it stops.

A second bot on a database already served is refused (one Slovak line, exit 2). A lease is
taken over only from a dead holder:
- on the same host, when its process is gone, or when its process id is ours but it is not
  us (a restarted container: the bot is always pid 1) — as `run_owner` judges sync runs;
- anywhere, when its heartbeat is older than `DEAD_AFTER` (`MISSED` renewals missed).
Taking, judging and writing happen in one transaction, so two bots starting together cannot
both win."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from sqlite_utils import Database

from bot.clock import Clock
from bot.services import periodic, run_owner
from bot.store import Store
from bot.store.lease import Lease, current_lease, release_lease, renew_lease, write_lease

log = logging.getLogger("stredisko.lease")

RENEW_EVERY = timedelta(seconds=15)
MISSED = 4
DEAD_AFTER = RENEW_EVERY * MISSED  # a minute without a heartbeat: the holder is dead


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


def _take(db: Database, holder: str, now: datetime) -> tuple[Lease | None, str | None]:
    """Take the lease unless a live holder has it: (that holder, None) when refused,
    (the dead holder taken over or None, why it was dead) when taken."""
    held = current_lease(db)
    if held is not None and held.holder != holder:
        why = why_dead(held, now)
        if why is None:
            return held, None
    else:
        why = None
    me = run_owner.this_process()
    write_lease(db, holder, me["host"], me["pid"], now)
    return held, why


class LeaseHeld(Exception):
    """Another live bot serves the database."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(lease.holder)
        self.lease = lease


async def acquire(store: Store, clock: Clock) -> str:
    """Take the database's lease for this process; `LeaseHeld` when a live bot has it.
    Returns the holder token to renew and release it with."""
    holder = holder_id()
    held, why = await store.call(_take, holder, clock.now())
    if held is not None and held.holder != holder and why is None:
        raise LeaseHeld(held)
    if why is not None:
        log.warning("the database's lease taken over from %s@%s: %s", held and held.pid,
                    held and held.host, why)
    return holder


async def keep(store: Store, clock: Clock, holder: str, stop: asyncio.Event,
               lost: asyncio.Event, every: float = RENEW_EVERY.total_seconds()) -> None:
    """Renew the lease every `every` seconds until `stop`; if another bot took it over (this
    one was judged dead: frozen, suspended), set `lost` and `stop`: two must never serve."""
    async def renew() -> None:
        if not await store.call(renew_lease, holder, clock.now()):
            log.error("the database's lease was taken over by another bot: stopping")
            lost.set()
            stop.set()

    await periodic.every(stop, every, renew, log, "lease renewal")


async def release(store: Store, holder: str) -> None:
    await store.call(release_lease, holder)
