"""The duplicate results page in a real headless Chromium (issue 24.6), at a phone's width
(390 px) and a desktop's (1280 px), with the classic page's harness (test_browser.py): every
standings and move cell in view without a swipe (cards on a phone), the board square and
readable, no sideways scroll of the page; screenshots to build/screenshots/.

The same checks run on the page without its stylesheet's duplicate rules: they must find the
broken layout, so a passing run means the layout holds, not that the checks see nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.publish.duplicate_page import render_duplicate
from bot.publish.html import write_page

from ..chromium import ink_of, screenshots_dir
from .duplicate_sample import sample_duplicate
from .test_browser import PHONE, measure_cells, serve, write_cells_pages

WIDTHS = (PHONE[0], 1280)
#: the board's smallest square a phone may show (px): a letter of ~12 px still reads
MIN_SQUARE = 20
#: cells a reader must see without swiping
IN_VIEW = ["table.dup-standings td", "table.dup-moves td", ".rack .tile", "p.top",
           ".words li", ".seed .hash", ".results-status"]
SELECTORS = [*IN_VIEW, ".board span.sq", "table.dup-standings td.player"]


def layout_problems(m: dict[str, Any], width: int) -> list[str]:
    """What is wrong with the measured page at `width`; [] when nothing is."""
    problems = []
    if m["viewport"] != width or m["page"] > width:
        problems.append(f"the page is {m['page']} px wide in a {m['viewport']} px window")
    for selector in IN_VIEW:
        cells = m["cells"][selector]
        hidden = [c["text"][:30] for c in cells if not c["inView"]]
        if not cells or hidden:
            problems.append(f"{selector}: not in view: {hidden or 'no cell'}")
    squares = m["cells"][".board span.sq"]
    if len(squares) != 3 * 225:
        problems.append(f"{len(squares)} board squares, not 3 × 225")
    bad = {(round(s["width"], 1), round(s["height"], 1)) for s in squares
           if s["width"] < MIN_SQUARE or abs(s["width"] - s["height"]) > 1 or not s["inView"]}
    if bad:
        problems.append(f"board squares too small, not square or out of view: {sorted(bad)[:5]}")
    if not m["cells"]["table.dup-standings td.player"][0]["bold"]:
        problems.append("the winner's name is not bold")
    return problems


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """The page at /, the page without duplicate.css at /broken/, each with its measuring
    wrappers; served on 127.0.0.1."""
    root = tmp_path / "site"
    page = render_duplicate(sample_duplicate(final=False))
    write_page(page, root)
    css = Path(__file__).parents[3].joinpath("bot/publish/duplicate.css").read_text("utf-8")
    assert css in page
    write_page(page.replace(css, ""), root / "broken")
    write_cells_pages(root, SELECTORS, WIDTHS)
    write_cells_pages(root / "broken", SELECTORS, WIDTHS)
    yield from serve(root)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_cell_in_view_and_the_board_square(chromium, site, width):
    m = measure_cells(chromium, f"{site}/cells-{width}.html")
    assert layout_problems(m, width) == []
    smallest = min(s["width"] for s in m["cells"][".board span.sq"])
    print(f"\n{width} px: the board's squares are {smallest:.1f} px or more")


def test_the_checks_find_a_broken_layout(chromium, site):
    """Without its rules the board is a row of letters and the tables scroll: caught."""
    m = measure_cells(chromium, f"{site}/broken/cells-{PHONE[0]}.html")
    problems = layout_problems(m, PHONE[0])
    assert any(p.startswith("board squares") for p in problems), problems
    assert any(p.startswith("table.dup-moves td") for p in problems), problems


def test_screenshots_at_phone_and_desktop_width(chromium, site):
    shots = screenshots_dir()
    for width, height in ((PHONE[0], PHONE[1]), (PHONE[0], 6000), (1280, 800), (1280, 3600)):
        name = f"duplicate-{width}{'-full' if height > 1000 else ''}.png"
        chromium.screenshot(f"{site}/index.html", shots / name, (width, height))
        ink, shades, pixels = ink_of(shots / name, (width, height))
        assert 0.02 < ink < 0.6, f"{name}: {ink:.1%} of the screen is dark: blank or unreadable"
        assert shades > 20, name  # anti-aliased text and the coloured board: many shades
        title = [p for p in pixels[: 80 * width] if max(p) < 100]  # the title's dark text
        assert len(title) > 200, name
    print(f"\nscreenshots of the duplicate page: {shots}")
