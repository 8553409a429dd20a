"""What the store hands out and takes in: enums, small frozen dataclasses, errors, and `Change`.

Rows are converted generically from their field types: `datetime` fields from stored UTC text,
`bool` from 0/1, `dict`/`list` from JSON, enums from their values.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import Enum, StrEnum
from functools import cache
from typing import Any, TypeVar

from bot.store.times import from_text, to_text


class ActorKind(StrEnum):
    PLAYER = "player"
    ADMIN = "admin"
    PLATFORM = "platform"
    SCHEDULER = "scheduler"


class TournamentStatus(StrEnum):
    DRAFT = "draft"
    CHECKIN = "checkin"
    RUNNING = "running"
    FINISHED = "finished"


class EvidenceKind(StrEnum):
    PLATFORM_GAME = "platform_game"
    SCORE_REPORT = "score_report"
    ABSENCE = "absence"
    ARRIVAL = "arrival"
    DRAW_CONFIRMATION = "draw_confirmation"
    DISPUTE = "dispute"
    RULING = "ruling"


class ResultStatus(StrEnum):
    PENDING = "pending"
    PROPOSED = "proposed"
    PROVISIONAL = "provisional"
    DISPUTED = "disputed"
    CONFIRMED = "confirmed"


class TimerKind(StrEnum):
    """The known timer kinds; the column takes any non-empty text, so new kinds need no
    migration."""

    PRE_ROUND = "pre_round"
    ROUND_START = "round_start"
    REMINDER = "reminder"
    WAITING_END = "waiting_end"
    GAME_LIMIT = "game_limit"
    DRAW_DEADLINE = "draw_deadline"
    DISPUTE_WINDOW = "dispute_window"
    AUTO_APPLY = "auto_apply"
    CHECKIN_OPEN = "checkin_open"
    CHECKIN_CLOSE = "checkin_close"


class TimerStatus(StrEnum):
    PENDING = "pending"
    FIRED = "fired"
    CANCELLED = "cancelled"


class SyncKind(StrEnum):
    ROUND = "round"
    NIGHTLY = "nightly"


class SyncOutcome(StrEnum):
    RUNNING = "running"
    OK = "ok"
    PARTIAL = "partial"
    FAILED = "failed"


class RecordChange(StrEnum):
    """What an upsert of a platform record found."""

    NEW = "new"
    CHANGED = "changed"
    UNCHANGED = "unchanged"


# -- errors ------------------------------------------------------------------------------


class StoreError(Exception):
    """A request the store refuses; the message says why in plain words."""


class NotFoundError(StoreError, LookupError):
    pass


class DuplicateError(StoreError):
    pass


class VersionConflictError(StoreError):
    """The result changed since the caller read it (optimistic concurrency)."""

    def __init__(self, pairing_id: int, expected: int, current: int) -> None:
        super().__init__(
            f"result of pairing {pairing_id} is at version {current}, not {expected}: "
            "someone changed it meanwhile; read it again and decide anew"
        )
        self.pairing_id = pairing_id
        self.expected = expected
        self.current = current


class FrozenError(StoreError):
    """The row may no longer change (a confirmed result, pairings with evidence)."""


# -- who, when, why ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """Who makes a change, when, and why: every write helper takes one and audits it."""

    actor: ActorKind
    actor_id: str | None
    at: datetime
    reason: str | None = None

    def __post_init__(self) -> None:
        to_text(self.at)  # refuse a naive time now, not deep inside a query
        object.__setattr__(self, "actor", ActorKind(self.actor))

    @classmethod
    def player(cls, player_id: int | str, at: datetime, reason: str | None = None) -> Change:
        return cls(ActorKind.PLAYER, str(player_id), at, reason)

    @classmethod
    def admin(cls, admin_id: int | str, at: datetime, reason: str | None = None) -> Change:
        return cls(ActorKind.ADMIN, str(admin_id), at, reason)

    @classmethod
    def platform(cls, at: datetime, reason: str | None = None) -> Change:
        return cls(ActorKind.PLATFORM, "herna.net", at, reason)

    @classmethod
    def scheduler(cls, at: datetime, reason: str | None = None) -> Change:
        return cls(ActorKind.SCHEDULER, None, at, reason)


# -- rows --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    herna_nick: str
    discord_id: int | None
    discord_name: str | None
    sss_member: bool
    screlo: float | None  # None = newcomer (seeded by the profile's newcomer rating)
    rated_games: int
    last_season: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    slug: str
    name: str
    profile: str
    season: str
    status: TournamentStatus
    rounds_planned: int
    waiting_minutes: int
    game_limit_minutes: int
    checkin_opens_at: datetime | None
    checkin_closes_at: datetime | None
    tempo: str
    language_version: str
    channel_id: int | None
    admin_role_id: int | None
    admin_ids: list[int]
    auto_apply_forfeits_after_minutes: int | None  # None = the bot never applies forfeits
    settings: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Round:
    id: int
    tournament_id: int
    number: int
    starts_at: datetime  # the official start
    limit_at: datetime  # the game time limit (e-SP 4.5)
    paired_at: datetime | None
    published_at: datetime | None
    closed_at: datetime | None
    dispute_closes_at: datetime | None


@dataclass(frozen=True, slots=True)
class Entry:
    id: int
    tournament_id: int
    player_id: int
    registration_no: int
    registered_at: datetime
    paid: bool
    member: bool
    seed_rating: float | None
    seed_games: int
    checked_in_at: datetime | None
    withdrawn_at: datetime | None
    withdrawn_reason: str | None
    excluded_at: datetime | None
    excluded_reason: str | None

    @property
    def out(self) -> str | None:
        """Why the player is out of the tournament (withdrawn / excluded), else None."""
        return self.excluded_reason or self.withdrawn_reason


@dataclass(frozen=True, slots=True)
class TablePairing:
    """A stored pairing (one table of a round); `first_id` starts, `second_id` None = bye."""

    id: int
    tournament_id: int
    round_no: int
    table_no: int
    first_id: int
    second_id: int | None
    source: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Evidence:
    id: int
    pairing_id: int
    kind: EvidenceKind
    actor_kind: ActorKind
    actor_id: str | None
    at: datetime  # when it happened
    recorded_at: datetime  # when we learned it
    payload: dict[str, Any]
    attachment_url: str | None


@dataclass(frozen=True, slots=True)
class PlatformRecord:
    game_id: str
    payload: dict[str, Any]
    first_seen_at: datetime
    last_seen_at: datetime
    changed_at: datetime
    changes: int


@dataclass(frozen=True, slots=True)
class ResultFields:
    """The content of a result version, as a service writes it."""

    status: ResultStatus
    end_kind: str | None = None  # a rules.End value
    first_points: float | None = None
    second_points: float | None = None
    first_score: int | None = None
    second_score: int | None = None
    forfeited: list[str] = field(default_factory=list)
    rated: bool = False
    rule: str | None = None
    verdict: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(
        cls, result: Any, status: ResultStatus, verdict: dict[str, Any] | None = None
    ) -> ResultFields:
        """From a scored `rules.Result`."""
        return cls(
            status=status,
            end_kind=str(result.case.end),
            first_points=result.first_points,
            second_points=result.second_points,
            first_score=result.first_score,
            second_score=result.second_score,
            forfeited=sorted(result.forfeited),
            rated=result.rated,
            rule=result.rule,
            verdict=verdict or {},
        )


@dataclass(frozen=True, slots=True)
class StoredResult:
    """The current verdict of a pairing, or one version of it in the history."""

    pairing_id: int
    version: int
    status: ResultStatus
    end_kind: str | None
    first_points: float | None
    second_points: float | None
    first_score: int | None
    second_score: int | None
    forfeited: list[str]
    rated: bool
    rule: str | None
    verdict: dict[str, Any]
    updated_at: datetime
    actor_kind: ActorKind
    actor_id: str | None
    reason: str | None
    confirmed_at: datetime | None


@dataclass(frozen=True, slots=True)
class Discrepancy:
    id: int
    pairing_id: int
    result_version: int
    found_at: datetime
    recomputed: dict[str, Any]
    note: str | None
    resolved: bool
    resolved_at: datetime | None
    resolution: str | None


@dataclass(frozen=True, slots=True)
class Timer:
    id: int
    kind: str
    tournament_id: int | None
    key: str
    due_at: datetime
    payload: dict[str, Any]
    created_at: datetime
    fired_at: datetime | None
    status: TimerStatus


@dataclass(frozen=True, slots=True)
class RatingChange:
    id: int
    player_id: int
    tournament_id: int | None
    kind: str  # 'tournament' or 'decay'
    # the registry before and after: a chain, each row's before is the previous row's after
    before_value: float | None
    before_games: int
    after_value: float
    after_games: int
    at: datetime
    # a tournament's own change, from its entry's seeds (value None: counted from 1600);
    # differs from the registry's when another event finished during it (issue 44.1)
    event_before_value: float | None = None
    event_before_games: int | None = None
    event_after_value: float | None = None
    event_after_games: int | None = None


@dataclass(frozen=True, slots=True)
class SyncRun:
    id: int
    kind: SyncKind
    tournament_id: int | None
    started_at: datetime
    finished_at: datetime | None
    outcome: SyncOutcome
    summary: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: datetime
    actor_kind: ActorKind
    actor_id: str | None
    tournament_id: int | None
    action: str
    subject: str | None
    reason: str | None
    data: dict[str, Any]


# -- conversion --------------------------------------------------------------------------

R = TypeVar("R")


def _plain(hint: Any) -> Any:
    """`X | None` -> X; generics -> their origin (dict[str, Any] -> dict)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
    return typing.get_origin(hint) or hint


