"""The result sync: herna.net game records → evidence → verdicts, during a round and nightly.

One pass (`sync_round`, `sync_tournament`, `nightly`) is four steps, and the database is never
held while herna.net is asked anything:

1. a transaction reads what the pass is about (the rounds, their tables, the seated players'
   nicks) and starts a sync run;
2. outside any transaction the history is read and the records of games that involve a seated
   player are fetched (a round poll skips games already stored as finished);
3. each table's records are stored in a transaction of their own — the raw record
   (`upsert_platform_record`, every record seen is kept), a `platform_game` evidence row when
   it is new or changed, then `lifecycle.refresh_pairing`, which announces new results;
4. a last transaction finishes the run (ok / partial / failed, with the summary) and tells the
   head admin what needs him.

A record is never scored silently when something about it is off: it carries `flags`
(`rules.reconcile.FLAG_TEXTS`) and the reconciler hands it to the head admin. A record whose
players are not paired together, or whose player is unknown and has no table, has no pairing to
attach to: it is kept in `platform_records` and listed for the admin. The herna nick → player
mapping is the registry's (`find_player_by_nick`), never a guess.

A record that cannot be true (a score, move count or time outside the profile's `plausible`
bounds, `rules.plausibility`) is checked at this boundary: kept as evidence marked `refused`
with its reasons, told to the head admin once, never scored or announced. The reconciler reads
only a game's latest unrefused version, so an earlier verdict stands meanwhile and herna.net's
corrected page decides without anybody's ruling.

A scraper error (herna.net down after retries, rate limiting, a changed page layout, the read's
page cap or deadline) stops the fetching but loses nothing: what came in is stored (the history
pages read before a bound was hit included), the run is marked partial or failed and the admin
gets one line saying why. A run whose process died is closed as failed when the next one
starts (`run_owner`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Refusal, Reply
from bot.services.results.evidence_map import game_payload, is_refused
from bot.services.results.lifecycle import describe, refresh_pairing, refresh_round
from bot.services.results.placement import EARLY, LATE, EventRound, RoundWindow, owner_of
from bot.services.results.run_owner import this_process, why_dead
from bot.store import (
    Change,
    EvidenceKind,
    PlatformRecord,
    RecordChange,
    ResultStatus,
    Round,
    SyncKind,
    SyncOutcome,
    SyncRun,
    TablePairing,
    Tournament,
    TournamentStatus,
    append_evidence,
    find_player_by_nick,
    finish_sync_run,
    from_text,
    get_pairing,
    get_platform_record,
    get_player,
    get_result,
    last_sync_run,
    list_discrepancies,
    list_entries,
    list_evidence,
    list_results,
    list_rounds,
    list_tournaments,
    pairings_of_round,
    rating_history,
    running_sync_runs,
    start_sync_run,
    to_text,
    upsert_platform_record,
)
from bot.store.duplicate import get_event
from bot.store.evidence import mark_unmatched_told, unmatched_told
from bot.store.pairings import tournament_of_pairing
from bot.store.players import nick_key
from rules.plausibility import Implausible, check_game
from rules.reconcile import FLAG_TEXTS
from scrapers.herna import (
    DeadlinePassed,
    EndKind,
    GameRecord,
    HernaError,
    HernaUnavailable,
    HistoryEntry,
    LayoutChanged,
    LoginFailed,
    PageMissing,
    PageTooLarge,
    RateLimited,
    TableSettings,
    TooManyPages,
)

log = logging.getLogger("bot.services.results.sync")
T = TypeVar("T")

#: A round is polled until its game time limit plus this margin: records of games that ended
#: just before the limit appear on herna.net a little later.
POLL_MARGIN = timedelta(minutes=15)

#: Why a record found no table; the rule each flag touches comes from FLAG_TEXTS' citation.
NOT_PAIRED = "not_paired"
NOT_PAIRED_RULE = "e-SP 2.4"  # the pairing is the control software's (e-SP 2.4)

Progress = Callable[[int, int], None]  # (records fetched, records wanted)


class Herna(Protocol):
    """What the sync needs of `scrapers.herna.HernaClient` (already inside `async with`)."""

    async def history(self, since: datetime, *, nick: str | None = None) -> list[HistoryEntry]:
        ...

    async def record(self, game_id: str) -> GameRecord:
        ...


class SyncRefused(Exception):
    """The sync cannot start (unknown tournament, round not paired, …); `reply` says why."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.key)
        self.reply = reply


