"""The season file (issue 14): which events of a season feed a ladder, read as strictly as the
propozície — every problem is refused with its line and a Slovak reason, nothing is guessed.

```toml
[season]
name = "M-SR 2026/27"
competition = "sss-msr"        # a season profile of rules.season (sss-msr, sss-cup, …)
champion = "cyro"              # M-SR: the reigning champion qualifies directly (A3 7.1)
declined = ["jozo"]            # optional: qualified, but declined
lots = [["a", "b"]]            # optional (ČAS): a lot drawn, "a" before "b"
channel_id = 123456789012345678  # optional: the Discord channel the ladder's changes are
                               # announced in when an event ends (default: the event's own)

[[player]]                     # optional: a player not in the database's registry
id = "jan.novak"
name = "Ján Novák"

[[event]]
name = "KT Bratislava"
kind = "live-qt"               # one of the profile's kinds
date = 2026-10-10
field = 40                     # optional: players at the event (default: len(places))
organizers = ["jan.novak"]     # optional
places = ["cyro", "jan.novak", "anna77"]   # final order, 1st first …
out = ["anna77"]               # … of them excluded / withdrawn there (e-SP 3.6): no points
ranks = [1, 1, 3]              # optional: shared places (a tie) 1, 1, 3 …; pairs: 1, 1, 2, 2
# or, for a tournament finished in this database: tournament = "kt-online-24"
```

Players are named by the registry's id: a player's **herna.net nick** (`players.herna_nick`,
unique and compared case-insensitively by `bot.store.find_player_by_nick`). The numeric row id
is internal to one database file and means nothing to a person writing the file. A player who
never played online (a live-only qualifier) is declared once in `[[player]]`; an id declared
there that the registry already holds is refused, so two people are never merged into one.

`parse_season` checks the file alone (structure, kinds, dates, lists); `resolve_season` then
checks it against the database and builds the pure `rules.season.Season`.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from bot.services import bounds
from bot.services.duplicate.feed import duplicate_event, event_results, finished_order
from bot.services.tournament.propozicie import Reader, SetupError, key_lines, load_toml, only_tables
from bot.services.tournament.views import ranking
from bot.store import NotFoundError, TournamentStatus, find_player_by_nick, get_player
from bot.store import get_tournament_by_slug as tournament_by_slug
from rules import Profile
from rules.season import PAIRS_KIND, Season, SeasonEvent, ranks_fit, season_profile
from rules.season.profile import KindFormats

#: A live qualifier has some tens of players; a written competition a few hundred.
FIELD_MAX = 10_000
#: A season has some tens of events and a handful of lots; each bound is checked before any
#: item is read, so a hostile file is refused at once, never read item by item.
EVENTS_MAX = 1_000
LOTS_MAX = 1_000

_SEASON_KEYS: dict[str, tuple[str, bool]] = {
    "name": ("str", True), "competition": ("str", True), "champion": ("id", False),
    "declined": ("ids", False), "lots": ("lots", False), "channel_id": ("channel", False),
}
_PLAYER_KEYS: dict[str, tuple[str, bool]] = {"id": ("id", True), "name": ("str", True)}
_EVENT_KEYS: dict[str, tuple[str, bool]] = {
    "name": ("str", True), "kind": ("str", True), "date": ("date", True),
    "field": ("field", False), "organizers": ("ids", False), "tournament": ("str", False),
    "places": ("ids", False), "out": ("ids", False), "ranks": ("ranks", False),
}
_OWN_KINDS = {"id", "ids", "date", "field", "ranks", "lots", "channel"}
#: a Discord id (a snowflake) is a positive 64-bit number
CHANNEL_MAX = 2**63 - 1

KindsOf = Callable[[str], Collection[str]]


@dataclass(frozen=True, slots=True)
class Ref:
    """A player id as written in the file, with the line it is written on."""

    id: str
    line: int


@dataclass(frozen=True, slots=True)
class EventSpec:
    name: str
    kind: str
    date: dt.date
    line: int  # the [[event]]'s header
    field: int | None = None
    organizers: tuple[Ref, ...] = ()
    tournament: Ref | None = None  # a slug, on its line
    places: tuple[Ref, ...] = ()
    out: tuple[Ref, ...] = ()
    ranks: tuple[int, ...] | None = None  # shared places: (1, 1, 3) — a pairs team, a tie


@dataclass(frozen=True, slots=True)
class SeasonSpec:
    name: str
    competition: str
    line: int  # the [season] header
    events: tuple[EventSpec, ...]
    players: dict[str, tuple[str, str, int]]  # [[player]] id (casefold) -> (id, name, line)
    champion: Ref | None = None
    declined: tuple[Ref, ...] = ()
    lots: tuple[tuple[Ref, ...], ...] = ()  # ČAS: lots drawn, each a drawn order of players
    channel_id: int | None = None  # where the ladder's changes are announced (issue 37.3)


@dataclass(frozen=True, slots=True)
class ResolvedSeason:
    """The pure season and, for the renderers, each player's name."""

    season: Season
    names: dict[str, str]
    tournaments: frozenset[str] = frozenset()  # slugs of the events read from the database
    #: events named by `tournament =` whose final order is not there yet (not finished): the
    #: ladder is computed without them and says they are pending (issue 44.2)
    pending: tuple[str, ...] = ()
    declared: frozenset[str] = frozenset()  # ids of [[player]]s: no herna nick to show


