"""A season rehearsal scenario (issue 37): several events served by one bot, one TOML file that
names its parts → checked, frozen data.

- [season] `file` — the season file (relative to this file) whose ladder is recomputed when an
  event it names finishes; `html` — the folder its page is written to (relative to where the
  command runs; `--html DIR` replaces it).
- [[part]] — one event: `file`, a classic or a duplicate rehearsal scenario (relative to this
  file, checked by its own loader); `channel`, its Discord channel id (`events.set_channel`);
  `created`, when the operator creates it while the others run (`stredisko create FILE`;
  without it the event exists when the rehearsal starts); `start`, for a duplicate game, when
  it starts instead of its file's time (its rounds follow from its own timers); `finish`, for
  an online tournament, when the head admin finishes it, later than its own rehearsal would
  (10 minutes after the last round's limit): two events can end in either order (issue 44).

One person is one account across the parts: a player's Discord id follows his name, so the
duplicate game's Anna Nováková is the qualifier's (`events.discord_id` honours an id the
[[player]] gives).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bot import toml_text
from bot.clock import local
from bot.rehearse.duplicate_scenario import (
    DuplicateScenario,
    is_duplicate_file,
    load_duplicate_scenario,
)
from bot.rehearse.engine import end_of
from bot.rehearse.events import DISCORD_BASE
from bot.rehearse.scenario import Scenario, check_tables, load_scenario
from bot.rehearse.scenario import _array as array_of
from bot.services.season.file import parse_season
from bot.services.tournament.csv_text import decode_utf8
from bot.services.tournament.propozicie import Reader as _Reader
from bot.services.tournament.propozicie import SetupError
from bot.services.tournament.propozicie import key_lines as _key_lines

TABLES = ("season", "part")
_SEASON_KEYS = {"file": ("str", True), "html": ("str", True)}
_PART_KEYS = {"file": ("str", True), "channel": ("int", False), "created": ("time", False),
              "start": ("time", False), "finish": ("time", False)}


@dataclass(frozen=True, slots=True)
class Part:
    """One event of the season rehearsal."""

    file: str  # as written (the transcript names it)
    scenario: Scenario | DuplicateScenario
    line: int
    channel: int | None = None
    created: datetime | None = None  # None: before anything runs
    finish: datetime | None = None  # None: when its own rehearsal finishes it

    @property
    def slug(self) -> str:
        return self.scenario.propozicie.slug

    @property
    def first_moment(self) -> datetime:
        """When the part first acts (its creation must come before)."""
        sc = self.scenario
        if isinstance(sc, DuplicateScenario):
            return sc.settings.starts[0]
        first = [sc.round_starts[0]]
        first += [sc.events[0].at] if sc.events else []
        first += [sc.checkin_window()[0]] if sc.has_checkin else []
        return min(first)


@dataclass(frozen=True, slots=True)
class SeasonScenario:
    path: str
    season_file: str  # resolved
    html: str  # as written
    parts: tuple[Part, ...]
    season_shown: str = ""  # as written

    @property
    def classic(self) -> list[Part]:
        return [p for p in self.parts if isinstance(p.scenario, Scenario)]


def is_season_file(path: str | Path) -> bool:
    """A season rehearsal names its parts ([[part]]); anything unreadable is left to the
    loaders that report it."""
    try:
        data = toml_text.loads(decode_utf8(Path(path).read_bytes(), str(path)))
    except Exception:  # not ours to report: the loaders say what is wrong
        return False
    return "part" in data


def load_season_scenario(path: str | Path) -> SeasonScenario:
    """Read and check a season rehearsal and every part it names; `SetupError` (line, reason)
    for the first problem (a part's own error names its file and line)."""
    text = decode_utf8(Path(path).read_bytes(), str(path))
    data = toml_text.loads(text)
    lines = _key_lines(text)
    check_tables(data, lines, TABLES, "[season] a [[part]]")
    if "season" not in data:
        raise SetupError(1, "chýba tabuľka [season] (súbor sezóny a priečinok jej stránky)")
    here = Path(path).parent
    s = _Reader(lines, "season", 0, data["season"], _SEASON_KEYS, single=True)
    season_file = _text(s, "file")
    _check_season(s, here / season_file)
    parts = [_part(lines, n, table, here) for n, table in enumerate(array_of(lines, data, "part"))]
    _check_parts(parts)
    parts = _one_account_per_person(parts)
    return SeasonScenario(str(path), str(here / season_file), _text(s, "html"), tuple(parts),
                          season_file)


def _text(r: _Reader, key: str) -> str:
    value = r.get(key)
    if not isinstance(value, str) or not value.strip():
        raise r.fail(key, f"očakáva sa cesta k súboru, je tam {value!r}")
    return value


def _check_season(r: _Reader, file: Path) -> None:
    try:
        parse_season(decode_utf8(file.read_bytes(), str(file)))
    except OSError as exc:
        raise r.fail("file", f"{file}: {exc.strerror or exc}") from None
    except SetupError as exc:
        raise r.fail("file", f"{file}:{exc.line}: {exc.reason}") from None


def _part(lines: Any, index: int, table: Any, here: Path) -> Part:
    r = _Reader(lines, "part", index, table, _PART_KEYS)
    file = _text(r, "file")
    where = here / file
    try:
        scenario: Scenario | DuplicateScenario = (
            load_duplicate_scenario(where) if is_duplicate_file(where) else load_scenario(where))
    except OSError as exc:
        raise r.fail("file", f"{where}: {exc.strerror or exc}") from None
    except SetupError as exc:
        raise r.fail("file", f"{file}:{exc.line}: {exc.reason}") from None
    start = r.get("start")
    if start is not None:
        if not isinstance(scenario, DuplicateScenario):
            raise r.fail("start", "posunúť začiatok sa dá len duplikátnej partii (časy "
                                  "online turnaja sú v jeho súbore)")
        scenario = _moved(scenario, start)
    if isinstance(scenario, DuplicateScenario):
        if scenario.settings.mode != "online":
            raise r.fail("file", "partia v sále sa hrá pri konzole rozhodcu, nie v bote: "
                                 "skúška sezóny berie len online duplikát")
        if not scenario.settings.starts:
            raise r.fail("file", "[duplicate] starts: skúška potrebuje čas začiatku hry")
    part = Part(file, scenario, r.line(), r.get("channel"), r.get("created"), r.get("finish"))
    if part.created is not None and part.created > part.first_moment:
        raise r.fail("created", f"udalosť treba vytvoriť najneskôr {_hm(part.first_moment)} "
                                "(vtedy sa v nej prvýkrát niečo deje)")
    if part.finish is not None:
        if not isinstance(scenario, Scenario):
            raise r.fail("finish", "koniec sa určuje len online turnaju (duplikátna partia "
                                   "sa končí podľa svojich časovačov)")
        if part.finish < end_of(scenario):
            raise r.fail("finish", f"turnaj sa dá ukončiť najskôr {_hm(end_of(scenario))} "
                                   "(10 minút po časovom limite posledného kola a po jeho "
                                   "poslednej udalosti)")
    return part


def _moved(scenario: DuplicateScenario, start: datetime) -> DuplicateScenario:
    """The game moved to `start`: every game of the event by the same shift."""
    settings = scenario.settings
    first = settings.starts[0] if settings.starts else scenario.propozicie.round_starts[0]
    shift = start - first
    prop = replace(scenario.propozicie,
                   round_starts=[s + shift for s in scenario.propozicie.round_starts],
                   duplicate=replace(settings, starts=tuple(s + shift for s in settings.starts)))
    return replace(scenario, propozicie=prop)


def _check_parts(parts: list[Part]) -> None:
    if not any(isinstance(p.scenario, Scenario) for p in parts):
        raise SetupError(1, "[[part]]: skúška sezóny potrebuje aspoň jeden online turnaj "
                            "(jeho koniec prepočíta sezónu)")
    seen: dict[str, int] = {}
    channels: dict[int, int] = {}
    for p in parts:
        if p.slug in seen:
            raise SetupError(p.line, f"[[part]]: udalosť „{p.slug}“ je v skúške dvakrát "
                                     f"(prvýkrát na riadku {seen[p.slug]})")
        seen[p.slug] = p.line
        if p.channel is not None:
            if p.channel in channels:  # as events.set_channel refuses it (e-SP 2.6)
                raise SetupError(p.line, f"[[part]]: kanál {p.channel} už má udalosť na riadku "
                                         f"{channels[p.channel]}; dve udalosti nemôžu zdieľať "
                                         "kanál (e-SP 2.6)")
            channels[p.channel] = p.line


def _one_account_per_person(parts: list[Part]) -> list[Part]:
    """Each person (by name, in the order the parts name them) one Discord account."""
    accounts: dict[str, int] = {}
    for p in parts:
        for player in p.scenario.propozicie.players:
            accounts.setdefault(player.name, DISCORD_BASE + len(accounts))
    out = []
    for p in parts:
        prop = p.scenario.propozicie
        players = [replace(pl, discord_id=accounts[pl.name]) for pl in prop.players]
        scenario: Any = replace(p.scenario, propozicie=replace(prop, players=players))
        out.append(replace(p, scenario=scenario))
    return out


def _hm(when: datetime) -> str:
    return local(when).strftime("%Y-%m-%d %H:%M")
