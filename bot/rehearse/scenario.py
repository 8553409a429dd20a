"""A rehearsal scenario: one TOML file → checked, frozen data (docs: prompts' rehearse spec).

[tournament] and [[player]] are a propozície file's (`propozicie.parse_propozicie`, no second
parser); [[round]] and [[event]] are checked here in the same `SetupError(line, reason)` style,
with Slovak reasons. Every check that needs no running store happens before anything runs;
the few that need the tournament's state (who is still playing in a round) are the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot import toml_text
from bot.clock import local
from bot.services.tournament.csv_text import decode_utf8
from bot.services.tournament.propozicie import Propozicie, SetupError, parse_propozicie
from bot.services.tournament.propozicie import Reader as _Reader
from bot.services.tournament.propozicie import key_lines as _key_lines
from rules import End
from rules.model import ENDS_WITH_LOSER
from scrapers.herna import EndKind
from scrapers.herna.records import ENDS_ON_PLAYER

TABLES = ("tournament", "player", "round", "event")
MAX_SCORE = 2000
#: how far around the tournament an event may lie (before round 1, after the last limit)
BEFORE_FIRST = timedelta(hours=3)
AFTER_LAST = timedelta(hours=2)
#: the least gap between a round's game limit and the next round's start
ROUND_GAP = timedelta(minutes=5)
#: check-in defaults relative to round 1's start (when the propozície do not say)
CHECKIN_OPENS = timedelta(minutes=30)
CHECKIN_CLOSES = timedelta(minutes=10)
DEFAULT_MOVES = (12, 12)

Lines = dict[tuple[str, int, str], int]
Keys = dict[str, tuple[str, bool]]

_COMMON: Keys = {"at": ("time", True), "type": ("str", True)}
_PLAYER: Keys = {"player": ("str", True)}
EVENT_KEYS: dict[str, Keys] = {
    "game": {"first": ("str", True), "second": ("str", True), "score": ("list", True),
             "end": ("str", True), "on": ("str", False), "started": ("time", True),
             "moves": ("list", False), "tempo": ("str", False), "language": ("str", False)},
    "checkin": _PLAYER, "absent": _PLAYER, "arrived": _PLAYER, "draw": _PLAYER,
    "withdraw": _PLAYER,
    "report": {**_PLAYER, "score": ("list", True)},
    "dispute": {**_PLAYER, "text": ("str", True)},
    "ruling": {**_PLAYER, "end": ("str", True), "reason": ("str", True),
               "score": ("list", False), "on": ("str", False), "winner": ("str", False),
               "agreed": ("bool", False), "round": ("int", False)},
}
_ROUND_KEYS: Keys = {"number": ("int", True), "pairings": ("list", True)}
GAME_ENDS = tuple(e.value for e in EndKind)
RULING_ENDS = tuple(e.value for e in End)


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """A round paired by the scenario: (first, second) ids, None second = the bye."""

    number: int
    pairings: tuple[tuple[str, str | None], ...]
    line: int


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the timeline; which fields are set depends on `type` (see EVENT_KEYS)."""

    at: datetime  # UTC
    type: str
    line: int
    index: int  # its place in the file: ties in `at` run in file order
    player: str | None = None
    first: str | None = None
    second: str | None = None
    score: tuple[int, int] | None = None
    end: str | None = None
    on: str | None = None
    winner: str | None = None
    agreed: bool = False
    started: datetime | None = None
    moves: tuple[int, int] = DEFAULT_MOVES
    tempo: str | None = None
    language: str | None = None
    text: str | None = None
    reason: str | None = None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    path: str
    propozicie: Propozicie
    rounds: dict[int, RoundSpec] = field(default_factory=dict)
    events: tuple[Event, ...] = ()  # in the order they run

    @property
    def round_starts(self) -> list[datetime]:
        return self.propozicie.round_starts

    @property
    def limit(self) -> timedelta:
        return timedelta(minutes=self.propozicie.game_limit_minutes)

    @property
    def last_limit(self) -> datetime:
        return self.round_starts[-1] + self.limit

    def checkin_window(self) -> tuple[datetime, datetime]:
        """When check-in is open: the propozície's times or the defaults around round 1."""
        first = self.round_starts[0]
        prop = self.propozicie
        return (prop.checkin_opens or first - CHECKIN_OPENS,
                prop.checkin_closes or first - CHECKIN_CLOSES)

    @property
    def has_checkin(self) -> bool:
        return any(e.type == "checkin" for e in self.events)

    @property
    def nicks(self) -> dict[str, str]:
        """Scenario player id -> herna.net nick."""
        return {p.file_id: p.herna for p in self.propozicie.players}

    def name_of(self, player_id: str) -> str:
        return next(p.name for p in self.propozicie.players if p.file_id == player_id)


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file; `SetupError` (line, reason) for the first problem,
    `OSError` when it cannot be read, a `Refusal` ("ulož ako UTF-8") when it is not UTF-8."""
    return parse_scenario(decode_utf8(Path(path).read_bytes(), str(path)), str(path))


def check_tables(data: dict[str, Any], lines: dict[tuple[str, int, str], int],
                 tables: tuple[str, ...], expected: str) -> None:
    """A scenario file holds only its own tables: the first other key is refused on its line,
    naming the tables it may hold (`expected`, as written in the message)."""
    for key in data:
        if key not in tables:
            line = lines.get((key, 0, ""), lines.get(("", 0, key), 1))
            raise SetupError(line, f"neznáma tabuľka alebo kľúč „{key}“ (očakáva sa {expected})")


def parse_scenario(text: str, path: str = "scenár.toml") -> Scenario:
    prop = parse_propozicie(text, strict=False)  # TOML errors, [tournament], [[player]]
    data = toml_text.loads(text)
    lines = _key_lines(text)
    check_tables(data, lines, TABLES, "[tournament], [[player]], [[round]] a [[event]]")
    _check_round_gaps(prop, lines)
    ids = {p.file_id for p in prop.players}
    rounds = _rounds(lines, _array(lines, data, "round"), ids, len(prop.round_starts))
    scenario = Scenario(path, prop, rounds)
    events = [_event(lines, n, table, scenario, ids)
              for n, table in enumerate(_array(lines, data, "event"))]
    events.sort(key=lambda e: (e.at, e.index))
    return Scenario(path, prop, rounds, tuple(events))


def _array(lines: Lines, data: dict[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise SetupError(lines.get((name, 0, ""), 1), f"[[{name}]] sa píše ako pole tabuliek "
                                                     f"(dvojité hranaté zátvorky)")
    return value


def _check_round_gaps(prop: Propozicie, lines: Lines) -> None:
    """Round r+1 must start at least 5 minutes after round r's game time limit."""
    limit = timedelta(minutes=prop.game_limit_minutes)
    starts = prop.round_starts
    for n in range(1, len(starts)):
        if starts[n] < starts[n - 1] + limit + ROUND_GAP:
            raise SetupError(lines.get(("tournament", 0, "round_starts"), 1),
                             f"[tournament]: round_starts: {n + 1}. kolo musí začať najskôr "
                             f"{ROUND_GAP.seconds // 60} minút po časovom limite {n}. kola "
                             f"({_hm(starts[n - 1] + limit)})")


