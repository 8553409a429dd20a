"""layout.EXPECTATIONS: what `stredisko herna check` tries is named after layout.py's own
constants, and every selector is one the parser's engine compiles."""

from __future__ import annotations

import pytest

from scrapers.herna import layout, parser
from scrapers.herna.check import Status, try_expectation

NAMES = sorted({e.name for e in layout.EXPECTATIONS})


@pytest.mark.parametrize("name", NAMES)
def test_each_expectation_is_named_after_a_layout_constant(name):
    assert isinstance(getattr(layout, name, None), str)


@pytest.mark.parametrize("expectation", layout.EXPECTATIONS, ids=lambda e: f"{e.page}.{e.name}")
def test_each_expectation_holds_on_the_simulators_pages(expectation, saved):
    page = {"login": "login", "history": "history_1", "game": "game_finished"}[expectation.page]
    if expectation.when == "empty":
        page = "history_empty"
    finding = try_expectation(expectation, parser.tree(saved(page), page))
    assert finding.status is Status.HOLDS, finding
