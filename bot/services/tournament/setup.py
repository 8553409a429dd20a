"""Setting a tournament up: propozície TOML → tournament, players and entries; CSV imports of
players and of the online screlo list; check-in; the season's inactivity decay.

Files are read and fully checked BEFORE anything is written: a bad file is refused with the
line (or CSV row) and the reason, and the database is left as it was.

Seasons (SP A4/A5 name them "2022/2023"): a season runs from 1 September to 31 August and is
written "2026/27". A tournament's season is derived from its first round's date unless the
propozície name one.

Inactivity decay (e-SP 2.4, RULES.md 8): `decay_season(app, season)` is run once when `season`
begins. It judges the season before it: every registry player with an online screlo whose
`last_season` (the last season he played a qualifier, online or — via the screlo list — live)
is older than that previous season is lowered once by `rules.decay(rating, 1)` (−50, never
below 1600). Running it at every boundary gives the rule's repetition; running it twice for one
season is refused. A player whose last season is unknown is not lowered and is listed.
"""

from __future__ import annotations

import asyncio
import csv
import io
import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlite_utils import Database

from bot import toml_text
from bot.clock import local, parse_local
from bot.os_errors import input_reason, os_reason
from bot.services import bounds, lookup
from bot.services.app import App, Tx
from bot.services.delivery.outbox import Timely
from bot.services.duplicate.context import no_herna_nick
from bot.services.duplicate.lexicons import LoadedLexicon
from bot.services.duplicate.setup import (
    DuplicateSettings,
    TableError,
    create_event,
    load_lexicon,
    read_table,
)
from bot.services.exports.spreadsheet import cell_text
from bot.services.identity import accounts as identity
from bot.services.policy import CONTROL_RULE, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.services.tournament.csv_text import decode_csv, decode_utf8, delimiter_of
from bot.services.tournament.event_format import PROPOZICIE_FORMATS
from bot.services.tournament.events import SLUG_MAX, check_channel_free
from bot.store import (
    Change,
    DuplicateError,
    NotFoundError,
    TournamentStatus,
    add_entry,
    apply_rating,
    create_player,
    create_tournament,
    find_player_by_discord,
    find_player_by_nick,
    get_entry,
    get_player,
    get_tournament_by_slug,
    later_season,
    list_audit,
    list_entries,
    list_players,
    record,
    set_status,
    update_tournament,
)
from rules import Profile, ProfileError, Rating, decay

SEASON_RE = re.compile(r"^(\d{4})/(\d{2})$")
SLUG_RE = re.compile(r"^[a-z0-9-]+$")
DUPLICATE = "duplicate"  # [tournament] format of a duplicate Scrabble event (issue 24)
DECAY_ACTION = "rating.decay_season"
CHECKIN_CLOSE_ACTION = "checkin.close"
Row = TypeVar("Row")


# -- seasons -------------------------------------------


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


# -- the propozície file ----------------------------------------------------------------------


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


# -- creating the tournament -------------------------------------------


def _read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise Refusal("setup.unreadable", file=str(path), reason=input_reason(exc, path)) from None


def _read_text(path: str | Path) -> str:
    """A TOML file: UTF-8 (with or without BOM) as TOML requires, else "ulož ako UTF-8"."""
    return decode_utf8(_read_bytes(path), str(path))


