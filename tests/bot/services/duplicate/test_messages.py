"""The duplicate catalogue (`bot/locales/{sk,en}/duplicate_online.toml`): both languages say
every message with the same placeholders, and every message the services queue renders."""

from __future__ import annotations

import string
from pathlib import Path

from bot.clock import ManualClock
from bot.i18n import ENGLISH, SLOVAK, default_catalogue
from bot.services.app import App
from bot.services.duplicate.close import close_round
from bot.services.duplicate.game import open_round, start_game
from bot.services.duplicate.slips import submit_slip
from bot.services.notifier import RecordingNotifier

from ...conftest import render
from .conftest import discord, make_event


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_every_message_with_the_same_placeholders() -> None:
    languages = default_catalogue().languages
    sk, en = languages[SLOVAK].messages, languages[ENGLISH].messages
    ours = sorted(k for k in sk if k.startswith(("duplicate.online.", "duplicate.hall.")))
    assert ours and all(k in en for k in ours)
    assert [k for k in ours if placeholders(sk[k]) != placeholders(en[k])] == []


async def test_every_message_of_a_round_renders(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    world = await make_event(app, words, mode="online", part_rounds=(1,))
    await app.run(start_game, world.slug, seed="77" * 32)
    await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(),
                  discord_id=discord(0), declared=2)
    await close_round(app, world.slug, 1)
    await app.run(open_round, world.slug, round_no=2)
    assert len(notifier.sent) > 6
    for _, _, message in notifier.sent:
        assert render(message.key, message.params)  # sk and en, every parameter there
