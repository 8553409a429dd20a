"""Season ladders (A3 7.1 M-SR qualification, A5 9.1 Slovak Cup, ČAS duplicate cup): the data a
ladder is computed from and the ladder it gives — pure values, so the CLI, the results page and
the chat render one and the same thing.

Every decision carries the rule it comes from (`rule`), and reasons and tie criteria are codes
(`reason`, `criterion`) that the renderers turn into Slovak text through the catalogue.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


class SeasonError(ValueError):
    """A season that cannot be computed (an unknown kind, a player placed twice …)."""


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    """One event of the season and its final order."""

    name: str
    kind: str  # one of the profile's kinds: live-qt, online-qt, pairs, m-version, written, …
    date: dt.date
    places: tuple[str, ...]  # player ids in final order: places[0] finished 1st
    # excluded or withdrawn (e-SP 3.6): they keep their place in `places`, earn no points there,
    # and the points of that place go to nobody
    out: frozenset[str] = frozenset()
    field: int | None = None  # players at the event; None = len(places)
    organizers: frozenset[str] = frozenset()

    @property
    def size(self) -> int:
        return self.field if self.field is not None else len(self.places)


@dataclass(frozen=True, slots=True)
class Season:
    name: str
    competition: str  # a season profile: sss-msr, sss-cup, cas-duplicate-cup
    events: tuple[SeasonEvent, ...]
    champion: str | None = None  # M-SR: the reigning champion qualifies directly (A3 7.1)
    declined: frozenset[str] = frozenset()  # qualified but declined: the next one moves up


@dataclass(frozen=True, slots=True)
class Counted:
    """An event result that counts towards a player's total."""

    event: str
    points: float  # the place's points (or an organiser's credited points)
    coefficient: float
    slot: str  # which slot of the profile it fills, e.g. "live-qt" (one of the six best)
    rule: str
    organizer: bool = False  # points credited to the event's organiser, not earned by place

    @property
    def value(self) -> float:
        return self.points * self.coefficient


@dataclass(frozen=True, slots=True)
class NotCounted:
    """An event result that does not count, and why (a code the renderers translate)."""

    event: str
    points: float
    reason: str  # e.g. "not-best", "out", "kind-not-counted", "beyond-places"
    rule: str


@dataclass(frozen=True, slots=True)
class Tie:
    """Players level on total, and the criterion that ordered them (or "los"/"all-advance")."""

    players: tuple[str, ...]  # in the order decided
    criterion: str  # e.g. "cup-position", "best-results", "events-played", "field-size", "lot"
    rule: str
    at_cut: bool = False  # the tie straddles a qualification line


@dataclass(frozen=True, slots=True)
class LadderRow:
    player: str
    rank: int  # shared ranks are equal numbers (a tie no criterion broke)
    total: float
    qualified: bool
    counted: tuple[Counted, ...] = ()
    not_counted: tuple[NotCounted, ...] = ()
    group: str | None = None  # how he qualified or where he stands: "champion", "ms", "ms-b", …


@dataclass(frozen=True, slots=True)
class Ladder:
    season: str
    competition: str
    rule: str  # e.g. "A3 7.1"
    rows: tuple[LadderRow, ...]
    cut: int  # how many qualify
    ties: tuple[Tie, ...] = ()
    notes: tuple[str, ...] = field(default=())  # codes, e.g. "all-tied-advance"