# -- what one pass is about ---------------------------------------------------------------


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
        return min(w.starts_at for w in self.rounds) - EARLY

    @property
    def until(self) -> datetime:
        return max(w.limit_at for w in self.rounds) + LATE


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a fetched record belongs: a table (with the store ids standing for its first and
    second nick) or none (`table` None: listed for the admin)."""

    record: GameRecord
    round_no: int
    table: TablePairing | None
    ids: tuple[int, int] | None
    flags: tuple[str, ...]
    # why the record is impossible (the profile's bounds): kept as refused evidence, not scored
    refused: tuple[Implausible, ...] = ()
    # the other running event whose pairing it matches (None: this pass's event or no table)
    elsewhere: Tournament | None = None
    # read back from `platform_records` (held as finished), not fetched again: placed where it
    # belongs if it is not yet, never counted as seen again
    held: bool = False
    # a finished event whose pairing it matches: explained, so no stray here; kept as a shared
    # record, but never placed there (a finished event's results do not change, DESIGN.md 3)
    settled: Tournament | None = None


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


# -- the public passes --------------------------------------------------------------------


async def sync_round(
    app: App, slug: str, round_no: int, client: Herna, *, progress: Progress | None = None,
    skip_finished: bool = True,
) -> SyncSummary:
    """One pass over one round: fetch, store, reconcile. Games already stored as finished are
    not fetched again (`skip_finished`). Raises `SyncRefused` for an unknown tournament or a
    round without pairings; herna.net faults end in the summary, never as an exception."""
    plan = await _run(app, _plan, slug, round_no, SyncKind.ROUND)
    return await _sync(app, plan, client, progress, skip_finished)


async def sync_tournament(
    app: App, slug: str, client: Herna, *, kind: SyncKind = SyncKind.ROUND,
    progress: Progress | None = None,
) -> SyncSummary:
    """Every started, paired round of the tournament, every record fetched again."""
    plan = await _run(app, _plan, slug, None, kind)
    return await _sync(app, plan, client, progress, False)


async def sync_command(
    app: App, slug: str, client: Herna, progress: Progress | None = None
) -> Reply:
    """`stredisko sync SLUG`: the whole tournament, with progress ("3/32") for the console."""
    try:
        summary = await sync_tournament(app, slug, client, progress=progress)
    except SyncRefused as refused:
        return refused.reply
    key = {SyncOutcome.OK: "sync.done", SyncOutcome.PARTIAL: "sync.partial"}.get(
        summary.outcome, "sync.failed")
    return Reply(summary.outcome is SyncOutcome.OK, key, _counts(summary), data=summary)


async def nightly(app: App, client: Herna, *, since: datetime | None = None
                  ) -> list[SyncSummary]:
    """The nightly sync: every tournament with unconfirmed results, or finished but not yet
    rated, fetched again in full; the head admin gets each tournament's summary. `since` (the
    night's scheduled time): a tournament whose own nightly run succeeded since is left out,
    so a catch-up after downtime redoes only the events whose run failed or never ran."""
    due = await _run(app, _nightly_slugs)
    if not due:  # the night's run is still recorded, so the start-up catch-up knows it ran
        await _run(app, _idle_night)
    slugs = due if since is None else await _run(app, _owed_slugs, due, since)
    summaries = []
    for slug in slugs:
        try:
            summaries.append(await sync_tournament(app, slug, client, kind=SyncKind.NIGHTLY))
        except SyncRefused:
            continue  # nothing started yet: nothing to fetch
        except Exception:  # one tournament's trouble must not stop the others' sync
            log.exception("nightly sync of %s failed", slug)
    return summaries


async def poll_round(
    app: App, slug: str, round_no: int, client: Herna, *, margin: timedelta = POLL_MARGIN
) -> SyncSummary | None:
    """One poll for the scheduler (every `config.sync.poll_minutes`): a pass while the round
    has tables without a counting game and its limit + `margin` has not passed; None when
    there is nothing left to poll for."""
    if not await _run(app, _worth_polling, slug, round_no, margin):
        return None
    return await sync_round(app, slug, round_no, client)


async def poll_current_round(
    app: App, slug: str, open_client: Callable[[], AbstractAsyncContextManager[Herna]],
    *, margin: timedelta = POLL_MARGIN,
) -> SyncSummary | None:
    """One tick of the bot's round poll (every `config.sync.poll_minutes`): sync the
    tournament's current round while some table still lacks a counting game before its limit
    + `margin`. herna.net is logged into only when there is something to look for."""
    round_no = await _run(app, _current_round_no, slug)
    if round_no is None or not await _run(app, _worth_polling, slug, round_no, margin):
        return None
    async with open_client() as client:
        return await sync_round(app, slug, round_no, client)


async def poll_current_rounds(
    app: App, slugs: Iterable[str],
    open_client: Callable[[], AbstractAsyncContextManager[Herna]], *,
    margin: timedelta = POLL_MARGIN,
) -> list[SyncSummary]:
    """One tick of the bot's round poll over several events: `poll_current_round` for each,
    with ONE herna.net client (one login) shared by every event that has something to look
    for, opened at the first of them. One event's trouble is logged and never stops the
    others' poll."""
    summaries: list[SyncSummary] = []
    async with AsyncExitStack() as stack:
        client: Herna | None = None
        for slug in slugs:
            try:
                round_no = await _run(app, _current_round_no, slug)
                if round_no is None or not await _run(app, _worth_polling, slug, round_no,
                                                      margin):
                    continue
                if client is None:
                    client = await stack.enter_async_context(open_client())
                summaries.append(await sync_round(app, slug, round_no, client))
            except Exception:
                log.exception("round poll of %s failed", slug)
    return summaries


