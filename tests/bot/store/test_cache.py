"""The store's read cache (issue 21): a tournament and its rounds are read once per process,
and never served after they changed — by this store, by another process, or by a write that
was rolled back. And the WAL is checkpointed by the store's own thread, not by a commit."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.store import (
    Change,
    Store,
    SyncKind,
    SyncOutcome,
    connect,
    finish_sync_run,
    get_round,
    get_tournament,
    get_tournament_by_slug,
    last_ok_start,
    last_published_round,
    start_sync_run,
    update_round,
    update_tournament,
)
from bot.store.db import CHECKPOINT_QUIET_S

from .conftest import START, seed


@pytest.fixture
def migrated_db() -> None:
    """A new file migrated here, not a copy: the checkpoint test starts from the WAL the
    migrations left (a copy has none)."""
    return None


def _reads(db: Database, slug: str) -> list[str]:
    """Which of the cached rows' SELECTs reach SQLite while the three lookups run."""
    seen: list[str] = []
    db.conn.set_trace_callback(seen.append)
    try:
        t = get_tournament_by_slug(db, slug)
        get_tournament(db, t.id)
        last_published_round(db, t.id)
        get_round(db, t.id, 1)
    finally:
        db.conn.set_trace_callback(None)
    return [s for s in seen if "FROM tournaments" in s or "FROM rounds" in s]


def test_a_second_transaction_reads_nothing_again(store: Store, admin: Change) -> None:
    slug = store.call_sync(seed, admin).tournament.slug
    assert len(store.call_sync(_reads, slug)) == 4
    assert store.call_sync(_reads, slug) == []


def test_a_write_by_the_store_is_seen_at_once(store: Store, admin: Change) -> None:
    t = store.call_sync(seed, admin).tournament
    store.call_sync(_reads, t.slug)
    store.call_sync(update_tournament, t.id, admin, name="Nový názov")
    store.call_sync(update_round, t.id, 1, admin, published_at=START)
    assert store.call_sync(get_tournament_by_slug, t.slug).name == "Nový názov"
    assert store.call_sync(get_tournament, t.id).name == "Nový názov"
    published = store.call_sync(last_published_round, t.id)
    assert published is not None and published.number == 1
    assert store.call_sync(get_round, t.id, 1).published_at == START


def test_a_write_by_another_process_is_seen(store: Store, admin: Change,
                                            db_path: Path) -> None:
    t = store.call_sync(seed, admin).tournament
    store.call_sync(_reads, t.slug)
    other = connect(db_path)  # the CLI's connection: the store's triggers do not see it
    other.execute("BEGIN IMMEDIATE")
    update_tournament(other, t.id, admin, name="Z príkazového riadku")
    update_round(other, t.id, 1, admin, published_at=START)
    other.execute("COMMIT")
    other.close()
    assert store.call_sync(get_tournament_by_slug, t.slug).name == "Z príkazového riadku"
    published = store.call_sync(last_published_round, t.id)
    assert published is not None and published.number == 1


def test_a_rolled_back_write_is_not_served(store: Store, admin: Change) -> None:
    t = store.call_sync(seed, admin).tournament

    def rename_read_and_fail(db: Database) -> None:
        update_tournament(db, t.id, admin, name="Nikdy")
        assert get_tournament_by_slug(db, t.slug).name == "Nikdy"  # cached, uncommitted
        raise ValueError("refused")

    with pytest.raises(ValueError):
        store.call_sync(rename_read_and_fail)
    assert store.call_sync(get_tournament_by_slug, t.slug).name == t.name


def test_the_last_sync_is_read_once_and_again_after_a_sync_run(store: Store,
                                                                admin: Change) -> None:
    """`last_ok_start` (every result report reads it) is cached; a sync run's write empties
    the cache, a run by another process too (its commit)."""
    t = store.call_sync(seed, admin).tournament

    def sync_reads(db: Database) -> tuple[object, int]:
        seen: list[str] = []
        db.conn.set_trace_callback(seen.append)
        try:
            return last_ok_start(db, t.id), sum("FROM sync_runs" in s for s in seen)
        finally:
            db.conn.set_trace_callback(None)

    def sync_ok(db: Database) -> None:
        run = start_sync_run(db, SyncKind.ROUND, admin, tournament_id=t.id)
        finish_sync_run(db, run.id, SyncOutcome.OK, admin)

    assert store.call_sync(sync_reads) == (None, 1)
    assert store.call_sync(sync_reads) == (None, 0)
    store.call_sync(sync_ok)
    assert store.call_sync(sync_reads) == (admin.at, 1)
    assert store.call_sync(sync_reads) == (admin.at, 0)


BURST = 32  # commits


def _burst(store: Store, first: int) -> None:
    for n in range(first, first + BURST):
        store.call_sync(lambda db, n=n: db.execute("INSERT INTO notes VALUES (?)", [n]))
    time.sleep(6 * CHECKPOINT_QUIET_S)  # a quiet moment, as between two rounds' reports


def test_the_store_checkpoints_between_bursts(store: Store, db_path: Path) -> None:
    store.call_sync(lambda db: db.execute("CREATE TABLE notes (text)"))
    wal = db_path.with_name(db_path.name + "-wal")
    _burst(store, 0)  # the WAL as the migrations and a first burst left it
    before = wal.stat().st_size
    bursts = 5
    for k in range(1, bursts + 1):
        _burst(store, k * BURST)
    with sqlite3.connect(db_path) as other:
        count = other.execute("SELECT count(*) FROM notes").fetchone()[0]
        page = other.execute("PRAGMA page_size").fetchone()[0]
    assert count == (bursts + 1) * BURST
    # each commit appends at least one page and the WAL file never shrinks while open: it
    # did not grow by the bursts' pages because the store's thread checkpointed it between
    # them and the next write started it over (a commit checkpoints only past
    # AUTOCHECKPOINT_PAGES)
    assert wal.stat().st_size - before < bursts * BURST * page / 2
