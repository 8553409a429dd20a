"""`/slovo` during a duplicate round (issue 22.5's seam, answered by issue 24's rows): a player
of the event is refused while its round is open (003 r. 30), answered once it closed."""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.duplicate.close import close_round
from bot.services.duplicate.game import start_game
from bot.services.lexicon.word_check import check_word, load_for_check
from bot.services.replies import Reply
from rules.lexicon import WordVerdict

from ...conftest import render
from .conftest import discord, make_event


async def test_no_word_check_for_a_player_in_an_open_round(
        app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words, mode="online")
    lexicon, rules = load_for_check(str(words), words.parent)
    await app.run(start_game, world.slug, seed="9a" * 32)
    refused = await app.run(check_word, "kosa", discord(0), world.slug, lexicon, rules)
    assert isinstance(refused, Reply) and refused.key == "word.duplicate_open"
    assert "1. kolo 1. partie" in render(refused.key, refused.params, refused.rule)
    stranger = await app.run(check_word, "kosa", 4242, world.slug, lexicon, rules)
    assert isinstance(stranger, WordVerdict)  # not in the event: nothing to protect
    await close_round(app, world.slug, 1)
    after = await app.run(check_word, "kosa", discord(0), world.slug, lexicon, rules)
    assert isinstance(after, WordVerdict)
