"""A duplicate rehearsal scenario (issue 24.7): one TOML file → checked, frozen data.

[tournament] (with `format = "duplicate"`), [duplicate] and [[player]] are a propozície file's
(`propozicie.parse_propozicie`, no second parser). This module checks the rehearsal's own tables in
the same `SetupError(line, reason)` style with Slovak reasons:

- [rehearsal] `seed` — the rack seed (hex, at least 16 bytes): fixed, so every run draws the
  same racks; in a real event it is fresh from `secrets` and only its commitment is known
  before round 1 (issue 24.3).
- [[event]] — what the players do, each `after` ("m:ss" or seconds) from the moment its
  round was announced (round times follow from the event's own timers, so a slip is tied to
  its round, not to a clock time): `type = "slip"` (`player`, `round`, `after`, `move`
  "8H SLOVO", `declared` points where the profile wants them) — a second slip of a player in a
  round replaces the first (003 r. 41); `type = "leave"` (`player`, `round`, `after`): he
  leaves the game and gets 0 for the remaining rounds (004 §7);
  in a hall game (`[duplicate] mode = "hall"`) also `type = "rack"` (`round`, `rack`): the
  rack the arbiter drew from the bag and types (003 r. 11–13) — a round without one is drawn
  from the seed (`stredisko duplicate draw`); its slips are the ones he collected and types.
- [[protest]] — after the game, while its preliminary results stand (003 r. 27–29): a player
  (`player`) protests a word (`word`) of a round (`round`) as wrongly accepted or rejected
  (`claim = "prijaté" | "odmietnuté"`, `reason`), and the head admin decides it (`decision =
  "vyhovieť" | "zamietnuť"`, `decision_reason`). The protests are filed a minute apart in the
  file's order, then decided in it; the final results follow (an upheld protest corrects the
  round's scores, never the board: 004 §5D).

The [duplicate] table's `lexicon` may name a word list next to the scenario (a small one the
rehearsal can carry); the engine resolves it (`duplicate.lexicon_source`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot import toml_text
from bot.rehearse.scenario import _array as array_of
from bot.rehearse.scenario import check_tables, event_type
from bot.services.duplicate.protests import CLAIM_WORDS, REASON_LIMIT, VERDICT_WORDS, WORD_LIMIT
from bot.services.duplicate.setup import DuplicateSettings
from bot.services.tournament.csv_text import decode_utf8
from bot.services.tournament.propozicie import Propozicie, SetupError, parse_propozicie
from bot.services.tournament.propozicie import Reader as _Reader
from bot.services.tournament.propozicie import key_lines as _key_lines
from rules.duplicate.racks import SeedError, seed_bytes

FORMAT = "duplicate"
TABLES = ("tournament", "duplicate", "player", "rehearsal", "event", "protest")
#: how long after its round's announcement an event may come (a late slip is still one)
MAX_AFTER = timedelta(minutes=30)
MAX_MOVE = 60  # characters of a slip's move as written (the services refuse longer ones)
MAX_DECLARED = 9999  # what the services accept as a declared score
_RAW = ("after", "declared")
_AFTER = re.compile(r"(\d{1,2}):([0-5]\d)")

Keys = dict[str, tuple[str, bool]]
_TIMED: Keys = {"type": ("str", True), "player": ("str", True), "round": ("int", True),
                "after": ("raw", True)}
EVENT_KEYS: dict[str, Keys] = {
    "slip": {**_TIMED, "move": ("str", True), "declared": ("raw", False)},
    "leave": _TIMED,
    "rack": {"type": ("str", True), "round": ("int", True), "rack": ("str", True)},
}
RACK_MAX = 20  # characters of a typed rack (the services refuse more than 7 tiles)
_REHEARSAL_KEYS: Keys = {"seed": ("str", True)}
PROTEST_KEYS: Keys = {"player": ("str", True), "round": ("int", True), "word": ("str", True),
                      "claim": ("str", True), "reason": ("str", True),
                      "decision": ("str", True), "decision_reason": ("str", True)}


@dataclass(frozen=True, slots=True)
class DupEvent:
    """One thing a player does in a round, `after` its announcement."""

    type: str  # EVENT_KEYS
    player: str  # the scenario's player id
    round: int
    after: timedelta
    line: int
    index: int  # its place in the file: ties run in file order
    move: str | None = None  # a slip's move; a rack event's rack as typed
    declared: int | None = None


@dataclass(frozen=True, slots=True)
class ProtestSpec:
    """A protest after the game and the head admin's decision on it (003 r. 27–29)."""

    player: str  # the scenario's player id
    round: int
    word: str
    claim: str  # protests.CLAIMS
    reason: str
    upheld: bool
    decision: str  # the head admin's reason
    line: int
    index: int


