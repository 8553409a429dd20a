"""Files from Excel (bot/services/tournament/csv_text.py): UTF-8 with or without BOM and cp1250 are
read, anything else is refused with "ulož ako UTF-8"; the delimiter is found."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import t
from bot.services.replies import Refusal
from bot.services.tournament.csv_text import decode_csv, decode_utf8, delimiter_of

SLOVAK = "meno;herna\nĎurica, Cyril;cyro\nŠťastný;stasto\nĽubomír Ňuňo;lubo\n"


@pytest.mark.parametrize("data", [
    SLOVAK.encode("utf-8"),
    SLOVAK.encode("utf-8-sig"),  # Excel's "CSV UTF-8"
    SLOVAK.encode("cp1250"),  # Excel's plain "CSV" on Slovak Windows
    SLOVAK.replace("\n", "\r\n").encode("cp1250"),
], ids=["utf-8", "utf-8-bom", "cp1250", "cp1250-crlf"])
def test_excel_encodings_are_read(data: bytes) -> None:
    text = decode_csv(data, "hraci.csv")
    assert "Ďurica, Cyril" in text and "Šťastný" in text and "Ľubomír Ňuňo" in text


@pytest.mark.parametrize("data", [
    SLOVAK.encode("utf-16"),  # Excel's "Unicode text"
    SLOVAK.encode("utf-16-le"),  # no BOM
    bytes(range(256)),  # a binary file
    b"meno;herna\nM\x81ller;mu\n",  # 0x81 is no character in cp1250
    b"meno;herna\n\x00\x01\x02garbage\xff;x\n",
], ids=["utf-16", "utf-16-le", "binary", "undefined-in-cp1250", "latin-garbage"])
def test_anything_else_is_refused_saying_save_as_utf8(data: bytes) -> None:
    with pytest.raises(Refusal) as caught:
        decode_csv(data, "hraci.csv")
    reply = caught.value.reply
    line = t(reply.key, **reply.params)
    assert "ulož ako UTF-8" in line and "hraci.csv" in line
    assert "codec" not in line and "\n" not in line


def test_a_toml_file_must_be_utf8() -> None:
    assert decode_utf8("[tournament]\nname = \"Ďurica\"".encode("utf-8-sig"), "p.toml")
    with pytest.raises(Refusal) as caught:
        decode_utf8("name = \"Ďurica\"".encode("cp1250"), "p.toml")
    assert caught.value.reply.params == {"file": "p.toml"}


@pytest.mark.parametrize(("text", "delimiter"), [
    ("meno;herna;screlo\nAna;ana;1780,5\nBoris;bob;1700,25\n", ";"),  # Excel, Slovak Windows
    ("meno,herna,screlo\nAna,ana,1780\n", ","),
    ("meno\therna\nAna\tana\n", "\t"),
    ("herna;screlo\n\"Nováková, Ana\";1780\n", ";"),
    ("anna77\nboris\n", ","),  # one column: any delimiter reads it
])
def test_the_delimiter_is_found(text: str, delimiter: str) -> None:
    assert delimiter_of(text) == delimiter


@given(st.binary(max_size=300))
def test_any_bytes_are_text_or_refused(data: bytes) -> None:
    try:
        text = decode_csv(data, "x.csv")
    except Refusal as refusal:
        assert refusal.reply.key == "input.not_utf8"
        return
    assert isinstance(text, str) and delimiter_of(text) in ";,\t"
