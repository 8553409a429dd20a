"""The floor under a use case's latency: its own SQL statements, replayed through the store.

A use case's caller waits for its Python (reading rows into objects, the rules, encoding), its
SQL statements, the transaction around them and the hand-off to and from the store's thread.
`Recorder` keeps every statement (with its parameters) a use case ran, per call; `replay`
runs them again on a copy of the database taken before, one store job per call, with no
Python of the use case at all — the same statements, the same transactions and group
commits, the same hand-offs. What that costs no implementation of the use case in Python can
go below (issue 21: "is the target reachable with this schema?").
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.store import Store

Statement = tuple[bool, str, tuple[Any, ...]]  # (executemany?, sql, its arguments)
_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")  # the store's own


class Recorder:
    """Stands in for the store connection's `conn` and keeps the statements run through it
    (transaction control left out: the replaying store adds its own)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.statements: list[Statement] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if not sql.lstrip()[:9].upper().startswith(_CONTROL):
            self.statements.append((False, sql, args))
        return self.conn.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        rows = list(rows)
        self.statements.append((True, sql, (rows,)))
        return self.conn.executemany(sql, rows)


def record(db: Database) -> Recorder:
    """On the store's thread: start recording the connection's statements."""
    recorder = Recorder(db.conn)
    db.conn = recorder  # type: ignore[assignment]  # sqlite-utils only calls what it forwards
    return recorder


def stop_recording(db: Database) -> None:
    if isinstance(db.conn, Recorder):
        db.conn = db.conn.conn


def copy_database(source: Path, to: Path) -> None:
    """A consistent copy of the database's committed state (SQLite's backup, on a connection
    of its own: WAL lets it read beside the store's writer)."""
    with contextlib.closing(sqlite3.connect(source)) as reader, \
            contextlib.closing(sqlite3.connect(to)) as target:
        reader.backup(target)


def _run(db: Database, statements: list[Statement]) -> float:
    """The statements, on the store's thread; the seconds SQLite took over them."""
    conn = db.conn
    began = time.perf_counter()
    for many, sql, args in statements:
        (conn.executemany if many else conn.execute)(sql, *args)
    return time.perf_counter() - began


async def replay(path: Path, calls: list[list[Statement]], concurrent: bool
                 ) -> tuple[list[float], list[float]]:
    """Each call's statements as one store job on a store over `path`, one after the other or
    all at once: the seconds each job's caller waited, and the seconds its statements took
    (the rest of the wait is the transaction's BEGIN and COMMIT, the hand-offs to the store's
    thread and back and, at once, the queue)."""
    store = await Store.open(path)
    latencies: list[float] = []
    inside: list[float] = []

    async def one(statements: list[Statement]) -> None:
        began = time.perf_counter()
        inside.append(await store.call(_run, statements))
        latencies.append(time.perf_counter() - began)

    try:
        if concurrent:
            await asyncio.gather(*(one(s) for s in calls))
        else:
            for statements in calls:
                await one(statements)
    finally:
        await store.close()
    return latencies, inside
