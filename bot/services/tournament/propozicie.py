"""The propozície file: TOML → checked `Propozicie` — the tournament, its [[player]]s and, for a
duplicate event, its [duplicate] table. The whole file is checked before anything is written: a
problem is refused with its line and the reason (`SetupError`). The reader (`key_lines`,
`Reader`, `load_toml`, `only_tables`) checks the season file and the rehearsal scenarios too.

Seasons (SP A4/A5 name them "2022/2023"): a season runs from 1 September to 31 August and is
written "2026/27". A tournament's season is derived from its first round's date unless the
propozície name one.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot import toml_text
from bot.clock import local, parse_local
from bot.services import bounds
from bot.services.duplicate.setup import DuplicateSettings, TableError, read_table
from bot.services.identity import accounts as identity
from bot.services.replies import Refusal
from bot.services.tournament.event_format import PROPOZICIE_FORMATS
from bot.services.tournament.events import SLUG_MAX
from rules import Profile, ProfileError

SEASON_RE = re.compile(r"^(\d{4})/(\d{2})$")
SLUG_RE = re.compile(r"^[a-z0-9-]+$")
DUPLICATE = "duplicate"  # [tournament] format of a duplicate Scrabble event (issue 24)


def season_of(moment: datetime) -> str:
    """The season (1 September – 31 August, Bratislava time) a moment falls in: "2026/27"."""
    day = local(moment)
    start = day.year if day.month >= 9 else day.year - 1
    return f"{start}/{(start + 1) % 100:02d}"


def season_start(season: str) -> int:
    """The first calendar year of a season; ValueError for anything not "YYYY/YY"."""
    m = SEASON_RE.match(season.strip())
    if not m or (int(m[1]) + 1) % 100 != int(m[2]):
        raise ValueError(f"sezóna „{season}“ nie je v tvare RRRR/RR, napr. 2026/27")
    return int(m[1])


def previous_season(season: str) -> str:
    start = season_start(season) - 1
    return f"{start}/{(start + 1) % 100:02d}"


def slug_of(name: str) -> str:
    """A short name from the tournament's name: "Online KT — skúška" → "online-kt-skuska"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")


class SetupError(ValueError):
    """A file that cannot be used: where (line or row) and why, in Slovak."""

    def __init__(self, line: int, reason: str) -> None:
        reason = cap_line(reason)
        super().__init__(f"{line}: {reason}")
        self.line = line
        self.reason = reason


#: an error line quotes what it refuses; a refused 10⁶-item list must not print megabytes
ERROR_LINE_MAX = 400


