"""Small shared SQL helpers for the query modules (not part of the public API)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from operator import itemgetter
from typing import Any, TypeVar

from sqlite_utils import Database

from bot.store.rows import NotFoundError, row_builder
from bot.store.times import to_text

R = TypeVar("R")
_name = itemgetter(0)  # a cursor description's column name


def dumps(value: Any) -> str:
    """Canonical JSON (sorted keys, no spaces), so equal data gives equal text."""
    return _ENCODER.encode(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return to_text(value)
    if isinstance(value, set | frozenset):
        return sorted(value)
    raise TypeError(f"cannot store {type(value).__name__} as JSON: {value!r}")


# one encoder for every call: json.dumps with options builds a new one each time (issue 21)
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                            default=_json_default)
_AS_IS = frozenset({int, str, float, type(None), bytes})  # exact types: bool and enums are not


def to_db(value: Any) -> Any:
    """A Python value as SQLite stores it."""
    if type(value) in _AS_IS:  # most parameters: one set lookup instead of four isinstance
        return value
    if isinstance(value, str):  # a StrEnum member: SQLite stores its text
        return value
    if isinstance(value, datetime):
        return to_text(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dict | list | tuple):
        return dumps(value)
    return value


def rows(db: Database, cls: type[R], sql: str, params: Sequence[Any] = ()) -> list[R]:
    # A plain cursor, not db.query(): that wraps every SELECT in a savepoint, which costs
    # more than the query itself here; we always run inside the store's transaction anyway.
    try:
        cursor = db.execute(sql, [to_db(p) for p in params])
    except OverflowError:  # an integer beyond SQLite's 64 bits (a forged id): no row has it
        return []
    build = row_builder(cls, tuple(map(_name, cursor.description)))
    return [build(row) for row in cursor.fetchall()]


def first_value(db: Database, sql: str, params: Sequence[Any] = ()) -> Any:
    """The first column of the first row (None: no row) — like `rows`, an integer SQLite cannot
    hold matches none."""
    try:
        row = db.execute(sql, [to_db(p) for p in params]).fetchone()
    except OverflowError:
        return None
    return None if row is None else row[0]


def one(db: Database, cls: type[R], sql: str, params: Sequence[Any] = ()) -> R | None:
    found = rows(db, cls, sql, params)
    return found[0] if found else None


def must(found: R | None, what: str) -> R:
    if found is None:
        raise NotFoundError(f"{what} does not exist")
    return found


def insert(db: Database, table: str, values: Mapping[str, Any]) -> int:
    """INSERT one row; returns its rowid."""
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = db.execute(
        f"INSERT INTO {table} ({columns}) VALUES ({marks})", [to_db(v) for v in values.values()]
    )
    return int(cursor.lastrowid or 0)


def returning(db: Database, cls: type[R], sql: str, params: Sequence[Any]) -> R | None:
    """Run an INSERT/UPDATE … RETURNING * and build the row it wrote (None: no row matched),
    instead of reading it back with a second query."""
    return one(db, cls, f"{sql} RETURNING *", params)


def insert_row(db: Database, cls: type[R], table: str, values: Mapping[str, Any]) -> R:
    """INSERT one row and return it as stored (defaults, conversions) as `cls`."""
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
    return must(returning(db, cls, sql, list(values.values())), f"new {table} row")


def insert_written(db: Database, cls: type[R], table: str, values: Mapping[str, Any]) -> R:
    """`insert_row` for a row whose every field but its rowid `id` is in `values`: built from
    the values as written (through the readers a SELECT would use), without reading it back —
    the RETURNING costs more than the row is worth on the hot path (issue 21). Not for REAL
    columns given an int (SQLite would store a float)."""
    params = [to_db(v) for v in values.values()]
    cursor = db.execute(f"INSERT INTO {table} ({', '.join(values)}) "
                        f"VALUES ({', '.join('?' for _ in params)})", params)
    return row_builder(cls, ("id", *values))((cursor.lastrowid, *params))


def check_columns(changes: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    unknown = set(changes) - set(allowed)
    if unknown:
        raise ValueError(f"{what}: cannot change {', '.join(sorted(unknown))}")
    if not changes:
        raise ValueError(f"{what}: nothing to change")


def update(
    db: Database, table: str, where: str, params: Sequence[Any], changes: Mapping[str, Any]
) -> dict[str, dict[str, Any]]:
    """UPDATE the columns in `changes`; returns {'before': …, 'after': …} for the audit."""
    columns = ", ".join(changes)
    before = next(iter(db.query(f"SELECT {columns} FROM {table} WHERE {where}", params)), None)
    if before is None:
        raise NotFoundError(f"{table} row ({where} with {list(params)}) does not exist")
    assignments = ", ".join(f"{column} = ?" for column in changes)
    db.execute(
        f"UPDATE {table} SET {assignments} WHERE {where}",
        [*(to_db(v) for v in changes.values()), *params],
    )
    return {"before": before, "after": {k: to_db(v) for k, v in changes.items()}}
