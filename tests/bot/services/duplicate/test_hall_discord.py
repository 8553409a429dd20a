"""What a hall event sends to Discord (issue 35): by default nothing — the bot running (or
started after the evening) posts no round of it. (`discord = "results"`: the CLI's test.)"""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.duplicate.close import close_round
from bot.services.duplicate.game import open_round, start_game
from bot.services.duplicate.slips import submit_slip
from bot.services.notifier import RecordingNotifier
from bot.store.outbox import list_outbox

from .conftest import make_event

SEED = "c4" * 32


async def play_a_round(app: App, slug: str, clock: ManualClock) -> None:
    await app.run(start_game, slug, seed=SEED)
    await app.run(open_round, slug, rack="AKLOSVE", round_no=1)
    await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), round_no=1,
                  player="1", declared=3, source="arbiter")
    await close_round(app, slug, 1)


async def test_a_hall_event_sends_nothing_by_default(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    world = await make_event(app, words, players=2, discord="none")
    await play_a_round(app, world.slug, clock)
    assert notifier.sent == []  # the bot's notifier: no DM, no channel message
    assert app.store.call_sync(list_outbox) == []  # nothing left for a bot started later


async def test_an_online_event_sends_everything(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    world = await make_event(app, words, players=2, mode="online")
    await app.run(start_game, world.slug, seed=SEED)
    assert "duplicate.online.round_open" in notifier.keys("channel")