def _hm(when: datetime) -> str:
    return local(when).strftime("%Y-%m-%d %H:%M")


# -- [[round]] --------------------------------------------------------------------------------


def _rounds(lines: Lines, tables: list[Any], ids: set[str], count: int) -> dict[int, RoundSpec]:
    found: dict[int, RoundSpec] = {}
    for index, table in enumerate(tables):
        r = _Reader(lines, "round", index, table, _ROUND_KEYS)
        number = r.get("number")
        if not 1 <= number <= count:
            raise r.fail("number", f"kolo {number} neexistuje (turnaj má {count} kôl)")
        if number in found:
            raise r.fail("number", f"kolo {number} je v súbore dvakrát")
        seen: set[str] = set()
        pairs: list[tuple[str, str | None]] = []
        for item in r.get("pairings"):
            if (not isinstance(item, list) or len(item) not in (1, 2)
                    or not all(isinstance(x, str) for x in item)):
                raise r.fail("pairings", f"{item!r}: očakáva sa [\"prvý\", \"druhý\"] alebo "
                                         "[\"id\"] pre voľno")
            for player in item:
                if player not in ids:
                    raise r.fail("pairings", f"neznámy hráč „{player}“")
                if player in seen:
                    raise r.fail("pairings", f"hráč „{player}“ je v kole {number} dvakrát")
                seen.add(player)
            pairs.append((item[0], item[1] if len(item) == 2 else None))
        found[number] = RoundSpec(number, tuple(pairs), r.line())
    return found


# -- [[event]] --------------------------------------------------------------------------------


def event_type(lines: Lines, index: int, table: Any, known: Iterable[str]) -> Any:
    """An [[event]]'s `type`, which says which keys belong (refused when missing or unknown;
    a table that is no table is left to the caller's Reader)."""
    kind = table.get("type") if isinstance(table, dict) else None
    if isinstance(table, dict) and kind not in known:
        line = lines.get(("event", index, "type")) or lines.get(("event", index, ""), 1)
        where = f"[[event]] č. {index + 1}"
        if kind is None:
            raise SetupError(line, f"{where}: chýba povinný kľúč „type“")
        raise SetupError(line, f"{where}: type: neznámy typ udalosti „{kind}“ "
                               f"(známe: {', '.join(known)})")
    return kind


def _event(lines: Lines, index: int, table: Any, scenario: Scenario, ids: set[str]) -> Event:
    kind = event_type(lines, index, table, EVENT_KEYS)
    keys = {**_COMMON, **EVENT_KEYS.get(str(kind), {})}
    r = _Reader(lines, "event", index, table, keys)
    at = r.get("at")
    _in_tournament(r, "at", at, scenario)
    for key in ("player", "first", "second", "on", "winner"):
        if key in keys and r.get(key) is not None and r.get(key) not in ids:
            raise r.fail(key, f"neznámy hráč „{r.get(key)}“")
    values: dict[str, Any] = {"at": at, "type": kind, "line": r.line(), "index": index,
                              "player": r.get("player") if "player" in keys else None}
    if kind == "game":
        values |= _game(r, at, scenario)
    elif kind == "report":
        values["score"] = _score(r, "score")
    elif kind == "dispute":
        values["text"] = r.get("text")
    elif kind == "ruling":
        values |= _ruling(r, at, scenario)
    elif kind == "checkin":
        opens, closes = scenario.checkin_window()
        if not opens <= at < closes:
            raise r.fail("at", f"prezentácia je otvorená od {_hm(opens)} do {_hm(closes)}")
    return Event(**values)


