"""The pass after a use case may deliver from the outbox as the use case's own transaction read
it (issue 21) — but never a message another pass is delivering or has delivered: never twice."""

from __future__ import annotations

import asyncio
import threading

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import Message, RecordingNotifier
from bot.services.outbox import Snapshot
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


async def test_a_snapshot_older_than_a_pass_is_not_used(store: Store,
                                                         clock: ManualClock) -> None:
    notifier = RecordingNotifier()
    app = App(store, clock, notifier)
    tid = (await make_world(app)).tournament.id
    notifier.sent.clear()
    sender = app.sender

    def queue_and_look(tx: Tx) -> object:
        _say(tx, tid, "c")
        return sender.snapshot(tx.db, tx.now)

    old = await app.store.call(lambda db: queue_and_look(Tx(db, clock.now(), app)))
    assert old is not None and len(old.rows) == 1  # "c", pending as that transaction saw it
    assert (await sender.flush()).sent == 1  # a pass delivers and marks "c"
    assert (await sender.flush(snapshot=old)).sent == 0  # the old snapshot is not believed
    assert len(notifier.sent) == 1


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
        gate.wait(5)  # holds the store's thread: the marks of "a" wait behind it
        _say(tx, tid, "b")

    snapshot = await app.store.call(lambda db: queue_and_look(Tx(db, clock.now(), app)))
    assert isinstance(snapshot, Snapshot)
    slow = asyncio.ensure_future(app.run(held))
    await asyncio.to_thread(inside.wait, 5)
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
    gate = threading.Event()
    blocker = asyncio.ensure_future(store.call(lambda db: gate.wait(5)))
    await asyncio.sleep(0.05)
    passes_before = app.sender._epoch
    said = [asyncio.ensure_future(app.run(_say, tid, slug)) for slug in "abcde"]
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(blocker, *said)
    assert sorted(m.params["slug"] for _, _, m in notifier.sent) == list("abcde")
    assert app.sender._epoch - passes_before == 1
    assert {row.status for row in await store.read(list_outbox)} == {OutboxStatus.SENT}