def cap_line(text: str, limit: int = ERROR_LINE_MAX) -> str:
    """`text` cut to `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (skrátené, spolu {len(text)} znakov)"


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    file_id: str
    name: str
    herna: str
    screlo: float | None = None
    games: int = 0
    discord: str | None = None
    paid: bool = True
    member: bool = False
    line: int = 0
    discord_id: int | None = None  # the account, when the organiser knows it (see identity)


@dataclass(frozen=True, slots=True)
class Propozicie:
    name: str
    slug: str
    profile: str
    season: str
    round_starts: list[datetime]
    waiting_minutes: int
    game_limit_minutes: int
    checkin_opens: datetime | None = None
    checkin_closes: datetime | None = None
    tempo: str | None = None
    language_version: str | None = None
    auto_apply_forfeits_after_minutes: int | None = None
    avoid: list[tuple[str, str]] = field(default_factory=list)
    platform_sync: bool = True
    players: list[PlayerSpec] = field(default_factory=list)
    admins: list[int] = field(default_factory=list)  # head admins' Discord ids (policy)
    # its Discord channel (issue 37: `channel_id = …`, or `stredisko create --channel`)
    channel_id: int | None = None
    # "swiss" | "round-robin" when the propozície name it (e-SP 2.4); None = the profile's
    format: str | None = None
    # the propozície name no waiting period (e-SP 4.3): the profile's default is used
    waiting_default: bool = False
    head_admin: str | None = None  # his name, for exports (TRF 102 "Chief Arbiter"), e-SP 2.5
    # format = "duplicate": the [duplicate] table (issue 24), and the line of its lexicon key
    duplicate: DuplicateSettings | None = None
    duplicate_line: int = 0


# key -> (type, required); "time" is a Bratislava date and time as text
_TOURNAMENT_KEYS: dict[str, tuple[str, bool]] = {
    "name": ("str", True), "slug": ("str", False), "profile": ("str", False),
    "season": ("str", False), "rounds": ("int", True), "round_starts": ("list", True),
    "waiting_minutes": ("int", False), "game_limit_minutes": ("int", False),
    "checkin_opens": ("time", False), "checkin_closes": ("time", False),
    "tempo": ("str", False), "language_version": ("str", False),
    "auto_apply_forfeits_after_minutes": ("int", False), "avoid": ("list", False),
    "platform_sync": ("bool", False), "admins": ("list", False), "format": ("str", False),
    "head_admin": ("str", False), "channel_id": ("int", False),
}
_PLAYER_KEYS: dict[str, tuple[str, bool]] = {
    "id": ("str", True), "name": ("str", True), "herna": ("str", True),
    "screlo": ("number", False), "games": ("int", False), "discord": ("str", False),
    "paid": ("bool", False), "member": ("bool", False), "discord_id": ("int", False),
}
_TYPE_NAMES = {"str": "text", "int": "celé číslo", "number": "číslo", "bool": "true/false",
               "list": "zoznam", "time": "dátum a čas („RRRR-MM-DD HH:MM“)"}
# Text keys with bounds of their own (bot/services/bounds.py); any other is a one-line name.
_TEXT_BOUNDS: dict[str, Callable[[Any, str], str]] = {
    "herna": bounds.nick, "discord": bounds.discord_name, "text": bounds.free_text,
    "reason": bounds.reason,
}


def key_lines(text: str) -> dict[tuple[str, int, str], int]:
    """(table, index of [[table]], key) -> line number; key "" is the table's header."""
    found: dict[tuple[str, int, str], int] = {}
    section, counts = ("", 0), dict[str, int]()
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if m := re.match(r"^\[\[\s*([\w-]+)\s*\]\]", line):
            index = counts.get(m[1], 0)
            counts[m[1]] = index + 1
            section = (m[1], index)
            found.setdefault((*section, ""), no)
        elif m := re.match(r"^\[\s*([\w-]+)\s*\]", line):
            section = (m[1], 0)
            found.setdefault((*section, ""), no)
        elif m := re.match(r'^"?([\w-]+)"?\s*=', line):
            found.setdefault((*section, m[1]), no)
    return found


