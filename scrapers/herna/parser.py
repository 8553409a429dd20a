"""Pages → plain records. Every expectation comes from `layout.py`; a page that does not meet
one raises `LayoutChanged` naming it — never a half-filled record.

Pages are read by lxml (libxml2's HTML parser, the one bs4 used underneath) and searched with
XPath that `cssselect` compiles once from the layout's CSS selectors: the layout keeps one
vocabulary (CSS), and no page element becomes a Python object unless the parser reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from cssselect import HTMLTranslator
from lxml import etree

import scrapers.herna.layout as layout
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import EndKind, GameRecord, HistoryEntry, HistoryPage, TableSettings

_INT = re.compile(layout.SCORE_FORMAT)
_PAGER = re.compile(layout.PAGER_PATTERN)
_MOVE_NUMBER = re.compile(layout.MOVE_NUMBER)
_GAME_ID = re.compile(layout.GAME_ID_FORMAT)

Page = str | bytes
Node = etree._Element


def tree(page: Page, what: str) -> Node:
    """Parse a page with lxml; bytes must be in the site's encoding. An empty page is an empty
    document (whatever it lacks is named by the caller), never an exception."""
    if isinstance(page, bytes):
        try:
            page = page.decode(layout.ENCODING)
        except UnicodeDecodeError as exc:
            raise LayoutChanged(f"not {layout.ENCODING} text at byte {exc.start}", what) from None
    parser = etree.HTMLParser(recover=True)
    try:
        parser.feed(page)
        root = parser.close()
    except (etree.LxmlError, ValueError) as exc:
        raise LayoutChanged(f"not HTML: {exc}", page=what) from None
    return root if root is not None else etree.Element("html")


def is_login_page(page: Page) -> bool:
    """True when the page is (or shows) the login form: the session is gone."""
    return select_one(tree(page, "login"), layout.LOGIN_FORM) is not None


def login_error(page: Page) -> str | None:
    """The message a refused login shows, if any."""
    found = select_one(tree(page, "login"), layout.LOGIN_ERROR)
    return text_of(found) if found is not None else None


def parse_history(page: Page) -> HistoryPage:
    """One page of the games archive, newest first."""
    doc = tree(page, "history")
    table = _one(doc, layout.HISTORY_TABLE, "history")
    entries, said_empty = [], False
    for row in select_all(table, layout.HISTORY_ROWS):
        if select_one(row, layout.HISTORY_EMPTY) is not None:
            said_empty = True
            continue
        entries.append(_history_entry(row))
    if not entries and not said_empty:
        # An empty archive says so; a table that lost its rows must not read as "no games".
        raise LayoutChanged(f"no game rows and no {layout.HISTORY_EMPTY!r} row", page="history")
    pager = _one(doc, layout.HISTORY_PAGER, "history")
    match = _PAGER.search(text_of(pager))
    if match is None:
        raise LayoutChanged(f"pager text {layout.HISTORY_PAGER_TEXT!r} missing", page="history")
    number, pages = int(match["page"]), int(match["pages"])
    if not 1 <= number <= max(pages, 1):
        raise LayoutChanged(f"pager says page {number} of {pages}", page="history")
    link = select_one(pager, layout.HISTORY_NEXT)
    next_url = None
    if link is not None:
        href = link.get("href")
        if not isinstance(href, str) or not href.strip():
            raise LayoutChanged("the next-page link has no address", page="history")
        next_url = href.strip()
    if next_url is not None and number >= pages:
        raise LayoutChanged(f"a next-page link on the last page ({number} of {pages})", "history")
    _whole(doc, "history")
    return HistoryPage(tuple(entries), next_url, number, pages)


def _history_entry(row: Node) -> HistoryEntry:
    cells = _cells(row)
    link = _one(row, layout.HISTORY_ID, "history row")
    game_id = _game_id(text_of(link), "history row")
    nicks = [text_of(n) for n in select_all(row, layout.HISTORY_NICKS)]
    if len(nicks) != 2 or not all(nicks) or nicks[0] == nicks[1]:
        raise LayoutChanged(f"game {game_id}: two different nicks expected, got {nicks}", "history")
    started = layout.read_time(text_of(_cell(cells, layout.HISTORY_STARTED, "history row")),
                               "start")
    end, ended_on = layout.read_status(text_of(_cell(cells, layout.HISTORY_STATUS, "history row")))
    if ended_on is not None and ended_on not in nicks:
        raise LayoutChanged(f"game {game_id}: status names {ended_on!r}, not a player", "history")
    return HistoryEntry(game_id, started, (nicks[0], nicks[1]), end)


def parse_game(page: Page, game_id: str | None = None) -> GameRecord:
    """A game's record page. With `game_id`, the page must be that game's."""
    doc = tree(page, "game")
    title = text_of(_one(doc, layout.GAME_TITLE, "game"))
    if not title.startswith(layout.GAME_TITLE_PREFIX):
        raise LayoutChanged(f"title {title[:40]!r} does not start {layout.GAME_TITLE_PREFIX!r}")
    found_id = _game_id(title.removeprefix(layout.GAME_TITLE_PREFIX), "game")
    if game_id is not None and found_id != game_id:
        raise LayoutChanged(f"asked for game {game_id}, the page shows game {found_id}", "game")
    info = _info(doc)
    seats = _players(doc)
    starters = [s for s in seats if s[1]]
    if len(starters) != 1:
        raise LayoutChanged(f"exactly one starter expected, found {len(starters)}", "game")
    (first, _, first_score) = starters[0]
    (second, _, second_score) = next(s for s in seats if not s[1])
    moves = _move_counts(doc, (first, second))
    end, ended_on = layout.read_status(info[layout.INFO_STATUS])
    ended_text = info[layout.INFO_ENDED]
    if end is EndKind.UNFINISHED:
        if ended_text != layout.NO_TIME:
            raise LayoutChanged(f"a game in progress shows an end time {ended_text!r}", "game")
        ended = None
    else:
        ended = layout.read_time(ended_text, layout.INFO_ENDED)
    _whole(doc, "game")  # last, so every other message stays what it was
    try:
        return GameRecord(
            game_id=found_id,
            first=first,
            second=second,
            first_score=first_score,
            second_score=second_score,
            end=end,
            ended_on=ended_on,
            started=layout.read_time(info[layout.INFO_STARTED], layout.INFO_STARTED),
            ended=ended,
            first_moves=moves[first],
            second_moves=moves[second],
            settings=TableSettings(
                tempo=info[layout.INFO_TEMPO],
                language=info[layout.INFO_LANGUAGE],
                dictionary=info[layout.INFO_DICTIONARY],
            ),
        )
    except ValueError as exc:
        raise LayoutChanged(f"inconsistent record: {exc}", page="game") from None


def _info(doc: Node) -> dict[str, str]:
    info: dict[str, str] = {}
    for row in select_all(doc, layout.GAME_INFO_ROWS):
        cells = _cells(row)
        label, value = cells.get("th"), cells.get("td")
        if label is not None and value is not None:
            info.setdefault(text_of(label), text_of(value))
    missing = [label for label in layout.INFO_LABELS if not info.get(label)]
    if missing:
        raise LayoutChanged(f"table settings: {', '.join(missing)} missing", page="game")
    return info


def _players(doc: Node) -> list[tuple[str, bool, int]]:
    rows = select_all(doc, layout.GAME_PLAYERS)
    if len(rows) != 2:
        raise LayoutChanged(f"two player rows expected, found {len(rows)}", page="game")
    seats = []
    for row in rows:
        cells = _cells(row)
        nick = text_of(_cell(cells, layout.PLAYER_NICK, "player row"))
        if not nick:
            raise LayoutChanged("a player row without a nick", page="game")
        starts = text_of(_cell(cells, layout.PLAYER_STARTS, "player row"))
        if starts not in ("", layout.STARTER_MARK):
            raise LayoutChanged(
                f"starter mark {starts[:20]!r} is neither empty nor {layout.STARTER_MARK!r}",
                page="game",
            )
        score = _int(text_of(_cell(cells, layout.PLAYER_SCORE, "player row")), f"{nick}'s score")
        seats.append((nick, starts == layout.STARTER_MARK, score))
    if seats[0][0] == seats[1][0]:
        raise LayoutChanged(f"both player rows show {seats[0][0]!r}", page="game")
    return seats


def _move_counts(doc: Node, nicks: Iterable[str]) -> dict[str, int]:
    counts = dict.fromkeys(nicks, 0)
    transcript = "".join(_one(doc, layout.GAME_MOVES, "game").itertext())
    for line in transcript.splitlines():
        if not line.strip():
            continue
        number = _MOVE_NUMBER.match(line)
        rest = line[number.end() :] if number else ""
        nick = next((n for n in counts if rest.startswith(f"{n}: ")), None)
        if nick is None:
            raise LayoutChanged(f"move line {line.strip()[:40]!r}: no player's nick", "game")
        counts[nick] += 1
    return counts


_CSS = HTMLTranslator()


@cache
def _xpath(selector: str) -> etree.XPath:
    # Compiled once per selector; "descendant::" so a node is never its own match (as in CSS).
    return etree.XPath(_CSS.css_to_xpath(selector, prefix="descendant::"))


# select_one, select_all and text_of are public: `stredisko herna check` reads the layout's
# expectations with the same engine (scrapers/herna/check.py).
def select_one(node: Node, selector: str) -> Node | None:
    found = _xpath(selector)(node)
    return found[0] if found else None


def select_all(node: Node, selector: str) -> list[Node]:
    return _xpath(selector)(node)


def _cells(row: Node) -> dict[str, Node]:
    """A row's cells by "tag.class" (e.g. "td.nick"): one pass instead of a select per cell."""
    cells: dict[str, Node] = {}
    for cell in row.iterchildren(tag=etree.Element):
        for cls in (cell.get("class") or "").split() or [""]:
            cells.setdefault(f"{cell.tag}.{cls}" if cls else cell.tag, cell)
    return cells


def _cell(cells: dict[str, Node], selector: str, where: str) -> Node:
    found = cells.get(selector)
    if found is None:
        raise LayoutChanged(f"{selector!r} not found", page=where)
    return found


def _whole(doc: Node, where: str) -> None:
    """A download cut short can still be well-formed up to the cut (a shorter move list): the
    footer, last on every page, tells."""
    if select_one(doc, layout.PAGE_END) is None:
        raise LayoutChanged(f"the page was cut short: {layout.PAGE_END!r} not found", where)


def _one(node: Node, selector: str, where: str) -> Node:
    found = select_one(node, selector)
    if found is None:
        raise LayoutChanged(f"{selector!r} not found", page=where)
    return found


def text_of(node: Node) -> str:
    """An element's text, its whitespace runs made one space."""
    return " ".join(" ".join(node.itertext()).split())


def _int(text: str, what: str) -> int:
    if not _INT.fullmatch(text):
        raise LayoutChanged(f"{what}: {text[:20]!r} is not a whole number", page="game")
    return int(text)


def _game_id(text: str, where: str) -> str:
    text = text.strip()
    if not _GAME_ID.fullmatch(text):
        raise LayoutChanged(f"game id {text[:20]!r} is not a number", page=where)
    return text
