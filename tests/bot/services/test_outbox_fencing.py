"""Fencing (issue 36.1): a bot delivers a message only after claiming it in a transaction that
finds its lease generation still holding the database; taken over, it stops at once — in the
middle of a pass too — and a claim that came back late (the process froze meanwhile) is made
again before anything is posted. The two-process case is tests/bot/discord/test_lease_fencing.py."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.delivery import lease
from bot.services.notifier import Message, RecordingNotifier
from bot.store import Change, Store, create_tournament
from bot.store.lease import claim_for_delivery, current_lease, write_lease
from bot.store.outbox import OutboxStatus, drop_message, list_outbox

from ..conftest import START

OTHER = ("iny:1:x", "iny-stroj", 1)  # the bot that takes the lease over


async def _queued(store: Store, clock: ManualClock, n: int) -> int:
    """A tournament and `n` announcements the CLI queued for the bot."""
    t = await store.call(lambda db: create_tournament(
        db, slug="f1", name="F1", season="2026/27", round_starts=[START], waiting_minutes=10,
        game_limit_minutes=50, by=Change.admin("t", START)))
    cli = App(store, clock, RecordingNotifier(), delivery="queue")
    for i in range(n):
        await cli.run(lambda tx, i=i: tx.announce(t.id, "play.withdrawn", player=f"H{i}",
                                                  rule="e-SP 3.6"))
    return t.id


class TakenOverAfter(RecordingNotifier):
    """Discord; after the `n`-th post another bot takes the lease over (this one froze)."""

    def __init__(self, store: Store, clock: ManualClock, n: int) -> None:
        super().__init__()
        self.store, self.clock, self.n = store, clock, n

    async def announce(self, tournament_id: int, message: Message) -> None:
        await super().announce(tournament_id, message)
        if len(self.sent) == self.n:
            await self.store.call(write_lease, *OTHER, self.clock.now())


async def test_generations_grow_across_takes_and_clean_stops(store: Store) -> None:
    clock = ManualClock(START)
    first = await lease.acquire(store, clock)
    await lease.release(store, first, clock)
    assert await store.read(current_lease) is None  # a clean stop: the next starts at once
    second = await lease.acquire(store, clock)
    await store.call(write_lease, *OTHER, START)
    assert (first.generation, second.generation) == (1, 2)
    taken = await store.read(current_lease)
    assert taken is not None and (taken.holder, taken.generation) == (OTHER[0], 3)


async def test_a_claim_needs_the_generation_still_holding_the_lease(store: Store) -> None:
    clock = ManualClock(START)
    await _queued(store, clock, 2)
    first, second = await store.read(list_outbox)
    mine = await lease.acquire(store, clock)
    claim = (mine.holder, mine.generation)
    assert await store.call(claim_for_delivery, *claim, first.id, START) is True
    await store.call(drop_message, second, "omylom", Change.admin("t", START))
    assert await store.call(claim_for_delivery, *claim, second.id, START) is None
    await store.call(write_lease, *OTHER, START)
    assert await store.call(claim_for_delivery, *claim, first.id, START) is False
    # the same holder token with an older generation is fenced off too
    await store.call(write_lease, mine.holder, "h", 1, START)
    assert await store.call(claim_for_delivery, *claim, first.id, START) is False
    rows = await store.read(list_outbox)
    assert rows[0].lease_generation == mine.generation  # who handed it to Discord


async def test_a_bot_taken_over_mid_pass_posts_nothing_more(store: Store) -> None:
    clock = ManualClock(START)
    tid = await _queued(store, clock, 5)
    notifier = TakenOverAfter(store, clock, 2)
    stop = asyncio.Event()
    holding = await lease.acquire(store, clock)
    holding.stop = stop
    app = App(store, clock, notifier, lease=holding)
    flushed = await app.sender.flush()
    assert [m.params["player"] for _, _, m in notifier.sent] == ["H0", "H1"]
    assert flushed.sent == 2 and holding.lost.is_set() and stop.is_set()
    await app.run(lambda tx: tx.announce(tid, "play.withdrawn", player="H5", rule="e-SP 3.6"))
    assert await app.sender.flush() == type(flushed)()  # later passes deliver nothing at all
    assert len(notifier.sent) == 2
    await asyncio.sleep(0.05)  # the marks of the two it did post
    statuses = [row.status for row in await store.read(list_outbox)]
    assert statuses == [OutboxStatus.SENT] * 2 + [OutboxStatus.PENDING] * 4


async def test_a_claim_that_came_back_late_is_confirmed_again(store: Store) -> None:
    """The process froze between the claim and the post, for longer than a claim proves the
    lease is still ours; another bot took over meanwhile: nothing is posted."""
    clock = ManualClock(START)
    await _queued(store, clock, 1)
    acquired = await lease.acquire(store, clock)
    claims: list[bool | None] = []

    class FrozenAfterClaim(lease.Holding):
        async def claim(self, store_: Store, row_id: int, at: datetime) -> bool | None:
            claimed = await super().claim(store_, row_id, at)
            claims.append(claimed)
            if len(claims) == 1:  # asleep right after the first claim; taken over meanwhile
                clock.advance(lease.DEAD_AFTER + timedelta(seconds=1))
                await store.call(write_lease, *OTHER, clock.now())
            return claimed

    holding = FrozenAfterClaim(acquired.holder, acquired.generation)
    notifier = RecordingNotifier()
    await App(store, clock, notifier, lease=holding).sender.flush()
    assert claims == [True] and notifier.sent == [] and holding.lost.is_set()
    assert (await store.read(list_outbox))[0].status is OutboxStatus.PENDING  # B's to send