class Reader:
    """Checks one table of the file against its keys, failing with the key's line."""

    def __init__(self, lines: dict[tuple[str, int, str], int], table: str, index: int,
                 data: Any, keys: dict[str, tuple[str, bool]], *, single: bool = False) -> None:
        self.lines, self.table, self.index, self.keys = lines, table, index, keys
        # an array of tables ([[player]], the rehearsal's [[event]]) names its item's number
        single = single or table == "tournament"
        where = f"[{table}]" if single else f"[[{table}]] č. {index + 1}"
        if not isinstance(data, dict):
            raise SetupError(self.line(), f"{where} musí byť tabuľka")
        self.data, self.where = data, where
        for key in data:
            if key not in keys:
                known = ", ".join(keys)
                raise SetupError(self.line(key), f"{where}: neznámy kľúč „{key}“ (známe: {known})")
        for key, (_, required) in keys.items():
            if required and key not in data:
                raise SetupError(self.line(), f"{where}: chýba povinný kľúč „{key}“")
        for key in sorted(data, key=self.line):  # every value's type, in file order
            self.get(key)

    def line(self, key: str = "") -> int:
        return self.lines.get((self.table, self.index, key)) or self.lines.get(
            (self.table, self.index, ""), 1)

    def fail(self, key: str, why: str) -> SetupError:
        return SetupError(self.line(key), f"{self.where}: {key}: {why}")

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self.data:
            return default
        value, kind = self.data[key], self.keys[key][0]
        ok = {
            "str": isinstance(value, str) and value.strip() != "",
            "int": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "list": isinstance(value, list),
            "time": isinstance(value, str),
        }[kind]
        if not ok:
            raise self.fail(key, f"očakáva sa {_TYPE_NAMES[kind]}, je tam {value!r}")
        if kind == "time":
            return self.time(key, value)
        try:
            if kind in ("int", "number"):
                return bounds.number(value, key)
            if kind == "str":
                return _TEXT_BOUNDS.get(key, bounds.name)(value, key)
        except bounds.OutOfBounds as exc:
            raise SetupError(self.line(key), f"{self.where}: {exc}") from None
        return value

    def time(self, key: str, value: Any) -> datetime:
        if not isinstance(value, str):
            raise self.fail(key, f"očakáva sa {_TYPE_NAMES['time']}, je tam {value!r}")
        if _has_offset(value):  # decided: refused, never silently honoured (issue 20.10)
            raise self.fail(key, f"„{value}“ má časový posun; časy v propozíciách sú časy "
                                 "Bratislavy bez posunu, napr. 2026-11-21 09:00")
        try:
            return parse_local(value)
        except ValueError:
            raise self.fail(key, f"„{value}“ nie je dátum a čas v tvare RRRR-MM-DD HH:MM") from None


def _has_offset(value: str) -> bool:
    """Whether an ISO time names its own offset ("…+01:00", "…Z")."""
    try:
        return datetime.fromisoformat(value.strip()).tzinfo is not None
    except ValueError:
        return False


def load_toml(text: str) -> dict[str, Any]:
    """A TOML file's content; `SetupError` on the line tomllib names (or of an integer of over
    4300 digits, which Python refuses to read)."""
    try:
        return toml_text.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"(?:line|riadok) (\d+)", str(exc))
        raise SetupError(int(m[1]) if m else 1, f"nie je platný TOML: {exc}") from None
    except ValueError:
        digits = re.search(r"\d{4300,}", text)
        line = text.count("\n", 0, digits.start()) + 1 if digits else 1
        raise SetupError(line, str(bounds.OutOfBounds(
            "input.too_many_digits", digits=len(digits[0]) if digits else 4300))) from None


def only_tables(data: dict[str, Any], lines: dict[tuple[str, int, str], int],
                known: tuple[str, ...], expected: str) -> None:
    """Refuse a top-level table or key other than `known`, on its line."""
    for key in data:
        if key not in known:
            line = lines.get((key, 0, ""), lines.get(("", 0, key), 1))
            raise SetupError(line, f"neznáma tabuľka alebo kľúč „{key}“ (očakáva sa {expected})")


