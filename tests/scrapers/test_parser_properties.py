"""Property tests: templates and parser agree on any valid record, and a mangled page either
raises LayoutChanged or parses into a valid record — never another exception."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import assume, given
from hypothesis import strategies as st

from scrapers.herna import layout, pages, parser
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import ENDS_ON_PLAYER, EndKind, GameRecord, TableSettings

from .conftest import MAKE_PAGES

NICK_CHARS = "abcdefghijklmnopqrstuvwxyzÁÄČĎÉÍĽĹŇÓÔŔŠŤÚÝŽáäčďľšťžň0123456789_-.&<>'\"[]()*"
nicks = st.text(NICK_CHARS, min_size=1, max_size=16)
words = st.text("abcdefghijklmnopqrstuvwxyzáčďéíľňóôŕšťúýž0123456789x-", min_size=1, max_size=12)
phrases = st.lists(words, min_size=1, max_size=3).map(" ".join)
seconds = st.integers(
    int(datetime(2020, 1, 1, tzinfo=UTC).timestamp()),
    int(datetime(2035, 1, 1, tzinfo=UTC).timestamp()),
)


def _ambiguous(when: datetime) -> bool:
    """The autumn hour that happens twice locally: a page without an offset cannot tell."""
    local = when.astimezone(layout.TIMEZONE).replace(tzinfo=None)
    first, second = (local.replace(tzinfo=layout.TIMEZONE, fold=f).utcoffset() for f in (0, 1))
    return first != second


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    first = draw(nicks)
    second = draw(nicks.filter(lambda n: n != first))
    end = draw(st.sampled_from(list(EndKind)))
    started = datetime.fromtimestamp(draw(seconds), UTC)
    ended = None
    if end is not EndKind.UNFINISHED:
        ended = started + timedelta(seconds=draw(st.integers(0, 3 * 3600)))
        assume(not _ambiguous(ended))
    assume(not _ambiguous(started))
    return GameRecord(
        game_id=str(draw(st.integers(1, 10**9))),
        first=first,
        second=second,
        first_score=draw(st.integers(-50, 900)),
        second_score=draw(st.integers(-50, 900)),
        end=end,
        ended_on=draw(st.sampled_from((first, second))) if end in ENDS_ON_PLAYER else None,
        started=started,
        ended=ended,
        first_moves=draw(st.integers(0, 25)),
        second_moves=draw(st.integers(0, 25)),
        settings=TableSettings(draw(phrases), draw(phrases), draw(phrases)),
    )


@given(records())
def test_any_record_survives_render_and_parse(record):
    assert parser.parse_game(pages.game_page(record, user="sss"), record.game_id) == record


@given(st.lists(records(), max_size=8, unique_by=lambda r: r.game_id), st.integers(1, 4))
def test_any_history_page_survives_render_and_parse(games, page):
    games.sort(key=lambda r: r.started, reverse=True)
    parsed = parser.parse_history(pages.history_page(games, page, 4, nick="Ľubo", user="sss"))
    assert [(e.game_id, e.nicks, e.started, e.end) for e in parsed.entries] == [
        (r.game_id, r.nicks, r.started, r.end) for r in games
    ]
    assert (parsed.page, parsed.pages) == (page, 4)
    assert (parsed.next_url is None) == (page == 4)


GOOD = MAKE_PAGES.good_pages()
GAME_NAMES = sorted(n for n in GOOD if n.startswith("game_"))
HISTORY_NAMES = sorted(n for n in GOOD if n.startswith("history_"))


@st.composite
def mangled(draw: st.DrawFn, names: list[str]) -> bytes:
    data = bytearray(GOOD[draw(st.sampled_from(names))].encode())
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(("flip", "delete", "insert", "truncate")))
        if action == "flip":
            data[at] = draw(st.integers(0, 255))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 200))]
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=20))
        else:
            del data[at:]
        if not data:
            data = bytearray(b"<")
    return bytes(data)


@given(mangled(GAME_NAMES))
def test_mangled_game_pages_raise_layout_changed_or_parse(data):
    try:
        record = parser.parse_game(data)
    except LayoutChanged:
        return
    # It parsed: then it is a whole, valid record, stable when shown and read again.
    assert isinstance(record, GameRecord)
    assert parser.parse_game(pages.game_page(record)) == record


@given(mangled(HISTORY_NAMES))
def test_mangled_history_pages_raise_layout_changed_or_parse(data):
    try:
        page = parser.parse_history(data)
    except LayoutChanged:
        return
    assert all(len(set(e.nicks)) == 2 and e.started.tzinfo is UTC for e in page.entries)
    assert 1 <= page.page <= max(page.pages, 1)
