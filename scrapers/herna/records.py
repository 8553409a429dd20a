"""Plain, frozen data read from herna.net: what a game record and a history row say.

Nothing here knows about tournaments or players' real names: nicks are herna.net's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


class EndKind(StrEnum):
    """How herna.net says a game ended."""

    FINISHED = "finished"  # a player went out
    PASSES = "passes"  # the server ended it: two rounds without a valid move (e-SP 3.5)
    RESIGNED = "resigned"
    TIME_LOSS = "time_loss"  # a player's clock ran out
    DISCONNECTED = "disconnected"  # a player disconnected and did not return (e-SP 4.8)
    DRAW = "draw"  # ended by agreement as a draw
    UNFINISHED = "unfinished"  # still in progress: fetch it again later


#: Ends that name the player the game ended on.
ENDS_ON_PLAYER = frozenset({EndKind.RESIGNED, EndKind.TIME_LOSS, EndKind.DISCONNECTED})


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The table's parameters as set by the players (e-SP 4.1)."""

    tempo: str  # e.g. "2x20"
    language: str  # e.g. "slovenský jazyk"
    dictionary: str  # as the page shows it, e.g. "áno" / "nie"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as the server recorded it. `first` is the nick who started.

    Scores are as the server shows them (at the moment the game ended, or now if unfinished);
    the rules adjust them (e.g. e-SP 4.8), not the scraper. Times are UTC.
    """

    game_id: str
    first: str
    second: str
    first_score: int
    second_score: int
    end: EndKind
    ended_on: str | None  # the nick who resigned / ran out of time / disconnected
    started: datetime
    ended: datetime | None  # None while unfinished
    first_moves: int
    second_moves: int
    settings: TableSettings

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ValueError(f"game {self.game_id!r}: " + "; ".join(problems))

    @property
    def starter(self) -> str:
        return self.first

    @property
    def nicks(self) -> tuple[str, str]:
        return (self.first, self.second)

    @property
    def finished(self) -> bool:
        return self.end is not EndKind.UNFINISHED

    def score_of(self, nick: str) -> int:
        return self.first_score if self._is_first(nick) else self.second_score

    def moves_of(self, nick: str) -> int:
        return self.first_moves if self._is_first(nick) else self.second_moves

    def _is_first(self, nick: str) -> bool:
        if nick not in self.nicks:
            raise ValueError(f"{nick!r} did not play game {self.game_id}")
        return nick == self.first


def _is_utc(when: datetime) -> bool:
    return when.tzinfo is not None and when.utcoffset() == timedelta(0)


def _problems(r: GameRecord) -> list[str]:
    out = []
    if not r.game_id:
        out.append("no game id")
    if not r.first or not r.second or r.first == r.second:
        out.append(f"two different nicks needed, got {r.first!r} and {r.second!r}")
    if r.first_moves < 0 or r.second_moves < 0:
        out.append("negative number of moves")
    if r.end in ENDS_ON_PLAYER:
        if r.ended_on not in (r.first, r.second):
            out.append(f"{r.end} must name one of the players, got {r.ended_on!r}")
    elif r.ended_on is not None:
        out.append(f"{r.end} names no player, got {r.ended_on!r}")
    if not _is_utc(r.started):
        out.append("start time must be timezone-aware UTC")
    if (r.ended is None) != (r.end is EndKind.UNFINISHED):
        out.append("an end time is given exactly when the game is not unfinished")
    elif r.ended is not None and not _is_utc(r.ended):
        out.append("end time must be timezone-aware UTC")
    # An end before the start is what the page says, not a layout fault: the sync refuses such
    # a record with its reason (rules.plausibility), and the other records are still read.
    return out


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One row of the game history: enough to decide whether to fetch the record."""

    game_id: str
    started: datetime  # UTC
    nicks: tuple[str, str]
    end: EndKind


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of the history, newest game first, and the link to the next (older) page."""

    entries: tuple[HistoryEntry, ...]
    next_url: str | None
    page: int
    pages: int
