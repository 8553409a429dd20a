"""The plain input of the results page: one online tournament, built from `rules` types.

The page renderer only reads this data; building it (from the store, the profile and the rules)
is the caller's job. Construction checks the data hangs together, so a bad report fails here
with a message that names the problem instead of producing a page that silently drops a player.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType

from rules.model import Rating, Result, Standing
from rules.profile import Profile

#: Standing criteria the page can show (names as in the profile's `standings.tiebreaks`).
KNOWN_CRITERIA = frozenset(
    {"points", "wins", "median_buchholz", "buchholz", "score", "spread", "neustadtl"}
)


class ResultStatus(StrEnum):
    """A result's life (DESIGN.md section 3)."""

    PENDING = "pending"
    PROPOSED = "proposed"
    PROVISIONAL = "provisional"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"


class ReportError(ValueError):
    """A report whose parts do not fit together; the message says which part."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the page shows him: display name and herna.net nick (both user input)."""

    id: str
    name: str
    nick: str = ""


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a round: its number, the scored result and where the result stands."""

    table: int
    result: Result
    status: ResultStatus = ResultStatus.CONFIRMED


@dataclass(frozen=True, slots=True)
class ScreloChange:
    """A player's online screlo before and after this tournament: its own change, from its
    seeds. `registry`: the registry's value after this tournament finished, when other changes
    came in since its start (another event finished meanwhile; issue 44.1), else None."""

    before: Rating
    after: Rating
    registry: Rating | None = None

    @property
    def delta(self) -> float:
        return self.after.value - self.before.value


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """Everything the results page shows about one tournament.

    `criteria` are the standings columns in tie-break order (see `criteria_for`);
    `standings_rule` is the rule they come from. `generated_at` and `round_starts` must be
    timezone-aware (the page shows them in Europe/Bratislava time).
    """

    name: str
    profile_title: str
    generated_at: datetime
    players: Mapping[str, Player]
    rounds: Mapping[int, Sequence[TableResult]]
    standings: Sequence[Standing]
    criteria: Sequence[str] = ("points", "wins", "median_buchholz", "buchholz", "score")
    standings_rule: str = ""
    screlo: Mapping[str, ScreloChange] = field(default_factory=dict)
    excluded: Mapping[str, str] = field(default_factory=dict)
    round_starts: Mapping[int, datetime] = field(default_factory=dict)
    #: the online screlo each player was seeded with (e-SP 2.4): "before" until `screlo` has
    #: the tournament's changes
    seeds: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Freeze the containers too, so a rendered report cannot change under the caller.
        freeze = object.__setattr__
        freeze(self, "players", MappingProxyType(dict(self.players)))
        freeze(self, "rounds", MappingProxyType({n: tuple(t) for n, t in self.rounds.items()}))
        freeze(self, "standings", tuple(self.standings))
        freeze(self, "criteria", tuple(self.criteria))
        freeze(self, "screlo", MappingProxyType(dict(self.screlo)))
        freeze(self, "excluded", MappingProxyType(dict(self.excluded)))
        freeze(self, "round_starts", MappingProxyType(dict(self.round_starts)))
        freeze(self, "seeds", MappingProxyType(dict(self.seeds)))
        _check(self)

    def name_of(self, player: str) -> str:
        return self.players[player].name

    def screlo_before(self, player: str) -> float | None:
        """The player's online screlo before this tournament, if known."""
        change = self.screlo.get(player)
        return change.before.value if change else self.seeds.get(player)

    def games(self) -> Iterator[tuple[int, str, Result]]:
        """(round, player, result) for every player at every table of every round."""
        for n, tables in self.rounds.items():
            for table in tables:
                for player in table.result.case.players:
                    yield n, player, table.result

    def out_reason(self, standing: Standing) -> str | None:
        """Why a player is outside the ranking (withdrawn / excluded), if he is."""
        return standing.out or self.excluded.get(standing.player)


def criteria_for(profile: Profile, *, round_robin: bool) -> tuple[tuple[str, ...], str]:
    """The standings columns and their rule for a tournament run under `profile`."""
    s = profile.standings
    if round_robin:
        return tuple(s.round_robin_tiebreaks), s.round_robin_rule
    return tuple(s.tiebreaks), s.rule


def _check(r: TournamentReport) -> None:
    def fail(why: str) -> None:
        raise ReportError(f"report {r.name!r}: {why}")

    if not r.name.strip():
        raise ReportError("report: the tournament name is empty")
    for key, p in r.players.items():
        if key != p.id:
            fail(f"players[{key!r}] holds player {p.id!r}")
    unknown = sorted(set(r.criteria) - KNOWN_CRITERIA)
    if unknown:
        fail(f"unknown standings criterion {unknown[0]!r}")
    aware = [("generated_at", r.generated_at)]
    aware += [(f"round_starts[{n}]", t) for n, t in r.round_starts.items()]
    for what, when in aware:
        if when.tzinfo is None or when.utcoffset() is None:
            fail(f"{what} has no time zone")

    def known(player: str | None, where: str) -> None:
        if player is not None and player not in r.players:
            fail(f"{where} names unknown player {player!r}")

    ranked: set[str] = set()
    for s in r.standings:
        known(s.player, "standings")
        if s.player in ranked:
            fail(f"player {s.player!r} is twice in the standings")
        ranked.add(s.player)
    for number, tables in r.rounds.items():
        seen: set[str] = set()
        for t in tables:
            for p in t.result.case.players:
                known(p, f"round {number}, table {t.table}")
                if p in seen:
                    fail(f"player {p!r} plays twice in round {number}")
                seen.add(p)
    for p in (*r.screlo, *r.excluded, *r.seeds):
        known(p, "screlo/excluded/seeds")