def _current_round_no(tx: Tx, slug: str) -> int | None:
    rnd = lookup.current_round(tx, lookup.tournament(tx, slug))
    return None if rnd is None or rnd.closed_at is not None else rnd.number


@dataclass(slots=True)
class RoundPoller:
    """Repeats `poll_round` every `every` until it says there is nothing left to poll for."""

    app: App
    slug: str
    round_no: int
    client: Herna
    every: timedelta
    margin: timedelta = POLL_MARGIN
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def run(self) -> list[SyncSummary]:
        passes = []
        while True:
            summary = await poll_round(self.app, self.slug, self.round_no, self.client,
                                       margin=self.margin)
            if summary is None:
                return passes
            passes.append(summary)
            await self.sleep(self.every.total_seconds())


# -- the pass -----------------------------------------------------------------------------


async def _run(app: App, fn: Callable[..., T], *args: Any) -> T:
    value = await app.run(fn, *args)
    if isinstance(value, Reply):
        raise SyncRefused(value)
    return value


async def _sync(
    app: App, plan: Plan, client: Herna, progress: Progress | None, skip_finished: bool
) -> SyncSummary:
    t = plan.tournament
    summary = SyncSummary(t.slug, t.name, plan.kind, [w.number for w in plan.rounds],
                          plan.run_id)
    try:
        records, held = await _fetch(app, plan, client, summary, progress, skip_finished)
        await _store(app, plan, records, held, summary)
    except Exception as error:  # never crash the bot: the run is finished as failed/partial
        log.exception("sync of %s failed", t.slug)
        summary.errors.append(_fault("unexpected", error))
    summary.outcome = _outcome(summary)
    try:
        return await _run(app, _finish, plan, summary)
    except Exception:  # the store itself failed: say so in the log, still never crash the bot
        log.exception("finishing sync run %s of %s failed", plan.run_id, t.slug)
        summary.outcome = SyncOutcome.FAILED
        return summary


async def _fetch(
    app: App, plan: Plan, client: Herna, summary: SyncSummary, progress: Progress | None,
    skip_finished: bool,
) -> tuple[list[GameRecord], frozenset[str]]:
    """The pass's records in the history's order, and which of them were read back from the
    store rather than fetched: a finished record does not change, but one held (read first by
    another event's poll, issue 44.3) must still reach the table it belongs to."""
    try:
        history = await client.history(plan.since)
    except HernaError as error:  # a bounded read stopped: what it read still counts
        summary.errors.append(_herna_fault(error))
        history = list(error.entries)
    wanted = [e.game_id for e in history if _concerns(e, plan)]
    summary.listed = len(wanted)
    held: dict[str, GameRecord] = {}
    if skip_finished and wanted:
        held = await _run(app, _held_finished, wanted)
    fetched, errors, pending = await _fetch_records(
        client, [g for g in wanted if g not in held], progress)
    summary.fetched = len(fetched)
    summary.errors += [_herna_fault(e) for e in errors]
    summary.pending = pending
    got = {r.game_id: r for r in fetched} | held
    return [got[g] for g in wanted if g in got], frozenset(held)


def _concerns(entry: HistoryEntry, plan: Plan) -> bool:
    in_window = plan.since <= entry.started <= plan.until
    return in_window and any(nick_key(n) in plan.nick_keys for n in entry.nicks)


async def _fetch_records(
    client: Herna, game_ids: Sequence[str], progress: Progress | None
) -> tuple[list[GameRecord], list[Exception], list[str]]:
    """Fetch concurrently (the client keeps its politeness limits). A missing page is noted
    and the rest fetched; any other error stops the batch, keeping what arrived."""
    tasks = [asyncio.ensure_future(client.record(g)) for g in game_ids]
    got: dict[str, GameRecord] = {}
    errors: list[Exception] = []
    try:
        for next_done in asyncio.as_completed(tasks):
            try:
                record = await next_done
            except Exception as error:  # scraper errors, and anything a parser let through
                errors.append(error)
                if isinstance(error, PageMissing):
                    continue
                break
            got[record.game_id] = record
            if progress is not None:
                progress(len(got), len(game_ids))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:  # finished meanwhile, not yet handed over: keep them too
        if task.done() and not task.cancelled() and task.exception() is None:
            got.setdefault(task.result().game_id, task.result())
    pending = [g for g in game_ids if g not in got]
    # in the history's order, not the order the pages happened to arrive in: what the pass
    # stores and announces must not depend on the network (two rehearsals print the same)
    return [got[g] for g in game_ids if g in got], errors, pending if errors else []


