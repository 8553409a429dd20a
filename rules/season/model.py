"""Season ladders (A3 7.1 M-SR qualification, A5 9.1 Slovak Cup, ČAS duplicate cup): the data a
ladder is computed from and the ladder it gives — pure values, so the CLI, the results page and
the chat render one and the same thing.

Every decision carries the rule it comes from (`rule`), and reasons and tie criteria are codes
(`reason`, `criterion`) that the renderers turn into Slovak text through the catalogue.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

#: why an event result does not count (NotCounted.reason); renderers translate every one
NOT_COUNTED_REASONS = (
    "out",  # excluded or withdrawn there: no points, nobody gets his place's (e-SP 3.6, SP 4)
    "beyond-places",  # placed after the last place the table scores (SP A3 7.1: 1.–32.)
    "kind-not-counted",  # this ladder does not count events of this kind
    "not-best",  # scored, but not among the best results its slot keeps (SP A5 9.1, ČAS best 4)
    # at an event he organised and played: the lower of his place and the organiser's credit
    # (the better one stands for the event)
    "organizer",
    "organizer-too-few",  # organiser's credit: too few results to compute it from (→ 0 points)
    "organizer-credit-once",  # ČAS: the credit for organising counts once, it went to another
)

#: how a tie was ordered (Tie.criterion)
TIE_CRITERIA = (
    "cup-position",  # SP A3 7.1: the higher Slovak Cup position
    "best-results",  # best result, then second best … (6+3 beats 6+2+1; 8+1 beats 5+4)
    "events-played",  # SP A3 7.1: more events played
    "field-size",  # SP A3 7.1: the larger field (see the sss-msr profile for which event's)
    "all-advance",  # SP A3 7.1: still tied at the line: all tied players advance
    "lot",  # ČAS: a lot — by Season.lots when given (Tie.decided), else the rank is shared
)

#: rows' groups: how a player qualified, or why not
GROUPS = (
    "champion",  # SP A3 7.1: the reigning champion qualifies directly
    "ms",  # SP A3 7.1: one of the 32 at the championship
    "ms-b",  # SP A3 7.1: one of the (up to) 32 at MS-B
    "internet",  # ČAS: the internet tournaments' ladder (8 seats)
    "correspondence",  # ČAS: Křížovka a hádanka (8 seats)
    "online",  # ČAS: the online tournament (4 seats)
    "live",  # ČAS: the live tournaments (12 seats, plus every seat freed)
    "declined",  # Season.declined: qualified but declined, the next one moves up
    "declined-ms-b",  # declined M-SR, plays MS-B (SP A3 7.1, msr.declined_plays_ms_b)
    "lot-pending",  # ČAS: contests a seat that only the lot can give (Season.lots)
)

#: Ladder.notes
NOTES = (
    "all-tied-advance",  # SP A3 7.1: more than the seats advance; the board rounds to even
    "lot-pending",  # ČAS: a lot decides a seat or a rank and Season.lots does not give it
    "seats-unfilled",  # fewer candidates than seats
    "declined-ms-b",  # SP A3 7.1 by the letter: who declined M-SR may play MS-B
    "declined-not-ms-b",  # the profile's other reading: who declined M-SR skips MS-B too
)

#: SeasonError.code
ERROR_CODES = (
    "unknown-competition",
    "unknown-kind",
    "duplicate-event",
    "duplicate-player",
    "out-not-placed",
    "bad-ranks",
    "bad-field",
    "one-event-only",
)


class SeasonError(ValueError):
    """A season that cannot be computed (an unknown kind, a player placed twice …).

    `code` (one of ERROR_CODES) and `params` let a renderer say it in Slovak."""

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


#: SP 1.3: at a pairs event "sa za hráča, resp. súpera považuje dvojica": a pair is one
#: competitor, so its two players share one place and places count pairs (1, 1, 2, 2)
PAIRS_KIND = "pairs"


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
    # the place of each entry of `places` when some share one (equal places in a written
    # competition): (1, 1, 3, 4) — non-decreasing, ranks[i] <= i + 1; None = 1, 2, 3 … At a
    # PAIRS_KIND event places count pairs (SP 1.3): (1, 1, 2, 2), the 2nd pair scores place 2
    ranks: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        return self.field if self.field is not None else len(self.places)

    def place(self, index: int) -> int:
        return self.ranks[index] if self.ranks is not None else index + 1


@dataclass(frozen=True, slots=True)
class Season:
    name: str
    competition: str  # a season profile: sss-msr, sss-cup, cas-duplicate-cup
    events: tuple[SeasonEvent, ...]
    champion: str | None = None  # M-SR: the reigning champion qualifies directly (A3 7.1)
    # qualified but declined: the next one moves up (M-SR: he may still play MS-B, profile
    # msr.declined_plays_ms_b; ČAS: the seat goes to the live ladder)
    declined: frozenset[str] = frozenset()
    # ČAS: lots drawn by the organiser, each the drawn order of some players ("a" before "b");
    # a tie no criterion breaks is ordered by the first entry that holds all its players
    lots: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Counted:
    """An event result that counts towards a player's total."""

    event: str
    points: float  # the place's points (or an organiser's credited points)
    coefficient: float
    slot: str  # which slot of the profile it fills, e.g. "live-qt" (one of the six best)
    rule: str
    organizer: bool = False  # points credited to the event's organiser, not earned by place
    # a ladder that is one event's final order (ČAS correspondence, online): the place it
    # ranks by; such a ladder gives no points (`points` is 0)
    place: int | None = None

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
    """Players level on total, and the criterion that ordered them (or "lot"/"all-advance")."""

    players: tuple[str, ...]  # in the order decided
    criterion: str  # e.g. "cup-position", "best-results", "events-played", "field-size", "lot"
    rule: str
    at_cut: bool = False  # the tie straddles a qualification line
    decided: bool = True  # False: the players still share a rank (a lot not drawn, all advance)
    line: str | None = None  # which line it straddles: a group code ("ms", "ms-b", "live" …)


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
    # ČAS: the ladders the cup's seats come from ("internet", "correspondence", "online", "live")
    parts: tuple[Ladder, ...] = ()

    def row_of(self, player: str) -> LadderRow | None:
        return next((r for r in self.rows if r.player == player), None)
