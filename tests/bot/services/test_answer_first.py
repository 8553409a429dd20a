"""`App(answer_first=True)` (the bot): a caller is answered once his change is committed, while
its messages are delivered — a post to Discord is a network round trip, and a busy round's
callers would otherwise each wait for the whole delivery pass (issue 21). The outbox still
holds every message until it is marked sent: nothing lost if the delivery is cut short,
nothing sent twice."""

from __future__ import annotations

import asyncio

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import Message, RecordingNotifier
from bot.store import Store
from bot.store.outbox import list_outbox

from ..conftest import World, make_world


class GatedDiscord(RecordingNotifier):
    """A Discord that takes each post only once `gate` is open."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        await self.gate.wait()
        await super().to_admin(tournament_id, message)


def _tell_admin(world: World):  # type: ignore[no-untyped-def]
    def use_case(tx: Tx) -> str:
        tx.to_admin(world.tournament.id, "outbox.queued", n=1)
        return "committed"
    return use_case


def _statuses(store: Store) -> list[str]:
    return [str(row.status) for row in store.read_sync(list_outbox)
            if row.message_key == "outbox.queued"]


async def _world(store: Store, clock: ManualClock) -> World:
    return await make_world(App(store, clock, RecordingNotifier()))


async def test_the_caller_is_answered_before_his_message_is_delivered(
        store: Store, clock: ManualClock) -> None:
    world = await _world(store, clock)
    discord = GatedDiscord()
    app = App(store, clock, discord, answer_first=True)
    # answered although Discord has not taken the post (a wait here would never end)
    assert await asyncio.wait_for(app.run(_tell_admin(world)), 5) == "committed"
    assert discord.keys() == [] and _statuses(store) == ["pending"]  # still on its way
    discord.gate.set()
    await app.settle()
    assert discord.keys() == ["outbox.queued"] and _statuses(store) == ["sent"]


async def test_without_it_the_caller_waits_for_the_delivery(
        store: Store, clock: ManualClock) -> None:
    world = await _world(store, clock)
    discord = GatedDiscord()
    app = App(store, clock, discord)
    call = asyncio.ensure_future(app.run(_tell_admin(world)))
    await asyncio.sleep(0.05)
    assert not call.done()  # the CLI, the rehearsal, the tests: delivered when answered
    discord.gate.set()
    assert await call == "committed" and discord.keys() == ["outbox.queued"]


async def test_a_delivery_cut_short_after_the_answer_goes_out_once_at_the_next_start(
        store: Store, clock: ManualClock) -> None:
    world = await _world(store, clock)
    app = App(store, clock, GatedDiscord(), answer_first=True)
    assert await asyncio.wait_for(app.run(_tell_admin(world)), 5) == "committed"
    for task in list(app._delivering):  # the process stops with the delivery in flight
        task.cancel()
    await asyncio.gather(*app._delivering, return_exceptions=True)
    await asyncio.sleep(0.05)  # the store applies what the pass left
    assert _statuses(store) == ["pending"]
    again = RecordingNotifier()
    restarted = App(store, clock, again, answer_first=True)
    await restarted.sender.flush()
    await restarted.sender.flush()
    assert again.keys() == ["outbox.queued"] and _statuses(store) == ["sent"]
