"""A whole duplicate game told through chat (issue 24 items 2, 3, 8): three players, two rounds,
through discord.py's real dispatch (the harness), the production wiring (`runner.build_bot`), a real
SQLite store, the services of `bot.services.duplicate`, and one movable time: the services'
ManualClock and the wall clock Discord's snowflakes come from (time-machine) move together, so
`/tah` is stamped with the interaction's time against deadlines the scheduler's timers keep.

The game is small on purpose: a ten-tile bag and a fifty-word list, so round 1's rack is seven
of the ten tiles and round 2 empties the bag; the seed (fixed here, secret in a real game) makes
the racks the same on every run. What each player plays is derived from the rules
(`rules.duplicate.top_moves` on the stored board and rack), not typed in as an answer.
"""

from __future__ import annotations

import io
import logging
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from bot.discord.render import render_message
from bot.publish.board_image import WIDTH
from bot.services.delivery.outbox import as_message
from bot.services.duplicate.game import start_game, top_tiles
from bot.services.duplicate.results import finalize_game
from bot.store.duplicate import current_scores, list_slips
from bot.store.outbox import list_outbox
from rules.duplicate import duplicate_profile, replay
from rules.duplicate.tiles import BLANK

from .duplicate_world import (
    ADMIN_CHANNEL_ID,
    PAUSE_S,
    SEED,
    SLUG,
    START,
    WARNING_S,
    Game,
    answer,
)
from .harness import (
    CONTROL_CHANNEL_ID,
    DiscordWouldReject,
    RecordedMessage,
)


def png_of(message: RecordedMessage, name: str) -> Image.Image:
    assert message.attachments == [name]
    image = Image.open(io.BytesIO(message.files[name]))
    assert image.format == "PNG" and image.width == WIDTH
    return image


