"""How Discord words the duplicate services' messages (bot.discord.duplicate_text): the chat
templates, the Discord timestamp, lists as embed rows, and the fall-back to the service's own
text when a chat template and the parameters disagree."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from bot.discord.duplicate_text import CHAT, chat_variant, discord_time, has_chat_text
from bot.discord.i18n import ENGLISH, SLOVAK, default_catalogue, placeholders
from bot.discord.render import render_message
from bot.services.notifier import Message

DEADLINE = datetime(2026, 12, 5, 17, 3, tzinfo=UTC)
STANDINGS = [
    {"rank": 1, "name": "Ana Ábelová", "points": 30, "top": 30, "percent": "100,0",
     "decided_by": "points", "rule": "003 r. 46"},
    {"rank": 2, "name": "Boris *Ďurica*", "points": 12, "top": 30, "percent": "40,0",
     "decided_by": "points", "rule": "003 r. 46"},
]


def test_a_deadline_is_a_discord_timestamp_each_reader_sees_in_his_zone() -> None:
    stamp = int(DEADLINE.timestamp())
    assert discord_time(DEADLINE) == f"<t:{stamp}:T> (<t:{stamp}:R>)"
    [piece] = render_message(Message("duplicate.online.round_open", {
        "game": 1, "round": 4, "part": 1, "rack": "AEK?RSÝ", "values": "A1 E1 K2 ?0 R1 S1 Ý5",
        "deadline": DEADLINE, "seconds": 180, "rule": "003 r. 14–15"}))
    assert piece.content == (
        "**1. partia, 4. kolo** (1. časť) — zásobník: **A1 E1 K2 ?0 R1 S1 Ý5**\n"
        f"Limit: <t:{stamp}:T> (<t:{stamp}:R>). Ťah odovzdaj príkazom `/tah` (003 r. 14–15).")


def test_english_readers_get_the_english_chat_wording() -> None:
    [piece] = render_message(Message("duplicate.online.no_top", {
        "game": 1, "round": 9, "rule": "003 r. 3"}), "en-US")
    assert piece.content == "**Round 9:** the computer found no scoring move (003 r. 3)."


def test_a_list_goes_under_its_header_as_rows_with_names_shown_as_typed() -> None:
    [piece] = render_message(Message("duplicate.online.final", {
        "game": 1, "lines": STANDINGS, "text": "(the console's copy)",
        "rule": "003 r. 29, 46–49"}))
    assert piece.content == "**Konečné výsledky 1. partie** (003 r. 29, 46–49):"
    [embed] = piece.embeds
    assert embed.description == ("1. Ana Ábelová — 30 z 30 (100,0 %)\n"
                                 "2. Boris \\*Ďurica\\* — 12 z 30 (40,0 %)")


SHOT = [
    {**STANDINGS[0], "note": ""},
    {"rank": 2, "name": "Cyril Cibuľa", "points": 12, "top": 30, "percent": "40,0",
     "decided_by": "shoot-out", "rule": "003 r. 49",
     "shoot_out": {"score": 20, "seconds": 61.5, "word": "8H KOSA"},
     "note": " — rozhodol rozstrel … (the console's Slovak)"},
    {**STANDINGS[1], "rank": 3, "note": ""},
]


@pytest.mark.parametrize(("locale", "row"), [
    (None, "2. Cyril Cibuľa — 12 z 30 (40,0 %) — rozhodol rozstrel (vyššie bodované slovo, "
           "potom čas) — slovo 20 b., čas 61,5 s, 8H KOSA (003 r. 49)"),
    ("en-US", "2. Cyril Cibuľa — 12 of 30 (40,0 %) — decided by the shoot-out (the "
              "higher-scoring word, then the time) — word 20 pts, time 61.5 s, 8H KOSA "
              "(003 r. 49)"),
])
@pytest.mark.parametrize("key", ["duplicate.online.final", "duplicate.online.shoot_out_decided"])
def test_a_place_the_shoot_out_decided_says_so_in_the_readers_language(
        key: str, locale: str | None, row: str) -> None:
    """003 r. 49 on Discord: the service's note is the console's Slovak; the chat words the
    shoot-out from the row's data for each reader, and the other rows say nothing of it."""
    [piece] = render_message(Message(key, {
        "game": 1, "lines": SHOT, "text": "(the console's copy)", "rule": "003 r. 46–49"}),
        locale or "sk")
    [embed] = piece.embeds
    lines = (embed.description or "").split("\n")
    assert lines[1] == row
    assert lines[0].startswith("1. Ana Ábelová — 30 ") and lines[0].endswith("(100,0 %)")
    assert lines[2].endswith("(40,0 %)")


def test_a_chat_template_that_does_not_fit_falls_back_to_the_services_text(
        caplog: pytest.LogCaptureFixture) -> None:
    """A service that sends its deadline as text (no Discord timestamp can be made of it)
    must not leave its message stuck in the outbox."""
    message = Message("duplicate.online.round_open", {
        "game": 1, "round": 4, "part": 1, "rack": "AEKRSÝ?", "values": "A1 E1",
        "deadline": "18:03", "seconds": 180, "rule": "003 r. 14–15"})
    assert chat_variant(message.key, message.params) is not None
    with caplog.at_level(logging.WARNING, "stredisko.discord.render"):
        pieces = render_message(message)
    assert "chat wording of duplicate.online.round_open not used" in caplog.text
    assert pieces and "4. kolo" in pieces[0].content and "do 18:03" in pieces[0].content


def test_a_message_without_chat_wording_is_the_services_own() -> None:
    assert not has_chat_text("common.not_paired")
    assert chat_variant("common.not_paired", {"round": 2}) is None


@pytest.mark.parametrize("lang", [SLOVAK, ENGLISH])
def test_every_chat_template_answers_a_service_message_and_both_languages_agree(
        lang: str) -> None:
    """A chat template exists only for a message the services queue (its key is in their
    catalogue), and the English and Slovak templates use the same parameters."""
    messages = default_catalogue().languages[lang].messages
    chat = {k for k in messages if k.startswith(f"{CHAT}duplicate.online.")}
    assert chat
    sk = default_catalogue().languages[SLOVAK].messages
    for key in chat:
        service_key = key.removeprefix(CHAT)
        if service_key.endswith("_row"):
            assert service_key.removesuffix("_row") in sk, key
            continue
        assert service_key in sk, f"{key}: no service message {service_key}"
        assert placeholders(messages[key]) == placeholders(sk[key]), key
