"""One sync pass: herna.net game records → evidence → verdicts, for a round or a whole tournament.

A pass is four steps, and the database is never held while herna.net is asked anything:

1. a transaction reads what the pass is about (the rounds, their tables, the seated players'
   nicks) and starts a sync run (`plan`);
2. outside any transaction the history is read and the records of games that involve a seated
   player are fetched (`fetch`; a round poll skips games already stored as finished);
3. each record is placed on the table it belongs to (`placement`) and each table's records are
   stored in a transaction of their own (`records`), which announces new results;
4. a last transaction finishes the run (ok / partial / failed, with the summary) and tells the
   head admin what needs him.

Who runs passes: the round poll (`round_poll`), the nightly sync (`nightly`), `stredisko sync`.

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

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.services.app import App, Tx
from bot.services.replies import Reply
from bot.services.results.fetch import Herna, Progress, fault, fetch
from bot.services.results.lifecycle import describe, refresh_round
from bot.services.results.placement import Placed, place_all
from bot.services.results.plan import Plan, SyncRefused, SyncSummary, plan_pass, run_or_refuse
from bot.services.results.records import (
    Stored,
    has_counting_game,
    store_loose,
    store_settled,
    store_table,
    tell_unmatched,
)
from bot.store import (
    ResultStatus,
    SyncKind,
    SyncOutcome,
    Tournament,
    finish_sync_run,
    get_pairing,
    get_result,
    list_discrepancies,
    list_results,
)
from scrapers.herna import GameRecord

#: one logger for the whole result sync, whichever of its modules speaks
log = logging.getLogger("bot.services.results.sync")


async def sync_round(
    app: App, slug: str, round_no: int, client: Herna, *, progress: Progress | None = None,
    skip_finished: bool = True,
) -> SyncSummary:
    """One pass over one round: fetch, store, reconcile. Games already stored as finished are
    not fetched again (`skip_finished`). Raises `SyncRefused` for an unknown tournament or a
    round without pairings; herna.net faults end in the summary, never as an exception."""
    plan = await run_or_refuse(app, plan_pass, slug, round_no, SyncKind.ROUND)
    return await _sync(app, plan, client, progress, skip_finished)


async def sync_tournament(
    app: App, slug: str, client: Herna, *, kind: SyncKind = SyncKind.ROUND,
    progress: Progress | None = None,
) -> SyncSummary:
    """Every started, paired round of the tournament, every record fetched again."""
    plan = await run_or_refuse(app, plan_pass, slug, None, kind)
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


async def _sync(
    app: App, plan: Plan, client: Herna, progress: Progress | None, skip_finished: bool
) -> SyncSummary:
    t = plan.tournament
    summary = SyncSummary(t.slug, t.name, plan.kind, [w.number for w in plan.rounds],
                          plan.run_id)
    try:
        records, held = await fetch(app, plan, client, summary, progress, skip_finished)
        await _store(app, plan, records, held, summary)
    except Exception as error:  # never crash the bot: the run is finished as failed/partial
        log.exception("sync of %s failed", t.slug)
        summary.errors.append(fault("unexpected", error))
    summary.outcome = _outcome(summary)
    try:
        return await run_or_refuse(app, _finish, plan, summary)
    except Exception:  # the store itself failed: say so in the log, still never crash the bot
        log.exception("finishing sync run %s of %s failed", plan.run_id, t.slug)
        summary.outcome = SyncOutcome.FAILED
        return summary


async def _store(app: App, plan: Plan, records: list[GameRecord], held: frozenset[str],
                 summary: SyncSummary) -> None:
    placed = await run_or_refuse(app, place_all, plan, records, held)
    for fn, target, items in _batches(plan, placed):
        try:
            stored = await run_or_refuse(app, fn, target, items, summary.kind)
        except Exception as error:  # one bad table must not cost the others theirs
            log.exception("storing records %s failed", [p.record.game_id for p in items])
            summary.errors.append(fault("store", error))
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
        (store_table, table_id, items) for table_id, items in tables]
    if loose:
        batches.append((store_loose, plan.tournament.id, loose))
    if settled:
        batches.append((store_settled, plan.tournament.id, settled))
    return batches


def _played(p: Placed) -> datetime:
    return p.record.ended or p.record.started


def _elsewhere(p: Placed, owner: Tournament) -> dict[str, Any]:
    assert p.table is not None
    return {"game_id": p.record.game_id, "event": owner.slug, "round": p.round_no,
            "table": p.table.table_no}


def _outcome(summary: SyncSummary) -> SyncOutcome:
    if not summary.errors:
        return SyncOutcome.OK
    stored = summary.added or summary.changed or summary.unchanged or summary.unmatched
    return SyncOutcome.PARTIAL if summary.fetched or stored else SyncOutcome.FAILED


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
        1 for w in plan.rounds for table in w.tables if not has_counting_game(tx, w, table))
    if summary.errors:
        _tell_fault(tx, t, summary)
    if plan.kind is SyncKind.NIGHTLY:
        _tell_nightly(tx, t, summary)
    return summary


def _new_discrepancies(tx: Tx, plan: Plan) -> list[int]:
    return [d.id for d in list_discrepancies(tx.db, plan.tournament.id)
            if d.id not in plan.discrepancies_before]


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
        tell_unmatched(tx, t.id, listing)
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
