"""Rows that name their own template (`round.open_*_row`, `finish.done_out_row`) mixed in one
list with rows that use the list's `<key>_row`, in Slovak and English; and the admin cog's
warning header over a service's rows."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.cogs.admin import render
from bot.discord.render import render_reply, row_lines
from bot.services.replies import done, refused

# What rounds.open_rows and rounds._finish give: each row may carry "key"; "finish.done_row"
# (the list's own `<key>_row`) for a row without one.
OPEN_ROWS: list[dict[str, Any]] = [
    {"key": "round.open_pending_row", "table": 1, "first": "Ďuro Ďurkovič",
     "second": "Žofia Šťastná", "status": "pending", "how": ""},
    {"key": "round.open_provisional_row", "table": 2, "first": "Ľubomír Čierny",
     "second": "Šimon Ťažký", "status": "provisional", "how": "dohraná partia"},
]
FINAL_ROWS: list[dict[str, Any]] = [
    {"rank": 1, "name": "Ľubomír Čierny", "points": 2.5, "qp": 40, "screlo_before": 1760.0,
     "screlo_after": 1771.5, "screlo_delta": 11.5, "out": None},
    {"key": "finish.done_out_row", "rank": 2, "name": "Žofia Šťastná", "points": 1.0,
     "qp": 0, "screlo_before": 1780.0, "screlo_after": 1772.25, "screlo_delta": -7.75,
     "out": "vylúčený: nešportové správanie (e-SP 3.6)"},
    {"key": "finish.done_unrated_row", "rank": 3, "name": "Ivana Veľká", "points": 1.0,
     "qp": 27, "screlo_before": "", "screlo_after": "", "screlo_delta": "", "out": None},
]
FINAL_PARAMS = {"tournament": "Online KT", "season": "2024/2025", "rule": "SP A3",
                "screlo_rule": "e-SP 2.4, 5"}


@pytest.mark.parametrize(("locale", "expected"), [
    ("sk", ["stôl 1: Ďuro Ďurkovič – Žofia Šťastná: výsledok ešte nie je známy",
            "stôl 2: Ľubomír Čierny – Šimon Ťažký: predbežný výsledok, ešte nepotvrdený "
            "(dohraná partia)"]),
    ("en-US", ["table 1: Ďuro Ďurkovič – Žofia Šťastná: result not known yet",
               "table 2: Ľubomír Čierny – Šimon Ťažký: provisional, not confirmed yet "
               "(dohraná partia)"]),
])
def test_open_rows_each_render_by_their_own_template(locale: str, expected: list[str]) -> None:
    assert row_lines("finish.warnings", OPEN_ROWS, locale, {"count": 2}) == expected


@pytest.mark.parametrize(("locale", "expected"), [
    ("sk", ["1. Ľubomír Čierny: 2,5 bodu, kvalifikačné body 40, online screlo 1760 → 1771,5 "
            "(+11,5)",
            "2. Žofia Šťastná: 1 bod, bez kvalifikačných bodov — vylúčený: nešportové "
            "správanie (e-SP 3.6)",
            "3. Ivana Veľká: 1 bod, kvalifikačné body 27, online screlo bez zmeny"]),
    ("en-US", ["1. Ľubomír Čierny: 2.5 points, qualification points 40, online screlo 1760 → "
               "1771.5 (+11.5)",
               "2. Žofia Šťastná: 1 point, no qualification points — vylúčený: nešportové "
               "správanie (e-SP 3.6)",
               "3. Ivana Veľká: 1 point, qualification points 27, online screlo unchanged"]),
])
def test_final_rows_mix_the_lists_template_with_their_own(locale: str,
                                                          expected: list[str]) -> None:
    assert row_lines("finish.done", FINAL_ROWS, locale, FINAL_PARAMS) == expected


def test_a_rows_key_is_never_passed_on_as_a_value() -> None:
    # "key" names the template; every other value of the row (and the message) fills it
    rows = [{"key": "round.open_pending_row", "table": 3, "first": "A", "second": "B"}]
    assert row_lines("round.open_results", rows, "sk", {"table": 99}) == [
        "stôl 3: A – B: výsledok ešte nie je známy"]


def test_the_final_reply_carries_its_mixed_rows_under_its_text() -> None:
    reply = done("finish.done", data=FINAL_ROWS, **FINAL_PARAMS)
    [message] = render_reply(reply, "sk")
    assert message.content is not None and message.content.startswith(
        "Turnaj Online KT (sezóna 2024/2025) sa skončil.")
    [embed] = message.embeds
    assert embed.description is not None
    assert embed.description.split("\n") == row_lines("finish.done", FINAL_ROWS, "sk",
                                                      FINAL_PARAMS)


@pytest.mark.parametrize(("locale", "header", "row"), [
    ("sk", "Turnaj ešte nie je na konci (e-SP 4.7): neuzavreté kolá: 2, 3; nepotvrdených "
           "výsledkov: 2. Najprv ich vyrieš, alebo turnaj ukonči aj tak:",
     "stôl 1: Ďuro Ďurkovič – Žofia Šťastná: výsledok ešte nie je známy"),
    ("en-GB", "The tournament is not at its end yet (e-SP 4.7): rounds not closed: 2, 3; "
              "results not confirmed: 2. Settle them first, or finish anyway:",
     "table 1: Ďuro Ďurkovič – Žofia Šťastná: result not known yet"),
])
def test_the_cogs_warning_header_replaces_the_clis_text(locale: str, header: str,
                                                        row: str) -> None:
    reply = refused("finish.warnings", rule="e-SP 4.7", unclosed="2, 3", count=2,
                    rows=OPEN_ROWS)
    [message] = render(reply, locale)
    assert message.content == header and "--force" not in header
    assert message.embeds[0].description is not None
    assert message.embeds[0].description.split("\n")[0] == row


@pytest.mark.parametrize(("count", "words"), [(1, "1 neuzavretý výsledok"),
                                              (3, "3 neuzavreté výsledky"),
                                              (5, "5 neuzavretých výsledkov")])
def test_the_close_warning_counts_in_slovak_plural(count: int, words: str) -> None:
    reply = refused("round.close_warnings", rule="e-SP 4.9", round=1, count=count,
                    rows=OPEN_ROWS[:1])
    assert render(reply, "sk")[0].content == (
        f"1. kolo má {words} (e-SP 4.9). Najprv rozhodni v poradovníku (/admin poradovnik), alebo "
        "kolo uzavri aj tak:")
