"""The pass after a use case may deliver from the outbox as the use case's own transaction read
it (issue 21) — but never a message another pass is delivering or has delivered: never twice."""

from __future__ import annotations

import asyncio
import threading

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.delivery.outbox import Snapshot
from bot.services.notifier import Message, RecordingNotifier
from bot.store import Store
from bot.store.outbox import OutboxStatus, list_outbox

from .conftest import make_world


class HeldNotifier(RecordingNotifier):
    """Discord that holds the first announcement until `release` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.holding = asyncio.Event()

    async def announce(self, tournament_id: int, message: Message) -> None:
        if not self.sent and not self.release.is_set():
            self.holding.set()
            await self.release.wait()
        await super().announce(tournament_id, message)


def _say(tx: Tx, tournament_id: int, what: str) -> None:
    tx.announce(tournament_id, "common.unknown_tournament", slug=what)


async def test_a_use_case_committed_during_a_delivery_gets_no_copy_of_it(
        store: Store, clock: ManualClock) -> None:
    notifier = HeldNotifier()
    app = App(store, clock, notifier)
    notifier.release.set()  # the world's own messages go out at once
    tid = (await make_world(app)).tournament.id
    notifier.sent.clear()
    notifier.release.clear()
    first = asyncio.ensure_future(app.run(_say, tid, "a"))
    await notifier.holding.wait()  # "a" is being delivered, not yet marked
    # its transaction still sees "a" pending
    second = asyncio.ensure_future(app.run(_say, tid, "b"))
    await asyncio.sleep(0.05)
    notifier.release.set()
    await asyncio.gather(first, second)
    assert [m.params["slug"] for _, _, m in notifier.sent] == ["a", "b"]
    assert {row.status for row in await store.read(list_outbox)} == {OutboxStatus.SENT}


def _counting_reads(app: App) -> list[int]:
    """Counts the pass's own reads of the outbox (what a usable snapshot saves)."""
    reads: list[int] = []
    read_urgent = app.store.read_urgent

    async def counted(*args: object, **kwargs: object) -> object:
        reads.append(1)
        return await read_urgent(*args, **kwargs)  # type: ignore[arg-type]

    app.store.read_urgent = counted  # type: ignore[method-assign]
    return reads


async def _two_snapshots(app: App, tid: int) -> tuple[Snapshot, Snapshot]:
    """"c" queued and the outbox read (lists c); then "d" queued and read again (c and d)."""
    sender = app.sender

    def queue_and_look(tx: Tx, slug: str) -> Snapshot | None:
        _say(tx, tid, slug)
        return sender.snapshot(tx.db, tx.now)

    now = app.clock.now()
    only_c = await app.store.call(lambda db: queue_and_look(Tx(db, now, app), "c"))
    c_and_d = await app.store.call(lambda db: queue_and_look(Tx(db, now, app), "d"))
    assert only_c is not None and c_and_d is not None
    assert (len(only_c.rows), len(c_and_d.rows)) == (1, 2)
    return only_c, c_and_d


async def test_a_snapshot_older_than_a_pass_is_used_without_what_that_pass_delivered(
        store: Store, clock: ManualClock) -> None:
    """A pass that began after the snapshot was read delivered some of its rows: the next pass
    delivers the rest from the snapshot, reads nothing again, and sends nothing twice."""
    notifier = RecordingNotifier()
    app = App(store, clock, notifier)
    tid = (await make_world(app)).tournament.id
    notifier.sent.clear()
    only_c, c_and_d = await _two_snapshots(app, tid)
    reads = _counting_reads(app)
    assert (await app.sender.flush(snapshot=only_c)).sent == 1  # "c"
    assert (await app.sender.flush(snapshot=c_and_d)).sent == 1  # "d" only: "c" went out
    assert [m.params["slug"] for _, _, m in notifier.sent] == ["c", "d"]
    assert reads == []
    assert {row.status for row in await store.read(list_outbox)} == {OutboxStatus.SENT}


class FailingOnce(RecordingNotifier):
    """Discord that fails the first announcement (a 5xx), then takes every one."""

    def __init__(self) -> None:
        super().__init__()
        self.attempts: list[str] = []

    async def announce(self, tournament_id: int, message: Message) -> None:
        self.attempts.append(message.params["slug"])
        if len(self.attempts) == 1:
            raise RuntimeError("503 Service Unavailable")
        await super().announce(tournament_id, message)