@dataclass(frozen=True, slots=True)
class DuplicateScenario:
    path: str
    propozicie: Propozicie
    seed: str
    events: tuple[DupEvent, ...]  # by round, then `after`, then file order
    protests: tuple[ProtestSpec, ...] = ()  # in file order

    @property
    def settings(self) -> DuplicateSettings:
        """The [duplicate] table (a duplicate scenario always has one)."""
        assert self.propozicie.duplicate is not None
        return self.propozicie.duplicate

    def name_of(self, player_id: str) -> str:
        return next(p.name for p in self.propozicie.players if p.file_id == player_id)

    def of_round(self, number: int) -> list[DupEvent]:
        return [e for e in self.events if e.round == number]

    @property
    def last_round(self) -> int:
        return max((e.round for e in self.events), default=0)

    @property
    def hall(self) -> bool:
        """A hall game: the arbiter opens and closes each round and types racks and slips."""
        return self.settings.mode == "hall"

    def rack_of(self, number: int) -> DupEvent | None:
        """The rack event of round `number`: what the arbiter types (None: drawn from the
        seed)."""
        return next((e for e in self.events if e.type == "rack" and e.round == number), None)


def is_duplicate(text: str) -> bool:
    """Whether a scenario's [tournament] says `format = "duplicate"` (an unreadable file is
    not: the classic reader reports what is wrong with it)."""
    try:
        data = toml_text.loads(text)
    except Exception:  # the classic reader names the line
        return False
    table = data.get("tournament")
    return isinstance(table, dict) and table.get("format") == FORMAT


def is_duplicate_file(path: str | Path) -> bool:
    """`is_duplicate` of a file; one that cannot be read is left to the classic reader (it
    says what is wrong)."""
    try:
        return is_duplicate(Path(path).read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError):
        return False


def load_duplicate_scenario(path: str | Path) -> DuplicateScenario:
    """Read and check a duplicate scenario file (errors as `scenario.load_scenario`'s)."""
    return parse_duplicate_scenario(decode_utf8(Path(path).read_bytes(), str(path)), str(path))


def parse_duplicate_scenario(text: str, path: str = "scenár.toml") -> DuplicateScenario:
    prop = parse_propozicie(text, strict=False)  # [tournament], [duplicate], [[player]]
    if prop.duplicate is None:
        raise SetupError(1, "skúška duplikátu potrebuje [tournament] format = \"duplicate\"")
    data = toml_text.loads(text)
    lines = _key_lines(text)
    check_tables(data, lines, TABLES, "[tournament], [duplicate], [[player]], [rehearsal], "
                                      "[[event]] a [[protest]]")
    if "rehearsal" not in data:
        raise SetupError(1, "chýba tabuľka [rehearsal] so semienkom stojanov (seed)")
    r = _Reader(lines, "rehearsal", 0, data["rehearsal"], _REHEARSAL_KEYS, single=True)
    seed = r.get("seed").strip().lower()
    try:
        seed_bytes(seed)
    except SeedError:
        raise r.fail("seed", "semienko je šestnástkové číslo s aspoň 32 číslicami "
                             "(16 bajtov)") from None
    events = array_of(lines, data, "event")
    ids = {p.file_id for p in prop.players}
    checked = [_event(lines, n, table, ids) for n, table in enumerate(events)]
    _check_sequence(checked)
    _check_racks(checked, prop.duplicate.mode)
    checked.sort(key=lambda e: (e.round, e.after, e.index))
    protests = tuple(_protest(lines, n, table, ids)
                     for n, table in enumerate(array_of(lines, data, "protest")))
    return DuplicateScenario(path, prop, seed, tuple(checked), protests)


def _protest(lines: dict[tuple[str, int, str], int], index: int, table: Any,
             ids: set[str]) -> ProtestSpec:
    r = _Reader(lines, "protest", index, table, PROTEST_KEYS)
    player = r.get("player")
    if player not in ids:
        raise r.fail("player", f"neznámy hráč „{player}“")
    word = r.get("word").strip()
    if not word.isalpha() or len(word) > WORD_LIMIT:
        raise r.fail("word", f"„{word[:60]}“: sporné slovo sú len písmená (najviac "
                             f"{WORD_LIMIT})")
    claim, decision = r.get("claim").strip(), r.get("decision").strip()
    if claim not in CLAIM_WORDS:
        raise r.fail("claim", f"„{claim[:60]}“: slovo bolo neprávom „prijaté“ alebo "
                              "„odmietnuté“")
    if decision not in VERDICT_WORDS:
        raise r.fail("decision", f"„{decision[:60]}“: rozhodnutie je „vyhovieť“ alebo "
                                 "„zamietnuť“")
    for key in ("reason", "decision_reason"):
        if len(r.get(key)) > REASON_LIMIT:
            raise r.fail(key, f"najviac {REASON_LIMIT} znakov")
    return ProtestSpec(player, r.get("round"), word.upper(), CLAIM_WORDS[claim],
                       r.get("reason").strip(), VERDICT_WORDS[decision],
                       r.get("decision_reason").strip(), r.line(), index)


