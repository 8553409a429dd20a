"""Reading herna.net for a pass: the history in the pass's window, then the records of the games
that involve a seated player, fetched concurrently (the client keeps its politeness limits).

A round poll skips games already stored as finished (a finished record does not change); they
are read back from the store so they still reach their table. A scraper error stops the
fetching but loses nothing: what came in is kept, and the error is named (`fault`) for the
summary and the head admin.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from bot.services.app import App, Tx
from bot.services.results.evidence_map import is_refused
from bot.services.results.plan import Plan, SyncSummary, run_or_refuse
from bot.services.results.records import record_of
from bot.store import PlatformRecord, get_platform_record
from bot.store.players import nick_key
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
    TooManyPages,
)

#: one logger for the whole result sync, whichever of its modules speaks
log = logging.getLogger("bot.services.results.sync")


Progress = Callable[[int, int], None]  # (records fetched, records wanted)


class Herna(Protocol):
    """What the sync needs of `scrapers.herna.HernaClient` (already inside `async with`)."""

    async def history(self, since: datetime, *, nick: str | None = None) -> list[HistoryEntry]:
        ...

    async def record(self, game_id: str) -> GameRecord:
        ...


async def fetch(
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
        held = await run_or_refuse(app, _held_finished, wanted)
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
    return fault(kind, error)


def fault(kind: str, error: BaseException) -> dict[str, str]:
    return {"kind": kind, "detail": f"{type(error).__name__}: {error}"[:300]}
