"""The board's state (issue 41.1) read from the store with a movable clock: the countdown from
the stored deadline (the same for every reader), the warning's mark and the end (003 r. 15,
18), the phases, and an online event shown the same way."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.duplicate.board import board_state
from bot.services.duplicate.close import close_round
from bot.services.duplicate.game import open_round, start_game

from .conftest import make_event

SEED = "3f" * 32


async def test_the_clock_is_the_stored_deadline_for_every_reader(
        app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words, players=2)
    assert app.store.read_sync(board_state, world.slug, clock.now())["phase"] == "losovanie"
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack="AEKLOSV", round_no=1)
    first = app.store.read_sync(board_state, world.slug, clock.now())
    again = app.store.read_sync(board_state, world.slug, clock.now())  # a second screen
    assert first == again and first["seconds_left"] == 180 and first["clock"] == "bezi"
    assert first["rack"][0] == {"letter": "A", "value": 1} and first["phase"] == "hra"
    clock.advance(timedelta(seconds=151))
    state = app.store.read_sync(board_state, world.slug, clock.now())
    assert (state["clock"], state["seconds_left"]) == ("posledne", 29)
    assert state["deadline"] == first["deadline"]
    clock.advance(timedelta(seconds=29))
    state = app.store.read_sync(board_state, world.slug, clock.now())
    assert (state["phase"], state["clock"], state["seconds_left"]) == ("listky_hore", "koniec", 0)
    await close_round(app, world.slug, 1)
    state = app.store.read_sync(board_state, world.slug, clock.now())
    assert state["phase"] == "vyhodnotenie" and state["rack"] == [] and state["clock"] is None
    assert state["last_top"] is not None and state["last_top"]["round"] == 1


async def test_an_online_event_shows_the_same_board(
        app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words, players=2, mode="online", slug="online")
    await app.run(start_game, world.slug, seed=SEED)  # online: round 1 opens at once
    state = app.store.read_sync(board_state, world.slug, clock.now())
    assert state["mode"] == "online" and state["phase"] == "hra" and len(state["rack"]) == 7