def _in_tournament(r: _Reader, key: str, when: datetime, scenario: Scenario) -> None:
    earliest = scenario.round_starts[0] - BEFORE_FIRST
    latest = scenario.last_limit + AFTER_LAST
    if not earliest <= when <= latest:
        raise r.fail(key, f"čas {_hm(when)} je mimo turnaja (od {_hm(earliest)} "
                          f"do {_hm(latest)})")


def _pair_of_two(r: _Reader, key: str, limit: int, what: str) -> tuple[int, int] | None:
    value = r.get(key)
    if value is None:
        return None
    if (len(value) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in value)
            or not all(0 <= x <= limit for x in value)):
        raise r.fail(key, f"{value!r}: očakávajú sa dve celé čísla 0–{limit} ({what})")
    return (value[0], value[1])


def _score(r: _Reader, key: str) -> tuple[int, int] | None:
    return _pair_of_two(r, key, MAX_SCORE, "body")


def _end(r: _Reader, allowed: tuple[str, ...]) -> str:
    end = r.get("end")
    if end not in allowed:
        raise r.fail("end", f"„{end}“ nie je známy koniec (známe: {', '.join(allowed)})")
    return str(end)


def _game(r: _Reader, at: datetime, scenario: Scenario) -> dict[str, Any]:
    first, second = r.get("first"), r.get("second")
    if first == second:
        raise r.fail("second", f"hráč „{first}“ nemôže hrať sám so sebou")
    end = _end(r, GAME_ENDS)
    on = r.get("on")
    if EndKind(end) in ENDS_ON_PLAYER:
        if on is None:
            raise r.fail("end", f"koniec „{end}“ potrebuje kľúč „on“ (na koho partia skončila)")
        if on not in (first, second):
            raise r.fail("on", f"„{on}“ nehral túto partiu ({first}, {second})")
    elif on is not None:
        raise r.fail("on", f"pri konci „{end}“ sa kľúč „on“ nepíše")
    started = r.get("started")
    _in_tournament(r, "started", started, scenario)
    if started > at:
        raise r.fail("started", f"partia nemôže začať ({_hm(started)}) po čase udalosti "
                                f"({_hm(at)})")
    moves = _pair_of_two(r, "moves", 1000, "ťahy") or DEFAULT_MOVES
    return {"first": first, "second": second, "score": _score(r, "score"), "end": end,
            "on": on, "started": started, "moves": moves, "tempo": r.get("tempo"),
            "language": r.get("language")}


def _ruling(r: _Reader, at: datetime, scenario: Scenario) -> dict[str, Any]:
    end = End(_end(r, RULING_ENDS))
    on, winner, agreed = r.get("on"), r.get("winner"), r.get("agreed", False)
    if end in ENDS_WITH_LOSER and on is None:
        raise r.fail("end", f"rozhodnutie „{end}“ potrebuje kľúč „on“ (proti komu)")
    if end not in ENDS_WITH_LOSER and on is not None:
        raise r.fail("on", f"pri rozhodnutí „{end}“ sa kľúč „on“ nepíše")
    for key, value in (("winner", winner), ("agreed", agreed or None)):
        if value is not None and end is not End.SAVE_FAILED:
            raise r.fail(key, f"kľúč „{key}“ patrí len k rozhodnutiu save_failed")
    round_no = r.get("round")
    count = len(scenario.round_starts)
    if round_no is not None and not 1 <= round_no <= count:
        raise r.fail("round", f"kolo {round_no} neexistuje (turnaj má {count} kôl)")
    number = round_no or ruling_round(scenario, at)
    spec = scenario.rounds.get(number or 0)
    if spec is not None:  # the pairs are known from the file: check them now
        player = r.get("player")
        pair = next((p for p in spec.pairings if player in p), None)
        if pair is None:
            raise r.fail("player", f"„{player}“ nehrá v {number}. kole")
        for key, value in (("on", on), ("winner", winner)):
            if value is not None and value not in pair:
                raise r.fail(key, f"„{value}“ nehrá pri tomto stole ({_pair_text(pair)})")
    return {"end": str(end), "reason": r.get("reason"), "score": _score(r, "score"),
            "on": on, "winner": winner, "agreed": agreed, "round": round_no}


def ruling_round(scenario: Scenario, at: datetime) -> int | None:
    """The latest round whose official start is at or before `at` (None before round 1)."""
    started = [n for n, s in enumerate(scenario.round_starts, start=1) if s <= at]
    return started[-1] if started else None


def _pair_text(pair: tuple[str, str | None]) -> str:
    return " – ".join(p for p in pair if p is not None)