# -- the file alone ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=2)
def _lines_of(text: str) -> tuple[str, ...]:
    """The file's lines, split once for all its tables' readers (a season may have thousands)."""
    return tuple(text.splitlines())


class _Reader(Reader):
    """The propozície's checker, with the season file's own value kinds: a player id, a list
    of them (each on its own line), a date, a field size."""

    def __init__(self, text: str, lines: dict[tuple[str, int, str], int], table: str,
                 index: int, data: Any, keys: dict[str, tuple[str, bool]]) -> None:
        self.text_lines = _lines_of(text)
        self._found: dict[str, tuple[int, int]] = {}  # key → (line, column) after the last item
        super().__init__(lines, table, index, data, keys, single=table == "season")

    def get(self, key: str, default: Any = None) -> Any:
        kind = self.keys.get(key, ("", False))[0]
        if kind not in _OWN_KINDS or key not in self.data:
            return super().get(key, default)
        value = self.data[key]
        self._found.pop(key, None)  # each reading looks its items up from the key's line
        if kind == "id":
            return self._ref(key, value)
        if kind == "ids":
            if not isinstance(value, list):
                raise self.fail(key, f"očakáva sa zoznam id hráčov, je tam {value!r}")
            if len(value) > FIELD_MAX:  # before any item is looked at: a hostile file ends here
                raise self.fail(key, f"najviac {FIELD_MAX} hráčov, je ich {len(value)}")
            return tuple(self._ref(key, item) for item in value)
        if kind == "ranks":
            if isinstance(value, list) and len(value) > FIELD_MAX:
                raise self.fail(key, f"najviac {FIELD_MAX} miest, je ich {len(value)}")
            if not isinstance(value, list) or not all(
                    isinstance(r, int) and not isinstance(r, bool) and r >= 1 for r in value):
                raise self.fail(key, f"očakáva sa zoznam miest (celé čísla od 1), je tam {value!r}")
            return tuple(value)
        if kind == "lots":
            if isinstance(value, list) and len(value) > LOTS_MAX:
                raise self.fail(key, f"najviac {LOTS_MAX} žrebov, je ich {len(value)}")
            if not isinstance(value, list) or not all(
                    isinstance(lot, list) and 2 <= len(lot) <= FIELD_MAX for lot in value):
                raise self.fail(key, "očakáva sa zoznam žrebov, každý zoznam aspoň dvoch id "
                                     f"hráčov v vyžrebovanom poradí, je tam {value!r}")
            return tuple(tuple(self._ref(key, item) for item in lot) for lot in value)
        if kind == "channel":
            if (isinstance(value, bool) or not isinstance(value, int)
                    or not 1 <= value <= CHANNEL_MAX):
                raise self.fail(key, "očakáva sa id kanála Discordu (celé číslo bez úvodzoviek, "
                                     f"v Discorde „Kopírovať ID kanála“), je tam {value!r}")
            return value
        if kind == "field":
            if (isinstance(value, bool) or not isinstance(value, int)
                    or not 1 <= value <= FIELD_MAX):
                raise self.fail(key, f"očakáva sa počet hráčov 1 – {FIELD_MAX}, je tam {value!r}")
            return value
        return self._date(key, value)

    def _ref(self, key: str, value: Any) -> Ref:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"očakáva sa id hráča (text), je tam {value!r}")
        line = self.value_line(key, value)
        try:
            clean = bounds.name(value, bounds.field_name("player_id"))
        except bounds.OutOfBounds as exc:
            raise SetupError(line, f"{self.where}: {exc}") from None
        return Ref(clean, line)

    def value_line(self, key: str, value: str) -> int:
        """The line a list item stands on: a list may span lines, one player a line. Items
        are looked up in order from where the previous one was found, so a long list costs
        one pass over its text, not one per item."""
        start = self.line(key)
        quoted = (f'"{value}"', f"'{value}'")
        no, column = self._found.get(key, (start, 0))
        while no <= len(self.text_lines):
            raw = self.text_lines[no - 1]
            hits = [at for at in (raw.find(q, column) for q in quoted) if at >= 0]
            if hits:
                self._found[key] = (no, min(hits) + 1)
                return no
            if no > start and re.match(r"^\s*(\[|[\w-]+\s*=)", raw):
                break  # the next key or table: the list has ended
            no, column = no + 1, 0
        return start

    def _date(self, key: str, value: Any) -> dt.date:
        day = self._any_date(key, value)
        if not bounds.EVENT_YEAR_MIN <= day.year <= bounds.EVENT_YEAR_MAX:
            raise self.fail(key, f"{day.isoformat()}: rok {day.year} je mimo rokov "
                                 f"{bounds.EVENT_YEAR_MIN}–{bounds.EVENT_YEAR_MAX} (preklep?)")
        return day

    def _any_date(self, key: str, value: Any) -> dt.date:
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value.strip())
            except ValueError:
                pass
        raise self.fail(key, f"{value!r} nie je dátum v tvare RRRR-MM-DD")