def _create(tx: Tx, prop: Propozicie, admin_id: str,
            lexicon: tuple[str, LoadedLexicon] | None = None) -> Reply:
    by = tx.by_admin(admin_id, "propozície")
    try:
        get_tournament_by_slug(tx.db, prop.slug)
        raise Refusal("setup.slug_taken", slug=prop.slug)
    except NotFoundError:
        pass
    file_ids: dict[str, int] = {}
    known: list[str] = []
    for spec in prop.players:
        player = _registry_player(tx, spec, prop.slug)
        if player is None:
            player = identity.new_player(
                tx, by, f"riadok {spec.line}", name=spec.name,
                herna_nick=spec.herna or no_herna_nick(prop.slug, spec.file_id),
                discord_name=spec.discord, discord_id=spec.discord_id,
                sss_member=spec.member, screlo=spec.screlo, rated_games=spec.games)
        else:  # the registry keeps the current online screlo (e-SP 2.4)
            known.append(identity.shown(player))  # a duplicate entrant's placeholder: his name
            identity.complete_registry(tx, player, spec.discord, spec.discord_id, by,
                                       f"riadok {spec.line}")
        file_ids[spec.file_id] = player.id
    options: dict[str, Any] = {
        "checkin_opens_at": prop.checkin_opens, "checkin_closes_at": prop.checkin_closes,
        "tempo": prop.tempo, "language_version": prop.language_version,
        "auto_apply_forfeits_after_minutes": prop.auto_apply_forfeits_after_minutes,
        "admin_ids": prop.admins or None,
        "channel_id": prop.channel_id,
    }
    if prop.channel_id is not None:  # two unfinished events never share a channel (e-SP 2.6)
        check_channel_free(tx.db, prop.channel_id)
    settings = {
        "file_ids": file_ids,
        # a store id for a player of this file, else the herna nick as written
        "avoid": [[file_ids.get(a, a), file_ids.get(b, b)] for a, b in prop.avoid],
        "platform_sync": prop.platform_sync,
    }
    if prop.format is not None:  # pairing and standings read it (tournament.event_format)
        settings["format"] = prop.format
    if prop.head_admin is not None:  # the exports name him (TRF 102)
        settings["head_admin"] = prop.head_admin
    t = create_tournament(
        tx.db, slug=prop.slug, name=prop.name, season=prop.season,
        round_starts=prop.round_starts, waiting_minutes=prop.waiting_minutes,
        game_limit_minutes=prop.game_limit_minutes, by=by, profile=prop.profile,
        settings=settings, **{k: v for k, v in options.items() if v is not None},
    )
    for spec in prop.players:
        add_entry(tx.db, t.id, file_ids[spec.file_id], by, paid=spec.paid)
    if prop.duplicate is not None and lexicon is not None:
        create_event(tx, t.id, prop.duplicate, lexicon)
    # e-SP 4.3 leaves the waiting period to the propozície: a default is said to be one
    key = "setup.created_waiting_default" if prop.waiting_default else "setup.created"
    if prop.duplicate is not None:  # its [tournament] rounds are its games (issue 35)
        key = "setup.created_duplicate"
    rule = tx.profile(t.profile).timing.waiting_rule
    return done(key, data=t, slug=t.slug, name=t.name, rounds=t.rounds_planned,
                players=len(prop.players), known=", ".join(known) or "—", season=t.season,
                waiting=t.waiting_minutes, waiting_rule=rule)


async def create_from_file(app: App, path: str | Path, admin_id: str, *,
                           strict: bool = True, lexicon_dir: Path = Path("lexicons"),
                           channel_id: int | None = None) -> Reply:
    """Create a tournament, its players and entries from a propozície file, or refuse the
    whole file with the line and the reason. A duplicate event's lexicon is read now (by id in
    `lexicon_dir`, or by path). `channel_id` (`--channel`) overrides the file's."""
    try:
        prop = parse_propozicie(_read_text(path), strict=strict)
    except Refusal as refusal:
        return refusal.reply
    except SetupError as exc:
        return Refusal("setup.invalid", file=str(path), line=exc.line, reason=exc.reason).reply
    if channel_id is not None:
        prop = replace(prop, channel_id=channel_id)
    return await create(app, prop, admin_id, lexicon_dir=lexicon_dir, source=str(path))


async def create(app: App, prop: Propozicie, admin_id: str, *,
                 lexicon_dir: Path = Path("lexicons"), source: str = "propozície") -> Reply:
    """Create the tournament, its players and entries of checked propozície
    (`parse_propozicie`), in one transaction; refused if its short name is taken. A duplicate
    event's lexicon is read first, off the store's thread (refused on its line)."""
    lexicon = None
    if prop.duplicate is not None:
        try:
            lexicon = await asyncio.to_thread(load_lexicon, prop.duplicate.lexicon,
                                              lexicon_dir)
        except (OSError, ValueError) as exc:  # LexiconError, DuplicateError are ValueErrors
            why = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            reason = cap_line(f"[duplicate]: lexicon: {why}")
            return Refusal("setup.invalid", file=source, line=prop.duplicate_line,
                           reason=reason).reply
    return await app.run(_create, prop, admin_id, lexicon)


