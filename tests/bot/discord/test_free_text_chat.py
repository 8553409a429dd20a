"""Free text in a duplicate event's chat (issue 36.2): a `/namietka` reason and the head
referee's decision — by command or in the modal under the protest — holding NUL, ESC or a
direction override are refused with one line naming the character, as the classic
`/namietka` refuses them; nothing is stored or posted; and what the bot quotes back (a slip it
cannot read) shows such characters escaped. Through discord.py's real dispatch (the harness) and
the production wiring of `duplicate_world`."""

from __future__ import annotations

import pytest

from bot.discord.render import render_message
from bot.services.notifier import Message
from bot.store.duplicate import get_game, list_protests
from bot.store.outbox import list_outbox

from .conftest import said
from .duplicate_world import SEED, SLUG, Game
from .harness import Exchange

#: what must never reach a channel, a DM or a reply (with the invisible ones of issue 43.5)
RAW = ("\x00", "\x1b", "\u202e", "\u200c", "\ufeff", "\u00ad", "\u2060", "\u3164",
       "\U000e0041")
HOSTILE = {
    "nul": ("Slovo\x00 v zozname nie je", "U+0000"),
    "escape": ("Slovo \x1b[2J\x1b[31mv zozname nie je", "U+001B"),
    "rlo": ("Slovo \u202eje ynzelp\u202c", "U+202E"),
    # invisible: a reader sees nothing where they stand (issue 43.5)
    "zero_width_space": ("Slovo\u200b v zozname nie je", "U+200B"),
    "zero_width_joiner": ("Slovo\u200d v zozname nie je", "U+200D"),
    "byte_order_mark": ("\ufeffSlovo v zozname nie je", "U+FEFF"),
    "soft_hyphen": ("Slo\u00advo v zozname nie je", "U+00AD"),
    "tag": ("Slovo v zozname nie je\U000e0041\U000e0042", "U+E0041"),
    "hangul_filler": ("Slovo \u3164 v zozname nie je", "U+3164"),
}


def raw_anywhere(game: Game) -> list[str]:
    """Every message the bot sent anywhere (channels, DMs, replies) that holds a raw control
    or direction character."""
    return [m.text for m in game.h.messages.values() if any(c in m.text for c in RAW)]


async def protests(game: Game) -> list[tuple[str, str]]:
    def read(db: object) -> list[tuple[str, str]]:
        dup = get_game(db, game.tournament_id(db), 1)  # type: ignore[arg-type]
        assert dup is not None
        return [(p.reason, p.status) for p in list_protests(db, dup.id)]  # type: ignore[arg-type]
    return await game.app.store.read(read)


async def preliminary(game: Game) -> str:
    """Game 1 played to its preliminary results (the protest window); round 1's top word."""
    from bot.services.duplicate.game import start_game

    await game.app.run(start_game, SLUG, seed=SEED)
    _, word, _ = await game.top_of(1)
    await game.to_preliminary()
    return word


async def protest(game: Game, reason: str, word: str) -> Exchange:
    return await game.h.slash("namietka", user=game.players["boris"], options={
        "dovod": reason, "kolo": 1, "sporne_slovo": word, "namietane": "wrongly-accepted"})


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
async def test_a_protest_reason_with_a_control_character_is_refused(
        game: Game, hostile: tuple[str, str]) -> None:
    reason, code = hostile
    word = await preliminary(game)
    outbox = len(await game.app.store.read(list_outbox))
    ex = await protest(game, reason, word)
    assert ex.ephemeral and said(ex) == (
        f"zdôvodnenie: obsahuje neviditeľný riadiaci znak ({code})")
    assert await protests(game) == []  # nothing stored …
    assert len(await game.app.store.read(list_outbox)) == outbox  # … nor queued for the admin
    assert raw_anywhere(game) == []
    ex = await protest(game, "Slovo v zozname nie je", word)  # the same protest, clean
    assert "Námietka č. 1 podaná" in said(ex)


async def test_a_decision_with_a_control_character_is_refused_by_command_and_in_the_modal(
        game: Game) -> None:
    h = game.h
    word = await preliminary(game)
    await protest(game, "Slovo v zozname nie je", word)
    ex = await h.slash("duplikat", user=h.head_admin, subcommand="rozhodnutie", options={
        "cislo": 1, "uznat": False, "odovodnenie": "Je v PSP\x1b[2J"})
    assert said(ex) == "zdôvodnenie: obsahuje neviditeľný riadiaci znak (U+001B)"

    queue = await h.slash("admin", user=h.head_admin, subcommand="poradovnik")
    [item] = [m for m in queue.followups if "Námietka č. 1" in m.text]
    await h.click(item, h.head_admin, custom_id="stredisko:dup-namietka:1:nie")
    ex = await h.submit_modal("stredisko:dup-rozhodnutie:1:0",
                              {"odovodnenie": "Je v \u202ePSP"}, h.head_admin)
    assert said(ex) == "zdôvodnenie: obsahuje neviditeľný riadiaci znak (U+202E)"
    assert await protests(game) == [("Slovo v zozname nie je", "pending")]
    assert not any("rozhodnut" in m.text for m in h.dms(game.players["boris"]))
    assert raw_anywhere(game) == []

    await h.click(item, h.head_admin, custom_id="stredisko:dup-namietka:1:nie")  # once more
    ex = await h.submit_modal("stredisko:dup-rozhodnutie:1:0",
                              {"odovodnenie": "Je v PSP\r\nstrana 12"}, h.head_admin)
    assert "Námietka č. 1 rozhodnutá: zamietnuté" in said(ex)
    protest_row = await protests(game)
    assert protest_row == [("Slovo v zozname nie je", "rejected")]


async def test_a_slip_the_bot_cannot_read_is_quoted_escaped(game: Game) -> None:
    from bot.services.duplicate.game import start_game

    await game.app.run(start_game, SLUG, seed=SEED)
    ex = await game.h.slash("tah", user=game.players["ana"], options={
        "suradnica": "8H", "hlavne_slovo": "KO\x1b[31mLO", "body": 5})
    # the markdown escapes the backslash: Discord shows "8H KO\x1b[31mLO"
    assert ex.ephemeral and "8H KO\\\\x1b[31mLO" in said(ex)
    assert raw_anywhere(game) == []


def test_a_stored_reason_from_an_older_database_is_posted_escaped() -> None:
    """A protest stored before the rule (its reason with ESC and RLO) reaches the admin
    channel escaped: the catalogue escapes every text parameter."""
    message = Message("duplicate.online.protest_filed", {
        "id": 7, "game": 1, "round": 2, "word": "KOS", "claim": "neprávom schválené",
        "player": "Boris \u202eĎurica", "reason": "zle\x1b[2J", "rule": "003 r. 27–29"})
    [post] = render_message(message)
    text = post.content + "".join(str(e.to_dict()) for e in post.embeds)
    assert "zle\\x1b[2J" in text and "Boris \\u202eĎurica" in text
    assert not any(c in text for c in RAW)
