"""The rating history as a chain with each event's own change (migration 0011_rating_chain,
issue 44.1) and a last season that never moves back (issue 44.8), on real SQLite files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.store import (
    MIGRATIONS,
    Change,
    Store,
    advance_last_season,
    apply_rating,
    get_player,
    later_season,
    rating_change_of,
    rating_history,
)

from .conftest import Seeded, seed


def test_a_tournament_row_keeps_the_event_s_own_change_beside_the_registry_chain(
        store: Store, seeded: Seeded, admin: Change) -> None:
    player, first = seeded.players[0], seeded.tournament.id
    second = store.call_sync(seed, admin, "kt-b").tournament.id
    store.call_sync(apply_rating, player, 1712.5, 7, admin, tournament_id=first)
    # the second event rated him from his seed 1700/0 to 1690/3: the registry adds −10, 3 games
    row = store.call_sync(apply_rating, player, 1702.5, 10, admin, tournament_id=second,
                          event_before=(1700.0, 0), event_after=(1690.0, 3))
    assert (row.before_value, row.before_games, row.after_value, row.after_games) == (
        1712.5, 7, 1702.5, 10)
    assert (row.event_before_value, row.event_before_games, row.event_after_value,
            row.event_after_games) == (1700.0, 0, 1690.0, 3)
    first_row = store.read_sync(rating_change_of, player, first)
    assert first_row is not None  # without the event's figures: nothing else changed it
    assert (first_row.event_before_value, first_row.event_after_value) == (1700.0, 1712.5)
    assert store.read_sync(rating_change_of, player, 999) is None
    assert [r.id for r in store.read_sync(rating_history, player)] == [first_row.id, row.id]


def test_the_database_refuses_a_tournament_row_without_its_event_s_figures(
        store: Store, seeded: Seeded) -> None:
    insert = ("INSERT INTO rating_history (player_id, tournament_id, kind, before_games, "
              "after_value, after_games, at{extra}) VALUES (?, ?, ?, 0, 1600, 0, 'x'{values})")
    for kind, tournament, extra, values in (
            ("tournament", seeded.tournament.id, "", ""),
            ("decay", None, ", event_after_value", ", 1600")):
        with pytest.raises(sqlite3.IntegrityError, match="own change"):
            store.call_sync(lambda db, k=kind, t=tournament, e=extra, v=values: db.execute(
                insert.format(extra=e, values=v), [seeded.players[0], t, k]))


@pytest.mark.parametrize(("season", "last", "later"), [
    ("2024/25", None, True), ("2024/25", "2023/24", True), ("2023/24", "2024/25", False),
    ("2024/25", "2024/25", False), ("2024/2025", "2024/25", False), (" 2025/26", "2024/25", True)])
def test_seasons_are_ordered_by_their_first_year(season: str, last: str | None,
                                                 later: bool) -> None:
    assert later_season(season, last) is later


def test_last_season_never_moves_back(store: Store, seeded: Seeded, admin: Change) -> None:
    """An older season's event finishing after a newer one's: neither its rating change nor
    its table moves the player's last season back (the next decay would judge him inactive,
    e-SP 2.4)."""
    rated, sat = seeded.players[:2]
    older = store.call_sync(seed, admin, "kt-old").tournament.id
    store.call_sync(apply_rating, rated, 1710.0, 3, admin, tournament_id=seeded.tournament.id,
                    season="2024/25")
    store.call_sync(apply_rating, rated, 1720.0, 6, admin, tournament_id=older, season="2023/24")
    assert store.read_sync(get_player, rated).last_season == "2024/25"
    assert store.call_sync(advance_last_season, sat, "2024/25", admin) is True
    assert store.call_sync(advance_last_season, sat, "2023/24", admin) is False
    assert store.read_sync(get_player, sat).last_season == "2024/25"


def test_0011_backfills_the_event_figures_of_rows_written_before_it(
        db_path: Path, admin: Change) -> None:
    """A row written by the version before: its event's own figures are its entry's seed and
    the after it stored; a decay row gets none; the row stays append-only."""
    old = Database(sqlite3.connect(str(db_path), isolation_level=None))
    old.execute("PRAGMA foreign_keys = ON")
    MIGRATIONS.apply(old, stop_before="0011_rating_chain")
    old.execute("BEGIN")
    seeded = seed(old, admin)
    player = seeded.players[1]  # seeded with 1690, 0 games
    for tournament, after in ((seeded.tournament.id, 1701.25), (None, 1651.25)):
        old.execute("INSERT INTO rating_history (player_id, tournament_id, kind, before_value, "
                    "before_games, after_value, after_games, at) VALUES (?, ?, ?, 1690, 0, ?, "
                    "4, '2025-03-01T12:00:00+00:00')",
                    [player, tournament, "decay" if tournament is None else "tournament", after])
    old.execute("COMMIT")
    old.close()

    with Store(db_path) as store:
        rows = store.read_sync(rating_history, player)
        assert [(r.event_before_value, r.event_before_games, r.event_after_value,
                 r.event_after_games) for r in rows] == [(1690.0, 0, 1701.25, 4),
                                                         (None, None, None, None)]
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.call_sync(lambda db: db.execute("UPDATE rating_history SET after_value = 1"))