async def test_a_whole_duplicate_game_in_chat(game: Game,
                                              caplog: pytest.LogCaptureFixture) -> None:
    h, ana, boris, cyril = game.h, game.players["ana"], game.players["boris"], \
        game.players["cyril"]

    # -- the game starts (the arbiter's `stredisko duplicate start`): the seed's commitment,
    #    then round 1 with the board image, the rack with values and Discord's timestamp
    started = await game.app.run(start_game, SLUG, seed=SEED)
    commitment = started.commitment  # type: ignore[union-attr]
    first = game.channel()
    assert len(first) == 2
    assert commitment in first[0].content and "(003 r. 11" in first[0].content
    rnd1 = await game.round(1)
    deadline = int(rnd1.deadline.timestamp())
    assert "**1. partia, 1. kolo**" in first[1].content
    assert f"<t:{deadline}:T>" in first[1].content and f"<t:{deadline}:R>" in first[1].content
    values = " ".join(f"{ch}{game.tiles.values[ch.lower()]}" for ch in rnd1.rack)
    assert f"**{values}**" in first[1].content and "`/tah`" in first[1].content
    png_of(first[1], "doska-kolo-1.png")

    # -- round 1: Ana plays the top by the slash options, Boris by the form, then corrects it
    coord, word, score = await game.top_of(1)
    ex = await h.slash("tah", user=ana, options={"suradnica": coord, "hlavne_slovo": word,
                                                 "body": score})
    assert ex.ephemeral and f"{coord} {word}, {score} bodov" in ex.content
    assert "Či platí, sa dozvieš po uzávierke" in ex.content
    assert "neplat" not in ex.content.lower() and "platný" not in ex.content.lower()

    opened = await h.slash("tah", user=boris)
    assert opened.modal is not None and opened.modal["custom_id"].startswith("stredisko:tah:")
    ex = await h.submit_modal("stredisko:tah", {"suradnica": "8H", "slovo": "KOLO",
                                                "body": "5"}, boris)
    assert ex.ephemeral and "8H KOLO, 5 bodov" in ex.content and "Nahrádza" not in ex.content
    ex = await h.slash("tah", user=boris, options={"suradnica": coord, "hlavne_slovo": word,
                                                   "body": score + 3})
    assert ex.ephemeral and "Nahrádza tvoj predošlý lístok" in ex.content
    # the rule as a player reads it: not our reading's label nor the setting (issue 44.7)
    assert ex.content.endswith("(003 r. 41).") and "slips." not in ex.content

    # refusals are one Slovak line, privately; nothing is stored for them
    ex = await h.slash("tah", user=cyril, options={"suradnica": "8H"})
    assert ex.ephemeral and "súradnicu aj slovo" in ex.content
    stranger = h.member("Dušan Cudzí")
    ex = await h.slash("tah", user=stranger, options={"suradnica": "8H", "hlavne_slovo": "OKO",
                                                      "body": 4})
    assert ex.ephemeral and "nie je prihlásený" in ex.content
    ex = await h.slash("tah", user=cyril, options={"suradnica": "8Z", "hlavne_slovo": "OKO",
                                                   "body": 4})
    assert ex.ephemeral and "Lístok nemožno prečítať" in ex.content
    with pytest.raises(DiscordWouldReject):  # Discord's client refuses a score of 10000
        await h.slash("tah", user=cyril, options={"suradnica": "8H", "hlavne_slovo": "OKO",
                                                  "body": 10_000})

    # /slovo is closed to a player while his duplicate round is open (003 r. 30)
    ex = await h.slash("slovo", user=cyril, options={"tvar": "kolo"})
    assert ex.ephemeral and "003 r. 30" in ex.content and "1. kolo 1. partie" in ex.content

    # -- 30 seconds before the deadline: the warning
    seen = len(game.channel())
    assert await game.to_deadline(1, before=WARNING_S) >= 1  # the warning (and the tops)
    [warning] = game.channel(seen)
    assert "zostáva 30 s" in warning.content and "(003 r. 18; 004 §5C)" in warning.content

    # Cyril hands in 2 seconds after the deadline, while the bot has not closed the round yet:
    # Discord's time of receipt decides — late (003 r. 19), and he is told so, privately
    game.shift(WARNING_S + 2)
    ex = await h.slash("tah", user=cyril, options={"suradnica": coord, "hlavne_slovo": word,
                                                   "body": score})
    assert ex.ephemeral and "po uzávierke kola: za kolo dostaneš 0 bodov (003 r. 19)" in ex.content
    assert await game.advance(0) >= 1  # the deadline's timer: the round closes

    # -- the close of round 1 (the last of part 1): the top withheld (003 r. 22), the summary,
    #    each player's evaluation by DM, the standings after the part (003 r. 24)
    closed = game.channel_text(seen + 1)
    assert "1. kolo uzavreté" in closed and "(003 r. 22)" in closed
    assert f"{word}" not in closed.split("Priebežné")[0]  # the top is not shown yet
    assert "najlepší ťah našli hráči: 1 z 3" in closed  # Boris declared 3 too many: 0
    assert "Priebežné poradie po 1. časti" in closed and "Ana Ábelová" in closed
    [ana_dm] = [m.text for m in h.dms(ana)]
    assert f"{coord} {word}" in ana_dm and f"**{score} bod" in ana_dm
    [boris_dm] = [m.text for m in h.dms(boris)]
    assert "**0 bodov**" in boris_dm and "(003 r. 45)" in boris_dm
    [cyril_dm] = [m.text for m in h.dms(cyril)]
    assert "po limite" in cyril_dm and "(003 r. 19)" in cyril_dm

    # -- after the pause, part 2 starts: round 1's top now, with its board; round 2 opens
    seen = len(game.channel())
    await game.advance(PAUSE_S)
    delayed, others_or_open, *rest = game.channel(seen)
    assert f"1. kolo: {coord} {word}, {score} bod" in delayed.content
    board1 = png_of(delayed, "doska-kolo-1.png")
    opening = [m for m in [others_or_open, *rest] if "2. kolo**" in m.content]
    assert len(opening) == 1
    board2 = png_of(opening[0], "doska-kolo-2.png")
    assert board1.tobytes() != board2.tobytes()  # the rack row and the new board

    # -- round 2: Ana plays the top; Boris a word not in the list; Cyril nothing
    coord2, word2, score2 = await game.top_of(2)
    ex = await h.slash("tah", user=ana, options={"suradnica": coord2, "hlavne_slovo": word2,
                                                 "body": score2})
    assert f"{coord2} {word2}, {score2} bod" in ex.content
    ex = await h.slash("tah", user=boris, options={"suradnica": coord2, "hlavne_slovo": word2[::-1],
                                                   "body": 1})
    assert ex.ephemeral and "Či platí" in ex.content  # never said invalid before the close
    seen = len(game.channel())
    await game.to_deadline(2)

    # -- the close of round 2 empties the bag: the top with its board, then the game's end,
    #    the preliminary results, the approved and rejected words, the protest window
    ended = game.channel(seen)
    top2 = next(m for m in ended if "2. kolo — najlepší ťah" in m.content)
    assert f"{coord2} {word2}, {score2} bod" in top2.content
    png_of(top2, "doska-kolo-2.png")
    text = game.channel_text(seen)
    assert "Predbežné výsledky 1. partie" in text and "(003 r. 25)" in text
    assert "Schválené a neschválené slová" in text and "(003 r. 26)" in text
    assert "Námietky k 1. partii možno podať teraz" in text
    assert "Ana Ábelová" in text.split("Predbežné výsledky")[1]
    moves = [m.text for m in h.dms(boris) if "Tvoje ťahy v 1. partii" in m.text]
    assert len(moves) == 1 and "1. kolo" in moves[0] and "2. kolo" in moves[0]

    # -- protests (003 r. 27): Boris says his word was wrongly rejected; Cyril says round 1's
    #    top was wrongly accepted. The head referee (r. 29) rejects the first by its buttons
    #    and upholds the second by command: the scores change, the board never does (004 §5D)
    ex = await h.slash("namietka", user=boris, options={
        "dovod": "Slovo je v slovníku", "kolo": 2, "sporne_slovo": word2[::-1],
        "namietane": "wrongly-rejected"})
    assert ex.ephemeral and "Námietka č. 1 podaná" in ex.content
    ex = await h.slash("namietka", user=cyril, options={"dovod": "Nesúhlasím s výsledkom"})
    assert ex.ephemeral and "kolo, sporné slovo" in ex.content
    ex = await h.slash("namietka", user=cyril, options={
        "dovod": "Toto slovo v zozname nie je", "kolo": 1, "sporne_slovo": word,
        "namietane": "wrongly-accepted"})
    assert ex.ephemeral and "Námietka č. 2 podaná" in ex.content
    filed = h.messages_in(ADMIN_CHANNEL_ID)
    assert [("Námietka č. 1" in m.text, "Námietka č. 2" in m.text) for m in filed] == [
        (True, False), (False, True)]
    assert "/duplikat rozhodnutie cislo:1" in filed[0].text
    assert [b["label"] for b in filed[0].buttons] == ["Vyhovieť", "Zamietnuť"]

    ex = await h.click(filed[0], cyril, custom_id="stredisko:dup-namietka:1:nie")
    assert ex.modal is None and "hlavn" in answer(ex).lower()  # the role first: no form
    ex = await h.click(filed[0], h.head_admin, custom_id="stredisko:dup-namietka:1:nie")
    assert ex.modal is not None
    ex = await h.submit_modal("stredisko:dup-rozhodnutie:1:0",
                              {"odovodnenie": "Slovo v zozname spolku nie je"}, h.head_admin)
    assert "Námietka č. 1 rozhodnutá: zamietnuté" in answer(ex)
    assert any("zamietnuté" in m.text and "č. 1" in m.text for m in h.dms(boris))
    ex = await h.click(filed[0], h.head_admin, custom_id="stredisko:dup-namietka:1:ano")
    ex = await h.submit_modal("stredisko:dup-rozhodnutie:1:1", {"odovodnenie": "omyl"},
                              h.head_admin)
    assert "už rozhodnutá" in answer(ex)  # final (r. 29): decided once

    ex = await h.slash("duplikat", user=cyril, subcommand="rozhodnutie", options={
        "cislo": 2, "uznat": True, "odovodnenie": "chcem body"}, check=False)
    assert "hlavn" in answer(ex).lower()
    ex = await h.slash("duplikat", user=h.head_admin, subcommand="rozhodnutie", options={
        "cislo": 2, "uznat": True, "odovodnenie": "Tvar chýba v PSP"})
    # Ana's 14 points go; Boris's 0 stays 0 but for another reason (the word, not his score)
    assert "Námietka č. 2 rozhodnutá: vyhovené. Zmenené skóre hráčov v kole: 2" in answer(ex)
    assert any("Oprava po partii" in m.text and f"{score}" in m.text for m in h.dms(ana))

    # -- final results and the seed: anyone can replay the racks from it
    seen = len(game.channel())
    await game.app.run(finalize_game, SLUG)
    final = game.channel_text(seen)
    assert "Konečné výsledky 1. partie" in final
    assert f"`{SEED}`" in final and f"`{commitment}`" in final
    rnd1, rnd2 = await game.round(1), await game.round(2)  # closed: their tops are known
    played = [BLANK if tile[3] else str(tile[2]).upper() for tile in top_tiles(rnd1)]
    draws = replay(SEED, game.tiles.bag, game.tiles.rack_vowels,
                   duplicate_profile("cas-duplicate"), [played])
    assert ["".join(sorted(d.rack)) for d in draws] == [rnd1.rack, rnd2.rack]

    # -- nothing was posted twice: one opening per round, one top per round
    everything = [m.content for m in game.channel()]
    assert sum("**1. partia, 1. kolo**" in c for c in everything) == 1
    assert sum("**1. partia, 2. kolo**" in c for c in everything) == 1
    assert all(m.channel_id == CONTROL_CHANNEL_ID for m in game.channel())
    scores = await game.app.store.read(lambda db: current_scores(db, rnd1.id))
    assert sorted(s.points for s in scores) == [0, 0, 0]  # the upheld protest
    assert f"Ana Ábelová — {score2} z {score + score2}" in final

    # every message the game queued has its chat wording in both languages (no fallback to
    # the service's text for want of a parameter), and every one was delivered
    rows = await game.app.store.read(list_outbox)
    assert rows and all(row.status.value == "sent" for row in rows)
    with caplog.at_level(logging.WARNING, "stredisko.discord.render"):
        for row in rows:
            for locale in ("sk", "en-US"):
                assert render_message(as_message(row), locale)[0].content
    assert "not used" not in caplog.text and "not drawn" not in caplog.text


