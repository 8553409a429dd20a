"""What one sync pass is about and what it did.

The pass's first transaction (`plan_pass`) reads the rounds it is about — each a `RoundWindow`,
its clock and who sits where — the seated players' nicks, the other running classic events'
rounds a record may belong to instead (`placement`), and starts the sync run (closing first
every run whose process died, `run_owner`). `SyncSummary` is what the pass did, stored with the
run. `run_or_refuse` runs a transaction of the pass, turning a refusal into `SyncRefused`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Refusal, Reply
from bot.services.results.run_owner import this_process, why_dead
from bot.store import (
    Change,
    Round,
    SyncKind,
    SyncOutcome,
    SyncRun,
    TablePairing,
    Tournament,
    classic_rounds_between,
    finish_sync_run,
    get_player,
    get_tournament,
    list_discrepancies,
    list_rounds,
    pairings_of_round,
    running_sync_runs,
    start_sync_run,
)
from bot.store.players import nick_key

T = TypeVar("T")

#: Games between a paired couple started this long before the official start are still theirs
#: (flagged `started_before_round`); older ones are earlier rounds' or casual games.
EARLY = timedelta(minutes=60)
#: Games between a paired couple started this long after the game time limit still belong to
#: the round (the reconciler scores them OVER_LIMIT, e-SP 4.5).
LATE = timedelta(minutes=30)


@dataclass(frozen=True, slots=True)
class RoundWindow:
    """One round of the pass: its clock and who sits where."""

    number: int
    starts_at: datetime
    limit_at: datetime
    tables: tuple[TablePairing, ...]

    def table_of(self, player_id: int) -> TablePairing | None:
        for table in self.tables:
            if player_id in (table.first_id, table.second_id):
                return table
        return None

    def holds_pair_game(self, started: datetime) -> bool:
        return self.starts_at - EARLY <= started <= self.limit_at + LATE

    def during(self, started: datetime) -> bool:
        return self.starts_at <= started <= self.limit_at

    def pair_table(self, first: int, second: int) -> TablePairing | None:
        """The table where `first` and `second` sit together, if they do."""
        table = self.table_of(first)
        if table is not None and {table.first_id, table.second_id} == {first, second}:
            return table
        return None


@dataclass(frozen=True, slots=True)
class EventRound:
    """A round of some event, as a candidate owner of records."""

    tournament: Tournament
    window: RoundWindow


class SyncRefused(Exception):
    """The sync cannot start (unknown tournament, round not paired, …); `reply` says why."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.key)
        self.reply = reply


@dataclass(frozen=True, slots=True)
class Plan:
    tournament: Tournament
    kind: SyncKind
    rounds: tuple[RoundWindow, ...]
    nick_keys: frozenset[str]  # the seated players' nicks, casefolded: which games to fetch
    run_id: int
    discrepancies_before: frozenset[int]
    # the rounds of the other running classic events near the pass's window: a record their
    # pairing matches is theirs, whichever event's poll reads it (issue 44.3)
    others: tuple[EventRound, ...] = ()

    @property
    def since(self) -> datetime:
        return span(self.rounds)[0]

    @property
    def until(self) -> datetime:
        return span(self.rounds)[1]


def span(windows: Sequence[RoundWindow]) -> tuple[datetime, datetime]:
    """When games of these rounds may have started: from `EARLY` before the first start to
    `LATE` after the last limit."""
    return (min(w.starts_at for w in windows) - EARLY, max(w.limit_at for w in windows) + LATE)


@dataclass(slots=True)
class SyncSummary:
    """What one pass did; stored with the sync run and shown to the head admin."""

    slug: str
    tournament: str  # its name, for messages
    kind: SyncKind
    rounds: list[int]
    run_id: int | None = None
    outcome: SyncOutcome = SyncOutcome.RUNNING
    listed: int = 0  # history entries in the pass's window that involve a seated player
    fetched: int = 0  # records fetched from herna.net
    added: list[str] = field(default_factory=list)  # games that became new evidence
    changed: list[str] = field(default_factory=list)  # a newer version became evidence
    unchanged: int = 0  # re-fetched records that said nothing new
    flagged: list[dict[str, Any]] = field(default_factory=list)  # attached, not scored
    refused: list[dict[str, Any]] = field(default_factory=list)  # impossible: kept, not scored
    unmatched: list[dict[str, Any]] = field(default_factory=list)  # no table to attach to
    # placed at another running event's table (its pairing matches): that event's evidence
    elsewhere: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)  # result versions written
    discrepancies: list[int] = field(default_factory=list)  # new ones (e-SP 4.7)
    errors: list[dict[str, str]] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # game ids not fetched after an error
    open_tables: int = 0  # tables still without a counting game

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"], data["outcome"] = str(self.kind), str(self.outcome)
        return data