async def _store(app: App, plan: Plan, records: list[GameRecord], held: frozenset[str],
                 summary: SyncSummary) -> None:
    placed = await _run(app, _place_all, plan, records, held)
    for fn, target, items in _batches(plan, placed):
        try:
            stored = await _run(app, fn, target, items, summary.kind)
        except Exception as error:  # one bad table must not cost the others theirs
            log.exception("storing records %s failed", [p.record.game_id for p in items])
            summary.errors.append(_fault("store", error))
            summary.pending += [p.record.game_id for p in items]
            continue
        elsewhere = items[0].elsewhere
        if elsewhere is None:
            stored.add_to(summary)
        else:  # the owner's evidence: its results and notes are the owner's, not this pass's
            summary.elsewhere += [_elsewhere(p, elsewhere) for p in items
                                  if p.record.game_id in (*stored.added, *stored.changed)]


def _batches(plan: Plan, placed: list[Placed]
             ) -> list[tuple[Callable[..., Stored], Any, list[Placed]]]:
    """One storing transaction per table, then one for the records with no table. Tables in
    the order their latest game came to be (ended, or started while unfinished), so results
    found in one pass are announced oldest first, as they were played."""
    by_table: dict[int, list[Placed]] = {}
    loose, settled = [], []
    for p in placed:
        if p.settled is not None:
            settled.append(p)
        elif p.table is None:
            loose.append(p)
        else:
            by_table.setdefault(p.table.id, []).append(p)
    tables = sorted(by_table.items(), key=lambda item: max(_played(p) for p in item[1]))
    batches: list[tuple[Callable[..., Stored], Any, list[Placed]]] = [
        (_store_table, table_id, items) for table_id, items in tables]
    if loose:
        batches.append((_store_loose, plan.tournament.id, loose))
    if settled:
        batches.append((_store_settled, plan.tournament.id, settled))
    return batches


def _played(p: Placed) -> datetime:
    return p.record.ended or p.record.started


def _elsewhere(p: Placed, owner: Tournament) -> dict[str, Any]:
    assert p.table is not None
    return {"game_id": p.record.game_id, "event": owner.slug, "round": p.round_no,
            "table": p.table.table_no}


@dataclass(slots=True)
class Stored:
    """What one storing transaction did; added to the summary only once it committed."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    flagged: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    unmatched: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)

    def add_to(self, summary: SyncSummary) -> None:
        summary.added += self.added
        summary.changed += self.changed
        summary.unchanged += self.unchanged
        summary.flagged += self.flagged
        summary.refused += self.refused
        summary.unmatched += self.unmatched
        summary.results += self.results


def _outcome(summary: SyncSummary) -> SyncOutcome:
    if not summary.errors:
        return SyncOutcome.OK
    stored = summary.added or summary.changed or summary.unchanged or summary.unmatched
    return SyncOutcome.PARTIAL if summary.fetched or stored else SyncOutcome.FAILED


_HERNA_FAULTS: tuple[tuple[type[HernaError], str], ...] = (
    (RateLimited, "rate_limited"),
    (TooManyPages, "page_cap"),
    (DeadlinePassed, "deadline"),
    (PageTooLarge, "too_large"),
    (HernaUnavailable, "unavailable"),
    (LayoutChanged, "layout_changed"),
    (LoginFailed, "login_failed"),
    (PageMissing, "page_missing"),
)


def _herna_fault(error: Exception) -> dict[str, str]:
    kind = next((k for cls, k in _HERNA_FAULTS if isinstance(error, cls)), "unexpected")
    return _fault(kind, error)


def _fault(kind: str, error: BaseException) -> dict[str, str]:
    return {"kind": kind, "detail": f"{type(error).__name__}: {error}"[:300]}


# -- transactions -------------------------------------------------------------------------


def _plan(tx: Tx, slug: str, round_no: int | None, kind: SyncKind) -> Plan:
    t = lookup.tournament(tx, slug)
    rounds = list_rounds(tx.db, t.id)
    if round_no is not None:
        chosen = [r for r in rounds if r.number == round_no]
        if not chosen:
            raise Refusal("sync.unknown_round", tournament=t.name, round=round_no)
        windows = [_window(tx, t, chosen[0])]
        if not windows[0].tables:
            raise Refusal("sync.not_paired", tournament=t.name, round=round_no)
    else:
        started = [r for r in rounds if r.starts_at <= tx.now]
        windows = [w for w in (_window(tx, t, r) for r in started) if w.tables]
        if not windows:
            raise Refusal("sync.nothing", tournament=t.name)
    seated = {p for w in windows for table in w.tables
              for p in (table.first_id, table.second_id) if p is not None}
    nicks = frozenset(nick_key(get_player(tx.db, p).herna_nick) for p in seated)
    before = frozenset(d.id for d in list_discrepancies(tx.db, t.id))
    run = _start_run(tx, kind, tx.by_scheduler(f"{kind} sync"), tournament_id=t.id)
    return Plan(t, kind, tuple(windows), nicks, run.id, before, _other_rounds(tx, t, windows))


def _other_rounds(tx: Tx, t: Tournament, windows: Sequence[RoundWindow]
                  ) -> tuple[EventRound, ...]:
    """The paired rounds of every other classic event whose window meets the pass's: the
    pairings a record read by this pass may belong to instead (issue 44.3). A finished one
    counts too: an event finishing before its sibling's last pass still explains its games."""
    since = min(w.starts_at for w in windows) - EARLY
    until = max(w.limit_at for w in windows) + LATE
    found = []
    for other in list_tournaments(tx.db):
        if (other.id == t.id
                or other.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED)
                or get_event(tx.db, other.id) is not None):  # a duplicate event: no herna.net
            continue
        for rnd in list_rounds(tx.db, other.id):
            if rnd.limit_at + LATE < since or rnd.starts_at - EARLY > until:
                continue
            w = _window(tx, other, rnd)
            if w.tables:
                found.append(EventRound(other, w))
    return tuple(found)


