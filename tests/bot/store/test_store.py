"""The Store: one owner thread, transactions, concurrency, other processes, close/reopen."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.store import (
    Change,
    EvidenceKind,
    Store,
    StoreClosedError,
    TimerKind,
    add_timer,
    append_evidence,
    fire_timer,
    list_audit,
    list_evidence,
    record,
)

from .conftest import START, Seeded

REPO = Path(__file__).resolve().parents[3]


def _count(db: Database, table: str) -> int:
    return db[table].count


def _count_action(db: Database, action: str) -> int:
    """Every audit row of `action`: a count, not a page (`list_audit` stops at its limit)."""
    return int(db.execute("SELECT count(*) FROM audit WHERE action = ?", [action]).fetchone()[0])


async def test_call_runs_on_one_thread_and_commits(store: Store, admin: Change) -> None:
    threads = await asyncio.gather(*(store.call(lambda db: threading.get_ident())
                                     for _ in range(5)))
    assert len(set(threads)) == 1 and threads[0] != threading.get_ident()
    await store.call(record, admin, "test.event")
    assert await store.read(_count, "audit") == 1


async def test_exception_rolls_back_the_whole_call(store: Store, admin: Change) -> None:
    def half_done(db: Database) -> None:
        record(db, admin, "first.half")
        raise ValueError("second half failed")

    with pytest.raises(ValueError, match="second half failed"):
        await store.call(half_done)
    assert await store.read(_count, "audit") == 0
    await store.call(record, admin, "after.failure")  # the connection is still usable
    assert await store.read(_count, "audit") == 1


def test_a_generator_result_is_refused(store: Store) -> None:
    with pytest.raises(TypeError, match="return a list"):
        store.read_sync(lambda db: db.query("SELECT 1"))


def test_nested_call_from_the_owner_thread_is_refused(store: Store) -> None:
    with pytest.raises(RuntimeError, match="inside a store call"):
        store.call_sync(lambda db: store.call_sync(_count, "audit"))


async def test_200_concurrent_writers_lose_nothing(store: Store, seeded: Seeded) -> None:
    pairing = seeded.tables[0].id
    before = await store.read(_count, "audit")

    def write(db: Database, n: int) -> int:
        by = Change.player(seeded.players[0], START + timedelta(seconds=n))
        return append_evidence(db, pairing, EvidenceKind.ARRIVAL, by, payload={"n": n}).id

    ids = await asyncio.gather(*(store.call(write, n) for n in range(200)))
    assert len(set(ids)) == 200
    evidence = await store.read(list_evidence, pairing)
    assert sorted(e.payload["n"] for e in evidence) == list(range(200))
    assert await store.read(_count, "audit") == before + 200


async def test_event_loop_keeps_ticking_during_a_slow_query(store: Store) -> None:
    ticks = 0
    loop_ticked = threading.Event()

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1
            if ticks >= 5:
                loop_ticked.set()

    def slow(db: Database) -> int:
        (total,) = db.execute(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) "
            "SELECT count(*) FROM c").fetchone()
        # Finishes only if the event loop ran meanwhile; a blocked loop would time out here.
        if not loop_ticked.wait(timeout=10):
            raise TimeoutError("the event loop did not run while the query was running")
        return int(total)

    task = asyncio.create_task(ticker())
    try:
        assert await store.read(slow) == 300000
    finally:
        task.cancel()
    assert ticks >= 5


async def test_cancelled_call_that_has_not_started_is_skipped(store: Store,
                                                              admin: Change) -> None:
    release = threading.Event()
    blocker = asyncio.create_task(store.call(lambda db: release.wait(10)))
    await asyncio.sleep(0.05)  # the owner thread is now busy with the blocker
    queued = asyncio.create_task(store.call(record, admin, "never.written"))
    await asyncio.sleep(0.01)
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    await asyncio.sleep(0.01)  # let the cancellation reach the queued job
    release.set()
    assert await blocker is True
    assert await store.read(list_audit, action="never.written") == []


async def test_timer_fires_exactly_once_under_concurrency(db_path: Path, admin: Change) -> None:
    store, other = await Store.open(db_path), await Store.open(db_path)
    try:
        timer, created = await store.call(add_timer, TimerKind.GAME_LIMIT, "t:r1:limit",
                                          START, admin)
        assert created
        by = Change.scheduler(START)
        fired = await asyncio.gather(*(s.call(fire_timer, timer.id, by)
                                       for _ in range(25) for s in (store, other)))
        assert fired.count(True) == 1
        assert len(await store.read(list_audit, action="timer.fire")) == 1
    finally:
        await store.close()
        await other.close()


_OTHER_PROCESS = textwrap.dedent("""
    import sys
    from datetime import UTC, datetime
    from bot.store import Change, Store, record
    by = Change.admin("other-process", datetime(2025, 3, 1, tzinfo=UTC))
    with Store(sys.argv[1], busy_timeout_ms=30000) as store:
        for n in range(int(sys.argv[2])):
            store.call_sync(record, by, "other.process", data={"n": n})
""")


async def test_a_second_process_writes_at_the_same_time(store: Store, db_path: Path,
                                                         admin: Change) -> None:
    writes = 300
    child = subprocess.Popen([sys.executable, "-c", _OTHER_PROCESS, str(db_path), str(writes)],
                             cwd=REPO, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    mine = 0  # as many as this machine writes while the child writes its 300: counted, not paged
    while child.poll() is None and time.monotonic() < deadline:
        await store.call(record, admin, "this.process")
        mine += 1
    _, errors = await asyncio.to_thread(child.communicate)
    assert child.returncode == 0, errors
    assert mine > 0
    assert await store.read(_count_action, "other.process") == writes
    assert await store.read(_count_action, "this.process") == mine


async def test_close_and_reopen_keeps_the_data(db_path: Path, admin: Change) -> None:
    store = await Store.open(db_path)
    await store.call(record, admin, "before.close")
    await store.close()
    await store.close()  # closing twice is harmless
    assert store.closed
    with pytest.raises(StoreClosedError):
        await store.call(record, admin, "after.close")
    async with await Store.open(db_path) as reopened:
        assert [a.action for a in await reopened.read(list_audit)] == ["before.close"]


def test_close_finishes_the_queued_work(db_path: Path, admin: Change) -> None:
    store = Store(db_path)
    futures = [store._submit(record, (admin, f"queued.{n}"), {}, write=True) for n in range(50)]
    store.close_sync()
    assert all(f.result() for f in futures)
    with Store(db_path) as reopened:
        assert reopened.read_sync(_count, "audit") == 50


def test_opening_an_impossible_path_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(sqlite3.OperationalError):
        Store(tmp_path / "missing-folder" / "x.db")
