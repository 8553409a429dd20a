"""`/tah` with a word typed in lower case (issue 41.3): Discord's slip goes through the same
parser as the hall's, so it is refused with one private line showing how the word and a blank
are written — never taken as all blanks to score 0 at the close — and the command's help says
so."""

from __future__ import annotations

from typing import Any

from bot.services.duplicate.game import start_game
from bot.store.duplicate import list_slips

from .duplicate_world import SEED, SLUG, Game
from .test_command_tree import registered  # noqa: F401  (the registered command tree)


async def test_a_lower_case_word_is_refused_privately_nothing_stored(game: Game) -> None:
    h, cyril = game.h, game.players["cyril"]
    await game.app.run(start_game, SLUG, seed=SEED)
    rnd = await game.round(1)
    ex = await h.slash("tah", user=cyril, options={"suradnica": "8H", "hlavne_slovo": "oko",
                                                   "body": 4})
    assert ex.ephemeral and "„OKO“" in ex.content and "SL(O)VO" in ex.content
    assert "malými písmenami" in ex.content and "003 r. 38" in ex.content
    assert game.app.store.read_sync(lambda db: list_slips(db, rnd.id)) == []


async def test_the_help_of_tah_says_how_to_write_the_word(
        registered: dict[str, dict[str, Any]],  # noqa: F811
) -> None:
    word = registered["tah"]["options"][1]
    assert word["name"] == "hlavne_slovo" and len(word["description"]) <= 100
    assert "VEĽKÝMI" in word["description"] and "SL(O)VO" in word["description"]
    assert "malými písmenami sa neprijme" in word["description"]
    assert "lower case is refused" in word["description_localizations"]["en-US"]
