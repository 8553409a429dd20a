"""Evidence about one pairing, as the reconciler sees it (DESIGN.md section 3).

Three sources, all kept append-only by the store: the platform (herna.net game records, already
mapped from herna nicks to our player ids by the caller), the players in chat, and the head
administrator. Every item carries the `id` the store assigned, unique within one pairing's
evidence, so a verdict can name what it rests on. Times are timezone-aware `datetime`s (UTC by
convention) supplied by the caller: the rules never read a clock.

Construction validates: bad input raises `EvidenceError` with a Slovak message naming the item.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from rules.model import Case
from rules.profile import Profile


class EvidenceError(ValueError):
    """Evidence that cannot be reasoned about; the message says which item and why."""


class PlatformEnd(StrEnum):
    """How herna.net says a game ended."""

    FINISHED = "finished"  # a player went out
    PASSES = "passes"  # the server ended it after two rounds with no valid move (e-SP 3.5)
    RESIGNED = "resigned"
    TIME_LOSS = "time_loss"
    DISCONNECTED = "disconnected"
    DRAW = "draw"  # ended by agreement as a draw
    UNFINISHED = "unfinished"


#: Platform ends that name the player the game ended on (`PlatformGame.on`).
ENDS_ON_PLAYER = frozenset({PlatformEnd.RESIGNED, PlatformEnd.TIME_LOSS, PlatformEnd.DISCONNECTED})


def _aware(where: str, name: str, value: Any) -> None:
    if not isinstance(value, datetime):
        raise EvidenceError(f"{where}: {name} musí byť dátum a čas, nie {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise EvidenceError(f"{where}: {name} musí mať časové pásmo (UTC)")


def _score(where: str, name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EvidenceError(f"{where}: {name} musí byť nezáporné celé číslo, nie {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class PlatformGame:
    """One game record scraped from herna.net between the two players of a pairing.

    `first` is the player who actually started (herna's choice, which may be the opposite of
    the pairing: e-SP 4.2). `on` names the player a resigned / time_loss / disconnected game
    ended on. `ended` is None exactly while the game is unfinished. `moves` maps a player to
    the number of moves he made. `flags` are set by the caller ("wrong_settings",
    "unknown_nick", "started_before_round", ...): a flagged record is never scored silently.
    """

    id: int
    game_id: str
    first: str
    second: str
    first_score: int
    second_score: int
    end: PlatformEnd
    started: datetime
    ended: datetime | None = None
    on: str | None = None
    moves: Mapping[str, int] = field(default_factory=dict, hash=False)
    flags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        where = f"záznam partie {self.game_id} (#{self.id})"
        if self.first == self.second:
            raise EvidenceError(f"{where}: hráč nemôže hrať sám so sebou ({self.first})")
        _score(where, "skóre prvého hráča", self.first_score)
        _score(where, "skóre druhého hráča", self.second_score)
        try:
            object.__setattr__(self, "end", PlatformEnd(self.end))
        except ValueError:
            raise EvidenceError(f"{where}: neznámy spôsob ukončenia {self.end!r}") from None
        _aware(where, "začiatok", self.started)
        if (self.end is PlatformEnd.UNFINISHED) != (self.ended is None):
            raise EvidenceError(f"{where}: čas ukončenia má mať práve ukončená partia")
        if self.ended is not None:
            _aware(where, "koniec", self.ended)
            if self.ended < self.started:
                raise EvidenceError(f"{where}: partia skončila skôr, ako začala")
        players = (self.first, self.second)
        if self.end in ENDS_ON_PLAYER:
            if self.on not in players:
                raise EvidenceError(f"{where}: chýba hráč, ktorým partia skončila ({self.end})")
        elif self.on is not None:
            raise EvidenceError(f"{where}: pri ukončení {self.end} sa hráč neuvádza")
        moves = dict(self.moves)
        for player, n in moves.items():
            if player not in players:
                raise EvidenceError(f"{where}: ťahy hráča {player}, ktorý partiu nehral")
            _score(where, f"počet ťahov hráča {player}", n)
        object.__setattr__(self, "moves", MappingProxyType(moves))
        object.__setattr__(self, "flags", tuple(self.flags))

    @property
    def players(self) -> tuple[str, str]:
        return (self.first, self.second)

    def score_of(self, player: str) -> int:
        return self.first_score if player == self.first else self.second_score

    @property
    def moved(self) -> frozenset[str]:
        """Players who made at least one move."""
        return frozenset(p for p, n in self.moves.items() if n > 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreReport:
    """A player's report of the final score: his own and his opponent's (e-SP 4.6)."""

    id: int
    player: str
    at: datetime
    own: int
    opponent: int

    def __post_init__(self) -> None:
        where = f"hlásenie výsledku #{self.id} ({self.player})"
        _aware(where, "čas", self.at)
        _score(where, "vlastné skóre", self.own)
        _score(where, "skóre súpera", self.opponent)


@dataclass(frozen=True, slots=True, kw_only=True)
class AbsenceReport:
    """`reporter` is at the table and reports his opponent absent (e-SP 4.3)."""

    id: int
    reporter: str
    at: datetime

    def __post_init__(self) -> None:
        _aware(f"hlásenie neprítomnosti #{self.id} ({self.reporter})", "čas", self.at)


@dataclass(frozen=True, slots=True, kw_only=True)
class Arrival:
    """A player reports he has come to play (check-in for the round)."""

    id: int
    player: str
    at: datetime

    def __post_init__(self) -> None:
        _aware(f"príchod #{self.id} ({self.player})", "čas", self.at)


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawConfirmation:
    """A player confirms in writing that the game ended by an agreed draw (e-SP 3.5)."""

    id: int
    player: str
    at: datetime

    def __post_init__(self) -> None:
        _aware(f"potvrdenie remízy #{self.id} ({self.player})", "čas", self.at)


@dataclass(frozen=True, slots=True, kw_only=True)
class Dispute:
    """A player's complaint about a recorded result (e-SP 4.7); the lifecycle acts on it."""

    id: int
    player: str
    at: datetime
    text: str

    def __post_init__(self) -> None:
        _aware(f"reklamácia #{self.id} ({self.player})", "čas", self.at)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruling:
    """The head administrator's decision about the pairing; always with a reason."""

    id: int
    admin: str
    at: datetime
    case: Case
    reason: str

    def __post_init__(self) -> None:
        where = f"rozhodnutie #{self.id} ({self.admin})"
        _aware(where, "čas", self.at)
        if not self.reason.strip():
            raise EvidenceError(f"{where}: rozhodnutie musí mať zdôvodnenie")


