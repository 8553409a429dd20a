"""What a visitor sees: the results page and the season page in a real headless Chromium, at
a phone's width (390 px) and on desktops (1280, 1920 px).

The page is served over HTTP on 127.0.0.1 only. The page itself has no script (its CSP forbids
one), so the width is measured by a separate wrapper page of the same origin that loads it in a
390 px wide iframe, measures the layout and writes the numbers into its own DOM, which the
browser then reads (`Browser.dump_dom`: the DOM after the load event).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from bot.publish import write_results_page
from bot.publish.season_page import write_season_page
from bot.services.season import ladder as season

from ..chromium import Browser, ink_of, screenshots_dir

PHONE = (390, 844)

MEASURE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="page" src="index.html" style="width:%dpx;height:%dpx;border:0"></iframe>
<pre id="out">pending</pre>
<script>
function inScroll(el) { return el.closest('.scroll') !== null; }
function measure() {
  var frame = document.getElementById('page');
  var d = frame.contentDocument, w = frame.contentWindow;
  var width = d.documentElement.clientWidth;
  var offenders = [];
  d.body.querySelectorAll('*').forEach(function (el) {
    if (inScroll(el) && !el.classList.contains('scroll')) return;
    var r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5)) {
      offenders.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
    }
  });
  var boxes = Array.prototype.map.call(d.querySelectorAll('.scroll'), function (b) {
    return {label: b.getAttribute('aria-label'), client: b.clientWidth, scroll: b.scrollWidth};
  });
  var svg = d.querySelector('svg.chart');
  // where a cell is on screen: its left and right edge in the viewport, its height
  var seen = function (el) {
    var r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, height: r.height};
  };
  var row = function (table, player) {
    return d.querySelector('table.' + table + ' td.player[data-player="' + player + '"]')
      .parentElement;
  };
  var cells = function (table, player) {
    var tr = row(table, player), qp = tr.querySelector('.qp');
    return {row: seen(tr), rank: seen(tr.querySelector('.rank')),
            player: seen(tr.querySelector('.player')),
            points: seen(tr.querySelector('.points, .total')), qp: qp ? seen(qp) : null};
  };
  var cross = d.querySelector('.scroll[aria-label="Krížová tabuľka"]');
  var crossStart = cells('cross', 'a');
  cross.scrollLeft = cross.scrollWidth;  // the reader swipes to the last round
  var crossEnd = cells('cross', 'a');
  var rounds = row('cross', 'a').querySelectorAll('td.game');
  var lastRound = seen(rounds[rounds.length - 1]);
  cross.scrollLeft = 0;
  var font = function (sel) {
    return parseFloat(w.getComputedStyle(d.querySelector(sel)).fontSize);
  };
  document.getElementById('out').textContent = JSON.stringify({
    viewport: width,
    page: d.documentElement.scrollWidth,
    offenders: offenders,
    boxes: boxes,
    bodyFont: font('body'),
    cellFont: font('td'),
    standings: {a: cells('standings', 'a'), e: cells('standings', 'e')},
    cross: {start: crossStart, end: crossEnd, lastRound: lastRound,
            scrolled: cross.scrollWidth - cross.clientWidth},
    chartText: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width *
      parseFloat(w.getComputedStyle(svg.querySelector('text')).fontSize)
  });
}
var frame = document.getElementById('page');
if (frame.contentDocument && frame.contentDocument.readyState === 'complete'
    && frame.contentDocument.querySelector('main')) { measure(); }
else { frame.addEventListener('load', measure); }
</script></body></html>
"""


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


#: Where given cells are, at a given window width: each element matching a selector, its box
#: and whether it lies wholly inside the viewport and inside its scrolling box (a cell a
#: reader would have to swipe to is not "in view"). Filled with width, height and selectors.
CELLS = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="page" src="index.html" style="width:%(width)dpx;height:%(height)dpx;border:0">
</iframe><pre id="out">pending</pre>
<script>
function measure() {
  var d = document.getElementById('page').contentDocument;
  var width = d.documentElement.clientWidth, cells = {};
  %(selectors)s.forEach(function (sel) {
    cells[sel] = Array.prototype.map.call(d.querySelectorAll(sel), function (el) {
      var r = el.getBoundingClientRect(), box = el.closest('.scroll');
      var b = box ? box.getBoundingClientRect() : {left: 0, right: width};
      var inside = r.left >= Math.max(b.left, 0) - 0.5 && r.right <= Math.min(b.right, width) + 0.5;
      return {text: el.textContent, width: r.width, height: r.height,
              inView: inside && r.height > 0,
              bold: parseInt(getComputedStyle(el).fontWeight, 10) >= 700};
    });
  });
  document.getElementById('out').textContent = JSON.stringify(
    {viewport: width, page: d.documentElement.scrollWidth, cells: cells});
}
var frame = document.getElementById('page');
if (frame.contentDocument && frame.contentDocument.readyState === 'complete'
    && frame.contentDocument.querySelector('main')) { measure(); }
