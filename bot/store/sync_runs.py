"""Sync runs (round syncs and the nightly sync), so a restart knows what to catch up."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.cache import cached
from bot.store.rows import Change, StoreError, SyncKind, SyncOutcome, SyncRun
from bot.store.sql import insert, must, one, rows, to_db
from bot.store.times import from_text


def start_sync_run(
    db: Database, kind: SyncKind, by: Change, *, tournament_id: int | None = None,
    owner: dict[str, Any] | None = None,
) -> SyncRun:
    """A run starts 'running'; `owner` (who runs it: host, pid, a per-process token) is kept
    in its summary until it finishes, so the next run can tell a dead one from a live one."""
    run_id = insert(db, "sync_runs", {"kind": SyncKind(kind), "tournament_id": tournament_id,
                                      "started_at": by.at,
                                      "summary": to_db({} if owner is None else {"owner": owner})})
    record(db, by, "sync.start", tournament_id=tournament_id, subject=f"sync:{run_id}",
           data={"kind": kind})
    return _get(db, run_id)


def finish_sync_run(
    db: Database, run_id: int, outcome: SyncOutcome, by: Change,
    *, summary: dict[str, Any] | None = None,
) -> SyncRun:
    outcome = SyncOutcome(outcome)
    if outcome is SyncOutcome.RUNNING:
        raise ValueError("a finished sync run needs an outcome other than 'running'")
    run = _get(db, run_id)
    if run.finished_at is not None:
        raise StoreError(f"sync run {run_id} already finished ({run.outcome})")
    db.execute("UPDATE sync_runs SET finished_at = ?, outcome = ?, summary = ? WHERE id = ?",
               [to_db(by.at), outcome, to_db(summary or {}), run_id])
    record(db, by, "sync.finish", tournament_id=run.tournament_id, subject=f"sync:{run_id}",
           data={"outcome": outcome, "summary": summary or {}})
    return _get(db, run_id)


def running_sync_runs(db: Database) -> list[SyncRun]:
    """Every run not finished (oldest first): live ones, and those whose process died."""
    return rows(db, SyncRun, "SELECT * FROM sync_runs WHERE outcome = ? ORDER BY started_at, id",
                [SyncOutcome.RUNNING])


def last_sync_run(
    db: Database,
    kind: SyncKind,
    *,
    tournament_id: int | None = None,
    outcome: SyncOutcome | None = SyncOutcome.OK,
) -> SyncRun | None:
    """The latest run of `kind` (for `tournament_id`, or across all when None) that ended with
    `outcome` (None = any, running included)."""
    sql = "SELECT * FROM sync_runs WHERE kind = ?"
    params: list[Any] = [SyncKind(kind)]
    if tournament_id is not None:
        sql += " AND tournament_id = ?"
        params.append(tournament_id)
    if outcome is not None:
        sql += " AND outcome = ?"
        params.append(SyncOutcome(outcome))
    return one(db, SyncRun, sql + " ORDER BY started_at DESC, id DESC LIMIT 1", params)


def last_ok_start(db: Database, tournament_id: int) -> datetime | None:
    """When the latest successful sync of the tournament (round or nightly) started; None if
    none did. One query where `last_sync_run` per kind would take two: it runs with every
    recomputation of a result. Stored times are uniform UTC text, so MAX orders instants."""
    def load() -> datetime | None:
        (started,) = db.execute(
            "SELECT MAX(started_at) FROM sync_runs WHERE tournament_id = ? AND outcome = ? "
            "AND kind IN (?, ?)",
            [tournament_id, SyncOutcome.OK, SyncKind.ROUND, SyncKind.NIGHTLY],
        ).fetchone()
        return None if started is None else from_text(started)

    # cached (issue 21): every result report reads it; a sync run's write empties the cache
    return cached(db, ("last ok sync start", tournament_id), load)


def get_sync_run(db: Database, run_id: int) -> SyncRun:
    return _get(db, run_id)


def _get(db: Database, run_id: int) -> SyncRun:
    return must(one(db, SyncRun, "SELECT * FROM sync_runs WHERE id = ?", [run_id]),
                f"sync run {run_id}")
