"""The Store: one SQLite connection, owned by one dedicated worker thread.

sqlite3 connections cannot cross threads and every call blocks, so all database work is queued
to a single thread. Async code awaits `store.call(fn, *args)`; the CLI uses
`store.call_sync(fn, *args)`. Either way `fn(db, *args)` runs on the owner thread inside a
transaction (BEGIN IMMEDIATE … COMMIT, in a savepoint of its own: rolled back and re-raised on
any exception; see `Store` for group commit), so a use case is all-or-nothing, its caller is
answered only after the COMMIT, and the event loop never waits on the disk. Because one thread
serialises the writes of this process, "database is locked" cannot happen between our own
callers; other processes are waited for by the busy timeout.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import queue
import sqlite3
import threading
import types
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlite_utils import Database

from bot.store.cache import ReadCache, attach
from bot.store.schema import migrate

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

DEFAULT_BUSY_TIMEOUT_MS = 10_000


class StoreClosedError(RuntimeError):
    """The store was closed (or failed to open); no more work is accepted."""


def connect(path: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Database:
    """Open the file with the store's settings (WAL, foreign keys, busy timeout) and migrate it.

    Exposed for tools and tests that need a plain connection on their own thread; the
    application goes through `Store`.
    """
    # isolation_level=None: we issue BEGIN ourselves, the driver never opens hidden ones.
    conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, isolation_level=None)
    db = Database(conn)
    db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    db.execute("PRAGMA foreign_keys = ON")
    db.enable_wal()
    # NORMAL is durable across application crashes in WAL mode; only power loss may drop
    # the last commits.
    db.execute("PRAGMA synchronous = NORMAL")
    # Migrate under a write lock, so two processes opening an old file do not race.
    db.execute("BEGIN IMMEDIATE")
    try:
        migrate(db)
    except BaseException:
        db.rollback()
        raise
    db.execute("COMMIT")
    return db


#: an async caller's loop and the future it awaits (None: a synchronous caller)
_Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]"] | None
_Job = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], bool, Future[Any], _Waiter]

GROUP_LIMIT = 8  # jobs committed together at most: bounds the wait of a group's first caller
#: the checkpointer waits for this long without a commit (a checkpoint that ends before the
#: next write lets that write start the WAL over) — or for `CHECKPOINT_EVERY` commits in a
#: stream of writes that does not pause (~10 WAL pages a report)
CHECKPOINT_QUIET_S = 0.05
CHECKPOINT_EVERY = 128
#: SQLite's automatic checkpoint (by a commit), kept as the fallback for a WAL the checkpointer
#: has not kept small (a long burst of writes it could not catch up with)
AUTOCHECKPOINT_PAGES = 4000
#: how long a deferred job waits for a transaction to share before it gets one of its own
DEFER_S = 0.002
_WAKE = object()  # put on the queue with an urgent or deferred job: the owner thread wakes up


class Store:
    """The one gateway to the database file.

    `Store(path)` starts the owner thread, opens and migrates the database, and raises here if
    that fails. Use `await Store.open(path)` from async code so opening does not block the loop.

    Group commit: jobs that queue up while the owner thread is busy are run together, each in
    its own SAVEPOINT inside one transaction (so each is still all-or-nothing: a job that
    raises is rolled back alone), and none of their callers is answered before the COMMIT.
    Under a burst this is one BEGIN/COMMIT per group instead of per job. Urgent jobs (the
    outbox's reads) go before the queued ones, so delivering what has committed does not wait
    behind everything queued after it. Deferred jobs (a delivery pass's marks: nobody waits
    for them) ride at the head of the next transaction — or between the jobs of the running
    group, if they come in while it runs — or get their own after `DEFER_S` without one: one
    transaction per report instead of two when reports come one by one.

    Checkpoints (copying the WAL into the database file, with an fsync) are not made by a
    commit, as SQLite's automatic checkpoint would — one in ~100 commits then took ~25 ms, 70 %
    of all commit time — but by a thread of their own on its own connection (PASSIVE: it
    never blocks the writer), at the first quiet moment after a commit.
    """

    def __init__(
        self, path: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS
    ) -> None:
        self.path = Path(path)
        self._jobs: queue.SimpleQueue[_Job | object | None] = queue.SimpleQueue()
        self._urgent: collections.deque[_Job] = collections.deque()
        self._deferred: collections.deque[_Job] = collections.deque()
        self._closed = False
        self._close_lock = threading.Lock()
        self._unfinished = 0  # jobs submitted and not yet finished (under _close_lock)
        self._cache: ReadCache | None = None  # the owner thread's (`bot.store.cache`)
        #: `before_commit` work of the running transaction (the owner thread's)
        self._last_words: dict[Hashable, Callable[[Database], object]] = {}
        #: the number of the owner thread's latest transaction (read by a job: its own)
        self.transaction = 0
        self._commits = 0  # since the last checkpoint (only approximately: two threads count)
        self._wrote = threading.Event()  # set by the first commit after a checkpoint
        self._stopping = threading.Event()  # the checkpointer's last round
        self._checkpointer = threading.Thread(target=self._checkpoints,
                                              name="stredisko-checkpoint", daemon=True)
        opened: Future[None] = Future()
        self._thread = threading.Thread(
            target=self._run, args=(busy_timeout_ms, opened), name="stredisko-store", daemon=True
        )
        self._thread.start()
        try:
            opened.result()
        except BaseException:
            self._closed = True
            self._thread.join()
            raise

    @classmethod
    async def open(
        cls, path: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS
    ) -> Store:
        """Open without blocking the event loop (migrations may take a moment)."""
        return await asyncio.to_thread(cls, path, busy_timeout_ms=busy_timeout_ms)

    # -- the owner thread ------------------------------------------------------------------

    def _run(self, busy_timeout_ms: int, opened: Future[None]) -> None:
        try:
            db = connect(self.path, busy_timeout_ms=busy_timeout_ms)
        except BaseException as error:
            opened.set_exception(error)
            return
        # the checkpointer's job, not a commit's (unless the WAL grows past the fallback)
        db.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")
        self._cache = attach(db)
        self._checkpointer.start()
        opened.set_result(None)
        try:
            stop = False
            while not stop:
                first = self._jobs.get()
                if first is _WAKE and self._deferred and not self._urgent:
                    # only deferred work: wait a moment for a transaction to share
                    with contextlib.suppress(queue.Empty):
                        first = self._jobs.get(timeout=DEFER_S)
                stop = self._drain(db, first)
        finally:
            self._stopping.set()
            self._wrote.set()  # its last checkpoint, then it ends
            self._checkpointer.join()
            db.close()  # the last connection: SQLite checkpoints and removes the WAL

    def _checkpoints(self) -> None:
        """The checkpointer thread: a PASSIVE checkpoint at the first quiet moment after a
        commit (the writer carries on meanwhile; frames written after it began wait for the
        next)."""
        conn = sqlite3.connect(str(self.path), isolation_level=None)
        try:
            while True:
                self._wrote.wait()  # idle until a commit (no wake-up per commit: too dear)
                seen = -1
                while self._commits != seen and self._commits < CHECKPOINT_EVERY:
                    seen = self._commits
                    if self._stopping.wait(CHECKPOINT_QUIET_S):
                        break
                self._wrote.clear()
                self._commits = 0  # a commit counted after this is checkpointed next time
                with contextlib.suppress(sqlite3.Error):  # another process's: the next one
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                if self._stopping.is_set():
                    return
        finally:
            conn.close()

    def _drain(self, db: Database, first: _Job | object) -> bool:
        """Run the urgent jobs, then `first` and the jobs queued behind it, in groups of at most
        GROUP_LIMIT, the deferred jobs at the head of the first transaction; True when the
        close marker was met."""
        group: list[_Job] = []
        stop = first is None
        if first is not _WAKE and first is not None:
            group.append(first)  # type: ignore[arg-type]
        while not stop and len(group) < GROUP_LIMIT:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is None:
                stop = True
                break
            if job is not _WAKE:
                group.append(job)  # type: ignore[arg-type]
        while self._urgent:  # deferred jobs taken at each BEGIN: they come in meanwhile
            urgent = [self._urgent.popleft() for _ in range(min(len(self._urgent), GROUP_LIMIT))]
            self._execute_group(db, urgent, self._take_deferred())
        lead = self._take_deferred()
        if group or lead:
            self._execute_group(db, group, lead)
        return stop

    def _take_deferred(self) -> list[_Job]:
        with self._close_lock:
            taken = list(self._deferred)
            self._deferred.clear()
        return taken

    def _finished(self, count: int = 1) -> None:
        # Counted before the caller is woken, so a caller sees its own job gone from `backlog`.
        with self._close_lock:
            self._unfinished -= count

    def _execute_group(self, db: Database, jobs: list[_Job], lead: Sequence[_Job] = ()) -> None:
        """One transaction for `jobs`, each in its own savepoint, after the deferred jobs
        `lead` (no savepoint: they leave the database right even when they fail halfway);
        every caller is answered after the COMMIT (or gets the error that undid its job).

        Deferred jobs that come in while the group runs are run between its jobs (in a write
        transaction): a delivery pass's marks then reach the snapshots of the jobs after them,
        so the next pass needs no read of its own (issue 21: a third of a burst's
        transactions were such reads)."""
        started = [job for job in jobs if job[4].set_running_or_notify_cancel()]
        self._finished(len(jobs) - len(started))  # cancelled before we started: not run
        ran = [job for job in lead if job[4].set_running_or_notify_cancel()]  # in run order
        if not started and not ran:
            return
        outcomes: list[tuple[bool, Any]] = []
        cache = self._cache
        assert cache is not None
        # A job alone has its transaction as its savepoint (2 statements fewer) — unless
        # deferred jobs share it: a refused job must not undo them.
        solo = len(started) == 1 and not ran
        writes = bool(ran) or any(job[3] for job in started)
        run = db.conn.execute  # transaction control past sqlite_utils' bookkeeping (issue 21)
        self.transaction += 1
        begun = 0  # of `started`

        def run_deferred(deferred: list[_Job]) -> None:  # no savepoint: their writes stay
            for fn, args, kwargs, _write, _future, _waiter in deferred:
                outcomes.append(self._execute(db, fn, args, kwargs, savepoint=False))

        try:
            run("BEGIN IMMEDIATE" if writes else "BEGIN")
            self._last_words.clear()
            cache.begin()
            run_deferred(ran)
            for job in started:
                if begun and writes and self._deferred:
                    joined = [j for j in self._take_deferred()
                              if j[4].set_running_or_notify_cancel()]
                    ran.extend(joined)  # first: answered (with the error) if the group fails
                    run_deferred(joined)
                ran.append(job)
                begun += 1
                outcomes.append(self._execute(db, job[0], job[1], job[2], savepoint=not solo))
            if solo and not outcomes[0][0]:
                run("ROLLBACK")
            else:
                self._say_last_words(db)
                run("COMMIT")
        except BaseException as error:  # BEGIN/COMMIT failed, or SQLite undid the whole group
            cache.clear()
            if db.conn.in_transaction:
                run("ROLLBACK")
            ran.extend(started[begun:])  # the jobs it never began fail with it
            outcomes = [(False, error)] * len(ran)
        self._finished(len(started))
        started = ran
        self._commits += 1
        if self._commits == 1:
            self._wrote.set()
        waking: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for (ok, value), job in zip(outcomes, started, strict=True):
            if ok:
                job[4].set_result(value)
            else:
                job[4].set_exception(value)
            if job[5] is not None:
                loop, waiter = job[5]
                waking.setdefault(loop, []).append((waiter, ok, value))
        # One wake-up of each event loop for the whole group (asyncio.wrap_future woke it once
        # per job: each a write to its self-pipe, each handing the GIL to the loop's thread).
        for loop, settled in waking.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, settled)

    def _say_last_words(self, db: Database) -> None:
        """The transaction's `before_commit` work, each once, after its last job. A failure
        is logged and leaves the jobs alone: this work only saves later work."""
        words, self._last_words = self._last_words, {}
        for fn in words.values():
            try:
                fn(db)
            except Exception:
                if not db.conn.in_transaction:
                    raise  # SQLite ended the transaction: the group fails
                log.exception("work before a commit failed")

    def before_commit(self, key: Hashable, fn: Callable[[Database], object]) -> None:
        """From inside a job (on the owner thread): run `fn(db)` once at the end of this
        transaction, after its last job, before its COMMIT — work that a group of jobs needs
        once, not once per job (the outbox's snapshot for the delivery pass after it). A later
        call with the same key replaces the earlier. Not run if the transaction rolls back."""
        if threading.current_thread() is not self._thread:
            raise RuntimeError("before_commit is for the store's jobs, on its thread")
        self._last_words[key] = fn

    def _execute(self, db: Database, fn: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: dict[str, Any], savepoint: bool) -> tuple[bool, Any]:
        """Run one job in a savepoint: (True, its value) or (False, the error that rolled it
        back). Raises only when SQLite ended the whole transaction (the group then fails).
        Without `savepoint` (a group of one: the caller rolls the transaction back; a deferred
        job: what it did stays) nothing is rolled back here."""
        run = db.conn.execute
        if savepoint:
            run("SAVEPOINT job")
        try:
            result = fn(db, *args, **kwargs)
            if isinstance(result, types.GeneratorType):
                # Lazy rows would be read after COMMIT, on the caller's thread: refuse them.
                raise TypeError(
                    f"{getattr(fn, '__name__', fn)} returned a generator; "
                    "return a list (rows must be read inside the transaction)"
                )
        except BaseException as error:
            if not db.conn.in_transaction:
                raise
            assert self._cache is not None
            self._cache.clear()  # it may hold rows the undone writes made
            if savepoint:
                run("ROLLBACK TO job")
                run("RELEASE job")
            return False, error
        if savepoint:
            run("RELEASE job")
        return True, result

    # -- the callers' side -----------------------------------------------------------------

    def _submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], write: bool,
        urgent: bool = False, waiter: _Waiter = None, deferred: bool = False,
    ) -> Future[Any]:
        if threading.current_thread() is self._thread:
            # Waiting for our own queue from the owner thread would wait forever.
            raise RuntimeError("store.call from inside a store call: call the function directly")
        future: Future[Any] = Future()
        with self._close_lock:
            if self._closed:
                raise StoreClosedError("the store is closed")
            if deferred:  # not in `backlog`: nobody's answer waits behind it
                self._deferred.append((fn, args, kwargs, write, future, waiter))
                self._jobs.put(_WAKE)
                return future
            if urgent:
                self._urgent.append((fn, args, kwargs, write, future, waiter))
                self._jobs.put(_WAKE)
            else:
                self._jobs.put((fn, args, kwargs, write, future, waiter))
            self._unfinished += 1
        return future

    async def call(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run `fn(db, *args, **kwargs)` in one write transaction on the owner thread.

        The exception `fn` raises is re-raised here after the rollback. If the awaiting task is
        cancelled before the job starts, the job is skipped; once started it runs to the end.
        """
        return await self._await(fn, args, kwargs, write=True)

    async def _await(self, fn: Callable[..., Any], args: tuple[Any, ...],
                     kwargs: dict[str, Any], write: bool, urgent: bool = False) -> Any:
        """Submit a job and wait for its answer on this event loop (`_settle`). Cancelled
        before the job starts, the job is skipped; once started it runs to the end."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Any] = loop.create_future()
        future = self._submit(fn, args, kwargs, write, urgent, (loop, waiter))
        try:
            return await waiter
        except asyncio.CancelledError:
            future.cancel()  # only succeeds while the job has not started
            raise

    async def call_urgent(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """`call` ahead of the jobs already queued (for short jobs whose callers wait on work
        that has committed, like the outbox's delivery pass)."""
        return await self._await(fn, args, kwargs, write=True, urgent=True)

    def defer(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> Future[T]:
        """A write nobody waits for (a delivery pass's marks), run at the head of the next
        transaction (or between the running group's jobs) — or in one of its own when none
        comes within `DEFER_S` — and before the store closes. It runs without a savepoint: `fn`
        must leave the database right even when it fails halfway. Its future is answered on the
        owner thread after the COMMIT."""
        return self._submit(fn, args, kwargs, write=True, deferred=True)

    async def read_urgent(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """`read` ahead of the jobs already queued (see `call_urgent`)."""
        return await self._await(fn, args, kwargs, write=False, urgent=True)

    async def read(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Like `call`, in a deferred transaction: takes no write lock unless `fn` writes."""
        return await self._await(fn, args, kwargs, write=False)

    def call_sync(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """`call` for synchronous code (the CLI): blocks this thread until the job is done."""
        return self._submit(fn, args, kwargs, write=True).result()

    def read_sync(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """`read` for synchronous code."""
        return self._submit(fn, args, kwargs, write=False).result()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def backlog(self) -> int:
        """Jobs queued or running now: how many transactions a new call waits behind (the chat
        layer acknowledges an interaction at once when its answer would wait long)."""
        return self._unfinished

    def close_sync(self) -> None:
        """Finish the queued jobs, close the connection and stop the thread. Idempotent."""
        with self._close_lock:
            if not self._closed:
                self._closed = True
                self._jobs.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join()

    async def close(self) -> None:
        """`close_sync` without blocking the event loop while queued jobs finish."""
        await asyncio.to_thread(self.close_sync)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close_sync()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _settle(settled: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On an event loop's thread: answer the async callers of one group."""
    for waiter, ok, value in settled:
        if waiter.cancelled():  # its caller gave up after the job had started
            continue
        if ok:
            waiter.set_result(value)
        else:
            waiter.set_exception(value)
