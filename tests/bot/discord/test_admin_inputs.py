"""The head admin's typed or attached input within bounds: a pairing list's nicks, its file's
encoding (Excel on Slovak Windows writes cp1250), the discrepancy note's length."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.client import Refusal
from bot.discord.cogs.admin import parse_pairings
from bot.discord.cogs.admin.pairings import read_pairing_file
from bot.discord.cogs.admin.review_controls import DiscrepancyModal, RulingModal
from bot.services import bounds

LIST = "1. Ďuro Šťasný\n2. ľubo volno\n"


@pytest.mark.parametrize(("text", "shown"), [
    ("ana bob\n" + "x" * 41 + " bob", "x" * 41 + " bob"),
    ("ana bob\nana\x00 bob", "ana\\x00 bob"),  # escaped as typed (issue 36.2)
    ("ana bob\nana bob cyril", "ana bob cyril"),
], ids=["nick-41", "nul", "three-words"])
def test_a_line_no_pairing_could_be_is_refused_naming_it(text: str, shown: str) -> None:
    with pytest.raises(Refusal) as caught:
        parse_pairings(text)
    assert caught.value.key == "discord_admin.bad_line"
    assert caught.value.params == {"line": 2, "text": shown}


class _Attachment:
    def __init__(self, data: bytes) -> None:
        self.data, self.size, self.filename = data, len(data), "parovanie.txt"


async def _read(attachment: Any) -> bytes:
    return attachment.data


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1250"])
async def test_an_attached_list_in_a_slovak_encoding_is_read(encoding: str) -> None:
    text = await read_pairing_file(_Attachment(LIST.encode(encoding)), _read)  # type: ignore[arg-type]
    assert parse_pairings(text) == [("Ďuro", "Šťasný"), ("ľubo", None)]


async def test_an_attached_list_in_utf16_is_refused() -> None:
    with pytest.raises(Refusal) as caught:
        await read_pairing_file(_Attachment(LIST.encode("utf-16")), _read)  # type: ignore[arg-type]
    assert caught.value.key == "discord_admin.bad_file"


def test_the_reason_boxes_accept_what_the_service_accepts() -> None:
    assert RulingModal(1, "finished", "sk").reason.max_length == bounds.REASON_MAX
    note = DiscrepancyModal(1, "vedomie", "sk").reason
    assert note.max_length == bounds.NOTE_MAX < bounds.REASON_MAX
