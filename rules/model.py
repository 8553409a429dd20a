"""The plain data the rules work on (contract: DESIGN.md section 2).

Everything here is immutable and free of I/O so that any shell (store, chat, scraper) can build
it and the pure functions in `rules` can reason about it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class End(StrEnum):
    """How a pairing ended: one row (or a group of rows) of RULES.md section 2."""

    FINISHED = "finished"  # row 1: a player went out, or two rounds without a valid move
    TIME_LOSS = "time_loss"  # row 2
    RESIGNED = "resigned"  # row 3
    DISCONNECTED = "disconnected"  # row 4
    NO_SHOW = "no_show"  # row 5
    BOTH_NO_SHOW = "both_no_show"  # row 6
    OVER_LIMIT = "over_limit"  # row 7
    BYE = "bye"  # row 8
    SAVE_FAILED = "save_failed"  # rows 9, 10, 11
    AGREED_DRAW = "agreed_draw"  # row 12
    # a round a late entrant or a temporarily withdrawn player was not paired in: 0 points,
    # 0:0 (ČAS 14.4); one player, no opponent, not a bye. Only profiles that list it score it.
    MISSED_ROUND = "missed_round"


#: Ends of a pairing without an opponent (`Case.second` None).
ALONE = frozenset({End.BYE, End.MISSED_ROUND})

#: Ends that name the player the game ended on.
ENDS_WITH_LOSER = frozenset({End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED, End.NO_SHOW})


@dataclass(frozen=True, slots=True)
class Case:
    """What happened at one pairing.

    `first` is always the player who starts. `second` is None only for a BYE (and for a
    MISSED_ROUND, ČAS 14.4: the round a late entrant or a temporarily withdrawn player missed).
    `loser` names the player a TIME_LOSS, RESIGNED, DISCONNECTED or NO_SHOW ended on.
    `winner` (SAVE_FAILED only) is the winner both players agree on; None = no agreement.
    `agreed` (SAVE_FAILED only) marks that both players agree on the whole result, which is
    then `first_score`:`second_score` (RULES.md row 9).
    `moved` names the players who made at least one move.
    `round` is the round number (0 = unknown); it orders a player's history.
    """

    end: End
    first: str
    second: str | None
    first_score: int = 0
    second_score: int = 0
    loser: str | None = None
    winner: str | None = None
    moved: frozenset[str] = frozenset()
    agreed: bool = False
    round: int = 0

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent(self, player: str) -> str | None:
        """The other player at the table (None for a bye)."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise ValueError(f"{player!r} did not play in this game")


@dataclass(frozen=True, slots=True)
class Result:
    """How a Case is scored: tournament points, written scores, forfeits and the rule cited."""

    case: Case
    first_points: float
    second_points: float
    first_score: int
    second_score: int
    forfeited: frozenset[str]
    rated: bool
    rule: str

    @property
    def first(self) -> str:
        return self.case.first

    @property
    def second(self) -> str | None:
        return self.case.second

    def points_of(self, player: str) -> float:
        return self.first_points if player == self.case.first else self.second_points

    def score_of(self, player: str) -> int:
        """The score written for `player` ("Dal")."""
        return self.first_score if player == self.case.first else self.second_score

    def conceded_by(self, player: str) -> int:
        """The score written for `player`'s opponent ("Dostal")."""
        return self.second_score if player == self.case.first else self.first_score


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings (RULES.md section 6, 7)."""

    rank: int
    player: str
    points: float
    wins: int
    median_buchholz: float
    buchholz: float
    score: int  # active score: the sum of the player's own scores ("Dal")
    spread: int  # Dal − Dostal
    games: int
    out: str | None  # withdrawn / excluded: the reason, citing e-SP 3.6
    qualification_points: int
    neustadtl: float = 0.0  # Neustadtl Sonneborn–Berger (round robin, SP 1.3)
    tied: bool = False  # every criterion equal to a neighbour: the seed order decided


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player to be paired: id and the online screlo he is seeded by (e-SP 2.4)."""

    id: str
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round: `first` starts; `second` None means a bye."""

    table: int
    first: str
    second: str | None


@dataclass(frozen=True, slots=True)
class Rating:
    """An online screlo and the number of rated games behind it."""

    value: float
    games: int


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why a player is excluded under e-SP 3.6: the clause and the games that triggered it."""

    player: str
    clause: str  # "a" or "b"
    games: tuple[Result, ...] = field(default_factory=tuple)
    reason: str = ""