@dataclass(frozen=True, slots=True)
class RoundClock:
    """The round's official start, game time limit (e-SP 4.5) and end of the waiting period
    (e-SP 4.3). The caller computes them from the propozície; `for_round` applies the profile's
    defaults when the propozície name nothing else — the game limit's is e-SP 4.5's 50 minutes,
    the waiting period's is only this program's (e-SP 4.3 leaves it to the propozície)."""

    start: datetime
    limit: datetime
    waiting_ends: datetime

    def __post_init__(self) -> None:
        for f in fields(self):
            _aware("časy kola", f.name, getattr(self, f.name))
        if not self.start < self.limit:
            raise EvidenceError("časy kola: časový limit musí byť po začiatku kola")
        if not self.start <= self.waiting_ends <= self.limit:
            raise EvidenceError("časy kola: čakacia lehota musí skončiť medzi začiatkom a limitom")

    @classmethod
    def for_round(
        cls,
        start: datetime,
        profile: Profile,
        *,
        limit_minutes: int | None = None,
        waiting_minutes: int | None = None,
    ) -> RoundClock:
        limit = profile.timing.game_limit_minutes if limit_minutes is None else limit_minutes
        wait = (
            profile.timing.waiting_minutes_default if waiting_minutes is None else waiting_minutes
        )
        return cls(start, start + timedelta(minutes=limit), start + timedelta(minutes=wait))


@dataclass(frozen=True, slots=True, kw_only=True)
class PairingEvidence:
    """Everything known about one pairing. `first` is the designated starter; `second` is None
    for a bye. Item tuples may be given in any order (and as any iterable).

    `platform_checked`: the platform was searched for this pair's games up to this moment
    (None = the caller does not track it and vouches the records are current). A verdict that
    rests on the *absence* of a record waits until the platform was checked past the deadline
    that matters, so a late sync cannot turn "they played" into a forfeit.
    """

    round: int
    first: str
    second: str | None
    games: tuple[PlatformGame, ...] = ()
    reports: tuple[ScoreReport, ...] = ()
    absences: tuple[AbsenceReport, ...] = ()
    arrivals: tuple[Arrival, ...] = ()
    confirmations: tuple[DrawConfirmation, ...] = ()
    disputes: tuple[Dispute, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    platform_checked: datetime | None = None
    # player id -> the name people know him by, for the texts of verdicts (ids where absent)
    names: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        where = f"párovanie {self.first}–{self.second} (kolo {self.round})"
        if self.first == self.second:
            raise EvidenceError(f"{where}: hráč nemôže hrať sám so sebou")
        for name in _ITEM_FIELDS:
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.platform_checked is not None:
            _aware(where, "čas kontroly herna.net", self.platform_checked)
        pair = {self.first} if self.second is None else {self.first, self.second}
        seen: set[int] = set()
        for item in self.items():
            if item.id in seen:
                raise EvidenceError(f"{where}: dôkaz #{item.id} je uvedený dvakrát")
            seen.add(item.id)
            for who in _players_named(item):
                if who not in pair:
                    raise EvidenceError(f"{where}: dôkaz #{item.id} patrí hráčovi {who} mimo páru")
            if isinstance(item, PlatformGame | Ruling) and set(_players_named(item)) != pair:
                raise EvidenceError(f"{where}: dôkaz #{item.id} sa netýka oboch hráčov páru")

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent(self, player: str) -> str | None:
        return self.second if player == self.first else self.first

    def name(self, player: str | None) -> str:
        """How a verdict's text names `player`."""
        return "—" if player is None else self.names.get(player, player)

    def items(self) -> Iterable[Any]:
        for name in _ITEM_FIELDS:
            yield from getattr(self, name)


_ITEM_FIELDS = ("games", "reports", "absences", "arrivals", "confirmations", "disputes", "rulings")


def _players_named(item: Any) -> tuple[str, ...]:
    if isinstance(item, PlatformGame):
        return item.players
    if isinstance(item, Ruling):
        return item.case.players
    if isinstance(item, AbsenceReport):
        return (item.reporter,)
    return (item.player,)