@cache
def _readers(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    readers: list[tuple[str, Any]] = []
    for f in fields(cls):
        kind = _plain(hints[f.name])
        if kind is datetime:
            readers.append((f.name, from_text))
        elif kind in (dict, list):
            readers.append((f.name, json.loads))
        elif kind is bool:
            readers.append((f.name, bool))
        elif isinstance(kind, type) and issubclass(kind, Enum):
            readers.append((f.name, _enum_reader(kind)))
        else:
            readers.append((f.name, None))
    return tuple(readers)


def _enum_reader(kind: type[Enum]) -> Callable[[Any], Any]:
    """`kind(value)` by one dict lookup for a known value (the enum's own call is two Python
    frames: every row pays it for each enum column)."""
    members = kind._value2member_map_

    def read(value: Any) -> Any:
        member = members.get(value)
        return kind(value) if member is None else member

    return read


def from_row(cls: type[R], row: dict[str, Any]) -> R:
    """Build dataclass `cls` from a row dict (extra columns are ignored)."""
    values = {}
    for name, read in _readers(cls):
        value = row[name]
        values[name] = value if value is None or read is None else read(value)
    return cls(**values)


@cache
def row_builder(cls: type[R], columns: tuple[str, ...]) -> Callable[[Sequence[Any]], R]:
    """`from_row` for rows of one query shape (`columns` as the cursor names them), planned
    once: each field's position and reader, the dataclass built positionally. Every query of
    the store goes through here, so this is what a row costs."""
    position = {name: i for i, name in enumerate(columns)}  # a repeated name: the last wins
    plan = tuple((position.get(name), name, read) for name, read in _readers(cls))

    def build(row: Sequence[Any]) -> R:
        values = []
        for i, name, read in plan:
            if i is None:
                raise KeyError(name)  # as from_row: the query lacks a field's column
            value = row[i]
            values.append(value if value is None or read is None else read(value))
        return cls(*values)

    return build