def parse_propozicie(text: str, *, strict: bool = True) -> Propozicie:
    """Check the whole file; `SetupError` names the line of the first problem.

    `strict=False` ignores top-level tables other than [tournament] and [[player]] (the
    rehearsal's scenario file keeps its own tables in the same file)."""
    data = load_toml(text)
    lines = key_lines(text)
    if strict:
        only_tables(data, lines, ("tournament", "player", "duplicate"),
                    "[tournament], [[player]] a pri duplikátnom turnaji [duplicate]")
    if "tournament" not in data:
        raise SetupError(1, "chýba tabuľka [tournament]")
    t = Reader(lines, "tournament", 0, data["tournament"], _TOURNAMENT_KEYS)
    profile_name = t.get("profile", "sss-online")
    try:
        profile = Profile.load(profile_name)
    except ProfileError as exc:
        raise t.fail("profile", str(exc)) from None
    starts = t.get("round_starts")
    if not starts:
        raise t.fail("round_starts", "treba aspoň jeden čas začiatku kola")
    times = [t.time("round_starts", s) for s in starts]
    if t.get("rounds") != len(times):
        raise t.fail("rounds", f"počet kôl {t.get('rounds')} nesúhlasí s počtom časov "
                               f"v round_starts ({len(times)})")
    for n in range(1, len(times)):
        if times[n] <= times[n - 1]:
            raise t.fail("round_starts", f"{n + 1}. kolo musí začať po {n}. kole")
    limit = t.get("game_limit_minutes", profile.timing.game_limit_minutes)
    waiting = t.get("waiting_minutes", profile.timing.waiting_minutes_default)
    if limit == 0:
        raise t.fail("game_limit_minutes", "časový limit musí byť kladný (e-SP 4.5)")
    if waiting > limit:
        raise t.fail("waiting_minutes", "čakacia lehota (e-SP 4.3) musí skončiť pred časovým "
                                        "limitom partie (e-SP 4.5)")
    opens, closes = t.get("checkin_opens"), t.get("checkin_closes")
    if opens and closes and closes <= opens:
        raise t.fail("checkin_closes", "prezentácia sa musí skončiť až po jej otvorení")
    if closes and closes > times[0]:
        raise t.fail("checkin_closes", "prezentácia sa musí skončiť pred 1. kolom")
    slug = t.get("slug") or slug_of(t.get("name"))
    if not SLUG_RE.match(slug):
        raise t.fail("slug", f"„{slug}“: len malé písmená bez diakritiky, číslice a pomlčky")
    if len(slug) > SLUG_MAX:  # longer could never be typed into the chat's `udalost` option
        raise t.fail("slug", f"„{slug[:SLUG_MAX]}…“ má {len(slug)} znakov, najviac {SLUG_MAX}: "
                             "zadaj kratší slug (príkazy v Discorde ho píšu do možnosti udalost)")
    season = t.get("season") or season_of(times[0])
    try:
        season_start(season)
    except ValueError as exc:
        raise t.fail("season", str(exc)) from None
    auto = t.get("auto_apply_forfeits_after_minutes", 0)
    fmt = t.get("format")
    if fmt is not None and fmt not in (*PROPOZICIE_FORMATS, DUPLICATE):
        raise t.fail("format", f"„{fmt}“: očakáva sa " + " alebo ".join(
            f"„{f}“" for f in (*PROPOZICIE_FORMATS, DUPLICATE)) + " (e-SP 2.4; issue 24)")
    duplicate = _duplicate(lines, data, fmt, times)
    players = _players(lines, data.get("player", []), duplicate=duplicate is not None)
    avoid = _avoid(t, players)
    return Propozicie(
        name=t.get("name"), slug=slug, profile=profile_name, season=season,
        round_starts=times, waiting_minutes=waiting, game_limit_minutes=limit,
        checkin_opens=opens, checkin_closes=closes, tempo=t.get("tempo"),
        language_version=t.get("language_version"),
        auto_apply_forfeits_after_minutes=auto or None, avoid=avoid,
        platform_sync=t.get("platform_sync", True), players=players, admins=_admins(t),
        channel_id=_channel(t),
        format=fmt, waiting_default="waiting_minutes" not in t.data and duplicate is None,
        head_admin=t.get("head_admin"), duplicate=duplicate,
        duplicate_line=lines.get(("duplicate", 0, "lexicon"), 1),
    )


