"""The one written-down description of herna.net's pages: URLs, CSS selectors, labels, times.

The simulator's templates (`templates/*.html`) render exactly this, and the parser expects
exactly this. When the real site differs, change this file and the templates — nothing else.
`EXPECTATIONS` (at the end) names each expectation for `stredisko herna check`, which tries
them on the real site and saves the pages it read: what adapting this file starts from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlencode, urlsplit
from zoneinfo import ZoneInfo

from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import ENDS_ON_PLAYER, EndKind

ENCODING = "utf-8"

# --- Times: pages show local time without an offset; we store UTC. ---------------------------
TIMEZONE = ZoneInfo("Europe/Bratislava")
TIME_FORMAT = "%d.%m.%Y %H:%M:%S"  # "21.11.2025 19:05:33"
TIME_PATTERN = r"[0-9]{2}\.[0-9]{2}\.[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}"  # TIME_FORMAT's text
NO_TIME = "—"  # the end time of a game still in progress


def page_time(when: datetime) -> str:
    """How a page shows a UTC instant."""
    return when.astimezone(TIMEZONE).strftime(TIME_FORMAT)


def read_time(text: str, what: str) -> datetime:
    """A page's local time as UTC. In the autumn's repeated hour the first (summer) one wins,
    because the page gives no offset."""
    try:
        naive = datetime.strptime(text.strip(), TIME_FORMAT)
    except ValueError:
        raise LayoutChanged(f"{what}: {text.strip()[:40]!r} is not {TIME_FORMAT}") from None
    return naive.replace(tzinfo=TIMEZONE).astimezone(UTC)


# --- URLs -------------------------------------------------------------------------------------
LOGIN_PATH = "/prihlasenie"
LOGIN_USER_FIELD = "meno"
LOGIN_PASSWORD_FIELD = "heslo"
LOGOUT_PATH = "/odhlasenie"
HOME_PATH = "/"
HISTORY_PATH = "/partie"  # the archive of games; ?hrac=NICK filters one player, ?strana=N pages
HISTORY_NICK_PARAM = "hrac"
HISTORY_PAGE_PARAM = "strana"
GAME_PATH = "/partia/{game_id}"
GAME_ID_FORMAT = r"[0-9]+"  # a game's number, in the history's id cell and the record's title


def history_url(nick: str | None = None, page: int = 1) -> str:
    params: dict[str, str | int] = {HISTORY_NICK_PARAM: nick} if nick else {}
    params[HISTORY_PAGE_PARAM] = page
    return f"{HISTORY_PATH}?{urlencode(params)}"


def game_url(game_id: str) -> str:
    return GAME_PATH.format(game_id=game_id)


def is_login_url(url: str) -> bool:
    """A redirect here means the session is gone."""
    return urlsplit(url).path.rstrip("/") == LOGIN_PATH


def login_accepted(redirected: bool, location: str) -> bool:
    """The site answers a good login with a redirect away from the login form (a refused one
    shows the form again)."""
    return redirected and not is_login_url(location)


# --- Every page ------------------------------------------------------------------------------
PAGE_END = "div#paticka"  # the footer, last on every page: without it the page was cut short

# --- Login page -------------------------------------------------------------------------------
LOGIN_FORM = "form#prihlasenie"
LOGIN_ERROR = "p.chyba"  # "Nesprávne meno alebo heslo."

# --- History page -----------------------------------------------------------------------------
HISTORY_TABLE = "table.partie"
HISTORY_ROWS = "tbody > tr"
HISTORY_ID = "td.id a"  # text: the game id; href: the record's URL
HISTORY_STARTED = "td.zaciatok"
HISTORY_NICKS = "td.hraci span.nick"
HISTORY_STATUS = "td.stav"
HISTORY_EMPTY = "td.ziadne"  # the single row of an empty history: "Žiadne partie."
HISTORY_PAGER = "div.strankovanie"  # "Strana 1 z 3"
HISTORY_PAGER_TEXT = "Strana {page} z {pages}"
PAGER_PATTERN = (  # the same as a regular expression (searched in the pager's text)
    re.escape(HISTORY_PAGER_TEXT)
    .replace(r"\{page\}", r"(?P<page>[0-9]{1,5})")
    .replace(r"\{pages\}", r"(?P<pages>[0-9]{1,5})")
)
HISTORY_NEXT = "a[rel=next]"  # "Staršie partie »"

# --- Game record page -------------------------------------------------------------------------
GAME_TITLE = "h1.partia"  # "Partia č. 123456"
GAME_TITLE_PREFIX = "Partia č."
GAME_INFO_ROWS = "table.stol tr"  # <th>label</th><td>value</td>
INFO_TEMPO = "Tempo"
INFO_LANGUAGE = "Jazyková verzia"
INFO_DICTIONARY = "Slovník"
INFO_STARTED = "Začiatok"
INFO_ENDED = "Koniec"
INFO_STATUS = "Stav"
INFO_LABELS = (INFO_TEMPO, INFO_LANGUAGE, INFO_DICTIONARY, INFO_STARTED, INFO_ENDED, INFO_STATUS)
GAME_PLAYERS = "table.hraci tbody > tr"  # one row per player, in seat order
PLAYER_NICK = "td.nick"
PLAYER_STARTS = "td.zacina"  # STARTER_MARK for the player who started, empty otherwise
PLAYER_SCORE = "td.skore"
# Any whole number a page may show (12 digits keep int() cheap): whether a score is possible
# is the sync's check against the rule profile (rules.plausibility), which says why.
SCORE_FORMAT = r"-?[0-9]{1,12}"
STARTER_MARK = "áno"
# The move list is a text transcript, one line per turn (placement, exchange, pass):
#   " 1. Čaba25: H8 SLOVO +24 = 24"
GAME_MOVES = "pre.zaznam"
MOVE_LINE = "{no:>2}. {nick}: {move} +{points} = {total}"
MOVE_NUMBER = r"\s*[0-9]+\.\s"  # what starts a line; the nick and ": " follow

# --- How a game ended: the "Stav" text. Ends on a player read "label: nick". -----------------
END_LABELS: dict[EndKind, str] = {
    EndKind.FINISHED: "dohraná",
    EndKind.PASSES: "ukončená serverom (2 kolá bez platného ťahu)",
    EndKind.RESIGNED: "vzdanie",
    EndKind.TIME_LOSS: "prekročenie času",
    EndKind.DISCONNECTED: "odpojenie",
    EndKind.DRAW: "remíza dohodou",
    EndKind.UNFINISHED: "prebieha",
}
_LABEL_ENDS = {label: kind for kind, label in END_LABELS.items()}
END_SEPARATOR = ": "


def status_text(end: EndKind, ended_on: str | None) -> str:
    label = END_LABELS[end]
    return f"{label}{END_SEPARATOR}{ended_on}" if end in ENDS_ON_PLAYER else label


def read_status(text: str) -> tuple[EndKind, str | None]:
    """The end kind and the nick it ended on, from the "Stav" text."""
    text = " ".join(text.split())
    label, sep, nick = text.partition(END_SEPARATOR)
    kind = _LABEL_ENDS.get(label)
    if kind is None:
        raise LayoutChanged(f"unknown game status {text[:60]!r}")
    if (kind in ENDS_ON_PLAYER) != bool(sep and nick):
        raise LayoutChanged(f"game status {text[:60]!r}: the nick is missing or unexpected")
    return kind, (nick or None)


STATUS_PATTERN = "(?:{})(?:{}.+)?".format(
    "|".join(re.escape(label) for label in END_LABELS.values()), re.escape(END_SEPARATOR)
)
MOVE_PATTERN = MOVE_NUMBER + r".+: .+"  # one line of the move list (GAME_MOVES)


# --- Every expectation above, named: what `stredisko herna check` tries on the real site ------
LOGIN_PAGE, HISTORY_PAGE, GAME_PAGE = "login", "history", "game"
#: the page each check reads: the login form (not logged in), the archive's first page, and
#: the record of the archive's newest game
PAGE_URLS = {LOGIN_PAGE: "LOGIN_PATH", HISTORY_PAGE: "HISTORY_PATH", GAME_PAGE: "GAME_PATH"}


@dataclass(frozen=True, slots=True)
class Expectation:
    """`selector` (CSS, from the page's root) finds at least one element — exactly `count`
    with a count — and, with `pattern`, the text of each fully matches it (`search`: occurs in
    it; `lines`: each non-empty line of it matches). `when` says what the page must show for
    the expectation to be checkable: "games" (a game row), "empty" (the empty archive's row),
    "more_pages" (the pager says a next page exists)."""

    name: str  # the constant of this module that names the element (what to change if it fails)
    page: str
    selector: str
    pattern: str | None = None
    count: int | None = None
    search: bool = False
    lines: bool = False
    when: str | None = None


_ROWS = f"{HISTORY_TABLE} {HISTORY_ROWS}"
_INFO_PATTERNS = {INFO_STARTED: TIME_PATTERN, INFO_ENDED: f"{TIME_PATTERN}|{re.escape(NO_TIME)}",
                  INFO_STATUS: STATUS_PATTERN}
_INFO_NAMES = {INFO_TEMPO: "INFO_TEMPO", INFO_LANGUAGE: "INFO_LANGUAGE",
               INFO_DICTIONARY: "INFO_DICTIONARY", INFO_STARTED: "INFO_STARTED",
               INFO_ENDED: "INFO_ENDED", INFO_STATUS: "INFO_STATUS"}
_PLAYERS = f"{GAME_PLAYERS} > "

EXPECTATIONS: tuple[Expectation, ...] = (
    Expectation("LOGIN_FORM", LOGIN_PAGE, LOGIN_FORM, count=1),
    Expectation("LOGIN_USER_FIELD", LOGIN_PAGE, f"{LOGIN_FORM} input[name={LOGIN_USER_FIELD}]",
                count=1),
    Expectation("LOGIN_PASSWORD_FIELD", LOGIN_PAGE,
                f"{LOGIN_FORM} input[name={LOGIN_PASSWORD_FIELD}]", count=1),
    Expectation("HISTORY_TABLE", HISTORY_PAGE, HISTORY_TABLE, count=1),
    Expectation("HISTORY_ROWS", HISTORY_PAGE, _ROWS),
    Expectation("HISTORY_ID", HISTORY_PAGE, f"{_ROWS} {HISTORY_ID}", GAME_ID_FORMAT,
                when="games"),
    Expectation("HISTORY_STARTED", HISTORY_PAGE, f"{_ROWS} > {HISTORY_STARTED}", TIME_PATTERN,
                when="games"),
    Expectation("HISTORY_NICKS", HISTORY_PAGE, f"{_ROWS} {HISTORY_NICKS}", r"\S.*",
                when="games"),
    Expectation("HISTORY_STATUS", HISTORY_PAGE, f"{_ROWS} > {HISTORY_STATUS}", STATUS_PATTERN,
                when="games"),
    Expectation("HISTORY_EMPTY", HISTORY_PAGE, f"{_ROWS} {HISTORY_EMPTY}", when="empty"),
    Expectation("HISTORY_PAGER_TEXT", HISTORY_PAGE, HISTORY_PAGER, PAGER_PATTERN, count=1,
                search=True),
    Expectation("HISTORY_NEXT", HISTORY_PAGE, f"{HISTORY_PAGER} {HISTORY_NEXT}", count=1,
                when="more_pages"),
    Expectation("PAGE_END", HISTORY_PAGE, PAGE_END, count=1),
    Expectation("GAME_TITLE", GAME_PAGE, GAME_TITLE,
                rf"{re.escape(GAME_TITLE_PREFIX)}\s*{GAME_ID_FORMAT}"),
    *(Expectation(_INFO_NAMES[label], GAME_PAGE, f"{GAME_INFO_ROWS} > th:contains('{label}') + td",
                  _INFO_PATTERNS.get(label, r"\S.*"), count=1) for label in INFO_LABELS),
    Expectation("GAME_PLAYERS", GAME_PAGE, GAME_PLAYERS, count=2),
    Expectation("PLAYER_NICK", GAME_PAGE, _PLAYERS + PLAYER_NICK, r"\S.*", count=2),
    Expectation("PLAYER_STARTS", GAME_PAGE, _PLAYERS + PLAYER_STARTS,
                f"|{re.escape(STARTER_MARK)}", count=2),
    Expectation("PLAYER_SCORE", GAME_PAGE, _PLAYERS + PLAYER_SCORE, SCORE_FORMAT, count=2),
    Expectation("GAME_MOVES", GAME_PAGE, GAME_MOVES, MOVE_PATTERN, count=1, lines=True),
    Expectation("PAGE_END", GAME_PAGE, PAGE_END, count=1),
)