def _competitions() -> list[str]:
    from rules.season import season_profiles

    return season_profiles()


def _profile_kinds(competition: str) -> Collection[str]:
    return season_profile(competition).kinds


def parse_season(text: str, kinds_of: KindsOf | None = None) -> SeasonSpec:
    """Check the file on its own; `SetupError` names the line of the first problem.
    `kinds_of(competition)` gives the profile's event kinds (default: rules.season's profile,
    whose error — an unknown competition — is reported on `competition`'s line)."""
    data = load_toml(text)
    lines = key_lines(text)
    only_tables(data, lines, ("season", "player", "event"), "[season], [[player]] a [[event]]")
    if "season" not in data:
        raise SetupError(1, "chýba tabuľka [season]")
    s = _Reader(text, lines, "season", 0, data["season"], _SEASON_KEYS)
    competition = s.get("competition")
    try:
        kinds = (kinds_of or _profile_kinds)(competition)
    except (ValueError, LookupError):  # SeasonError, ProfileError, an unknown name
        raise s.fail("competition", f"„{competition}“ nie je známa súťaž (známe: "
                                    f"{', '.join(_competitions())})") from None
    for table, most in (("player", FIELD_MAX), ("event", EVENTS_MAX)):
        items = data.get(table, [])
        if isinstance(items, list) and len(items) > most:
            raise SetupError(lines.get((table, 0, ""), 1),
                             f"najviac {most} tabuliek [[{table}]], je ich {len(items)}")
    players = _players(text, lines, data.get("player", []))
    events = _events(text, lines, data.get("event", []), kinds)
    lots = s.get("lots", ())
    _consistent(s, lots)
    return SeasonSpec(s.get("name"), competition, s.line(), events, players,
                      s.get("champion"), s.get("declined", ()), lots, s.get("channel_id"))


def _consistent(s: _Reader, lots: tuple[tuple[Ref, ...], ...]) -> None:
    """Lots drawn are orders of players; together they must be one order (ČAS). Refused on
    the line: a player twice in one lot, or lots that contradict each other — "a" before "b"
    in one and "b" before "a" in another, directly or through others (a cycle). Linear in
    the lots' size: each lot adds its neighbours' edges, a topological sort finds a cycle."""
    after: dict[str, set[str]] = {}
    for lot in lots:
        _unique(s, "lots", lot)
        for first, second in itertools.pairwise(r.id.casefold() for r in lot):
            after.setdefault(first, set()).add(second)
            after.setdefault(second, set())
    waiting = {node: 0 for node in after}
    for nexts in after.values():
        for node in nexts:
            waiting[node] += 1
    ready = [node for node, n in waiting.items() if n == 0]
    while ready:
        for node in after[ready.pop()]:
            waiting[node] -= 1
            if waiting[node] == 0:
                ready.append(node)
    cyclic = {node for node, n in waiting.items() if n > 0}
    for lot in reversed(lots):  # the later lot is the one that contradicts the earlier
        for first, second in itertools.pairwise(lot):
            if first.id.casefold() in cyclic and second.id.casefold() in cyclic:
                raise SetupError(second.line, f"{s.where}: lots: žreby si odporujú — "
                                              f"„{first.id}“ pred „{second.id}“ tu, inde naopak "
                                              "(priamo alebo cez iných); žreb určuje jedno "
                                              "poradie")


