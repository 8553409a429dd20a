"""The one written-down description of herna.net's pages: URLs, CSS selectors, labels, times.

The simulator's templates (`templates/*.html`) render exactly this, and the parser expects
exactly this. When the real site differs, change this file and the templates — nothing else.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from urllib.parse import urlencode, urlsplit
from zoneinfo import ZoneInfo

from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import ENDS_ON_PLAYER, EndKind

ENCODING = "utf-8"

# --- Times: pages show local time without an offset; we store UTC. ---------------------------
TIMEZONE = ZoneInfo("Europe/Bratislava")
TIME_FORMAT = "%d.%m.%Y %H:%M:%S"  # "21.11.2025 19:05:33"
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
