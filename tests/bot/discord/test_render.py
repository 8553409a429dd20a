"""Rendering replies and messages for Discord, and cutting them to Discord's limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord import render
from bot.discord.i18n import Catalogue
from bot.discord.render import (
    CONTENT_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_FIELDS_LIMIT,
    EMBEDS_PER_MESSAGE,
    EMBEDS_TOTAL_LIMIT,
    Outgoing,
    field_messages,
    list_messages,
    message_text,
    render_message,
    render_reply,
    split_text,
)
from bot.services.notifier import Message
from bot.services.replies import done, refused


def _within_limits(messages: list[Outgoing]) -> None:
    for m in messages:
        assert m.content is None or 0 < len(m.content) <= CONTENT_LIMIT
        assert len(m.embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in m.embeds) <= EMBEDS_TOTAL_LIMIT
        for e in m.embeds:
            assert len(e.description or "") <= EMBED_DESCRIPTION_LIMIT
            assert len(e.fields) <= EMBED_FIELDS_LIMIT


def test_split_text_keeps_lines_whole_and_in_order() -> None:
    lines = [f"{i:3d}. Hráč číslo {i} — 2,5 bodu" for i in range(400)]
    pieces = split_text("\n".join(lines), 2000)
    assert len(pieces) > 1
    assert all(len(p) <= 2000 for p in pieces)
    assert "\n".join(pieces).split("\n") == lines


def test_split_text_cuts_an_overlong_line_at_spaces_then_anywhere() -> None:
    words = " ".join(["slovo"] * 1000)  # 5999 characters, no line breaks
    pieces = split_text(words, 2000)
    assert all(len(p) <= 2000 for p in pieces)
    assert " ".join(pieces).split() == words.split()
    blob = "x" * 4500
    assert [len(p) for p in split_text(blob, 2000)] == [2000, 2000, 500]
    assert split_text("", 2000) == []
    with pytest.raises(ValueError):
        split_text("a", 0)


def test_long_list_becomes_embeds_within_every_limit() -> None:
    lines = [f"{i:3d}. {'Meno Priezvisko':<20} (herna_{i}) 4,5 bodu · MB 12,5 · +321"
             for i in range(1, 601)]
    messages = list_messages("Poradie", lines, content="Priebežné poradie (e-SP 2.4)")
    _within_limits(messages)
    assert len(messages) >= 2  # 600 lines cannot fit in one message's 6000 characters
    assert messages[0].content == "Priebežné poradie (e-SP 2.4)"
    assert all(m.content is None for m in messages[1:])
    embeds = [e for m in messages for e in m.embeds]
    shown = "\n".join(e.description or "" for e in embeds).split("\n")
    assert shown == lines
    assert embeds[0].title == f"Poradie (1/{len(embeds)})"
    assert embeds[-1].title == f"Poradie ({len(embeds)}/{len(embeds)})"


def test_short_list_is_one_embed_with_plain_title() -> None:
    [message] = list_messages("Párovanie", ["1. Ana – Boris"], footer="e-SP 4.5")
    [embed] = message.embeds
    assert embed.title == "Párovanie"
    assert embed.footer.text == "e-SP 4.5"


def test_many_fields_are_spread_over_embeds() -> None:
    fields = [(f"Stôl {i}", "a" * 1500) for i in range(60)]  # values over the 1024 limit
    messages = field_messages("Párovanie", fields)
    _within_limits(messages)
    embeds = [e for m in messages for e in m.embeds]
    assert len(embeds) >= 12  # 60 values of 1024 characters: five per 6000-character message
    assert sum(len(e.fields) for e in embeds) == 60
    assert all(len(f.value) <= 1024 and f.value.endswith("…") for e in embeds for f in e.fields)
    short = field_messages("Párovanie", [(f"Stôl {i}", "Ana – Boris") for i in range(60)])
    assert [len(e.fields) for m in short for e in m.embeds] == [25, 25, 10]


def test_rule_is_cited_once() -> None:
    # The template has {rule}: used there, not appended again.
    text = message_text("refusal.head_admin_only", {}, "sk", "e-SP 2.5")
    assert text == "Toto smie urobiť iba hlavný administrátor turnaja (e-SP 2.5)."
    # The template has no {rule}: the rule the service gave is appended.
    text = message_text("common.no_round", {}, "sk", "e-SP 4.5")
    assert text == "Ešte nie je zverejnené žiadne kolo. (e-SP 4.5)"


def test_reply_in_the_readers_language() -> None:
    reply = refused("common.not_paired", round=3)
    assert render_reply(reply, "en-US")[0].content == (
        "You have neither an opponent nor a bye in round 3."
    )
    assert render_reply(reply, "cs")[0].content == "V 3. kole nemáš súpera ani voľno."


def _tiny_catalogue(tmp_path: Path) -> Catalogue:
    for code, head, row in (("sk", "Poradie {tournament}", "{rank}. {name} – {points:point}"),
                            ("en", "Standings {tournament}", "{rank}. {name} – {points:point}")):
        (tmp_path / f"{code}.toml").write_text(
            f'[view]\nstandings = "{head}"\nstandings_row = "{row}"\n'
            'standings_out_row = "{rank}. {name} — {out}"\n'
            '[plural.point]\none = "bod"\nfew = "body"\nmany = "bodov"\nfraction = "bodu"\n'
            'other = "points"\n',
            encoding="utf-8",
        )
    return Catalogue.load(tmp_path)


def test_rows_are_rendered_with_the_row_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "t", _tiny_catalogue(tmp_path).t)
    rows = [{"rank": i, "name": f"Hráč {i}", "points": 7 - i / 2} for i in range(1, 4)]
    reply = done("view.standings", rule="e-SP 2.4", data=rows, tournament="Online 1")
    [message] = render_reply(reply, "sk")
    assert message.content == "Poradie Online 1 (e-SP 2.4)"
    assert message.embeds[0].description == (
        "1. Hráč 1 – 6,5 bodu\n2. Hráč 2 – 6 bodov\n3. Hráč 3 – 5,5 bodu"
    )
    announced = render_message(Message("view.standings", {"tournament": "X", "rows": rows}))
    assert announced[0].embeds[0].description.startswith("1. Hráč 1 – 6,5 bodu")
    # A row may name its own template (rows of different kinds in one list).
    rows[2] = {**rows[2], "key": "view.standings_out_row", "out": "odstúpil (e-SP 3.6)"}
    [message] = render_reply(reply, "sk")
    assert message.embeds[0].description.endswith("\n3. Hráč 3 — odstúpil (e-SP 3.6)")


def test_rows_without_a_row_template_are_still_shown() -> None:
    rows = [{"round": 1, "table": 4, "first": "Ana", "second": "Boris", "end": ""}]
    [message] = render_reply(done("common.no_round", data=rows), "sk")
    assert message.embeds[0].description == "1 · 4 · Ana · Boris"


def test_long_announcement_is_split_into_messages() -> None:
    reply = refused("common.unknown_tournament", slug="x" * 4500)
    messages = render_reply(reply, "sk")
    _within_limits(messages)
    assert len(messages) == 3


def test_an_appended_rule_is_not_cited_twice() -> None:
    # the template cites e-SP 4.3 only; the reply's rule adds e-SP 4.9: one citation stays
    text = render.message_text("timer.waiting_over", {"round": 2, "at": "9:10"}, "sk",
                               rule="e-SP 4.3, 4.9")
    assert text.count("e-SP 4.3") == 1 and "e-SP 4.3, 4.9" in text
