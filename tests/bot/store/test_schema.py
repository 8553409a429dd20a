"""Schema, migrations and the constraints the database itself enforces."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.store import (
    MIGRATIONS,
    ActorKind,
    Change,
    EvidenceKind,
    ResultFields,
    ResultStatus,
    Store,
    SyncKind,
    SyncOutcome,
    TimerStatus,
    TournamentStatus,
    append_evidence,
    connect,
    get_result,
    list_entries,
    put_result,
    record,
    schema,
)
from bot.store.links import add_link_request, list_link_requests
from bot.store.schema import APPEND_ONLY

from .conftest import START, Seeded

FIRST = "0001_initial"
SECOND = "0002_lookups_and_frozen_results"
# Every migration this version ships, in the order they apply (each new one appends here).
ALL = [FIRST, SECOND, "0003_outbox", "0004_identity",
       "0005_outbox_reports_and_bot_lease", "0006_duplicate", "0007_duplicate_shoot_out",
       "0008_lease_generation", "0009_dup_slip_fixes", "0010_season_ladders",
       "0011_rating_chain", "0012_link_requests_per_event"]


@pytest.fixture
def migrated_db() -> None:
    """The migrations' own tests: every `store` here migrates a new file from scratch."""
    return None


def test_new_database_has_every_table_and_settings(store: Store) -> None:
    def inspect(db: Database) -> tuple[set[str], list[str], str, int, int]:
        return (
            set(db.table_names()),
            [m.name for m in MIGRATIONS.applied(db)],
            db.execute("PRAGMA journal_mode").fetchone()[0],
            db.execute("PRAGMA foreign_keys").fetchone()[0],
            db.execute("PRAGMA busy_timeout").fetchone()[0],
        )

    tables, applied, journal, foreign_keys, busy = store.read_sync(inspect)
    assert {"players", "tournaments", "rounds", "entries", "pairings", "evidence",
            "platform_records", "results", "result_versions", "discrepancies", "timers",
            "rating_history", "sync_runs", "audit", "outbox", "link_requests",
            "outbox_told", "bot_lease"} <= tables
    assert applied == ALL
    assert (journal, foreign_keys) == ("wal", 1)
    assert busy >= 1000


def test_reopening_applies_nothing_twice(db_path: Path) -> None:
    Store(db_path).close_sync()
    db = connect(db_path)
    assert MIGRATIONS.pending(db) == []
    assert [m.name for m in MIGRATIONS.applied(db)] == ALL
    db.close()


def test_old_database_upgrades_in_place_with_its_data(db_path: Path, seed_fn, admin) -> None:
    old = Database(sqlite3.connect(str(db_path), isolation_level=None))
    old.execute("PRAGMA foreign_keys = ON")
    MIGRATIONS.apply(old, stop_before=SECOND)
    old.execute("BEGIN")
    seeded: Seeded = seed_fn(old, admin)
    pairing = seeded.tables[0].id
    # Written by hand as version 1 of the code would: there is no confirmed_at column yet.
    old.execute(
        """INSERT INTO results (pairing_id, version, status, end_kind, first_points,
           second_points, first_score, second_score, rated, rule, updated_at, actor_kind)
           VALUES (?, 1, 'confirmed', 'finished', 1.0, 0.0, 420, 300, 1, 'e-SP 3.5', ?,
                   'admin')""",
        [pairing, (START + timedelta(hours=1)).isoformat()],
    )
    old.execute("COMMIT")
    assert "confirmed_at" not in old["results"].columns_dict
    old.close()

    with Store(db_path) as store:
        result = store.read_sync(get_result, pairing)
        entries = store.read_sync(list_entries, seeded.tournament.id)
        indexes = store.read_sync(lambda db: {i.name for i in db["timers"].indexes})
        assert result is not None
        assert (result.version, result.first_score, result.second_score) == (1, 420, 300)
        assert result.confirmed_at == START + timedelta(hours=1)  # backfilled
        assert [e.player_id for e in entries] == seeded.players
        assert "timers_pending_due" in indexes
        # The frozen-result trigger of the second migration guards the old row too.
        with pytest.raises(sqlite3.IntegrityError, match="never changes again"):
            store.call_sync(lambda db: db.execute(
                "UPDATE results SET version = 2, status = 'disputed' WHERE pairing_id = ?",
                [pairing]))


def test_foreign_keys_are_enforced(store: Store, admin: Change) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        store.call_sync(lambda db: db.execute(
            "INSERT INTO entries (tournament_id, player_id, registration_no, registered_at) "
            "VALUES (99, 99, 1, '2025-01-01T00:00:00+00:00')"))


def test_pairing_needs_entrants_of_its_tournament(store: Store, seeded: Seeded,
                                                   seed_fn, admin: Change) -> None:
    other = store.call_sync(seed_fn, admin, "kt-other")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        store.call_sync(lambda db: db.execute(
            "INSERT INTO pairings (tournament_id, round_no, table_no, first_id, second_id, "
            "created_at) VALUES (?, 2, 1, ?, ?, '2025-01-01T00:00:00+00:00')",
            [seeded.tournament.id, seeded.players[0], other.players[0]]))


