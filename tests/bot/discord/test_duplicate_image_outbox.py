"""A message carrying a board picture (issue 24.2): queued in the outbox with its parameters
only, delivered through discord.py's real HTTP layer (recorded by the harness) with the PNG
drawn at send time, byte-identical when sent again, found again by the channel read-back."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from bot.clock import ManualClock
from bot.discord.client import StrediskoBot
from bot.discord.notifier import DiscordNotifier
from bot.discord.render import render_message
from bot.publish.board_image import render_params
from bot.services.app import App, Tx
from bot.services.notifier import Message
from bot.store import Change, Store, Tournament, create_tournament
from bot.store.outbox import list_outbox

from .harness import CONTROL_CHANNEL_ID, DiscordHarness

START = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)
BOARD = "\n".join(["." * 15] * 7 + [".....SLoVO....."] + ["." * 15] * 7) + "\n"
IMAGE = {"board": BOARD, "highlight": [[7, 5], [7, 6], [7, 7], [7, 8], [7, 9]],
         "tiles": "sss-100", "rack": "AEK?RSÝ"}


@dataclass
class Env:
    h: DiscordHarness
    app: App
    notifier: DiscordNotifier
    tournament: Tournament


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = await Store.open(tmp_path / "stredisko.db")
    bot = StrediskoBot()
    notifier = DiscordNotifier(bot, store)
    app = App(store, ManualClock(START), notifier)
    try:
        async with DiscordHarness(bot) as h:
            t = await store.call(lambda db: create_tournament(
                db, slug="dup-1", name="Duplikát 1", season="2026/27", round_starts=[START],
                waiting_minutes=0, game_limit_minutes=3,
                by=Change.admin("test", START, "test setup")))
            yield Env(h, app, notifier, t)
    finally:
        await store.close()


def _announce(tid: int, image: dict) -> object:
    def fn(tx: Tx) -> None:
        tx.announce(tid, "common.not_paired", round=2, image=image)
    return fn


async def test_the_board_goes_out_attached_and_the_row_keeps_only_parameters(env: Env) -> None:
    await env.app.run(_announce(env.tournament.id, IMAGE))
    [post] = env.h.channel_messages
    assert post.content == "V 2. kole nemáš súpera ani voľno."  # the image is not in the text
    assert post.attachments == ["doska-kolo-2.png"]
    assert post.files["doska-kolo-2.png"] == render_params(IMAGE)
    assert post.files["doska-kolo-2.png"].startswith(b"\x89PNG")
    [row] = await env.app.store.read(list_outbox)
    assert row.status.value == "sent"
    assert row.params["image"] == IMAGE  # parameters, not a picture: the row stays small
    assert len(str(row.params)) < 1_000


async def test_a_resent_message_carries_the_same_picture_and_is_found_by_its_text(
        env: Env) -> None:
    message = Message("common.not_paired", {"round": 2, "image": IMAGE}, ref="dup-1-r2-open")
    await env.notifier.announce(env.tournament.id, message)
    env.h.forget_nonces()  # Discord's nonce window passed: a second send posts a copy
    await env.notifier.announce(env.tournament.id, message)
    first, second = env.h.channel_messages
    assert first.files == second.files and first.files
    since = discord.utils.utcnow() - timedelta(minutes=1)  # the harness dates posts "now"
    found, total = await env.notifier.delivered_pieces("channel", env.tournament.id, message,
                                                       since)
    assert found == total == 1


async def test_the_nonce_returns_the_first_post_instead_of_a_copy(env: Env) -> None:
    message = Message("common.not_paired", {"round": 2, "image": IMAGE}, ref="dup-1-r2-open")
    await env.notifier.announce(env.tournament.id, message)
    await env.notifier.announce(env.tournament.id, message)
    assert len(env.h.channel_messages) == 1
    sends = [c for c in env.h.calls if c.key == "POST /channels/{channel_id}/messages"]
    assert len(sends) == 2 and sends[0].blobs == sends[1].blobs  # the retry sent the same bytes
    assert all(c.url.endswith(f"/{CONTROL_CHANNEL_ID}/messages") for c in sends)


async def test_a_board_that_cannot_be_drawn_still_goes_out_as_text(
        env: Env, caplog: pytest.LogCaptureFixture) -> None:
    broken = {**IMAGE, "board": "not a board"}
    with caplog.at_level(logging.WARNING, "stredisko.discord.render"):
        await env.app.run(_announce(env.tournament.id, broken))
    [post] = env.h.channel_messages
    assert post.content == "V 2. kole nemáš súpera ani voľno." and post.attachments == []
    assert "board image not drawn" in caplog.text


def test_a_message_without_an_image_has_no_files_and_read_back_draws_nothing() -> None:
    plain = render_message(Message("common.not_paired", {"round": 2}))
    assert all(piece.files == () and "files" not in piece.kwargs() for piece in plain)
    text_only = render_message(Message("common.not_paired", {"round": 2, "image": IMAGE}),
                               attach=False)
    assert text_only == plain
