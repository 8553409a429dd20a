"""The parser on saved pages: good ones read back exactly, broken ones raise LayoutChanged
naming what is missing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from scrapers.herna import pages, parser
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import EndKind

GAMES = [
    "game_finished",
    "game_passes",
    "game_resigned",
    "game_time_loss",
    "game_disconnected",
    "game_draw",
    "game_unfinished",
]


@pytest.mark.parametrize("name", GAMES)
def test_saved_game_pages_read_back_exactly(name, samples, saved):
    assert parser.parse_game(saved(name)) == samples[name]


def test_game_page_details(saved):
    record = parser.parse_game(saved("game_time_loss"), game_id="700104")
    # the page shows 19:00:00 summer time (CEST) -> 17:00:00 UTC
    assert record.started == datetime(2026, 7, 4, 17, 0, 0, tzinfo=UTC)
    assert record.end is EndKind.TIME_LOSS and record.ended_on == "Ľubo_Š"
    assert record.starter == "Ľubo_Š"
    assert (record.settings.tempo, record.settings.language) == ("2x15", "český jazyk")


def test_starter_is_read_from_the_mark_not_the_seat_order(saved):
    page = saved("game_passes")
    seats = page.decode().split('<td class="nick">')[1:]
    assert seats[0].startswith("Ľubo_Š") and seats[1].startswith("Žofka&amp;Co&lt;3")
    record = parser.parse_game(page)
    assert (record.first, record.second) == ("Žofka&Co<3", "Ľubo_Š")
    assert record.score_of("Ľubo_Š") == 389 and record.moves_of("Žofka&Co<3") == 14


def test_unfinished_game_has_no_end_time(saved):
    record = parser.parse_game(saved("game_unfinished"))
    assert record.end is EndKind.UNFINISHED and record.ended is None and not record.finished


def test_game_id_must_match_the_request(saved):
    with pytest.raises(LayoutChanged, match="asked for game 1, the page shows game 700101"):
        parser.parse_game(saved("game_finished"), game_id="1")


def test_history_pages_follow_pagination(saved, samples):
    history = [parser.parse_history(saved(f"history_{n}")) for n in (1, 2, 3)]
    assert [(p.page, p.pages) for p in history] == [(1, 3), (2, 3), (3, 3)]
    assert history[0].next_url == "/partie?strana=2"
    assert history[1].next_url == "/partie?strana=3"
    assert history[2].next_url is None
    entries = [e for p in history for e in p.entries]
    assert [e.started for e in entries] == sorted((e.started for e in entries), reverse=True)
    by_id = {r.game_id: r for r in samples.values()}
    for entry in entries:
        record = by_id[entry.game_id]
        assert (entry.nicks, entry.started, entry.end) == (record.nicks, record.started, record.end)


def test_empty_history(saved):
    page = parser.parse_history(saved("history_empty"))
    assert page.entries == () and page.next_url is None and (page.page, page.pages) == (1, 1)


def test_login_pages(saved):
    assert parser.is_login_page(saved("login"))
    assert not parser.is_login_page(saved("game_finished"))
    assert parser.login_error(saved("login")) is None
    assert parser.login_error(saved("login_refused")) == "Nesprávne meno alebo heslo."


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bad_no_scores", "td.skore"),
        ("bad_score_text", "'412 b.' is not a whole number"),
        ("bad_time", "'2026-03-07 09:05' is not %d.%m.%Y %H:%M:%S"),
        ("bad_status", "unknown game status 'prerušená'"),
        ("bad_status_nick", "inconsistent record"),
        ("bad_two_starters", "exactly one starter expected, found 2"),
        ("bad_stranger_move", "no player's nick"),
        ("bad_unfinished_end", "a game in progress shows an end time"),
        ("bad_no_tempo", "Tempo missing"),
        ("bad_renamed_table", "two player rows expected, found 0"),
        ("bad_truncated", "two player rows expected, found 0"),
    ],
)
def test_broken_game_pages_name_what_is_missing(name, message, saved):
    with pytest.raises(LayoutChanged) as caught:
        parser.parse_game(saved(name))
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bad_history_no_table", "'table.partie' not found"),
        ("bad_history_pager", "pager text"),
        ("bad_history_truncated", "game 700104: two different nicks expected, got []"),
        ("game_finished", "'table.partie' not found"),
    ],
)
def test_broken_history_pages(name, message, saved):
    with pytest.raises(LayoutChanged) as caught:
        parser.parse_history(saved(name))
    assert message in str(caught.value)


def test_a_login_form_is_not_a_game(saved):
    with pytest.raises(LayoutChanged, match=r"h1\.partia"):
        parser.parse_game(saved("login"))


def test_bytes_that_are_not_utf8_are_a_layout_change(saved):
    with pytest.raises(LayoutChanged, match="not utf-8 text"):
        parser.parse_game(saved("game_finished").decode().encode("cp1250"))


def _cut_after(page: bytes, marker: bytes) -> bytes:
    """The page up to and including the line holding `marker`: a download cut short there."""
    at = page.index(marker)
    return page[: page.index(b"\n", at) + 1]


def test_a_page_cut_in_the_move_list_is_not_a_shorter_game(saved):
    whole = saved("game_finished")
    assert parser.parse_game(whole).first_moves == 12
    # cut at a line end: every line left is a well-formed move, only the footer tells
    with pytest.raises(LayoutChanged, match=r"cut short: 'div#paticka' not found"):
        parser.parse_game(_cut_after(whole, b" 5. "))


def test_a_history_page_cut_after_the_pager_is_refused(saved):
    with pytest.raises(LayoutChanged, match="cut short"):
        parser.parse_history(_cut_after(saved("history_1"), b'class="strankovanie"'))


def test_a_history_table_that_lost_its_rows_is_not_an_empty_archive(saved):
    page = saved("history_2").decode()
    head, _, rest = page.partition("<tbody>")
    _, _, tail = rest.partition("</tbody>")
    with pytest.raises(LayoutChanged, match=r"no game rows and no .td\.ziadne. row"):
        parser.parse_history(f"{head}<tbody></tbody>{tail}")


@pytest.mark.parametrize("page", [b"", b"<", b"   "])
def test_empty_or_unencodable_pages_are_layout_changes(page):
    with pytest.raises(LayoutChanged, match=r"h1\.partia|not HTML"):
        parser.parse_game(page)


def test_str_and_bytes_read_the_same(saved):
    for name in ("game_passes", "history_1"):
        page = saved(name)
        parse = parser.parse_game if name.startswith("game") else parser.parse_history
        assert parse(page.decode()) == parse(page)


@pytest.mark.parametrize("changes", [
    {"first_score": -50}, {"second_score": 9_999_999}, {"first_score": 123_456_789_012},
])
def test_impossible_numbers_are_read_as_shown_for_the_sync_to_judge(samples, changes):
    record = replace(samples["game_finished"], **changes)
    assert parser.parse_game(pages.game_page(record).encode()) == record