def test_a_player_sits_at_one_table_per_round(store: Store, seeded: Seeded) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="only one table"):
        store.call_sync(lambda db: db.execute(
            "INSERT INTO pairings (tournament_id, round_no, table_no, first_id, created_at) "
            "VALUES (?, 1, 3, ?, '2025-01-01T00:00:00+00:00')",
            [seeded.tournament.id, seeded.players[1]]))


def test_strict_tables_refuse_wrong_types_and_bad_json(store: Store, admin: Change) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        store.call_sync(lambda db: db.execute(
            "INSERT INTO players (name, herna_nick, herna_key, rated_games, created_at) "
            "VALUES ('A', 'a', 'a', 'many', 'x')"))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        store.call_sync(lambda db: db.execute(
            "INSERT INTO audit (at, actor_kind, action, data) VALUES ('x', 'admin', 'a', '{')"))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        store.call_sync(lambda db: db.execute(
            "INSERT INTO audit (at, actor_kind, action) VALUES ('x', 'robot', 'a')"))


def test_herna_nick_is_unique_case_insensitively_in_the_schema(store: Store) -> None:
    insert = ("INSERT INTO players (name, herna_nick, herna_key, created_at) "
              "VALUES ('A', ?, ?, '2025-01-01T00:00:00+00:00')")
    store.call_sync(lambda db: db.execute(insert, ["Ďuro", "ďuro"]))
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        store.call_sync(lambda db: db.execute(insert, ["ĎURO", "ďuro"]))


@pytest.mark.parametrize("table", APPEND_ONLY)
def test_append_only_tables_refuse_update_and_delete(
    store: Store, seeded: Seeded, admin: Change, table: str
) -> None:
    pairing = seeded.tables[0].id

    def fill(db: Database) -> None:
        append_evidence(db, pairing, EvidenceKind.ABSENCE, admin)
        put_result(db, pairing, ResultFields(ResultStatus.PENDING), 0, admin)
        record(db, admin, "test.event")
        db.execute("INSERT INTO rating_history (player_id, kind, before_games, after_value, "
                   "after_games, at) VALUES (?, 'decay', 0, 1600, 0, 'x')",
                   [seeded.players[0]])

    store.call_sync(fill)
    for sql in (f"UPDATE {table} SET id = id + 1000", f"DELETE FROM {table}"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.call_sync(lambda db, sql=sql: db.execute(sql))
    assert store.read_sync(lambda db: db[table].count) >= 1


def test_results_cannot_skip_versions_or_be_deleted(store: Store, seeded: Seeded,
                                                     admin: Change) -> None:
    pairing = seeded.tables[0].id
    store.call_sync(put_result, pairing, ResultFields(ResultStatus.PENDING), 0, admin)
    with pytest.raises(sqlite3.IntegrityError, match="exactly one"):
        store.call_sync(lambda db: db.execute(
            "UPDATE results SET version = 5 WHERE pairing_id = ?", [pairing]))
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        store.call_sync(lambda db: db.execute("DELETE FROM results"))


def test_schema_checks_list_exactly_the_python_enums() -> None:
    pairs = [(schema.ACTOR_KINDS, ActorKind), (schema.EVIDENCE_KINDS, EvidenceKind),
             (schema.RESULT_STATUSES, ResultStatus), (schema.TOURNAMENT_STATUSES,
                                                      TournamentStatus),
             (schema.TIMER_STATUSES, TimerStatus), (schema.SYNC_KINDS, SyncKind),
             (schema.SYNC_OUTCOMES, SyncOutcome)]
    for listed, enum in pairs:
        assert listed == tuple(member.value for member in enum), enum.__name__


def test_0012_keeps_the_link_requests_and_makes_them_each_events(
        db_path: Path, seed_fn, admin) -> None:  # type: ignore[no-untyped-def]
    """Issue 44.8: a request written before 0012 stays as it was; after it, the same account
    may ask for the same player in another event — a request of that event."""
    old = Database(sqlite3.connect(str(db_path), isolation_level=None))
    old.execute("PRAGMA foreign_keys = ON")
    MIGRATIONS.apply(old, stop_before="0012_link_requests_per_event")
    old.execute("BEGIN")
    first: Seeded = seed_fn(old, admin)
    second: Seeded = seed_fn(old, admin, slug="kt-druhy")
    player = first.players[0]
    add_link_request(old, first.tournament.id, player, 10**17, "ucet", admin)
    old.execute("COMMIT")
    with pytest.raises(sqlite3.IntegrityError):  # before: one request per player and account
        add_link_request(old, second.tournament.id, player, 10**17, "ucet", admin)
    old.close()

    with Store(db_path) as store:
        store.call_sync(add_link_request, second.tournament.id, player, 10**17, "ucet", admin)
        for seeded in (first, second):
            [request] = store.read_sync(list_link_requests, seeded.tournament.id)
            assert (request.player_id, request.discord_id) == (player, 10**17)
