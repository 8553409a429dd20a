"""The lxml + cssselect parser against what the bs4 + soupsieve parser it replaced read (issue 13
part 9): every saved page and the benchmark's round read to the same record, or are refused with
the same message. `parsed_before.json` holds the old parser's outcomes, written by it before it
was removed (the `repr` of each record or `("LayoutChanged", message)`); generated pages are
covered by the round-trip properties in test_parser_properties.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from scrapers.herna import pages, parser
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.generate import generate_round

from .conftest import HERE

BEFORE: dict[str, str] = json.loads((HERE / "parsed_before.json").read_text(encoding="utf-8"))
ROUND = generate_round(64, datetime(2026, 3, 7, 8, 0, tzinfo=UTC), seed=7)  # bench/parse.py's


def _outcome(parse: Callable[[bytes], Any], page: bytes) -> str:
    try:
        return repr(parse(page))
    except LayoutChanged as exc:
        return repr(("LayoutChanged", str(exc)))


def _parse(name: str) -> Callable[[bytes], Any]:
    return parser.parse_history if "history" in name else parser.parse_game


def _cases() -> list[tuple[str, bytes]]:
    cases = [(f"pages/{p.name}", p.read_bytes()) for p in sorted((HERE / "pages").glob("*.html"))]
    cases += [(f"round/game/{i}", pages.game_page(g, user="sss").encode())
              for i, g in enumerate(ROUND)]
    for start in (0, 20):
        page = pages.history_page(ROUND[start : start + 20], start // 20 + 1, 2, user="sss")
        cases.append((f"round/history/{start}", page.encode()))
    return cases


CASES = _cases()


def test_every_case_was_read_by_the_old_parser():
    assert sorted(name for name, _ in CASES) == sorted(k for k in BEFORE if "#" not in k)


@pytest.mark.parametrize(("name", "page"), CASES, ids=[name for name, _ in CASES])
def test_reads_as_before(name, page):
    assert _outcome(_parse(name), page) == BEFORE[name]


@pytest.mark.parametrize("path", sorted((HERE / "pages").glob("login*.html")), ids=lambda p: p.stem)
def test_login_pages_read_as_before(path):
    page = path.read_bytes()
    assert repr((parser.is_login_page(page), parser.login_error(page))) == BEFORE[
        f"pages/{path.name}#login"]