def _duplicate(lines: dict[tuple[str, int, str], int], data: dict[str, Any], fmt: str | None,
               starts: list[datetime]) -> DuplicateSettings | None:
    """The [duplicate] table of a duplicate event (issue 24 item 1; its reading:
    `bot.services.duplicate.setup.read_table`), with the line of the key a problem is about."""
    if fmt != DUPLICATE:
        if "duplicate" in data:
            raise SetupError(lines.get(("duplicate", 0, ""), 1),
                             "tabuľka [duplicate] patrí len k [tournament] format = "
                             "\"duplicate\"")
        return None
    try:
        return read_table(data.get("duplicate"), starts)
    except TableError as exc:
        line = lines.get(("duplicate", 0, exc.key)) or lines.get(("duplicate", 0, ""), 1)
        raise SetupError(line, str(exc)) from None


def _players(lines: dict[tuple[str, int, str], int], tables: Any, *,
             duplicate: bool = False) -> list[PlayerSpec]:
    if not isinstance(tables, list):
        raise SetupError(lines.get(("", 0, "player"), 1), "hráči sa píšu ako [[player]]")
    players: list[PlayerSpec] = []
    ids: set[str] = set()
    nicks: set[str] = set()
    # a duplicate event is played on its own boards: no herna.net account is needed
    keys = {**_PLAYER_KEYS, "herna": ("str", False)} if duplicate else _PLAYER_KEYS
    for index, table in enumerate(tables):
        p = Reader(lines, "player", index, table, keys)
        spec = PlayerSpec(
            file_id=p.get("id"), name=p.get("name"), herna=p.get("herna", ""),
            screlo=p.get("screlo"), games=p.get("games", 0), discord=p.get("discord"),
            paid=p.get("paid", True), member=p.get("member", False), line=p.line(),
            discord_id=p.get("discord_id"),
        )
        if spec.discord_id is not None and not identity.is_discord_id(spec.discord_id):
            raise p.fail("discord_id", f"{spec.discord_id} nie je číslo Discord účtu")
        if spec.file_id in ids:
            raise p.fail("id", f"id „{spec.file_id}“ je v súbore dvakrát")
        if spec.herna and spec.herna.casefold() in nicks:
            raise p.fail("herna", f"prezývka „{spec.herna}“ je v súbore dvakrát")
        ids.add(spec.file_id)
        nicks.add(spec.herna.casefold())
        players.append(spec)
    return players


def _admins(t: Reader) -> list[int]:
    """The head administrators' Discord accounts (e-SP 2.5): who may act in chat (`policy`)."""
    admins = t.get("admins", [])
    for item in admins:
        if isinstance(item, bool) or not isinstance(item, int) or not identity.is_discord_id(item):
            raise t.fail("admins", f"{item!r}: očakáva sa číslo Discord účtu (17 – 20 číslic)")
    return list(dict.fromkeys(admins))


def _channel(t: Reader) -> int | None:
    """The event's Discord channel (issue 37): commands there act on it, it is announced there."""
    channel = t.get("channel_id")
    if channel is None:
        return None
    if isinstance(channel, bool) or not isinstance(channel, int) \
            or not identity.is_discord_id(channel):
        raise t.fail("channel_id", f"{channel!r}: očakáva sa číslo Discord kanála (17 – 20 číslic)")
    return int(channel)


def _avoid(t: Reader, players: list[PlayerSpec]) -> list[tuple[str, str]]:
    """SP 1.3: pairs kept apart (close relatives), by the players' ids in this file or by a
    herna.net nick (a player imported from a CSV later, resolved when a round is paired)."""
    known = {p.file_id for p in players}

    def valid(x: Any) -> bool:
        if not isinstance(x, str):
            return False
        try:
            return x in known or bool(bounds.nick(x))
        except Refusal:
            return False

    pairs = []
    for item in t.get("avoid", []):
        if (not isinstance(item, list) or len(item) != 2 or item[0] == item[1]
                or not all(valid(x) for x in item)):
            raise t.fail("avoid", f"{item!r}: očakáva sa dvojica rôznych hráčov (id zo súboru "
                                  "alebo prezývka na herna.net)")
        pairs.append((item[0], item[1]))
    return pairs