def _tables(lines: dict[tuple[str, int, str], int], table: str, items: Any) -> list[Any]:
    if not isinstance(items, list):
        raise SetupError(lines.get((table, 0, ""), lines.get(("", 0, table), 1)),
                         f"[[{table}]] musí byť zoznam tabuliek")
    return items


def _players(text: str, lines: dict[tuple[str, int, str], int],
             items: Any) -> dict[str, tuple[str, str, int]]:
    players: dict[str, tuple[str, str, int]] = {}
    for n, item in enumerate(_tables(lines, "player", items)):
        p = _Reader(text, lines, "player", n, item, _PLAYER_KEYS)
        ref = p.get("id")
        if ref.id.casefold() in players:
            raise p.fail("id", f"hráč „{ref.id}“ je v súbore dvakrát")
        players[ref.id.casefold()] = (ref.id, p.get("name"), ref.line)
    return players


def _events(text: str, lines: dict[tuple[str, int, str], int], items: Any,
            kinds: Collection[str]) -> tuple[EventSpec, ...]:
    events: list[EventSpec] = []
    names: set[str] = set()
    for n, item in enumerate(_tables(lines, "event", items)):
        e = _Reader(text, lines, "event", n, item, _EVENT_KEYS)
        name, kind = e.get("name"), e.get("kind")
        if name.casefold() in names:
            raise e.fail("name", f"podujatie „{name}“ je v súbore dvakrát")
        names.add(name.casefold())
        if kind not in kinds:
            raise e.fail("kind", f"„{kind}“ nie je druh podujatia tejto súťaže "
                                 f"(známe: {', '.join(kinds)})")
        has_places, has_tournament = "places" in e.data, "tournament" in e.data
        if has_places == has_tournament:
            raise SetupError(e.line(), f"{e.where}: uveď buď tournament = \"SKRATKA\" "
                                       "(turnaj z databázy), alebo places = [...] (poradie)")
        if has_tournament and "out" in e.data:
            raise e.fail("out", "vylúčených a odstúpených z turnaja v databáze berie "
                                "stredisko z databázy")
        places, out = e.get("places", ()), e.get("out", ())
        _unique(e, "places", places)
        _unique(e, "out", out)
        _unique(e, "organizers", e.get("organizers", ()))
        placed = {r.id.casefold() for r in places}
        for ref in out:
            if ref.id.casefold() not in placed:
                raise SetupError(ref.line, f"{e.where}: out: hráč „{ref.id}“ nie je v places "
                                           "(vylúčený či odstúpený hráč ostáva na svojom mieste)")
        ranks = e.get("ranks")
        if ranks is not None and not ranks_fit(ranks, len(places), kind):
            shape = ("dvojica je jeden súťažiaci, miesta počítajú dvojice (1, 1, 2, 2; SP 1.3)"
                     if kind == PAIRS_KIND else "zdieľané miesto opakuje predošlé (1, 1, 3)")
            raise e.fail("ranks", f"miesta {list(ranks)} nesedia s places ({len(places)} "
                                  f"hráčov): od 1, neklesajú, {shape}")
        field = e.get("field")
        if field is not None and places and field < len(places):
            raise e.fail("field", f"podujatia sa zúčastnilo {field} hráčov, ale places ich "
                                  f"uvádza {len(places)}")
        slug = e.get("tournament")
        events.append(EventSpec(
            name, kind, e.get("date"), e.line(), field, e.get("organizers", ()),
            Ref(slug, e.line("tournament")) if slug else None, places, out, ranks))
    if not events:
        raise SetupError(1, "súbor neuvádza žiadne podujatie ([[event]])")
    return tuple(events)


def _unique(e: _Reader, key: str, refs: Iterable[Ref]) -> None:
    seen: set[str] = set()
    for ref in refs:
        if ref.id.casefold() in seen:
            raise SetupError(ref.line, f"{e.where}: {key}: hráč „{ref.id}“ je tam dvakrát")
        seen.add(ref.id.casefold())


# -- against the database -------------------------------------------------------------------


