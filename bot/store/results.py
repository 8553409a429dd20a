"""Results: the current verdict per pairing, its append-only history, and discrepancies.

`put_result` is optimistic: the caller names the version it read (0 = there is none yet) and
the write fails with `VersionConflictError` if someone changed the result meanwhile. Every
version is copied into `result_versions` by a trigger; a confirmed result is frozen by another
(e-SP 4.7: "never changes again").
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from functools import cache
from typing import Any, NoReturn

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.pairings import tournament_of_pairing
from bot.store.rows import (
    Change,
    Discrepancy,
    FrozenError,
    ResultFields,
    ResultStatus,
    StoredResult,
    VersionConflictError,
    row_builder,
)
from bot.store.sql import must, one, rows, to_db

_JOINED = "SELECT r.* FROM results r JOIN pairings p ON p.id = r.pairing_id"


def get_result(db: Database, pairing_id: int) -> StoredResult | None:
    return one(db, StoredResult, "SELECT * FROM results WHERE pairing_id = ?", [pairing_id])


def put_result(
    db: Database, pairing_id: int, fields: ResultFields, expected_version: int, by: Change,
    *, tournament_id: int | None = None,
) -> StoredResult:
    """Write the next version of a pairing's result; `expected_version` is the one replaced
    (0 when the pairing has no result yet). `by.reason` is kept with the version.
    `tournament_id`: the pairing's, when the caller has it (else it is read)."""
    if tournament_id is None:
        tournament_id = tournament_of_pairing(db, pairing_id)  # NotFoundError if none
    status = ResultStatus(fields.status)
    version = expected_version + 1
    values: dict[str, Any] = {
        "pairing_id": pairing_id,
        **{name: getattr(fields, name) for name in _FIELDS},  # shallow: written at once
        "status": status,
        "version": version,
        "updated_at": by.at,
        "actor_kind": by.actor,
        "actor_id": by.actor_id,
        "reason": by.reason,
        "confirmed_at": by.at if status is ResultStatus.CONFIRMED else None,
    }
    for points in ("first_points", "second_points"):  # REAL columns: stored as floats
        if values[points] is not None:
            values[points] = float(values[points])
    params = [to_db(value) for value in values.values()]
    # The write itself checks the version (and that a confirmed result stays frozen): it
    # matches no row otherwise, and only then is the current result read to say why. Inside
    # the store's BEGIN IMMEDIATE transaction nobody can slip in between. The row is built
    # from what was written, as a read would build it (no RETURNING: issue 21).
    columns = tuple(values)
    if expected_version == 0:
        written = db.execute(_insert_sql(columns), params)
    else:  # the values after pairing_id (the key)
        written = db.execute(_update_sql(columns), [*params[1:], pairing_id, expected_version])
    if written.rowcount != 1:
        _refuse_write(db, pairing_id, expected_version)
    stored = row_builder(StoredResult, columns)(params)
    record(db, by, "result.put", tournament_id=tournament_id,
           subject=f"pairing:{pairing_id}",
           data={"version": version, "status": status, "end": fields.end_kind,
                 "rule": fields.rule})
    return stored


_FIELDS = tuple(f.name for f in dataclass_fields(ResultFields))


@cache
def _insert_sql(columns: tuple[str, ...]) -> str:
    return (f"INSERT INTO results ({', '.join(columns)}) VALUES "
            f"({', '.join('?' for _ in columns)}) ON CONFLICT (pairing_id) DO NOTHING")


@cache
def _update_sql(columns: tuple[str, ...]) -> str:
    return (f"UPDATE results SET {', '.join(f'{column} = ?' for column in columns[1:])} "
            "WHERE pairing_id = ? AND version = ? AND status != 'confirmed'")


def _refuse_write(db: Database, pairing_id: int, expected_version: int) -> NoReturn:
    """Why a guarded result write matched no row: another version, or a confirmed result."""
    current = get_result(db, pairing_id)
    current_version = 0 if current is None else current.version
    if current_version != expected_version:
        raise VersionConflictError(pairing_id, expected_version, current_version)
    raise FrozenError(f"the result of pairing {pairing_id} is confirmed and never changes "
                      "again (e-SP 4.7)")


