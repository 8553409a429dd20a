"""Pairings: the tables of a round. `first_id` starts; `second_id` None is a bye."""

from __future__ import annotations

from collections.abc import Sequence

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.entries import list_entries
from bot.store.rows import Change, FrozenError, NotFoundError, StoreError, TablePairing
from bot.store.sql import insert, must, one, rows, to_db
from bot.store.tournaments import get_round

#: (table number, first player id, second player id or None for a bye)
Table = tuple[int, int, int | None]

_OF_ROUND = "tournament_id = ? AND round_no = ?"


def replace_pairings(
    db: Database,
    tournament_id: int,
    round_no: int,
    tables: Sequence[Table],
    by: Change,
    *,
    source: str = "ours",
) -> list[TablePairing]:
    """Replace the whole pairing of a round in one go and mark the round paired at `by.at`.

    Refused once any table of the round has evidence or a result: what was played stays tied
    to the pairing it was played under. The database refuses a player at two tables, a player
    who is not an entrant, and a round that does not exist.
    """
    get_round(db, tournament_id, round_no)  # NotFoundError for a round that does not exist
    _check_tables(db, tournament_id, round_no, tables)
    params = [tournament_id, round_no]
    (used,) = db.execute(
        """SELECT COUNT(*) FROM pairings p WHERE p.tournament_id = ? AND p.round_no = ?
            AND (EXISTS (SELECT 1 FROM evidence e WHERE e.pairing_id = p.id)
                 OR EXISTS (SELECT 1 FROM results r WHERE r.pairing_id = p.id))""",
        params,
    ).fetchone()
    if used:
        raise FrozenError(
            f"round {round_no} already has evidence or results at {used} table(s); "
            "its pairings can no longer be replaced"
        )
    db.execute(f"DELETE FROM pairings WHERE {_OF_ROUND}", params)
    for table_no, first_id, second_id in tables:
        insert(db, "pairings", {
            "tournament_id": tournament_id, "round_no": round_no, "table_no": table_no,
            "first_id": first_id, "second_id": second_id, "source": source,
            "created_at": by.at,
        })
    db.execute("UPDATE rounds SET paired_at = ? WHERE tournament_id = ? AND number = ?",
               [to_db(by.at), *params])
    record(db, by, "pairings.replace", tournament_id=tournament_id,
           subject=f"round:{round_no}", data={"source": source, "tables": list(tables)})
    return pairings_of_round(db, tournament_id, round_no)


def _check_tables(db: Database, tournament_id: int, round_no: int,
                  tables: Sequence[Table]) -> None:
    """Refuse bad input with a plain message before the database's constraints would."""
    seated = [player for _, first, second in tables for player in (first, second)
              if player is not None]
    twice = sorted({player for player in seated if seated.count(player) > 1})
    if twice:
        raise StoreError(f"round {round_no}: players {twice} are at more than one table")
    numbers = [table_no for table_no, _, _ in tables]
    if len(set(numbers)) != len(numbers):
        raise StoreError(f"round {round_no}: table numbers repeat: {sorted(numbers)}")
    registered = {entry.player_id for entry in list_entries(db, tournament_id)}
    strangers = sorted(set(seated) - registered)
    if strangers:
        raise StoreError(f"round {round_no}: players {strangers} are not registered in "
                         f"tournament {tournament_id}")


def pairings_of_round(db: Database, tournament_id: int, round_no: int) -> list[TablePairing]:
    return rows(db, TablePairing, f"SELECT * FROM pairings WHERE {_OF_ROUND} ORDER BY table_no",
                [tournament_id, round_no])


def get_pairing(db: Database, pairing_id: int) -> TablePairing:
    return must(one(db, TablePairing, "SELECT * FROM pairings WHERE id = ?", [pairing_id]),
                f"pairing {pairing_id}")


def find_pairing(
    db: Database, tournament_id: int, round_no: int, player_id: int
) -> TablePairing | None:
    """The table `player_id` sits at in the round (None if not paired)."""
    return one(
        db,
        TablePairing,
        f"""SELECT * FROM pairings WHERE {_OF_ROUND} AND first_id = ?
            UNION ALL
            SELECT * FROM pairings WHERE {_OF_ROUND} AND second_id = ?""",
        [tournament_id, round_no, player_id, tournament_id, round_no, player_id],
    )


def tournament_of_pairing(db: Database, pairing_id: int) -> int:
    """The tournament a pairing belongs to (for audit rows): one column, no row to build."""
    found = db.execute("SELECT tournament_id FROM pairings WHERE id = ?", [pairing_id]).fetchone()
    if found is None:
        raise NotFoundError(f"pairing {pairing_id} does not exist")
    return int(found[0])
