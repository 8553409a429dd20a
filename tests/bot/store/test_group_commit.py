"""Group commit (issue 21): jobs queued while the owner thread is busy share one transaction,
each in its own savepoint — a job that raises is undone alone — and nobody is answered before
the COMMIT. Urgent jobs go before the queued ones."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.store.db import GROUP_LIMIT


def _note(db: Any, text: str) -> int:
    return int(db.execute("INSERT INTO notes (text) VALUES (?)", [text]).lastrowid)


def _fail_after_writing(db: Any) -> None:
    _note(db, "undone")
    raise ValueError("refused")


def _notes(path: Path) -> list[str]:
    with sqlite3.connect(path) as other:  # another connection: sees only what committed
        return [row[0] for row in other.execute("SELECT text FROM notes ORDER BY id")]


@pytest.fixture
async def held(tmp_path: Path) -> Any:
    """A store whose owner thread is held by a first job until `gate` is set."""
    store = await Store.open(tmp_path / "s.db")
    await store.call(lambda db: db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text)"))
    started, gate = threading.Event(), threading.Event()

    def hold(db: Any) -> bool:
        started.set()
        return gate.wait(60)  # every test sets it; a limit only for a test that hangs

    blocker = asyncio.ensure_future(store.call(hold))
    # Running, not just queued (a pause would be a race a slow machine loses): the jobs the
    # test queues next would otherwise join the blocker's group.
    assert await asyncio.to_thread(started.wait, 60)
    yield store, gate
    gate.set()
    await blocker
    await store.close()


async def test_a_failing_job_in_a_group_is_undone_alone(held: Any, tmp_path: Path) -> None:
    store, gate = held
    first = asyncio.ensure_future(store.call(_note, "a"))
    failing = asyncio.ensure_future(store.call(_fail_after_writing))
    last = asyncio.ensure_future(store.call(_note, "c"))
    await asyncio.sleep(0.05)
    gate.set()
    assert await first == 1
    with pytest.raises(ValueError, match="refused"):
        await failing
    assert await last == 2  # the undone row's id was rolled back with it
    assert _notes(tmp_path / "s.db") == ["a", "c"]


async def test_callers_are_answered_after_the_groups_commit(held: Any, tmp_path: Path) -> None:
    store, gate = held
    seen: list[list[str]] = []

    async def write_then_look(text: str) -> None:
        await store.call(_note, text)
        seen.append(_notes(tmp_path / "s.db"))  # what another process sees when we answer

    writers = [asyncio.ensure_future(write_then_look(t)) for t in ("x", "y", "z")]
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(*writers)
    assert seen == [["x", "y", "z"]] * 3  # one group: all committed before the first answer


async def test_a_group_holds_at_most_the_limit(held: Any, tmp_path: Path) -> None:
    store, gate = held
    sizes: list[int] = []
    run_group = store._execute_group

    def recording(db: Any, jobs: list[Any], lead: Any = ()) -> None:
        sizes.append(len(jobs))
        run_group(db, jobs, lead)

    store._execute_group = recording
    jobs = [asyncio.ensure_future(store.call(_note, str(n))) for n in range(GROUP_LIMIT + 5)]
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(*jobs)
    assert sizes == [GROUP_LIMIT, 5]
    assert len(_notes(tmp_path / "s.db")) == GROUP_LIMIT + 5


async def test_urgent_jobs_go_before_the_queued_ones(held: Any) -> None:
    store, gate = held
    order: list[str] = []
    queued = asyncio.ensure_future(store.call(lambda db: order.append("queued")))
    urgent = asyncio.ensure_future(store.call_urgent(lambda db: order.append("urgent")))
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(queued, urgent)
    assert order == ["urgent", "queued"]


async def test_a_deferred_job_rides_at_the_head_of_the_next_transaction(
        held: Any, tmp_path: Path) -> None:
    """A delivery pass's marks (`Store.defer`): nobody waits for them, they share the next
    job's transaction — and a refusal of that job does not undo them."""
    store, gate = held
    groups: list[tuple[list[str], list[str]]] = []
    run_group = store._execute_group

    def recording(db: Any, jobs: list[Any], lead: Any = ()) -> None:
        groups.append(([job[0].__name__ for job in jobs], [job[0].__name__ for job in lead]))
        run_group(db, jobs, lead)

    store._execute_group = recording
    marks = store.defer(_note, "marks")
    refused = asyncio.ensure_future(store.call(_fail_after_writing))
    await asyncio.sleep(0.05)
    gate.set()
    with pytest.raises(ValueError, match="refused"):
        await refused
    assert await asyncio.wrap_future(marks) == 1
    assert groups == [(["_fail_after_writing"], ["_note"])]  # one transaction for both
    assert _notes(tmp_path / "s.db") == ["marks"]