async def test_a_snapshot_older_than_a_pass_that_failed_a_message_is_not_used(
        store: Store, clock: ManualClock) -> None:
    """The pass in between failed "c" (it waits for its retry): the snapshot, which lists "c"
    as never tried, is not believed — the next pass reads the outbox again and neither tries
    "c" before its retry is due nor sends "d" past it."""
    notifier = FailingOnce()
    app = App(store, clock, notifier)
    notifier.attempts.append("world")  # the world's own messages go out
    tid = (await make_world(app)).tournament.id
    notifier.sent.clear()
    notifier.attempts.clear()
    only_c, c_and_d = await _two_snapshots(app, tid)
    reads = _counting_reads(app)
    assert (await app.sender.flush(snapshot=only_c)).failed == 1
    assert (await app.sender.flush(snapshot=c_and_d)).sent == 0
    assert notifier.attempts == ["c"] and notifier.sent == []
    assert len(reads) == 1  # read again, not believed
    pending = {row.params["slug"] for row in await store.read(list_outbox)
               if row.status is OutboxStatus.PENDING}
    assert pending == {"c", "d"}


async def test_a_pass_counts_as_delivering_until_its_marks_are_applied(
        store: Store, clock: ManualClock) -> None:
    """The caller does not wait for its pass's marks (issue 21; they are deferred to the next
    transaction): a use case whose transaction runs between the delivery and the marks still
    sees the message pending, and the pass after it must not believe that snapshot."""
    notifier = RecordingNotifier()
    app = App(store, clock, notifier)
    tid = (await make_world(app)).tournament.id
    notifier.sent.clear()
    sender = app.sender
    inside, gate = threading.Event(), threading.Event()

    def queue_and_look(tx: Tx) -> object:
        _say(tx, tid, "a")
        return sender.snapshot(tx.db, tx.now)

    def held(tx: Tx) -> None:
        inside.set()
        gate.wait(60)  # holds the store's thread: the marks of "a" wait behind it
        _say(tx, tid, "b")

    snapshot = await app.store.call(lambda db: queue_and_look(Tx(db, clock.now(), app)))
    assert isinstance(snapshot, Snapshot)
    slow = asyncio.ensure_future(app.run(held))
    assert await asyncio.to_thread(inside.wait, 60)
    first = asyncio.ensure_future(sender.flush(snapshot=snapshot))  # delivers "a"
    while not notifier.sent:
        await asyncio.sleep(0.01)
    gate.set()  # "b"'s transaction reads the outbox before the marks of "a" are applied
    await asyncio.gather(slow, first)
    assert [m.params["slug"] for _, _, m in notifier.sent] == ["a", "b"]
    assert {row.status for row in await store.read(list_outbox)} == {OutboxStatus.SENT}


async def test_one_pass_serves_a_whole_group_from_its_newest_snapshot(
        store: Store, clock: ManualClock) -> None:
    """Use cases committed together (a group) are delivered by one pass that reads nothing
    again: each caller takes its transaction's newest snapshot, which lists every message of
    the group (its first caller's own lists only its own)."""
    notifier = RecordingNotifier()
    app = App(store, clock, notifier)
    tid = (await make_world(app)).tournament.id
    notifier.sent.clear()
    gate, started = threading.Event(), threading.Event()
    blocker = asyncio.ensure_future(store.call(lambda db: started.set() or gate.wait(60)))
    # running, not just queued (a pause would be a race a slow machine loses): the use cases
    # queued next form one group behind it
    assert await asyncio.to_thread(started.wait, 60)
    passes_before = app.sender._epoch
    reads: list[int] = []
    snapshot = app.sender.snapshot
    app.sender.snapshot = lambda db, now: reads.append(1) or snapshot(db, now)  # type: ignore[method-assign]
    said = [asyncio.ensure_future(app.run(_say, tid, slug)) for slug in "abcde"]
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(blocker, *said)
    assert sorted(m.params["slug"] for _, _, m in notifier.sent) == list("abcde")
    assert app.sender._epoch - passes_before == 1
    assert len(reads) == 1  # the group read the outbox once, at its end
    assert {row.status for row in await store.read(list_outbox)} == {OutboxStatus.SENT}
