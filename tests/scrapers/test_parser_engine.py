"""The lxml + cssselect parser against the bs4 + soupsieve parser it replaced (kept unchanged in
parser_bs4.py): every generated and saved page reads to the same record, or is refused with
the same message."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapers.herna import pages, parser
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.generate import generate_round

from .conftest import HERE, _load
from .test_parser_properties import records

OLD = _load("parser_bs4")
ROUND = generate_round(64, datetime(2026, 3, 7, 8, 0, tzinfo=UTC), seed=7)  # bench/parse.py's


def _outcome(parse: Callable[[bytes], Any], page: bytes) -> Any:
    try:
        return parse(page)
    except LayoutChanged as exc:
        return ("LayoutChanged", str(exc))


def _same(name: str, page: bytes) -> None:
    engines = (OLD.parse_history, parser.parse_history) if "history" in name else (
        OLD.parse_game, parser.parse_game)
    old, new = (_outcome(parse, page) for parse in engines)
    assert new == old, name


@pytest.mark.parametrize("path", sorted((HERE / "pages").glob("*.html")), ids=lambda p: p.stem)
def test_every_saved_page_reads_as_before(path):
    _same(path.stem, path.read_bytes())
    if path.stem.startswith("login"):
        page = path.read_bytes()
        assert parser.is_login_page(page) == OLD.is_login_page(page)
        assert parser.login_error(page) == OLD.login_error(page)


def test_the_benchmarks_round_reads_as_before():
    for game in ROUND:
        _same("game", pages.game_page(game, user="sss").encode())
    for start in (0, 20):
        page = pages.history_page(ROUND[start : start + 20], start // 20 + 1, 2, user="sss")
        _same("history", page.encode())


@given(records())
def test_any_game_page_reads_as_before(record):
    _same("game", pages.game_page(record, user="sss").encode())


@given(st.lists(records(), max_size=8, unique_by=lambda r: r.game_id), st.integers(1, 4))
def test_any_history_page_reads_as_before(games, page):
    games.sort(key=lambda r: r.started, reverse=True)
    _same("history", pages.history_page(games, page, 4, nick="Ľubo", user="sss").encode())
