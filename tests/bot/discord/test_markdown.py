"""What people typed is shown literally on Discord (bot/discord/markdown.py): a nick like
`**x**_y_` stays as typed, `@everyone` and `<@id>` in a name or a dispute ping nobody — through
the render layer and through the real dispatch (the player cog, the notifier)."""

from __future__ import annotations

import pytest

from bot.discord.markdown import Markup, literal, mention
from bot.discord.render import render_message, render_reply
from bot.services.notifier import Message
from bot.services.replies import done
from bot.store import Change, update_player

from .test_player_cog import ADMIN_CHANNEL_ID, START, World, w  # noqa: F401  (w: the fixture)

MARKDOWN_NAME = "**Ana**_x_ ~~y~~ `z` ||w||"
SHOWN_NAME = r"\*\*Ana\*\*\_x\_ \~\~y\~\~ \`z\` \|\|w\|\|"
PING = "@everyone <@1100000000000000001> @here"
SHOWN_PING = "@\u200beveryone <@\u200b1100000000000000001> @\u200bhere"


@pytest.mark.parametrize(("typed", "shown"), [
    (MARKDOWN_NAME, SHOWN_NAME),
    (PING, SHOWN_PING),
    ("# nadpis", r"\# nadpis"),
    ("> citát", r"\> citát"),
    ("https://cdn.example/snimka_1.png", "https://cdn.example/snimka_1.png"),  # links work
    ("Ľubomír Šťastný", "Ľubomír Šťastný"),
])
def test_typed_text_is_escaped_once(typed: str, shown: str) -> None:
    assert literal(typed) == shown
    assert literal(Markup("<@123456789012345678>")) == "<@123456789012345678>"
    assert literal(1780.5) == 1780.5  # numbers and times keep their formatting


def test_messages_and_rows_show_names_literally_and_keep_the_templates_markdown() -> None:
    [out] = render_message(Message("play.dispute_admin", {
        "player": MARKDOWN_NAME, "round": 1, "table": 2, "text": PING, "url": "—",
        "pairing_id": 7, "recorded": "—"}))
    assert SHOWN_NAME in (out.content or "") and SHOWN_PING in (out.content or "")
    assert "@everyone" not in (out.content or "")
    reply = done("view.pairings", "e-SP 4.5", tournament="KT", round=1, start="9:00", limit="9:50",
                 rows=[
        {"table": 1, "first": MARKDOWN_NAME, "first_nick": "@everyone", "second": "Bo",
         "second_nick": "bo"}])
    [page] = render_reply(reply)
    row = page.embeds[0].description
    assert row == f"stôl 1: **{SHOWN_NAME}** (@\u200beveryone) začína – Bo (bo)"


async def test_a_markdown_nick_and_a_mass_mention_are_shown_literally(w: World) -> None:  # noqa: F811
    by = Change.admin("hlavny", START, "test")
    await w.store.call(update_player, w.players["ana"].id, by, name=MARKDOWN_NAME)
    ex = await w.h.slash("parovanie", user=w.users["cyril"])
    [embed] = ex.embeds
    assert embed["description"].split("\n")[0] == (
        f"stôl 1: **{SHOWN_NAME}** (ana) začína – Boris Bán (boris)")

    w.at(45)
    await w.h.slash("vysledok", user=w.users["ana"],
                    options={"moje_skore": 400, "skore_supera": 300})
    w.at(55)
    ex = await w.h.slash("namietka", user=w.users["ana"], options={"dovod": f"zle {PING}"})
    assert ex.content.startswith("Reklamácia výsledku 1. kola je zaznamenaná")
    [note] = [m for m in w.h.messages.values() if m.channel_id == ADMIN_CHANNEL_ID]
    assert SHOWN_NAME in note.content and f"zle {SHOWN_PING}" in note.content
    posts = [c.payload for c in w.h.calls if c.key == "POST /channels/{channel_id}/messages"
             and c.payload and "Reklamácia" in str(c.payload.get("content"))]
    assert posts and all(p["allowed_mentions"]["parse"] == [] for p in posts)


async def test_the_bots_own_mention_still_pings(w: World) -> None:  # noqa: F811
    """The draw prompt names the proposer by a mention the bot built (Markup): it must ping."""
    w.at(5)
    await w.h.slash("remiza", user=w.users["ana"])
    [prompt] = [m for m in w.h.channel_messages if m.buttons]
    ana, boris = w.users["ana"].id, w.users["boris"].id
    assert prompt.content.startswith(f"Návrh remízy dohodou v 1. kole — <@{ana}>. <@{boris}>,")
    assert isinstance(mention(5), Markup) and literal(mention(5)) == "<@5>"
