"""Who asks and where he sits, in one query: the player by his Discord account, his entry in
the tournament, his table in the round and his opponent (issue 21: a report paid for four
SELECTs and four row builds here; every chat command starts with this lookup)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from sqlite_utils import Database

from bot.store.rows import Entry, Player, TablePairing, row_builder

_name = itemgetter(0)
_GAP = "seat_gap"  # a NULL column between the tables' columns: where one row's part ends

# The pairing by the same two indexed lookups as `find_pairing` (as first, then as second
# player); the entry and the opponent by their keys. A player who does not exist gives no row.
_SQL = f"""SELECT p.*, NULL AS {_GAP}, e.*, NULL AS {_GAP}, x.*, NULL AS {_GAP}, o.*
    FROM players p
    LEFT JOIN entries e ON e.tournament_id = :tournament AND e.player_id = p.id
    LEFT JOIN pairings x ON x.id = coalesce(
        (SELECT id FROM pairings WHERE tournament_id = :tournament AND round_no = :round
           AND first_id = p.id),
        (SELECT id FROM pairings WHERE tournament_id = :tournament AND round_no = :round
           AND second_id = p.id))
    LEFT JOIN players o ON o.id = iif(x.first_id = p.id, x.second_id, x.first_id)
    WHERE p.discord_id = :discord"""


@dataclass(frozen=True, slots=True)
class SeatRows:
    """The rows a seat is made of; None where there is none (no entry, not paired, a bye)."""

    player: Player
    entry: Entry | None
    pairing: TablePairing | None
    opponent: Player | None


def find_seat(db: Database, tournament_id: int, round_no: int | None,
              discord_id: int) -> SeatRows | None:
    """The player linked to `discord_id` (None: nobody is), his entry in the tournament and
    his table in round `round_no` (None: no round) with his opponent."""
    cursor = db.execute(_SQL, {"tournament": tournament_id, "round": round_no,
                               "discord": discord_id})
    row = cursor.fetchone()
    if row is None:
        return None
    columns = tuple(map(_name, cursor.description))
    player, entry, pairing, opponent = _builders(columns)
    parts = [row[start:end] for start, end in _bounds(columns)]
    # a LEFT JOIN that found nothing fills its part with NULLs: its key column is NULL
    return SeatRows(player(parts[0]),
                    None if parts[1][0] is None else entry(parts[1]),
                    None if parts[2][0] is None else pairing(parts[2]),
                    None if parts[3][0] is None else opponent(parts[3]))


@cache
def _bounds(columns: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Each table's (start, end) in the row, split at the gap columns."""
    gaps = [i for i, name in enumerate(columns) if name == _GAP]
    starts = [0, *(g + 1 for g in gaps)]
    ends = [*gaps, len(columns)]
    return tuple(zip(starts, ends, strict=True))


@cache
def _builders(columns: tuple[str, ...]) -> tuple[Any, Any, Any, Any]:
    """A row builder per table, for its own columns (planned once per query shape)."""
    player, entry, pairing, opponent = (columns[start:end] for start, end in _bounds(columns))
    return (row_builder(Player, player), row_builder(Entry, entry),
            row_builder(TablePairing, pairing), row_builder(Player, opponent))
