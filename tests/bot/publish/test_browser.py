"""What a visitor sees: the page in a real headless Chromium, at a phone's width (390 px).

The page is served over HTTP on 127.0.0.1 only. The page itself has no script (its CSP forbids
one), so the width is measured by a separate wrapper page of the same origin that loads it in a
390 px wide iframe, measures the layout and writes the numbers into its own DOM, which
`--dump-dom` then prints.
"""

from __future__ import annotations

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

from ..chromium import ink_of, run_chromium, screenshots_dir

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


@pytest.fixture
def site(report, tmp_path: Path) -> Iterator[str]:
    """The results page and the measuring wrapper, served on 127.0.0.1; yields the base URL."""
    root = tmp_path / "site"
    write_results_page(report, root)
    (root / "measure.html").write_text(MEASURE % PHONE, encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=root))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def test_visitor_sees_the_results(chromium, browser_args, site, report):
    dom = run_chromium(chromium, browser_args, "--dump-dom", f"{site}/index.html")
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
def measured(chromium, browser_args, site) -> dict[str, Any]:
    """The layout numbers the measuring page took of the results page at 390 px."""
    dom = run_chromium(
        chromium, browser_args, "--virtual-time-budget=5000", "--dump-dom", f"{site}/measure.html"
    )
    out = BeautifulSoup(dom, "lxml").find(id="out").get_text()
    assert out != "pending", "the measuring script did not run"
    return json.loads(out)


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


def test_screenshots_at_phone_and_desktop_width(chromium, browser_args, site, screenshots):
    for name, size in SHOTS:
        run_chromium(
            chromium,
            browser_args,
            f"--screenshot={screenshots / name}",
            f"--window-size={size[0]},{size[1]}",
            f"{site}/index.html",
        )
        ink, shades, pixels = ink_of(screenshots / name, size)
        assert 0.02 < ink < 0.6, f"{name}: {ink:.1%} of the screen is dark: blank or unreadable"
        assert shades > 20  # text is anti-aliased: a real page has many shades
        # the title is at the top: the first 80 rows hold dark text
        top = [p for p in pixels[: 80 * size[0]] if max(p) < 100]
        assert len(top) > 200, name
    print(f"\nscreenshots of the results page: {screenshots}")
