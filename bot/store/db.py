"""The Store: one SQLite connection, owned by one dedicated worker thread.

sqlite3 connections cannot cross threads and every call blocks, so all database work is queued
to a single thread. Async code awaits `store.call(fn, *args)`; the CLI uses
`store.call_sync(fn, *args)`. Either way `fn(db, *args)` runs on the owner thread inside one
transaction (BEGIN IMMEDIATE … COMMIT; ROLLBACK and re-raise on any exception), so a use case
is all-or-nothing and the event loop never waits on the disk. Because one thread serialises
the writes of this process, "database is locked" cannot happen between our own callers; other
processes are waited for by the busy timeout.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import types
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlite_utils import Database

from bot.store.schema import migrate

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


_Job = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], bool, Future[Any]]


class Store:
    """The one gateway to the database file.

    `Store(path)` starts the owner thread, opens and migrates the database, and raises here if
    that fails. Use `await Store.open(path)` from async code so opening does not block the loop.
    """

    def __init__(
        self, path: str | Path, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS
    ) -> None:
        self.path = Path(path)
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._close_lock = threading.Lock()
        self._unfinished = 0  # jobs submitted and not yet finished (under _close_lock)
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
        opened.set_result(None)
        try:
            while (job := self._jobs.get()) is not None:
                self._execute(db, *job)
        finally:
            db.close()

    def _finished(self) -> None:
        # Counted before the caller is woken, so a caller sees its own job gone from `backlog`.
        with self._close_lock:
            self._unfinished -= 1

    def _execute(
        self,
        db: Database,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        write: bool,
        future: Future[Any],
    ) -> None:
        if not future.set_running_or_notify_cancel():
            self._finished()
            return  # the caller gave up before we started: do nothing at all
        try:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            result = fn(db, *args, **kwargs)
            if isinstance(result, types.GeneratorType):
                # Lazy rows would be read after COMMIT, on the caller's thread: refuse them.
                raise TypeError(
                    f"{getattr(fn, '__name__', fn)} returned a generator; "
                    "return a list (rows must be read inside the transaction)"
                )
            db.execute("COMMIT")
        except BaseException as error:
            db.rollback()
            self._finished()
            future.set_exception(error)
        else:
            self._finished()
            future.set_result(result)

    # -- the callers' side -----------------------------------------------------------------

    def _submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], write: bool
    ) -> Future[Any]:
        if threading.current_thread() is self._thread:
            # Waiting for our own queue from the owner thread would wait forever.
            raise RuntimeError("store.call from inside a store call: call the function directly")
        future: Future[Any] = Future()
        with self._close_lock:
            if self._closed:
                raise StoreClosedError("the store is closed")
            self._jobs.put((fn, args, kwargs, write, future))
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
        return await asyncio.wrap_future(self._submit(fn, args, kwargs, write=True))

    async def read(
        self,
        fn: Callable[Concatenate[Database, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Like `call`, in a deferred transaction: takes no write lock unless `fn` writes."""
        return await asyncio.wrap_future(self._submit(fn, args, kwargs, write=False))

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
