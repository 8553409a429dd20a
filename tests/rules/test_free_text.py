"""The one rule for the characters people type, and how text is shown back (issue 36.2)."""

from __future__ import annotations

import pytest

from bot.i18n import t
from rules.free_text import code_point, lines_of, refused_character, shown

ESC_CLEAR = "\x1b[2J"  # a terminal clears its screen
RLO = "\u202e"  # the rest of the line reads backwards


@pytest.mark.parametrize(("text", "lines", "refused"), [
    ("Slovo je v PSP", False, None),
    ("riadok\nďalší\tstĺpec", True, None),  # a multi-line text keeps its breaks and tabs
    ("riadok\nďalší", False, "\n"),  # a name is one line
    (f"zle{ESC_CLEAR}", True, "\x1b"),
    ("nul\x00", True, "\x00"),
    ("návrat\rvozíka", True, "\r"),  # `lines_of` makes it a line break first
    (f"anna{RLO}77", False, RLO),
    ("\u2066izolát\u2069", True, "\u2066"),
    ("značka\u200fRLM", True, "\u200f"),  # invisible: a name with one looks like one without
    ("oddeľovač\u2028riadkov", True, "\u2028"),
    ("emoji 👍🏽 a 👨\u200d👩\u200d👧", False, None),  # the zero-width joiner stays
    ("vlajka 🏳️\u200d🌈 a 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
     False, None),  # a joiner after a variation selector; a subdivision flag's TAG letters
    # invisible (issue 43.5): a name with one looks like a name without
    ("Ana\u200bBán", False, "\u200b"),
    ("Ana\u200cBán", False, "\u200c"),
    ("Ana\u200dBán", False, "\u200d"),  # a joiner between letters joins nothing seen
    ("\u200d👍", False, "\u200d"),
    ("\ufeffAna", False, "\ufeff"),
    ("Ana\u2060Bán", False, "\u2060"),
    ("Ďu\u00adrica", False, "\u00ad"),
    ("Ana\U000e0041\U000e0042", True, "\U000e0041"),  # TAG letters smuggle text
    ("\u3164", False, "\u3164"),  # the Hangul filler: a "name" of nothing
    ("Ana\u115fBán", False, "\u115f"),
    ("A\u034fna", False, "\u034f"),
    ("\u2800", False, "\u2800"),
])
def test_what_a_text_may_not_hold(text: str, lines: bool, refused: str | None) -> None:
    assert refused_character(text, lines=lines) == refused


def test_carriage_returns_become_line_breaks() -> None:
    assert lines_of("a\r\nb\rc\nd") == "a\nb\nc\nd"


@pytest.mark.parametrize(("text", "expected"), [
    (f"8H KO{ESC_CLEAR}LO", "8H KO\\x1b[2JLO"),
    (f"anna{RLO}77", "anna\\u202e77"),
    ("a\x00b\x7fc\x9bd", "a\\x00b\\x7fc\\x9bd"),  # NUL, DEL and the C1 CSI
    ("návrat\rvozíka", "návrat\\x0dvozíka"),  # the cursor would go back over the line
    ("riadok\nďalší\tstĺpec", "riadok\nďalší\tstĺpec"),  # kept as they are
    ("Ďurica 👍", "Ďurica 👍"),
    ("Ana\u200bBán", "Ana\\u200bBán"),  # invisible in an echo: seen as its escape
    ("Ďu\u00adrica", "Ďu\\xadrica"),
    ("\u3164", "\\u3164"),
    ("Ana\U000e0041", "Ana\\U000e0041"),
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # the family stays one picture
    ("@\u200beveryone", "@\u200beveryone"),  # a mention broken by the bot's escaping stays
])
def test_what_is_shown_back(text: str, expected: str) -> None:
    assert shown(text) == expected
    assert "\x1b" not in shown(text) and RLO not in shown(text)


def test_a_refusal_names_the_code_point() -> None:
    assert code_point("\x1b") == "U+001B" and code_point(RLO) == "U+202E"


def test_every_message_shows_what_people_typed_escaped() -> None:
    """The catalogue escapes each text parameter: a refusal quoting the input, a channel post
    of a stored reason, a line on the terminal (here the slip refusal of the issue)."""
    line = t("duplicate.input.slip_letter", move=f"8H KO{ESC_CLEAR}LO", letter="\x1b")
    assert line == "V ťahu „8H KO\\x1b[2JLO“ je neznáme písmeno „\\x1b“."
    assert t("cli.error", reason=f"a{RLO}b") == t("cli.error", reason="a\\u202eb")