def _registry_player(tx: Tx, spec: PlayerSpec, slug: str) -> Any:
    """The registry's player for a [[player]]: by herna nick, or — without one (a duplicate
    event) — by his Discord account, or by the placeholder nick of an earlier import."""
    if spec.herna:
        return find_player_by_nick(tx.db, spec.herna)
    if spec.discord_id is not None:
        found = find_player_by_discord(tx.db, spec.discord_id)
        if found is not None:
            return found
    return find_player_by_nick(tx.db, no_herna_nick(slug, spec.file_id))


# -- CSV files ------------------------------------------------------------------------------------

_ALIASES = {
    "name": ("meno", "name", "hrac", "meno_a_priezvisko"),
    "nick": ("herna", "nick", "prezyvka", "herna_nick", "herna_net"),
    "discord": ("discord", "discord_meno", "discord_name"),
    "discord_id": ("discord_id", "discord_cislo", "discord_ucet"),
    "paid": ("zaplatil", "zaplatene", "paid", "startovne"),
    "member": ("clen", "clen_sss", "member"),
    "screlo": ("screlo", "online_screlo"),
    "games": ("partie", "games", "rated_games", "pocet_partii", "hodnotene_partie"),
    "last_season": ("sezona", "posledna_sezona", "last_season"),
}
_COLUMN_OF = {alias: column for column, names in _ALIASES.items() for alias in names}
PLAYER_COLUMNS = ("name", "nick", "discord", "paid", "member", "screlo", "games", "discord_id")
SCRELO_COLUMNS = ("nick", "screlo", "games")
_YES = {"1", "ano", "áno", "a", "yes", "y", "true", "x"}
_NO = {"0", "nie", "n", "no", "false", ""}


