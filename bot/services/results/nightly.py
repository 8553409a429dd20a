"""The nightly sync: every classic tournament with a result not yet confirmed, or finished but not
yet rated, fetched again in full; and whether the night's run is still owed (the start-up
catch-up after downtime, per event).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.results.fetch import Herna
from bot.services.results.plan import SyncRefused, SyncSummary, run_or_refuse, start_run
from bot.services.results.sync import sync_tournament
from bot.store import (
    ResultStatus,
    SyncKind,
    SyncOutcome,
    Tournament,
    TournamentStatus,
    finish_sync_run,
    last_sync_run,
    list_entries,
    list_results,
    list_rounds,
    list_tournaments,
    pairings_of_round,
    rating_history,
)
from bot.store.duplicate import get_event

#: one logger for the whole result sync, whichever of its modules speaks
log = logging.getLogger("bot.services.results.sync")


async def nightly(app: App, client: Herna, *, since: datetime | None = None
                  ) -> list[SyncSummary]:
    """The nightly sync: every tournament with unconfirmed results, or finished but not yet
    rated, fetched again in full; the head admin gets each tournament's summary. `since` (the
    night's scheduled time): a tournament whose own nightly run succeeded since is left out,
    so a catch-up after downtime redoes only the events whose run failed or never ran."""
    due = await run_or_refuse(app, _nightly_slugs)
    if not due:  # the night's run is still recorded, so the start-up catch-up knows it ran
        await run_or_refuse(app, _idle_night)
    slugs = due if since is None else await run_or_refuse(app, _owed_slugs, due, since)
    summaries = []
    for slug in slugs:
        try:
            summaries.append(await sync_tournament(app, slug, client, kind=SyncKind.NIGHTLY))
        except SyncRefused:
            continue  # nothing started yet: nothing to fetch
        except Exception:  # one tournament's trouble must not stop the others' sync
            log.exception("nightly sync of %s failed", slug)
    return summaries


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
    run = start_run(tx, SyncKind.NIGHTLY, by)
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