else { frame.addEventListener('load', measure); }
</script></body></html>
"""


def serve(root: Path) -> Iterator[str]:
    """Serve `root` on 127.0.0.1 while the generator is open; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=root))
    # shutdown() waits for the loop's next poll: 0.5 s by default, at every site's teardown
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def write_cells_pages(root: Path, selectors: list[str], widths: tuple[int, ...]) -> None:
    for width in widths:
        page = CELLS % {"width": width, "height": 900, "selectors": json.dumps(selectors)}
        (root / f"cells-{width}.html").write_text(page, encoding="utf-8")


def measure_cells(browser: Browser, url: str) -> dict[str, Any]:
    dom = browser.dump_dom(url)
    out = BeautifulSoup(dom, "lxml").find(id="out").get_text()
    assert out != "pending", "the measuring script did not run"
    return json.loads(out)


#: the cells of a round table a reader must see without swiping (issue 19.7)
ROUND_CELLS = ["table.round td.player", "table.round td.score", "table.round td.points",
               "table.round td.end", "table.round td.rule", "table.round td.status"]


@pytest.fixture
def site(report, tmp_path: Path) -> Iterator[str]:
    """The results page and the measuring wrappers, served on 127.0.0.1; yields the base URL."""
    root = tmp_path / "site"
    write_results_page(report, root)
    (root / "measure.html").write_text(MEASURE % PHONE, encoding="utf-8")
    write_cells_pages(root, ROUND_CELLS, (PHONE[0], 1280))
    yield from serve(root)


def test_visitor_sees_the_results(chromium, site, report):
    dom = chromium.dump_dom(f"{site}/index.html")
    soup = BeautifulSoup(dom, "lxml")
    assert soup.h1.get_text() == report.name
    rows = soup.select("table.standings tbody tr")
    assert len(rows) == len(report.standings)
    # the hostile name is text in the browser's DOM: it created no element
    assert soup.find_all(["script", "img"]) == []
    assert report.players["d"].name in rows[1].get_text()
    assert len(soup.select("section.round-block")) == len(report.rounds)
    assert len(soup.select("svg.chart g.bar")) == len(report.screlo)


@pytest.fixture
def measured(chromium, site) -> dict[str, Any]:
    """The layout numbers the measuring page took of the results page at 390 px."""
    return measure_cells(chromium, f"{site}/measure.html")


def in_view(box: dict[str, float], width: int, left: float = 0) -> bool:
    """A cell's box lies wholly between `left` and the viewport's right edge."""
    return box["left"] >= left - 0.5 and box["right"] <= width + 0.5


def test_phone_width_does_not_overflow(measured):
    m = measured
    assert m["viewport"] == PHONE[0]
    assert m["page"] <= m["viewport"], m  # the page never scrolls sideways
    assert m["offenders"] == [], m["offenders"]
    boxes = {b["label"]: b for b in m["boxes"]}
    assert all(b["client"] <= m["viewport"] for b in boxes.values())
    # the crosstable is wider than a phone and scrolls inside its own box
    assert boxes["Krížová tabuľka"]["scroll"] > boxes["Krížová tabuľka"]["client"]
    assert m["bodyFont"] >= 14 and m["cellFont"] >= 12, m
    assert m["chartText"] >= 11, m  # the SVG scales down; its text must stay readable


def test_phone_keeps_points_and_qualification_points_in_view(measured):
    width = measured["viewport"]
    first = measured["standings"]["a"]
    for column in ("rank", "player", "points", "qp"):
        assert in_view(first[column], width), (column, first)
    cross = measured["cross"]
    assert cross["scrolled"] > 0, "the crosstable fits a phone: nothing to check"
    for at in ("start", "end"):  # before and after swiping to the last round
        cells = cross[at]
        assert in_view(cells["rank"], width) and in_view(cells["player"], width), (at, cells)
        assert in_view(cells["points"], width), (at, cells)
    # swiped: the last round shows between the names and the points, not under them
    assert in_view(cross["lastRound"], cross["end"]["points"]["left"],
                   left=cross["end"]["player"]["right"]), cross


def test_an_excluded_players_row_is_no_taller_than_another(measured):
    """Ján (a) and Mária (e, excluded) both have a short name and a nick: equal rows."""
    standings = measured["standings"]
    assert standings["e"]["row"]["height"] <= standings["a"]["row"]["height"] + 1, standings


#: (file, window) of the screenshots a person looks at: a phone's first screen and its whole
#: page, a desktop's first screen and its whole page
SHOTS = (
    ("phone-390.png", PHONE),
    ("phone-390-full.png", (PHONE[0], 5200)),
    ("desktop-1280.png", (1280, 800)),
    ("desktop-1280-full.png", (1280, 2600)),
)