async def test_a_deferred_job_that_comes_in_during_a_group_runs_before_its_next_job(
        held: Any, tmp_path: Path) -> None:
    """Marks deferred while a group runs are applied between its jobs, in its transaction:
    the jobs after them see them (their outbox snapshots need no pass of their own), a refused
    job after them does not undo them, and all commit together."""
    store, gate = held
    seen: list[list[str]] = []
    inside, go = threading.Event(), threading.Event()

    def first(db: Any) -> None:
        _note(db, "first")
        inside.set()
        go.wait(60)  # the marks are deferred meanwhile, as a pass on the loop's thread would

    def second(db: Any) -> None:
        seen.append([row[0] for row in db.execute("SELECT text FROM notes ORDER BY id")])
        _note(db, "second")

    jobs = [asyncio.ensure_future(store.call(fn)) for fn in (first, _fail_after_writing, second)]
    await asyncio.sleep(0.05)
    transaction = store.transaction
    gate.set()
    assert await asyncio.to_thread(inside.wait, 60)
    marks = store.defer(_note, "marks")
    go.set()
    results = await asyncio.gather(*jobs, return_exceptions=True)
    assert isinstance(results[1], ValueError)
    assert await asyncio.wrap_future(marks) == 2
    assert seen == [["first", "marks"]]  # the marks came before the group's later jobs
    assert store.transaction == transaction + 1  # one transaction for all of it
    assert _notes(tmp_path / "s.db") == ["first", "marks", "second"]


async def test_work_before_commit_runs_once_per_transaction_after_its_last_job(
        held: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`before_commit`: what a group needs once (the outbox snapshot) runs once, after its
    last job and inside its transaction; a failure of it is logged and fails no job; a
    transaction rolled back runs none of it; it is refused off the store's thread."""
    store, gate = held
    counted: list[int] = []

    def count(db: Any) -> None:
        counted.append(db.execute("SELECT count(*) FROM notes").fetchone()[0])

    def broken(db: Any) -> None:
        raise RuntimeError("this work failed")

    def job(db: Any, text: str) -> None:
        _note(db, text)
        store.before_commit("count", count)  # the same key: the last one stands
        store.before_commit("broken", broken)

    jobs = [asyncio.ensure_future(store.call(job, t)) for t in ("x", "y", "z")]
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(*jobs)
    assert counted == [3]  # once, after all three jobs, before the commit
    assert "this work failed" in caplog.text
    assert _notes(tmp_path / "s.db") == ["x", "y", "z"]

    def refused(db: Any) -> None:
        store.before_commit("count", count)
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        await store.call(refused)  # alone: its transaction is rolled back
    await store.call(_note, "w")
    assert counted == [3]
    with pytest.raises(RuntimeError, match="on its thread"):
        store.before_commit("count", count)


async def test_a_deferred_job_alone_gets_a_transaction_soon(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "s.db") as store:
        await store.call(lambda db: db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text)"))
        marks = store.defer(_note, "marks")
        # soon, not at the next job's (there is none); the bound is for a loaded machine
        assert await asyncio.wait_for(asyncio.wrap_future(marks), 10) == 1
        assert _notes(tmp_path / "s.db") == ["marks"]


def test_a_deferred_job_still_runs_when_the_store_closes(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.call_sync(lambda db: db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text)"))
        gate = threading.Event()
        store._submit(lambda db: gate.wait(5), (), {}, write=True)  # the owner thread is busy
        marks = store.defer(_note, "marks")
        closing = threading.Thread(target=store.close_sync)
        closing.start()
        gate.set()
        closing.join(5)
    assert marks.result(1) == 1
    assert _notes(tmp_path / "s.db") == ["marks"]
