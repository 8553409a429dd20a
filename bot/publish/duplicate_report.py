"""The plain input of the duplicate results page (issue 24.6), built from `rules.duplicate`.

Like `report.TournamentReport` for the classic page: the renderer only reads it, the caller
builds it (from the store through the services' `event_view`, see `duplicate_source`).
Construction checks that the parts fit together — every round of a game's result has its rack,
top and board, every scored player is named — so a bad report fails here with a message, never
as a page that silently drops a round or a player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from bot.publish.report import Player, ReportError
from rules.duplicate.board import SIZE
from rules.duplicate.results import GameResult, Standing

#: where an event's results stand (see `DuplicateReport`)
STATUSES = ("running", "preliminary", "final")
Square = tuple[int, int]  # (row, column), both 0–14, as rules.duplicate.board


@dataclass(frozen=True, slots=True)
class TopMove:
    """A top (or a sub-top) as announced: "8H SLOVO, 24 b." (003 r. 5–9)."""

    coord: str
    word: str
    score: int


@dataclass(frozen=True, slots=True)
class DuplicateRound:
    """One round as the page shows it. `board_after`: 15 lines of 15 characters, '.' empty,
    upper case a tile, lower case a blank (`rules.duplicate.board.Board.text`); `placed`: the
    squares the top laid (highlighted). `tops[0]` is the top put on every board (003 r. 10);
    empty when no move scored."""

    number: int
    rack: str
    tops: tuple[TopMove, ...]
    board_after: str
    placed: frozenset[Square] = frozenset()
    part: int = 1

    def __post_init__(self) -> None:
        lines = self.board_after.splitlines()
        if len(lines) != SIZE or any(len(line) != SIZE for line in lines):
            raise ReportError(f"round {self.number}: the board is not 15 lines of 15 squares")
        if any(not (0 <= r < SIZE and 0 <= c < SIZE) for r, c in self.placed):
            raise ReportError(f"round {self.number}: a highlighted square is off the board")


@dataclass(frozen=True, slots=True)
class DuplicateGameReport:
    """One game: its scored result (`rules.duplicate.score_game`: per round every player's
    outcome, the totals, the approved/rejected words), the rounds' racks/tops/boards, and the
    rack seed's commitment (published before round 1) and the seed (revealed after the game,
    None until then)."""

    number: int
    result: GameResult
    rounds: tuple[DuplicateRound, ...]
    commitment: str
    seed: str | None = None
    faults: Mapping[tuple[int, str], str] = field(default_factory=dict)  # (round, player) →
    # why his move was void, in the engine's words (with their own rule); else the code's

    def __post_init__(self) -> None:
        scored = [r.round for r in self.result.rounds]
        shown = [r.number for r in self.rounds]
        if scored != shown:
            raise ReportError(f"game {self.number}: rounds scored {scored} but shown {shown}")

    def round(self, number: int) -> DuplicateRound:
        return self.rounds[number - 1]


@dataclass(frozen=True, slots=True)
class DuplicateReport:
    """The whole event. `status`: "running" — a game is under way, its evaluated rounds shown
    for information (003 r. 24); "preliminary" — played, open to protests (r. 25, 27);
    "final" — the protests decided (r. 29). `standings`: `rules.duplicate.standings`."""

    name: str
    profile_title: str
    generated_at: datetime
    status: str  # STATUSES
    players: Mapping[str, Player]
    games: tuple[DuplicateGameReport, ...]
    standings: tuple[Standing, ...]
    standings_rule: str  # the profile's results rules, e.g. "003 r. 46–49"
    status_rule: str  # the rule of the status: "003 r. 24", "003 r. 25, 27", "003 r. 29"
    words_rule: str = "003 r. 26"  # the profile's: the approved/rejected words are published
    shoot_out_rule: str = "003 r. 49"  # the profile's: what decides a tie left after r. 48
    notes: tuple[str, ...] = field(default=())  # shown under the title (e.g. a withheld top)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ReportError(f"status {self.status!r} is none of {', '.join(STATUSES)}")
        named = set(self.players)
        scored = {p for g in self.games for p in g.result.game.players}
        scored |= {s.player for s in self.standings}
        if scored - named:
            raise ReportError(f"players without a name: {', '.join(sorted(scored - named))}")

    def name_of(self, player: str) -> str:
        return self.players[player].name


def placed_squares(before: str, after: str) -> frozenset[Square]:
    """The squares that got a tile between two boards (15-line texts): the top's tiles."""
    rows = zip(before.splitlines(), after.splitlines(), strict=True)
    return frozenset((r, c) for r, (old, new) in enumerate(rows)
                     for c, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)