@pytest.fixture
def screenshots() -> Path:
    return screenshots_dir()


def test_screenshots_at_phone_and_desktop_width(chromium, site, screenshots):
    for name, size in SHOTS:
        chromium.screenshot(f"{site}/index.html", screenshots / name, size)
        ink, shades, pixels = ink_of(screenshots / name, size)
        assert 0.02 < ink < 0.6, f"{name}: {ink:.1%} of the screen is dark: blank or unreadable"
        assert shades > 20  # text is anti-aliased: a real page has many shades
        # the title is at the top: the first 80 rows hold dark text
        top = [p for p in pixels[: 80 * size[0]] if max(p) < 100]
        assert len(top) > 200, name
    print(f"\nscreenshots of the results page: {screenshots}")


@pytest.mark.parametrize("width", [PHONE[0], 1280])
def test_round_tables_show_points_and_how_it_ended_without_a_swipe(
        chromium, site, width):
    """Issue 19.7: "355:402 1" read as the lower score winning. Every table's players, score,
    points, end, rule and status are in view, and the winner's name is in bold."""
    m = measure_cells(chromium, f"{site}/cells-{width}.html")
    assert m["viewport"] == width and m["page"] <= width, m
    for selector in ROUND_CELLS:
        cells = m["cells"][selector]
        assert cells, selector
        hidden = [c["text"] for c in cells if not c["inView"]]
        assert hidden == [], (width, selector, hidden)
    players = m["cells"]["table.round td.player"]
    # round 2, table 1: b lost on time to c, 400:350 — c's cell, the second, is the bold one
    assert [p["bold"] for p in players[6:8]] == [False, True], players[6:8]


# --- the season page ---------------------------------------------------------------------------

SEASON = """[season]
name = "Kvalifikácia na M-SR 2026/27"
competition = "sss-msr"
[[player]]
id = "anna"
name = "Anna Nováková-Šťastná"
[[player]]
id = "boris"
name = "Boris Kováč"
[[player]]
id = "cyril"
name = "Cyril Ďurica"
[[player]]
id = "dana"
name = "Dana Šimková"
[[event]]
name = "Kvalifikačný turnaj Bratislava – jeseň"
kind = "live-qt"
date = 2026-09-19
places = ["anna", "boris", "cyril", "dana"]
out = ["cyril"]
[[event]]
name = "Online kvalifikačný turnaj č. 3"
kind = "online-qt"
date = 2026-11-21
places = ["boris", "anna", "dana", "cyril"]
[[event]]
name = "Písomná súťaž Slovenského spolku SCRABBLE"
kind = "written"
date = 2026-12-01
places = ["anna", "boris"]
"""
#: what counted and what did not: in view at every width (issue 19.7)
SEASON_CELLS = ["table.ladder td.counted", "table.ladder td.skipped", "table.ladder th",
                "header .meta"]
SEASON_WIDTHS = (PHONE[0], 1280, 1920)


@pytest.fixture
def season_site(tmp_path: Path) -> Iterator[str]:
    source = tmp_path / "sezona.toml"
    source.write_text(SEASON, encoding="utf-8")
    view = asyncio.run(season.load(source, None))
    root = tmp_path / "season"
    write_season_page(view, root)
    write_cells_pages(root, SEASON_CELLS, SEASON_WIDTHS)
    yield from serve(root)


@pytest.mark.parametrize("width", SEASON_WIDTHS)
def test_season_page_shows_what_counted_and_what_did_not(
        chromium, season_site, width):
    m = measure_cells(chromium, f"{season_site}/cells-{width}.html")
    assert m["viewport"] == width and m["page"] <= width, m
    for selector in SEASON_CELLS[:2]:
        cells = m["cells"][selector]
        assert len(cells) == 4, (selector, cells)
        assert [c["text"] for c in cells if not c["inView"]] == [], (width, selector)
    skipped = {c["text"] for c in m["cells"]["table.ladder td.skipped"]}
    assert any("Písomná súťaž" in text for text in skipped)  # the reason is there to read
    heads = [c for c in m["cells"]["table.ladder th"] if c["text"] in ("Započítané",
                                                                        "Nezapočítané")]
    if width > PHONE[0]:  # a phone shows them as each card's headings instead
        assert [h["inView"] for h in heads] == [True, True], heads
    title = " ".join(c["text"] for c in m["cells"]["header .meta"])
    assert "kvalifikácia na M-SR" in title and "sss-msr" not in title, title


def test_season_screenshots(chromium, season_site, screenshots):
    for width in SEASON_WIDTHS:
        name, size = f"season-{width}.png", (width, 1400)
        chromium.screenshot(f"{season_site}/index.html", screenshots / name, size)
        ink, shades, _ = ink_of(screenshots / name, size)
        assert 0.02 < ink < 0.6 and shades > 20, (name, ink, shades)
    print(f"\nscreenshots of the season page: {screenshots}")
