"""The store's read cache: rows that nearly every use case reads and that rarely change (a
tournament, its rounds, when herna.net was last searched), kept in the process between
transactions (issue 21).

Only a `Store`'s own connection has one (`attach`); on any other connection `cached` just reads.
It is emptied whenever what it holds may have changed:
- a write by this connection to `tournaments`, `rounds` or `sync_runs`: temporary triggers
  (this connection only, no migration) call back into Python, whichever helper or raw SQL
  wrote;
- a commit by another connection (the CLI's process): `PRAGMA data_version` differs, read once
  per transaction on the first cached read — it also pins the transaction's snapshot, so what
  the cache serves and what the transaction reads are the same version;
- a rollback (of a job's savepoint or of a transaction): a row read after an undone write
  must not outlive the undo (`Store` calls `clear`).
Cached rows are shared: frozen dataclasses whose dict and list fields nobody mutates.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from sqlite_utils import Database

T = TypeVar("T")

#: the tables whose rows are cached: a write to one of them empties the cache
WATCHED = ("tournaments", "rounds", "sync_runs")
_BUMP = "stredisko_cache_changed"


class ReadCache:
    """Rows by key, valid while neither this connection nor another has written them."""

    def __init__(self) -> None:
        self._rows: dict[Hashable, Any] = {}
        self._checked = False  # data_version read in the current transaction
        self._data_version: int | None = None

    def begin(self) -> None:
        """A transaction begins: another process may have committed since the last one."""
        self._checked = False

    def clear(self) -> None:
        self._rows.clear()

    def get(self, db: Database, key: Hashable, load: Callable[[], T]) -> T:
        if not self._checked:
            version = db.execute("PRAGMA data_version").fetchone()[0]
            if version != self._data_version:
                self._rows.clear()
                self._data_version = version
            self._checked = True
        if key in self._rows:
            return self._rows[key]  # type: ignore[no-any-return]
        value = load()
        self._rows[key] = value
        return value


_caches: WeakKeyDictionary[Database, ReadCache] = WeakKeyDictionary()


def attach(db: Database) -> ReadCache:
    """Give the store's connection its cache and the triggers that empty it on a write."""
    cache = ReadCache()
    db.conn.create_function(_BUMP, 0, lambda: cache.clear(), deterministic=False)
    for table in WATCHED:
        for event in ("INSERT", "UPDATE", "DELETE"):
            db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS cache_{table}_{event.lower()} "
                       f"AFTER {event} ON main.{table} BEGIN SELECT {_BUMP}(); END")
    _caches[db] = cache
    return cache


def cached(db: Database, key: Hashable, load: Callable[[], T]) -> T:
    """`load()`'s row, from the cache when `db` has one and nothing has changed it since."""
    cache = _caches.get(db)
    return load() if cache is None else cache.get(db, key, load)