def _start_run(tx: Tx, kind: SyncKind, by: Change, *, tournament_id: int | None = None
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


def _window(tx: Tx, t: Tournament, rnd: Round) -> RoundWindow:
    tables = tuple(pairings_of_round(tx.db, t.id, rnd.number))
    return RoundWindow(rnd.number, rnd.starts_at, rnd.limit_at, tables)


def _held_finished(tx: Tx, game_ids: Sequence[str]) -> dict[str, GameRecord]:
    """Games already stored as finished (a finished herna.net record does not change), as
    records again; one whose stored payload cannot be read back is fetched instead."""
    held = {}
    for game_id in game_ids:
        stored = get_platform_record(tx.db, game_id)
        if stored is None or not _finished(stored):
            continue
        try:
            held[game_id] = record_of(stored.payload)
        except (KeyError, TypeError, ValueError):
            log.warning("stored record %s unreadable: fetched again", game_id)
    return held


def _finished(record: PlatformRecord) -> bool:
    """Finished and not refused: a refused record is fetched again until herna.net shows a
    valid one."""
    return record.payload.get("end") != EndKind.UNFINISHED and not is_refused(record.payload)


def _place_all(tx: Tx, plan: Plan, records: Iterable[GameRecord],
               held: frozenset[str] = frozenset()) -> list[Placed]:
    placed = (_place(tx, plan, r, r.game_id in held)
              for r in sorted(records, key=lambda r: r.started))
    return [p for p in placed if p is not None]


def _place(tx: Tx, plan: Plan, record: GameRecord, held: bool = False) -> Placed | None:
    """Which table a record belongs to, by the registry's nick → player mapping.

    - both players known and paired together in a round of the pass or of another running
      classic event, the game started in that round's window: their table (`placement`:
      whichever event's poll reads it; flagged if the settings are wrong or it started before
      the round);
    - one nick unknown, the other player seated with an opponent, the game started during the
      round: his table, the unknown nick standing for his opponent, flagged `unknown_nick`
      (the admin decides whether it was the opponent under another nick);
    - otherwise, a seated player's game during a round: no table (listed for the admin);
      anything else is not this tournament's game and is dropped.
    """
    players = [find_player_by_nick(tx.db, nick) for nick in record.nicks]
    ids = [None if p is None else p.id for p in players]
    first, second = ids
    t = plan.tournament
    if first is not None and second is not None:
        owner = owner_of(_owners(plan), first, second, record.started)
        if owner is not None:
            (o, w), table = (owner[0].tournament, owner[0].window), owner[1]
            if o.id != t.id and o.status is TournamentStatus.FINISHED:
                return Placed(record, w.number, None, None, (), _implausible(tx, o, record),
                              held=held, settled=o)
            return Placed(record, w.number, table, (first, second), _flags(o, w, record),
                          _implausible(tx, o, record), None if o.id == t.id else o, held)
    for w in plan.rounds:
        if not w.during(record.started):
            continue
        seated = [(i, w.table_of(i)) for i in ids if i is not None and w.table_of(i)]
        if not seated:
            continue
        # no table: still checked, so the shared record keeps its "refused" mark
        refused = _implausible(tx, t, record)
        if None not in ids:
            return Placed(record, w.number, None, None, (NOT_PAIRED,), refused, held=held)
        known, table = seated[0]
        if table is None or table.second_id is None:
            return Placed(record, w.number, None, None, ("unknown_nick",), refused, held=held)
        opponent = table.second_id if known == table.first_id else table.first_id
        pair = (known, opponent) if ids[0] == known else (opponent, known)
        return Placed(record, w.number, table, pair,
                      ("unknown_nick", *_flags(t, w, record)), refused, held=held)
    return None


def _owners(plan: Plan) -> list[EventRound]:
    return [*(EventRound(plan.tournament, w) for w in plan.rounds), *plan.others]


def _flags(t: Tournament, w: RoundWindow, record: GameRecord) -> tuple[str, ...]:
    flags = []
    if not (_same(record.settings.tempo, t.tempo)
            and _same(record.settings.language, t.language_version)):
        flags.append("wrong_settings")  # the propozície's mandatory table settings (e-SP 4.1)
    if record.started < w.starts_at:
        flags.append("started_before_round")
    return tuple(flags)


def _implausible(tx: Tx, t: Tournament, record: GameRecord) -> tuple[Implausible, ...]:
    """The record checked at the boundary against the profile's bounds, as read now."""
    bounds = tx.profile(t.profile).plausible
    return check_game(bounds, scores=(record.first_score, record.second_score),
                      moves=(record.first_moves, record.second_moves),
                      started=record.started, ended=record.ended, seen_at=tx.now)


def _same(a: str, b: str) -> bool:
    def norm(s: str) -> str:
        return "".join(s.split()).replace("×", "x").casefold()
    return norm(a) == norm(b)


def _store_table(tx: Tx, pairing_id: int, items: list[Placed], kind: SyncKind) -> Stored:
    """One table's records: kept, appended as evidence when new or changed, reconciled.
    (`kind` is unused: the signature is the one `_store` calls every batch with.)"""
    by, stored = tx.by_platform(), Stored()
    before = get_result(tx.db, pairing_id)
    appended = False
    for p in items:
        record = p.record
        change = RecordChange.UNCHANGED  # a held record is not seen again, only placed
        if not p.held:
            change, _ = upsert_platform_record(tx.db, record.game_id,
                                               record_payload(record, p.refused), by)
        payload = evidence_payload(p)
        previous = _latest_payload(tx, pairing_id, record.game_id)
        if payload == previous:
            stored.unchanged += not p.held
            continue
        append_evidence(tx.db, pairing_id, EvidenceKind.PLATFORM_GAME, by, payload=payload,
                        at=record.ended or record.started)
        (stored.added if previous is None else stored.changed).append(record.game_id)
        if p.refused:  # kept as evidence, scored from nothing: the earlier verdict stands
            listing = _listing(p, change) | {"refused": payload["refused"]}
            stored.refused.append(listing)
            _tell_refused(tx, pairing_id, listing)
            continue
        appended = True
        if p.flags:
            stored.flagged.append(_listing(p, change))
    if not appended:
        return stored
    after = refresh_pairing(tx, pairing_id, by)
    if after is not None and (before is None or after.version != before.version):
        pairing = get_pairing(tx.db, pairing_id)
        stored.results.append({"round": pairing.round_no, "table": pairing.table_no,
                               "status": str(after.status), "end": after.end_kind,
                               "version": after.version})
    return stored


def _tell_refused(tx: Tx, pairing_id: int, listing: dict[str, Any]) -> None:
    """One note to the head admin per new refused version of a record (its first reason)."""
    reason = listing["refused"][0]
    tx.to_admin(tournament_of_pairing(tx.db, pairing_id), f"herna.refused.{reason['code']}",
                game_id=listing["game_id"], round=listing["round"], table=listing["table"],
                first=listing["first"], second=listing["second"], value=reason["value"],
                bound=reason["bound"], rule=reason["rule"])


def _latest_payload(tx: Tx, pairing_id: int, game_id: str) -> dict[str, Any] | None:
    rows = [e for e in list_evidence(tx.db, pairing_id)
            if e.kind is EvidenceKind.PLATFORM_GAME and e.payload.get("game_id") == game_id]
    return max(rows, key=lambda e: (e.recorded_at, e.id)).payload if rows else None


def _store_loose(tx: Tx, tournament_id: int, items: list[Placed], kind: SyncKind) -> Stored:
    """Records with no table: kept with every record seen (a refused one keeps its mark, so
    the shared record is never rewritten as valid), listed for the admin; each is told to
    the event's head admin once, however often the round poll reads it again (the nightly
    summary lists them all)."""
    by, stored = tx.by_platform(), Stored()
    for p in items:
        change = RecordChange.UNCHANGED
        if not p.held:
            change, _ = upsert_platform_record(tx.db, p.record.game_id,
                                               record_payload(p.record, p.refused), by)
        listing = _listing(p, change)
        told = kind is SyncKind.ROUND and not unmatched_told(tx.db, tournament_id, p.record.game_id)
        if told:
            mark_unmatched_told(tx.db, tournament_id, p.record.game_id, by)
            _tell_unmatched(tx, tournament_id, listing)
        if told or not p.held:
            stored.unmatched.append(listing)
    return stored


def _store_settled(tx: Tx, tournament_id: int, items: list[Placed], kind: SyncKind) -> Stored:
    """Records a finished event's pairing explains: kept with every record seen (a refused one
    keeps its mark), neither placed nor told to anyone. (`tournament_id` and `kind` unused:
    the signature every batch is stored with.)"""
    by = tx.by_platform()
    for p in items:
        if not p.held:
            upsert_platform_record(tx.db, p.record.game_id, record_payload(p.record, p.refused),
                                   by)
    return Stored()


def _listing(p: Placed, change: RecordChange) -> dict[str, Any]:
    r = p.record
    return {"game_id": r.game_id, "round": p.round_no,
            "table": None if p.table is None else p.table.table_no,
            "first": r.first, "second": r.second, "started": to_text(r.started),
            "flags": list(p.flags), "change": str(change)}


def _tell_unmatched(tx: Tx, tournament_id: int, listing: dict[str, Any]) -> None:
    flag = listing["flags"][0]
    tx.to_admin(tournament_id, f"sync.unmatched.{flag}", game_id=listing["game_id"],
                round=listing["round"], first=listing["first"], second=listing["second"],
                started=_when(listing["started"]), rule=flag_rule(flag))


def flag_rule(flag: str) -> str:
    """The rule a flag touches, as `rules.reconcile.FLAG_TEXTS` cites it."""
    if flag == NOT_PAIRED:
        return NOT_PAIRED_RULE
    found = re.search(r"\((e-SP [\d.]+)\)", FLAG_TEXTS.get(flag, ""))
    return found.group(1) if found else "e-SP 5"


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _finish(tx: Tx, plan: Plan, summary: SyncSummary) -> SyncSummary:
    """Finish the run; a complete pass means herna.net was checked up to its start, so every
    table is reconciled again (verdicts resting on a missing record may now be made)."""
    t = plan.tournament
    summary.discrepancies = _new_discrepancies(tx, plan)
    finish_sync_run(tx.db, plan.run_id, summary.outcome, tx.by_scheduler(f"{plan.kind} sync"),
                    summary=summary.as_dict())
    if summary.outcome is SyncOutcome.OK:
        for w in plan.rounds:
            refresh_round(tx, t.id, w.number, tx.by_platform())
        summary.discrepancies = _new_discrepancies(tx, plan)
    summary.open_tables = sum(
        1 for w in plan.rounds for table in w.tables if not _has_counting_game(tx, w, table))
    if summary.errors:
        _tell_fault(tx, t, summary)
    if plan.kind is SyncKind.NIGHTLY:
        _tell_nightly(tx, t, summary)
    return summary


def _new_discrepancies(tx: Tx, plan: Plan) -> list[int]:
    return [d.id for d in list_discrepancies(tx.db, plan.tournament.id)
            if d.id not in plan.discrepancies_before]


def _has_counting_game(tx: Tx, w: RoundWindow, table: TablePairing) -> bool:
    """A bye, or a finished unflagged game started by the limit whose starter is the one the
    pairing names (a wrong-starter draw waits for the rematch, e-SP 4.2)."""
    if table.second_id is None:
        return True
    latest: dict[str, dict[str, Any]] = {}
    for e in list_evidence(tx.db, table.id):
        if e.kind is EvidenceKind.PLATFORM_GAME and not is_refused(e.payload):
            latest[e.payload["game_id"]] = e.payload
    games = sorted((g for g in latest.values() if _when(g["started"]) <= w.limit_at),
                   key=lambda g: g["started"])
    if not games:
        return False
    last = games[-1]
    return (last["ended"] is not None and not last["flags"]
            and not (last["end"] == EndKind.DRAW and last["first"] != table.first_id))


def _tell_fault(tx: Tx, t: Tournament, summary: SyncSummary) -> None:
    """One line for the head admin: the error that stopped the pass (the summary keeps all)."""
    error = summary.errors[0]
    tx.to_admin(t.id, f"sync.fault.{error['kind']}", tournament=t.name, detail=error["detail"],
                stored=summary.fetched, pending=len(summary.pending))


def _tell_nightly(tx: Tx, t: Tournament, summary: SyncSummary) -> None:
    """The head admin's morning summary: counts, then every record without a table and every
    unresolved discrepancy with a confirmed result (which stays as it is, e-SP 4.7)."""
    rule = tx.profile(t.profile).timing.dispute_rule
    discrepancies = list_discrepancies(tx.db, t.id)
    waiting = [r for r in list_results(tx.db, t.id)
               if r.status in (ResultStatus.PROPOSED, ResultStatus.DISPUTED)]
    tx.to_admin(t.id, "sync.nightly", **_counts(summary), results=len(summary.results),
                open=len(waiting), discrepancies=len(discrepancies),
                new_discrepancies=len(summary.discrepancies), rule=rule)
    for listing in summary.unmatched:
        _tell_unmatched(tx, t.id, listing)
    for d in discrepancies:
        confirmed = get_result(tx.db, d.pairing_id)
        if confirmed is None:
            continue
        params = describe(tx, get_pairing(tx.db, d.pairing_id), confirmed)
        params |= {"text": d.recomputed.get("text", ""), "rule": rule}
        tx.to_admin(t.id, "sync.discrepancy", discrepancy_id=d.id, **params)


def _counts(summary: SyncSummary) -> dict[str, Any]:
    return {"tournament": summary.tournament, "fetched": summary.fetched,
            "added": len(summary.added), "changed": len(summary.changed),
            # a refused record is flagged too (the admin is told why it does not count)
            "flagged": len(summary.flagged) + len(summary.refused),
            "unmatched": len(summary.unmatched),
            "pending": len(summary.pending)}


def _worth_polling(tx: Tx, slug: str, round_no: int, margin: timedelta) -> bool:
    t = lookup.tournament(tx, slug)
    rnd = next((r for r in list_rounds(tx.db, t.id) if r.number == round_no), None)
    if rnd is None or tx.now >= rnd.limit_at + margin:
        return False
    w = _window(tx, t, rnd)
    return any(not _has_counting_game(tx, w, table) for table in w.tables)


def _nightly_slugs(tx: Tx) -> list[str]:
    """Classic tournaments under way or finished with a result not yet confirmed (or a table
    without one), and finished ones not yet rated (a bot serving several events, issue 37:
    every one of them; a duplicate event plays nothing on herna.net)."""
    slugs = []
    for t in list_tournaments(tx.db):
        if t.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
            continue
        if get_event(tx.db, t.id) is not None:  # a duplicate event: nothing on herna.net
            continue
        if _unconfirmed(tx, t) or (t.status is TournamentStatus.FINISHED and not _rated(tx, t)):
            slugs.append(t.slug)
    return slugs


def nightly_due(tx: Tx, since: datetime) -> bool:
    """Whether the nightly sync scheduled at `since` is owed (the start-up catch-up): some
    event due for it has no successful nightly run of its own since then — one event's run
    succeeding does not cover another's (issue 44.8); with no event due, whether no nightly
    run at all succeeded since."""
    slugs = _nightly_slugs(tx)
    if slugs:
        return bool(_owed_slugs(tx, slugs, since))
    last = last_sync_run(tx.db, SyncKind.NIGHTLY)
    return last is None or last.started_at < since


def _owed_slugs(tx: Tx, slugs: Sequence[str], since: datetime) -> list[str]:
    """Those of `slugs` without a successful nightly run of their own started at or after
    `since`."""
    owed = []
    for slug in slugs:
        last = last_sync_run(tx.db, SyncKind.NIGHTLY,
                             tournament_id=lookup.tournament(tx, slug).id)
        if last is None or last.started_at < since:
            owed.append(slug)
    return owed


def _idle_night(tx: Tx) -> None:
    by = tx.by_scheduler("nightly sync: no tournament to sync")
    run = _start_run(tx, SyncKind.NIGHTLY, by)
    finish_sync_run(tx.db, run.id, SyncOutcome.OK, by, summary={"tournaments": []})


def _unconfirmed(tx: Tx, t: Tournament) -> bool:
    results = {r.pairing_id: r for r in list_results(tx.db, t.id)}
    for rnd in list_rounds(tx.db, t.id):
        if rnd.starts_at > tx.now:
            continue
        for table in pairings_of_round(tx.db, t.id, rnd.number):
            result = results.get(table.id)
            if result is None or result.status is not ResultStatus.CONFIRMED:
                return True
    return False


def _rated(tx: Tx, t: Tournament) -> bool:
    return any(change.tournament_id == t.id
               for entry in list_entries(tx.db, t.id)
               for change in rating_history(tx.db, entry.player_id))


# -- payloads -----------------------------------------------------------------------------


def record_payload(record: GameRecord, refused: Sequence[Implausible] = ()) -> dict[str, Any]:
    """A herna.net record as kept in `platform_records` (nicks, as the site shows them); a
    refused one names its reasons, so the round poll fetches it again."""
    return _with_refused(refused, {
        "game_id": record.game_id, "first": record.first, "second": record.second,
        "first_score": record.first_score, "second_score": record.second_score,
        "end": str(record.end), "ended_on": record.ended_on,
        "started": to_text(record.started),
        "ended": None if record.ended is None else to_text(record.ended),
        "first_moves": record.first_moves, "second_moves": record.second_moves,
        "settings": asdict(record.settings),
    })


def record_of(payload: Mapping[str, Any]) -> GameRecord:
    """A record kept by `record_payload`, read back (its "refused" mark is not part of it)."""
    ended = payload["ended"]
    return GameRecord(
        game_id=str(payload["game_id"]), first=payload["first"], second=payload["second"],
        first_score=int(payload["first_score"]), second_score=int(payload["second_score"]),
        end=EndKind(payload["end"]), ended_on=payload["ended_on"],
        started=from_text(payload["started"]),
        ended=None if ended is None else from_text(ended),
        first_moves=int(payload["first_moves"]), second_moves=int(payload["second_moves"]),
        settings=TableSettings(**payload["settings"]))


def _with_refused(refused: Sequence[Implausible], payload: dict[str, Any]) -> dict[str, Any]:
    # only a refused payload has the key: valid ones stay as they were stored before it existed
    return payload | {"refused": [i.as_dict() for i in refused]} if refused else payload


def evidence_payload(p: Placed) -> dict[str, Any]:
    """The `platform_game` evidence payload (`evidence_map.game_payload`, store ids), plus
    the raw nicks and table settings so the admin sees what herna.net showed."""
    if p.ids is None:
        raise ValueError(f"game {p.record.game_id} has no table to be evidence for")
    r = p.record
    first, second = p.ids
    on = None if r.ended_on is None else (first if r.ended_on == r.first else second)
    payload = game_payload(
        game_id=r.game_id, first=first, second=second, first_score=r.first_score,
        second_score=r.second_score, end=str(r.end), started=r.started, ended=r.ended, on=on,
        moves={first: r.first_moves, second: r.second_moves}, flags=p.flags,
    )
    return _with_refused(p.refused, {**payload, "nicks": [r.first, r.second],
                                     "settings": asdict(r.settings)})