def list_results(
    db: Database,
    tournament_id: int,
    *,
    round_no: int | None = None,
    status: ResultStatus | None = None,
) -> list[StoredResult]:
    """A tournament's current results by round and table, optionally of one round / status."""
    where: list[str] = ["p.tournament_id = ?"]
    params: list[Any] = [tournament_id]
    if round_no is not None:
        where.append("p.round_no = ?")
        params.append(round_no)
    if status is not None:
        where.append("r.status = ?")
        params.append(ResultStatus(status))
    sql = f"{_JOINED} WHERE {' AND '.join(where)} ORDER BY p.round_no, p.table_no"
    return rows(db, StoredResult, sql, params)


def result_history(db: Database, pairing_id: int) -> list[StoredResult]:
    """Every version of a pairing's result, oldest first."""
    return rows(
        db,
        StoredResult,
        """SELECT *, CASE WHEN status = 'confirmed' THEN updated_at END AS confirmed_at
           FROM result_versions WHERE pairing_id = ? ORDER BY version""",
        [pairing_id],
    )


def add_discrepancy(
    db: Database, pairing_id: int, recomputed: dict[str, Any], by: Change,
    *, note: str | None = None,
) -> Discrepancy | None:
    """Store that a recomputation disagrees with the (confirmed) result; never applies it.
    Returns None when exactly this disagreement with this version is already stored."""
    current = must(get_result(db, pairing_id), f"result of pairing {pairing_id}")
    cursor = db.execute(
        """INSERT INTO discrepancies (pairing_id, result_version, found_at, recomputed, note)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
        [pairing_id, current.version, to_db(by.at), to_db(recomputed), note],
    )
    if cursor.rowcount == 0:
        return None
    discrepancy_id = int(cursor.lastrowid or 0)
    record(db, by, "discrepancy.add", tournament_id=tournament_of_pairing(db, pairing_id),
           subject=f"pairing:{pairing_id}", data={"discrepancy_id": discrepancy_id})
    return _get_discrepancy(db, discrepancy_id)


def _get_discrepancy(db: Database, discrepancy_id: int) -> Discrepancy:
    return must(one(db, Discrepancy, "SELECT * FROM discrepancies WHERE id = ?",
                    [discrepancy_id]), f"discrepancy {discrepancy_id}")


def list_discrepancies(
    db: Database, tournament_id: int | None = None, *, unresolved_only: bool = True
) -> list[Discrepancy]:
    sql = "SELECT d.* FROM discrepancies d JOIN pairings p ON p.id = d.pairing_id WHERE 1"
    params: list[Any] = []
    if tournament_id is not None:
        sql += " AND p.tournament_id = ?"
        params.append(tournament_id)
    if unresolved_only:
        sql += " AND d.resolved = 0"
    return rows(db, Discrepancy, sql + " ORDER BY d.id", params)


def resolve_discrepancy(
    db: Database, discrepancy_id: int, resolution: str, by: Change
) -> Discrepancy:
    """Mark a discrepancy handled (the head admin looked at it); `resolution` says how."""
    found = _get_discrepancy(db, discrepancy_id)
    if found.resolved:
        raise FrozenError(f"discrepancy {discrepancy_id} is already resolved: {found.resolution}")
    db.execute(
        "UPDATE discrepancies SET resolved = 1, resolved_at = ?, resolution = ? WHERE id = ?",
        [to_db(by.at), resolution, discrepancy_id],
    )
    record(db, by, "discrepancy.resolve",
           tournament_id=tournament_of_pairing(db, found.pairing_id),
           subject=f"pairing:{found.pairing_id}",
           data={"discrepancy_id": discrepancy_id, "resolution": resolution})
    return _get_discrepancy(db, discrepancy_id)