def _norm(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def read_csv(text: str, positional: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Rows as {column: text} with their row numbers (1 = the first line of the file).

    The delimiter is ";" (Slovak spreadsheets), "," or a tab, as `csv_text.delimiter_of` finds
    it. A first row made only of known column names is the header; otherwise the columns are
    `positional`."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter_of(text))
    try:
        rows = [(n, row) for n, row in enumerate(reader, start=1)
                if any(cell.strip() for cell in row)]
    except csv.Error as exc:  # a cell of over 128 KiB, a stray quote at the end
        raise SetupError(reader.line_num, str(bounds.OutOfBounds(
            "input.csv_broken", reason=str(exc)))) from None
    if not rows:
        return []
    head = [_norm(cell) for cell in rows[0][1]]
    if all(cell in _COLUMN_OF for cell in head):
        columns, rows = [_COLUMN_OF[cell] for cell in head], rows[1:]
    else:
        columns = list(positional)
    out = []
    for n, row in rows:
        if len(row) > len(columns):
            raise SetupError(n, f"riadok má {len(row)} stĺpcov, očakáva sa najviac "
                                f"{len(columns)} ({', '.join(columns)})")
        out.append((n, {c: cell_text(v.strip()) for c, v in zip(columns, row, strict=False)}))
    return out


def _flag(n: int, value: str, column: str, default: bool) -> bool:
    v = value.strip().lower()
    if v == "":
        return default
    if v in _YES:
        return True
    if v in _NO:
        return False
    raise SetupError(n, f"stĺpec {column}: „{value}“ nie je áno/nie")


def _number(n: int, value: str, key: str, column: str) -> float | int | None:
    """A number cell within the bounds of `key` (bot/services/bounds.py); "" is None."""
    if value.strip() == "":
        return None
    return _cell(n, bounds.number, value, key, f"stĺpec {column}")


def _text(n: int, row: dict[str, str], key: str, column: str,
          check: Callable[[Any, str], str] = bounds.name) -> str:
    """A text cell within its bounds; "" stays "" (the caller says whether it is required)."""
    value = row.get(key, "")
    return _cell(n, check, value, f"stĺpec {column}") if value else ""


def _cell(n: int, check: Callable[..., Any], *args: Any) -> Any:
    try:
        return check(*args)
    except bounds.OutOfBounds as exc:
        raise SetupError(n, str(exc)) from None


@dataclass(frozen=True, slots=True)
class PlayerRow:
    row: int
    name: str
    nick: str
    discord: str | None
    paid: bool
    member: bool
    screlo: float | None
    games: int
    discord_id: int | None = None


def _discord_id(n: int, value: str) -> int | None:
    """A Discord account id (`identity.is_discord_id`), or nothing."""
    text = value.strip()
    if not text:
        return None
    if not (text.isdecimal() and identity.is_discord_id(int(text))):
        raise SetupError(n, f"stĺpec discord_id: „{value}“ nie je číslo Discord účtu")
    return int(text)


def parse_players_csv(text: str, *, nick_required: bool = True) -> list[PlayerRow]:
    """`nick_required=False`: a duplicate event's file, whose players need no herna.net nick."""
    players: list[PlayerRow] = []
    nicks: set[str] = set()
    for n, row in read_csv(text, PLAYER_COLUMNS):
        name, nick = _text(n, row, "name", "meno"), _text(n, row, "nick", "herna", bounds.nick)
        discord = _text(n, row, "discord", "discord", bounds.discord_name)
        if not name or (nick_required and not nick):
            raise SetupError(n, "chýba meno alebo prezývka z herna.net")
        if nick and nick.casefold() in nicks:
            raise SetupError(n, f"prezývka „{nick}“ je v súbore dvakrát")
        nicks.add(nick.casefold())
        games = _number(n, row.get("games", ""), "games", "partie")
        players.append(PlayerRow(
            n, name, nick, discord or None,
            _flag(n, row.get("paid", ""), "zaplatil", True),
            _flag(n, row.get("member", ""), "člen", False),
            _number(n, row.get("screlo", ""), "screlo", "screlo"),
            int(games or 0), _discord_id(n, row.get("discord_id", ""))))
    if not players:  # "0 hráčov" is no import: an empty or header-only file is a mistake
        raise SetupError(1, "súbor neobsahuje ani jedného hráča (je prázdny alebo má len "
                            "hlavičku)")
    return players


def _import_players(tx: Tx, slug: str, rows: list[PlayerRow], admin_id: str,
                    source: str) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is TournamentStatus.FINISHED:
        raise Refusal("setup.finished", tournament=t.name)
    by = tx.by_admin(admin_id, "import hráčov")
    added, created, skipped = 0, 0, []
    for row in rows:
        # without a nick (a duplicate event) the player is his name in this event
        spec = PlayerSpec(row.name, row.name, row.nick, discord_id=row.discord_id)
        player = _registry_player(tx, spec, t.slug) if not row.nick else find_player_by_nick(
            tx.db, row.nick)
        if player is None:
            identity.name_free(tx, None, row.discord, f"{source}, riadok {row.row}")
            identity.nick_free(tx, row.nick, f"{source}, riadok {row.row}")
            try:
                player = create_player(tx.db, name=row.name, by=by,
                                       herna_nick=row.nick or no_herna_nick(t.slug, spec.file_id),
                                       discord_name=row.discord, sss_member=row.member,
                                       screlo=row.screlo, rated_games=row.games,
                                       discord_id=row.discord_id)
            except (DuplicateError, ValueError) as exc:
                raise Refusal("setup.csv_invalid", file=source, row=row.row,
                              reason=str(exc)) from None
            created += 1
        else:
            identity.complete_registry(tx, player, row.discord, row.discord_id, by,
                                       f"{source}, riadok {row.row}")
        if get_entry(tx.db, t.id, player.id) is not None:
            skipped.append(player.herna_nick)
            continue
        add_entry(tx.db, t.id, player.id, by, paid=row.paid)
        added += 1
    unpaid = [e for e in list_entries(tx.db, t.id, active_only=True) if not e.paid]
    warning = [{"key": "setup.unpaid_warning", "count": len(unpaid), "slug": t.slug,
                "rule": "e-SP 2.2"}] if unpaid else []
    return done("setup.players_imported", tournament=t.name, added=added, created=created,
                skipped=", ".join(skipped) or "—", data=warning)


def _csv_rows(path: str | Path, parse: Callable[[str], list[Row]]) -> list[Row] | Reply:
    """A CSV file's rows, or the refusal naming the file and the bad row (nothing imported)."""
    try:
        return parse(decode_csv(_read_bytes(path), str(path)))
    except Refusal as refusal:
        return refusal.reply
    except SetupError as exc:
        return Refusal("setup.csv_invalid", file=str(path), row=exc.line,
                       reason=exc.reason).reply


async def import_players_csv(app: App, slug: str, path: str | Path, admin_id: str) -> Reply:
    """Register the players of a CSV file (name, herna nick, Discord name, paid, member,
    online screlo, rated games); a bad row refuses the whole file. Players already entered
    are skipped; players already in the registry keep their rating."""
    duplicate = await app.store.read(_is_duplicate, slug)
    rows = _csv_rows(path, lambda text: parse_players_csv(text, nick_required=not duplicate))
    if isinstance(rows, Reply):
        return rows
    return await app.run(_import_players, slug, rows, admin_id, str(path))


def _is_duplicate(db: Database, slug: str) -> bool:
    """Whether `slug` is a duplicate event (its players need no herna.net nick)."""
    try:
        return get_tournament_by_slug(db, slug).settings.get("format") == DUPLICATE
    except NotFoundError:
        return False


# -- the online screlo list -------------------------------------------


@dataclass(frozen=True, slots=True)
class ScreloRow:
    row: int
    nick: str
    name: str
    screlo: float
    games: int | None
    last_season: str | None


def parse_screlo_csv(text: str) -> list[ScreloRow]:
    found = []
    for n, row in read_csv(text, SCRELO_COLUMNS):
        nick, name = _text(n, row, "nick", "herna", bounds.nick), _text(n, row, "name", "meno")
        if not nick and not name:
            raise SetupError(n, "chýba prezývka z herna.net aj meno")
        value = _number(n, row.get("screlo", ""), "screlo", "screlo")
        if value is None:
            raise SetupError(n, "chýba online screlo")
        games = _number(n, row.get("games", ""), "games", "partie")
        season = row.get("last_season") or None
        if season is not None:
            try:
                season_start(season)
            except ValueError as exc:
                raise SetupError(n, str(exc)) from None
        found.append(ScreloRow(n, nick, name, float(value),
                               None if games is None else int(games), season))
    return found


def _set_registry_rating(db: Database, player_id: int, value: float, games: int,
                         last_season: str | None, by: Change) -> None:
    """The association's published list sets the rating as it is, with no history row of a
    tournament or a decay. Own query: bot.store has no writer for this (asked for in the
    report: `set_rating(db, player_id, value, games, by, last_season=None)`). The last season
    only moves forward (issue 44.8): a list older than a qualifier we recorded keeps ours."""
    later = (last_season if last_season is not None
             and later_season(last_season, get_player(db, player_id).last_season) else None)
    db.execute("UPDATE players SET screlo = ?, rated_games = ?, "
               "last_season = COALESCE(?, last_season) WHERE id = ?",
               [value, games, later, player_id])
    record(db, by, "rating.import", subject=f"player:{player_id}",
           data={"screlo": value, "games": games, "last_season": last_season})


def _import_screlo(tx: Tx, rows: list[ScreloRow], admin_id: str) -> Reply:
    by = tx.by_admin(admin_id, "zoznam online screla")
    by_name: dict[str, list[Any]] = {}
    for p in list_players(tx.db):
        by_name.setdefault(p.name.casefold(), []).append(p)
    updated, unknown = 0, []
    for row in rows:
        player = find_player_by_nick(tx.db, row.nick) if row.nick else None
        if player is None and row.name and len(by_name.get(row.name.casefold(), [])) == 1:
            player = by_name[row.name.casefold()][0]
        if player is None:
            unknown.append(row.nick or row.name)
            continue
        games = player.rated_games if row.games is None else row.games
        _set_registry_rating(tx.db, player.id, row.screlo, games, row.last_season, by)
        updated += 1
    return done("setup.screlo_imported", updated=updated, unknown_count=len(unknown),
                unknown=", ".join(unknown) or "—")


async def import_screlo_list(app: App, path: str | Path, admin_id: str) -> Reply:
    """Update the registry from the association's online screlo list (nick or name, screlo,
    rated games, optionally the last season played); players we do not know are listed."""
    rows = _csv_rows(path, parse_screlo_csv)
    if isinstance(rows, Reply):
        return rows
    return await app.run(_import_screlo, rows, admin_id)


# -- check-in -------------------------------------------


def _open_checkin(tx: Tx, slug: str, admin_id: str) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is not TournamentStatus.DRAFT:
        raise Refusal("setup.checkin_not_draft", tournament=t.name, status=str(t.status))
    by = tx.by_admin(admin_id, "otvorenie prezentácie")
    set_status(tx.db, t.id, TournamentStatus.CHECKIN, by)
    update_tournament(tx.db, t.id, by, checkin_opens_at=tx.now)
    tx.announce(t.id, "setup.checkin_opened", timely=Timely(t.id, until=t.checkin_closes_at),
                tournament=t.name, closes=t.checkin_closes_at or "—")
    return done("setup.checkin_opened", tournament=t.name, closes=t.checkin_closes_at or "—")


def _close_checkin(tx: Tx, slug: str, admin_id: str) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is not TournamentStatus.CHECKIN:
        raise Refusal("setup.checkin_not_open", tournament=t.name, status=str(t.status))
    # The status stays "checkin" until round 1 is published, and the planned closing time is
    # set in advance: the audit row written below is what says it was closed already.
    closed = list_audit(tx.db, tournament_id=t.id, action=CHECKIN_CLOSE_ACTION)
    if closed:
        raise Refusal("setup.checkin_already_closed", tournament=t.name, at=closed[0].at)
    by = tx.by_admin(admin_id, "uzavretie prezentácie")
    update_tournament(tx.db, t.id, by, checkin_closes_at=tx.now)
    record(tx.db, by, CHECKIN_CLOSE_ACTION, tournament_id=t.id, subject=t.slug)
    entries = list_entries(tx.db, t.id, active_only=True)
    missing = [e for e in entries if e.checked_in_at is None]
    names = ", ".join(lookup_name(tx.db, e.player_id) for e in missing) or "—"
    present = len(entries) - len(missing)
    tx.announce(t.id, "setup.checkin_closed", tournament=t.name, present=present)
    if missing:  # the head admin decides about them; nobody is removed automatically
        tx.to_admin(t.id, "setup.not_checked_in", tournament=t.name, count=len(missing),
                    names=names)
    return done("setup.checkin_closed", tournament=t.name, present=present)


def lookup_name(db: Database, player_id: int) -> str:
    return get_player(db, player_id).name


async def open_checkin(app: App, slug: str, admin_id: str) -> Reply:
    return await app.run(_open_checkin, slug, admin_id)


async def close_checkin(app: App, slug: str, admin_id: str) -> Reply:
    return await app.run(_close_checkin, slug, admin_id)


# -- inactivity decay -------------------------------------------


def _decay(tx: Tx, season: str, admin_id: str, profile_name: str) -> Reply:
    try:
        judged = previous_season(season)
    except ValueError as exc:
        raise Refusal("setup.bad_season", season=season, reason=str(exc)) from None
    done_before = [a for a in list_audit(tx.db, action=DECAY_ACTION) if a.subject == season]
    if done_before:
        raise Refusal("setup.decay_done", season=season, at=done_before[0].at,
                      rule="e-SP 2.4")
    profile = tx.profile(profile_name)
    by = tx.by_admin(admin_id, f"neaktivita v sezóne {judged} (e-SP 2.4)")
    lowered, unknown = [], []
    for p in list_players(tx.db):
        if p.screlo is None:
            continue
        if p.last_season is None:
            unknown.append(p.name)
            continue
        if season_start(p.last_season) >= season_start(judged):
            continue
        new = decay(Rating(p.screlo, p.rated_games), 1, profile)
        if new.value == p.screlo:
            continue
        apply_rating(tx.db, p.id, new.value, new.games, by)
        lowered.append({"name": p.name, "before": p.screlo, "after": new.value})
        if p.discord_id is not None:
            tx.direct(p.id, "setup.decayed", season=judged, before=p.screlo, after=new.value,
                      rule=profile.screlo.decay_rule)
    record(tx.db, by, DECAY_ACTION, subject=season,
           data={"judged": judged, "lowered": len(lowered)})
    return done("setup.decay", rule=profile.screlo.decay_rule, data=lowered, season=season,
                judged=judged, count=len(lowered), unknown=", ".join(unknown) or "—")


async def decay_season(app: App, season: str, admin_id: str,
                       profile: str = "sss-online") -> Reply:
    """Lower the online screlo of players inactive in the season before `season` (e-SP 2.4)."""
    return await app.run(_decay, season, admin_id, profile)