def _event(lines: dict[tuple[str, int, str], int], index: int, table: Any,
           ids: set[str]) -> DupEvent:
    kind = event_type(lines, index, table, EVENT_KEYS)
    if not isinstance(table, dict):
        raise SetupError(lines.get(("event", index, ""), 1),
                         f"[[event]] č. {index + 1} musí byť tabuľka")
    keys = EVENT_KEYS[str(kind)]
    if kind == "rack":
        r = _Reader(lines, "event", index, table, keys)
        rack = r.get("rack").strip()
        if not rack or len(rack) > RACK_MAX:
            raise r.fail("rack", f"„{rack[:RACK_MAX]}“: zásobník sú písmená kameňov "
                                 f"(najviac {RACK_MAX} znakov), žolík „?“")
        return DupEvent("rack", "", r.get("round"), timedelta(0), r.line(), index, move=rack)
    # "after" and "declared" are read here (the Reader's bounds know neither): it checks the rest
    raw = {k: table.pop(k) for k in _RAW if k in table}
    r = _Reader(lines, "event", index, table,
                {k: v for k, v in keys.items() if k not in _RAW})
    for key in _RAW:
        if key in raw and key not in keys:
            raise r.fail(key, f"kľúč „{key}“ k udalosti „{kind}“ nepatrí")
    if "after" not in raw:
        raise SetupError(r.line(), f"{r.where}: chýba povinný kľúč „after“")
    player = r.get("player")
    if player not in ids:
        raise r.fail("player", f"neznámy hráč „{player}“")
    number = r.get("round")  # 1–99 (the bounds every round number has)
    after = _after(r, raw["after"])
    values: dict[str, Any] = {"type": kind, "player": player, "round": number,
                              "after": after, "line": r.line(), "index": index}
    if kind == "slip":
        move = r.get("move").strip()
        if len(move) > MAX_MOVE:
            raise r.fail("move", f"ťah má {len(move)} znakov (najviac {MAX_MOVE})")
        declared = raw.get("declared")
        if declared is not None and (isinstance(declared, bool) or not isinstance(declared, int)
                                     or not 0 <= declared <= MAX_DECLARED):
            raise r.fail("declared", f"{declared!r}: nahlásené body sú celé číslo "
                                     f"0–{MAX_DECLARED}")
        values |= {"move": move, "declared": declared}
    return DupEvent(**values)


def _after(r: _Reader, value: Any) -> timedelta:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise r.fail("after", f"{value!r}: očakáva sa čas od ohlásenia kola „m:ss“ "
                              "alebo počet sekúnd")
    if isinstance(value, int):
        seconds = value
    elif found := _AFTER.fullmatch(value.strip()):
        seconds = int(found[1]) * 60 + int(found[2])
    else:
        raise r.fail("after", f"„{value}“: očakáva sa čas od ohlásenia kola „m:ss“ "
                              "(napr. „1:45“)")
    after = timedelta(seconds=seconds)
    if not timedelta(0) <= after <= MAX_AFTER:
        raise r.fail("after", f"{seconds} s: udalosť patrí do 0–{MAX_AFTER.seconds // 60} "
                              "minút od ohlásenia kola")
    return after


def _check_racks(events: list[DupEvent], mode: str) -> None:
    """Racks are typed only in a hall game (online, the program draws them), once a round."""
    seen: dict[int, DupEvent] = {}
    for e in events:
        if e.type != "rack":
            continue
        if mode != "hall":
            raise SetupError(e.line, f"[[event]] č. {e.index + 1}: zásobník píše rozhodca len "
                                     "v sále ([duplicate] mode = \"hall\"); online ho losuje "
                                     "program (003 r. 11)")
        if e.round in seen:
            raise SetupError(e.line, f"[[event]] č. {e.index + 1}: zásobník {e.round}. kola "
                                     f"je už na riadku {seen[e.round].line}")
        seen[e.round] = e


def _check_sequence(events: list[DupEvent]) -> None:
    """A player who has left does nothing more (004 §7), and leaves once."""
    gone: dict[str, DupEvent] = {}
    for e in sorted(events, key=lambda e: (e.round, e.after, e.index)):
        if e.type == "rack":
            continue
        left = gone.get(e.player)
        if left is not None:
            raise SetupError(e.line, f"[[event]] č. {e.index + 1}: hráč „{e.player}“ odišiel "
                                     f"v {left.round}. kole (riadok {left.line}); "
                                     "potom už nič nerobí")
        if e.type == "leave":
            gone[e.player] = e