async def test_a_slip_is_judged_by_when_discord_received_it_not_by_the_bots_clock(
        game: Game) -> None:
    """003 r. 19 at the deadline: a slip Discord received before it counts, however late the
    bot gets to it; one received after it is late, whatever the bot's clock says."""
    h, ana, boris = game.h, game.players["ana"], game.players["boris"]
    await game.app.run(start_game, SLUG, seed=SEED)
    rnd = await game.round(1)
    # the bot is behind: its clock is past the deadline, Discord's is not
    game.clock.advance(rnd.deadline - START + timedelta(seconds=5))
    sent_at = datetime.now(UTC)  # Discord's (the harness dates the interaction now)
    ex = await h.slash("tah", user=ana, options={"suradnica": "H4", "hlavne_slovo": "SLOVO",
                                                 "body": 14})
    assert ex.ephemeral and "H4 SLOVO, 14 bodov" in ex.content and "prišiel po" not in ex.content
    # Discord's clock passes the deadline while the bot's stays where it was
    game.traveller.shift(rnd.deadline - sent_at + timedelta(seconds=1))
    ex = await h.slash("tah", user=boris, options={"suradnica": "H4", "hlavne_slovo": "SLOVO",
                                                   "body": 14})
    assert ex.ephemeral and "prišiel po uzávierke kola" in ex.content
    slips = await game.app.store.read(lambda db: list_slips(db, rnd.id))
    assert [s.received_at for s in slips] == [sent_at, rnd.deadline + timedelta(seconds=1)]
    assert all(s.recorded_at == game.clock.now() for s in slips)  # the bot's own time
    assert [s.source for s in slips] == ["discord", "discord"]


async def test_a_slow_answer_is_deferred_and_still_arrives(game: Game) -> None:
    """Discord waits 3 s for an answer: when the service is slow (here: any wait at all), the
    player sees "thinking…" first and the slip's answer follows; the slip keeps its time."""
    h, ana = game.h, game.players["ana"]
    await game.app.run(start_game, SLUG, seed=SEED)
    game.h.bot.get_cog("DuplicateCog").defer_after = 0  # type: ignore[union-attr]
    ex = await h.slash("tah", user=ana, options={"suradnica": "H4", "hlavne_slovo": "SLOVO",
                                                 "body": 14})
    assert ex.deferred and "H4 SLOVO, 14 bodov" in answer(ex)
    rnd = await game.round(1)
    slips = await game.app.store.read(lambda db: list_slips(db, rnd.id))
    assert [s.received_at for s in slips] == [START]
