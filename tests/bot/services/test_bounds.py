"""The bounds of what a person may type (bot/services/bounds.py): every number, name and free
text comes back clean or is refused with a Slovak line — never another exception."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import default_catalogue, t
from bot.services import bounds
from bot.services.bounds import OutOfBounds
from bot.services.replies import Refusal


@pytest.mark.parametrize(("value", "key", "expected"), [
    ("1 780,5", "screlo", 1780.5),  # a Slovak spreadsheet's decimal comma and spaces
    (1850, "screlo", 1850.0),
    ("0", "games", 0),
    ("121", "games", 121),
    (50.0, "game_limit_minutes", 50),
    (1440, "waiting_minutes", 1440),
    ("99", "round", 99),
])
def test_numbers_within_bounds(value: Any, key: str, expected: float) -> None:
    got = bounds.number(value, key)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(("value", "key", "says"), [
    (10**20, "games", "games: 100000000000000000000 je mimo rozsahu 0 – 100000"),
    ("100000000000000000000", "games", "je mimo rozsahu 0 – 100000"),
    (2**70, "games", "1180591620717411303424 je mimo rozsahu"),
    pytest.param(10**5000, "games", "games: 10^5000 je mimo rozsahu", id="str()-would-raise"),
    ("x" * 500, "games", "„" + "x" * 29 + "…“ nie je číslo"),  # the echo is cut short
    (10**12, "game_limit_minutes", "1000000000000 je mimo rozsahu 1 – 1440"),
    (0, "game_limit_minutes", "0 je mimo rozsahu 1 – 1440"),
    ("nan", "screlo", "screlo: „nan“ nie je konečné číslo"),
    (float("inf"), "screlo", "„inf“ nie je konečné číslo"),
    ("-inf", "screlo", "nie je konečné číslo"),
    ("1e300", "screlo", "screlo: 1e300 je mimo rozsahu 0 – 3000"),
    (-5, "screlo", "-5 je mimo rozsahu 0 – 3000"),
    ("2,5", "games", "games: „2,5“ nie je celé číslo"),
    ("tri", "rounds", "rounds: „tri“ nie je číslo"),
    (True, "rounds", "„True“ nie je číslo"),
])
def test_numbers_out_of_bounds_are_one_slovak_line(value: Any, key: str, says: str) -> None:
    with pytest.raises(OutOfBounds) as caught:
        bounds.number(value, key)
    assert says in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, Refusal) and not caught.value.reply.ok


@pytest.mark.parametrize(("check", "value", "says"), [
    (bounds.name, "Ján\x00Novák", "meno: obsahuje neviditeľný riadiaci znak (U+0000)"),
    (bounds.name, "x" * 10_000, "meno: 10000 znakov je priveľa (najviac 100)"),
    (bounds.name, "Ján\nNovák", "(U+000A)"),  # a name is one line
    (bounds.name, "anna\u202e77", "(U+202E)"),  # would read backwards in others' messages
    (bounds.name, "   ", "meno: nesmie byť prázdne"),
    (bounds.name, 42, "meno: očakáva sa text"),
    (bounds.nick, "n" * 41, "prezývka: 41 znakov je priveľa (najviac 40)"),
    (bounds.discord_name, "d" * 38, "(najviac 37)"),
    (bounds.free_text, "spor\x1b[31m", "text: obsahuje neviditeľný riadiaci znak (U+001B)"),
    (bounds.free_text, "s" * 1001, "(najviac 1000)"),
    (bounds.reason, "r" * 501, "zdôvodnenie: 501 znakov je priveľa (najviac 500)"),
])
def test_text_out_of_bounds(check: Any, value: Any, says: str) -> None:
    with pytest.raises(OutOfBounds) as caught:
        check(value)
    assert says in str(caught.value)


def test_text_within_bounds_is_trimmed_and_composed() -> None:
    assert bounds.name("  Ľubomír Šťastný ") == "Ľubomír Šťastný"
    assert bounds.name("Ďurica".replace("Ď", "D\u030c")) == "Ďurica"  # NFD (macOS) → NFC
    assert bounds.free_text("prvý riadok\n\tdruhý") == "prvý riadok\n\tdruhý"
    assert bounds.name("x" * bounds.NAME_MAX) == "x" * bounds.NAME_MAX


def test_the_reply_speaks_the_readers_language() -> None:
    with pytest.raises(OutOfBounds) as caught:
        bounds.free_text("y" * 2000, "dovod")
    reply = caught.value.reply
    assert t(reply.key, "en-GB", **reply.params) == (
        "dovod: 2000 characters is too many (at most 1000)")
    # a field named by the catalogue: each reader reads its name in his language
    with pytest.raises(OutOfBounds) as caught:
        bounds.nick("n" * 41)
    reply = caught.value.reply
    assert t(reply.key, "en-US", **reply.params) == "nick: 41 characters is too many (at most 40)"
    assert t(reply.key, "sk", **reply.params) == "prezývka: 41 znakov je priveľa (najviac 40)"


def test_every_field_name_has_both_languages() -> None:
    """An English message must never name a field in Slovak (nor show a term's key)."""
    catalogue = default_catalogue()
    names = {key for key in catalogue.languages["sk"].messages if key.startswith("input.what.")}
    assert names and names == {key for key in catalogue.languages["en"].messages
                               if key.startswith("input.what.")}
    for key in names:
        shown = t("input.empty", "en-US", what=bounds.field_name(key.rsplit(".", 1)[1]))
        assert "input.what" not in shown and shown.endswith(": must not be empty")


@given(st.one_of(st.text(max_size=40), st.integers(), st.floats(), st.booleans(), st.none()))
def test_a_number_is_clean_or_refused_never_another_exception(value: Any) -> None:
    try:
        got = bounds.number(value, "screlo")
    except OutOfBounds:
        return
    assert bounds.SCRELO_MIN <= got <= bounds.SCRELO_MAX


@given(st.text(max_size=300))
def test_a_name_is_clean_or_refused_never_another_exception(value: str) -> None:
    try:
        got = bounds.name(value)
    except OutOfBounds:
        return
    assert 0 < len(got) <= bounds.NAME_MAX
    assert not any(unicodedata.category(c) in bounds.REFUSED_CATEGORIES for c in got)