class _Players:
    """Ids as the ladder knows them: the registry's nick as the registry spells it, or the
    [[player]] id; with names for the renderers."""

    def __init__(self, db: Database | None, spec: SeasonSpec) -> None:
        self.db, self.spec = db, spec
        self.names: dict[str, str] = {}
        self.declared: set[str] = set()
        for declared, _, line in spec.players.values():
            player = find_player_by_nick(db, declared) if db is not None else None
            if player is not None:
                raise SetupError(line, f"[[player]]: „{declared}“ je už v registri ako "
                                       f"{player.name} ({player.herna_nick}) — použi jeho id "
                                       "a záznam [[player]] vynechaj, alebo zvoľ iné id")

    def id_of(self, ref: Ref) -> str:
        own = self.spec.players.get(ref.id.casefold())
        if own is not None:  # as the [[player]] spells it
            self.names[own[0]] = own[1]
            self.declared.add(own[0])
            return own[0]
        player = find_player_by_nick(self.db, ref.id) if self.db is not None else None
        if player is None:
            where = "v registri ani v [[player]]" if self.db is not None else (
                "v [[player]] (bez databázy sa registra nepýtam)")
            raise SetupError(ref.line, f"neznámy hráč „{ref.id}“: nie je {where}")
        self.names[player.herna_nick] = player.name
        return player.herna_nick

    def ids(self, refs: Iterable[Ref]) -> tuple[str, ...]:
        return tuple(self.id_of(r) for r in refs)


def _finished(db: Database | None, ref: Ref, players: _Players, kind: str,
              fixed: KindFormats | None
              ) -> tuple[tuple[str, ...], frozenset[str], tuple[int, ...] | None] | None:
    """A finished tournament's final order, who was out of it (e-SP 3.6), by nick, and the
    places when some are shared (None: one player a place); None when it has not finished
    yet (its final order is not there: the event is pending). `fixed`: the formats an event
    of `kind` is played in (a duplicate order in a Swiss qualifier's place is no result of
    it)."""
    if db is None:
        raise SetupError(ref.line, f"turnaj „{ref.id}“: bez databázy (--db) ho niet odkiaľ "
                                   "načítať")
    try:
        t = tournament_by_slug(db, ref.id)
    except NotFoundError:
        raise SetupError(ref.line, f"turnaj „{ref.id}“ v databáze nie je") from None
    # issue 24.6: a duplicate event's order is its stored final duplicate results
    event = duplicate_event(db, t)
    played = "classic" if event is None else "duplicate"
    if fixed is not None and played not in fixed.formats:
        raise SetupError(ref.line, f"turnaj „{ref.id}“ je {_FORMAT_TEXT[played]}, no podujatie "
                                   f"druhu „{kind}“ sa podľa {fixed.rule} hrá ako "
                                   f"{_FORMAT_TEXT[fixed.formats[0]]} — jeho poradie sem "
                                   "nepatrí")
    if event is not None:
        read = event_results(db, event)
        if read.status != "final":  # 003 r. 29: only final results count
            return None
        order, ranks = finished_order(db, event, ref.line, read)
        return players.ids(Ref(nick, ref.line) for nick in order), frozenset(), ranks
    if t.status is not TournamentStatus.FINISHED:
        return None  # the ladder takes only a final order: counted once it has finished
    rank = ranking(db, t, Profile.load(t.profile))
    nicks = {s.player: get_player(db, int(s.player)).herna_nick for s in rank.standings}
    for nick in nicks.values():
        players.id_of(Ref(nick, ref.line))
    return (tuple(nicks[s.player] for s in rank.standings),
            frozenset(nicks[p] for p in rank.out if p in nicks), None)


_FORMAT_TEXT = {"classic": "klasický turnaj (švajčiarsky systém)",
                "duplicate": "turnaj v duplikátnom (opisovanom) scrabble"}


def _format_rule(competition: str, kind: str) -> KindFormats | None:
    return season_profile(competition).formats_of(kind)


def resolve_season(db: Database | None, spec: SeasonSpec) -> ResolvedSeason:
    """The season with every id checked against the registry (`db`; None: only [[player]])
    and every `tournament =` event read from the database; `SetupError` names the line."""
    players = _Players(db, spec)
    events, pending = [], []
    for e in spec.events:
        ranks = e.ranks
        if e.tournament is not None:
            fixed = _format_rule(spec.competition, e.kind)
            final = _finished(db, e.tournament, players, e.kind, fixed)
            if final is None:
                pending.append(e.name)
                continue
            places, out, shared = final
            ranks = shared or e.ranks
        else:
            places, out = players.ids(e.places), frozenset(players.ids(e.out))
        events.append(SeasonEvent(
            name=e.name, kind=e.kind, date=e.date, places=places, out=out, field=e.field,
            organizers=frozenset(players.ids(e.organizers)), ranks=ranks))
    champion = players.id_of(spec.champion) if spec.champion else None
    season = Season(spec.name, spec.competition, tuple(events), champion=champion,
                    declined=frozenset(players.ids(spec.declined)),
                    lots=tuple(players.ids(lot) for lot in spec.lots))
    slugs = frozenset(e.tournament.id for e in spec.events if e.tournament is not None)
    return ResolvedSeason(season, players.names, slugs, tuple(pending),
                          frozenset(players.declared))
