"""The parser as it was before it moved to lxml + cssselect (bs4 + soupsieve), kept unchanged
as the oracle of tests/scrapers/test_parser_engine.py: the new engine must read every page to
the same record, or refuse it with the same message. Not used by the application.

The only edits: the bs4-only build lists that left layout.py are defined here."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

import soupsieve
from bs4 import BeautifulSoup, ParserRejectedMarkup, SoupStrainer, Tag
from bs4.filter import ElementFilter

from scrapers.herna import layout
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import EndKind, GameRecord, HistoryEntry, HistoryPage, TableSettings

# Any whole number a page may show (12 digits keep int() cheap): whether a score is possible
# is the sync's check against the rule profile (rules.plausibility), which says why.
_INT = re.compile(r"-?[0-9]{1,12}")
_PAGER = re.compile(
    re.escape(layout.HISTORY_PAGER_TEXT)
    .replace(r"\{page\}", r"(?P<page>[0-9]{1,5})")
    .replace(r"\{pages\}", r"(?P<pages>[0-9]{1,5})")
)


_MOVE_NUMBER = re.compile(layout.MOVE_NUMBER)


class _Keep(ElementFilter):
    """Build only the listed elements (and their contents), and the page's footer (whose
    presence shows the page arrived whole): a fast SoupStrainer."""

    def __init__(self, tags: Iterable[str], classes: Iterable[str]) -> None:
        super().__init__()
        self.tags, self.classes = frozenset(tags), frozenset(classes)

    def allow_tag_creation(self, nsprefix: str | None, name: str, attrs: Any) -> bool:
        if not attrs:
            return False
        if name == "div" and attrs.get("id") == "paticka":
            return True
        return name in self.tags and attrs.get("class") in self.classes

    def allow_string_creation(self, string: str) -> bool:
        return False  # strings outside kept elements


_GAME_PARTS = _Keep(("h1", "table", "pre"), ("partia", "stol", "hraci", "zaznam"))
_HISTORY_PARTS = _Keep(("table", "div"), ("partie", "strankovanie"))
_LOGIN_PARTS = SoupStrainer("form")

Page = str | bytes


def soup(page: Page, what: str, keep: ElementFilter | None = None) -> BeautifulSoup:
    """Parse a page with lxml, building only the `keep` parts; bytes must be in the site's
    encoding."""
    if isinstance(page, bytes):
        try:
            page = page.decode(layout.ENCODING)
        except UnicodeDecodeError as exc:
            raise LayoutChanged(f"not {layout.ENCODING} text at byte {exc.start}", what) from None
    try:
        # Classes stay plain strings: splitting them is slow, and soupsieve splits them itself.
        return BeautifulSoup(page, "lxml", parse_only=keep, multi_valued_attributes=None)
    except ParserRejectedMarkup as exc:
        raise LayoutChanged(f"not HTML: {exc}", page=what) from None


def is_login_page(page: Page) -> bool:
    """True when the page is (or shows) the login form: the session is gone."""
    return soup(page, "login", _LOGIN_PARTS).select_one(layout.LOGIN_FORM) is not None


def login_error(page: Page) -> str | None:
    """The message a refused login shows, if any."""
    found = soup(page, "login").select_one(layout.LOGIN_ERROR)
    return _text(found) if found is not None else None


def parse_history(page: Page) -> HistoryPage:
    """One page of the games archive, newest first."""
    doc = soup(page, "history", _HISTORY_PARTS)
    table = _one(doc, layout.HISTORY_TABLE, "history")
    entries, said_empty = [], False
    for row in _all(table, layout.HISTORY_ROWS):
        if _first(row, layout.HISTORY_EMPTY) is not None:
            said_empty = True
            continue
        entries.append(_history_entry(row))
    if not entries and not said_empty:
        # An empty archive says so; a table that lost its rows must not read as "no games".
        raise LayoutChanged(f"no game rows and no {layout.HISTORY_EMPTY!r} row", page="history")
    pager = _one(doc, layout.HISTORY_PAGER, "history")
    match = _PAGER.search(" ".join(pager.get_text(" ").split()))
    if match is None:
        raise LayoutChanged(f"pager text {layout.HISTORY_PAGER_TEXT!r} missing", page="history")
    number, pages = int(match["page"]), int(match["pages"])
    if not 1 <= number <= max(pages, 1):
        raise LayoutChanged(f"pager says page {number} of {pages}", page="history")
    link = _first(pager, layout.HISTORY_NEXT)
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


def _history_entry(row: Tag) -> HistoryEntry:
    cells = _cells(row)
    link = _one(row, layout.HISTORY_ID, "history row")
    game_id = _game_id(_text(link), "history row")
    nicks = [_text(n) for n in _all(row, layout.HISTORY_NICKS)]
    if len(nicks) != 2 or not all(nicks) or nicks[0] == nicks[1]:
        raise LayoutChanged(f"game {game_id}: two different nicks expected, got {nicks}", "history")
    started = layout.read_time(_text(_cell(cells, layout.HISTORY_STARTED, "history row")), "start")
    end, ended_on = layout.read_status(_text(_cell(cells, layout.HISTORY_STATUS, "history row")))
    if ended_on is not None and ended_on not in nicks:
        raise LayoutChanged(f"game {game_id}: status names {ended_on!r}, not a player", "history")
    return HistoryEntry(game_id, started, (nicks[0], nicks[1]), end)


def parse_game(page: Page, game_id: str | None = None) -> GameRecord:
    """A game's record page. With `game_id`, the page must be that game's."""
    doc = soup(page, "game", _GAME_PARTS)
    title = _text(_one(doc, layout.GAME_TITLE, "game"))
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


def _info(doc: BeautifulSoup) -> dict[str, str]:
    info: dict[str, str] = {}
    for row in _all(doc, layout.GAME_INFO_ROWS):
        cells = _cells(row)
        label, value = cells.get("th"), cells.get("td")
        if label is not None and value is not None:
            info.setdefault(_text(label), _text(value))
    missing = [label for label in layout.INFO_LABELS if not info.get(label)]
    if missing:
        raise LayoutChanged(f"table settings: {', '.join(missing)} missing", page="game")
    return info


def _players(doc: BeautifulSoup) -> list[tuple[str, bool, int]]:
    rows = _all(doc, layout.GAME_PLAYERS)
    if len(rows) != 2:
        raise LayoutChanged(f"two player rows expected, found {len(rows)}", page="game")
    seats = []
    for row in rows:
        cells = _cells(row)
        nick = _text(_cell(cells, layout.PLAYER_NICK, "player row"))
        if not nick:
            raise LayoutChanged("a player row without a nick", page="game")
        starts = _text(_cell(cells, layout.PLAYER_STARTS, "player row"))
        if starts not in ("", layout.STARTER_MARK):
            raise LayoutChanged(
                f"starter mark {starts[:20]!r} is neither empty nor {layout.STARTER_MARK!r}",
                page="game",
            )
        score = _int(_text(_cell(cells, layout.PLAYER_SCORE, "player row")), f"{nick}'s score")
        seats.append((nick, starts == layout.STARTER_MARK, score))
    if seats[0][0] == seats[1][0]:
        raise LayoutChanged(f"both player rows show {seats[0][0]!r}", page="game")
    return seats


def _move_counts(doc: BeautifulSoup, nicks: Iterable[str]) -> dict[str, int]:
    counts = dict.fromkeys(nicks, 0)
    transcript = _one(doc, layout.GAME_MOVES, "game").get_text()
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


@cache
def _css(selector: str) -> soupsieve.SoupSieve:
    # Compiled once: bs4's Tag.select recompiles-and-wraps on every call, 6× slower here.
    return soupsieve.compile(selector)


def _first(node: Tag, selector: str) -> Tag | None:
    return _css(selector).select_one(node)


def _all(node: Tag, selector: str) -> list[Tag]:
    return _css(selector).select(node)


def _cells(row: Tag) -> dict[str, Tag]:
    """A row's cells by "tag.class" (e.g. "td.nick"): one pass instead of a select per cell."""
    cells: dict[str, Tag] = {}
    for cell in row.children:
        if isinstance(cell, Tag):
            for cls in str(cell.get("class", "")).split() or [""]:
                cells.setdefault(f"{cell.name}.{cls}" if cls else cell.name, cell)
    return cells


def _cell(cells: dict[str, Tag], selector: str, where: str) -> Tag:
    found = cells.get(selector)
    if found is None:
        raise LayoutChanged(f"{selector!r} not found", page=where)
    return found


def _whole(doc: Tag, where: str) -> None:
    """A download cut short can still be well-formed up to the cut (a shorter move list): the
    footer, last on every page, tells."""
    if _first(doc, layout.PAGE_END) is None:
        raise LayoutChanged(f"the page was cut short: {layout.PAGE_END!r} not found", where)


def _one(node: Tag, selector: str, where: str) -> Tag:
    found = _first(node, selector)
    if found is None:
        raise LayoutChanged(f"{selector!r} not found", page=where)
    return found


def _text(node: Tag) -> str:
    return " ".join(node.get_text(" ").split())


def _int(text: str, what: str) -> int:
    if not _INT.fullmatch(text):
        raise LayoutChanged(f"{what}: {text[:20]!r} is not a whole number", page="game")
    return int(text)


def _game_id(text: str, where: str) -> str:
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise LayoutChanged(f"game id {text[:20]!r} is not a number", page=where)
    return text