async def run_or_refuse(app: App, fn: Callable[..., T], *args: Any) -> T:
    value = await app.run(fn, *args)
    if isinstance(value, Reply):
        raise SyncRefused(value)
    return value


def plan_pass(tx: Tx, slug: str, round_no: int | None, kind: SyncKind) -> Plan:
    t = lookup.tournament(tx, slug)
    rounds = list_rounds(tx.db, t.id)
    if round_no is not None:
        chosen = [r for r in rounds if r.number == round_no]
        if not chosen:
            raise Refusal("sync.unknown_round", tournament=t.name, round=round_no)
        windows = [round_window(tx, t, chosen[0])]
        if not windows[0].tables:
            raise Refusal("sync.not_paired", tournament=t.name, round=round_no)
    else:
        started = [r for r in rounds if r.starts_at <= tx.now]
        windows = [w for w in (round_window(tx, t, r) for r in started) if w.tables]
        if not windows:
            raise Refusal("sync.nothing", tournament=t.name)
    seated = {p for w in windows for table in w.tables
              for p in (table.first_id, table.second_id) if p is not None}
    nicks = frozenset(nick_key(get_player(tx.db, p).herna_nick) for p in seated)
    before = frozenset(d.id for d in list_discrepancies(tx.db, t.id))
    run = start_run(tx, kind, tx.by_scheduler(f"{kind} sync"), tournament_id=t.id)
    return Plan(t, kind, tuple(windows), nicks, run.id, before, _other_rounds(tx, t, windows))


def _other_rounds(tx: Tx, t: Tournament, windows: Sequence[RoundWindow]
                  ) -> tuple[EventRound, ...]:
    """The paired rounds of every other classic event whose window meets the pass's: the
    pairings a record read by this pass may belong to instead (issue 44.3). A finished one
    counts too: an event finishing before its sibling's last pass still explains its games."""
    since, until = span(windows)
    found = []
    # a round's own window reaches EARLY before its start and LATE after its limit
    for rnd in classic_rounds_between(tx.db, since - LATE, until + EARLY, besides=t.id):
        other = get_tournament(tx.db, rnd.tournament_id)
        w = round_window(tx, other, rnd)
        if w.tables:
            found.append(EventRound(other, w))
    return tuple(found)


def start_run(tx: Tx, kind: SyncKind, by: Change, *, tournament_id: int | None = None
              ) -> SyncRun:
    """A new run, after closing as failed every run whose process died (`run_owner`)."""
    for run in running_sync_runs(tx.db):
        reason = why_dead(run, tx.now)
        if reason is not None:
            _close_dead(tx, run, reason)
    return start_sync_run(tx.db, kind, by, tournament_id=tournament_id, owner=this_process())


def _close_dead(tx: Tx, run: SyncRun, reason: str) -> None:
    by = tx.by_scheduler(f"sync run {run.id} died: {reason}")
    fault = {"kind": "died", "detail": reason}
    finish_sync_run(tx.db, run.id, SyncOutcome.FAILED, by,
                    summary=run.summary | {"outcome": str(SyncOutcome.FAILED),
                                           "errors": [*run.summary.get("errors", []), fault]})
    if run.tournament_id is not None:
        tx.to_admin(run.tournament_id, "sync.fault.died", run=run.id, started=run.started_at,
                    detail=reason)


def round_window(tx: Tx, t: Tournament, rnd: Round) -> RoundWindow:
    tables = tuple(pairings_of_round(tx.db, t.id, rnd.number))
    return RoundWindow(rnd.number, rnd.starts_at, rnd.limit_at, tables)
