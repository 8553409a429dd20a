"""The duplicate rows (migration 0006_duplicate): what the database itself refuses — a closed
round changed, a slip rewritten, a score version changed or deleted, a protest decided twice —
and the guarded close that lets exactly one caller close a round."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest
from sqlite_utils import Database

from bot.store import Change, Store
from bot.store.duplicate import (
    DupRound,
    add_event,
    add_game,
    add_protest,
    add_round,
    add_score,
    add_slip,
    close_round_row,
    current_scores,
    decide_protest_row,
    game_by_id,
    get_event,
)
from rules.duplicate.board import Board

from .conftest import START, Seeded

EMPTY = Board.empty().text()


def opened(db: Database, seeded: Seeded, by: Change) -> DupRound:
    t = seeded.tournament.id
    add_event(db, t, by, profile="cas-duplicate", lexicon="/x/sk.lex", lexicon_id="sk-1",
              tiles="cas-100", move_seconds=180, warning_seconds=30, part_rounds=[10, 10],
              games=1, mode="hall", pause_seconds=0, starts=[])
    game = add_game(db, t, 1, "ab" * 32, "cd" * 32, by)
    return add_round(db, game, by, number=1, part=1, rack="AEKLOSV", source="arbiter",
                     draw={}, bag={"A": 1}, deadline=START + timedelta(minutes=3),
                     board_before=EMPTY)


def test_the_settings_come_back_as_stored(store: Store, seeded: Seeded, admin: Change) -> None:
    store.call_sync(opened, seeded, admin)
    event = store.read_sync(get_event, seeded.tournament.id)
    assert event is not None and event.part_rounds == [10, 10]
    assert [event.part_of(n) for n in (1, 10, 11, 20, 21, 60)] == [1, 1, 2, 2, 3, 3]
    assert [event.last_of_part(n) for n in (9, 10, 20, 21)] == [False, True, True, False]


def test_a_round_closes_once_and_then_never_changes(
        store: Store, seeded: Seeded, admin: Change) -> None:
    def body(db: Database) -> tuple[bool, bool]:
        rnd = opened(db, seeded, admin)
        tops = {"top_score": 8}
        return (close_round_row(db, rnd, EMPTY, tops, admin, seeded.tournament.id),
                close_round_row(db, rnd, EMPTY, tops, admin, seeded.tournament.id))

    assert store.call_sync(body) == (True, False)
    with pytest.raises(sqlite3.IntegrityError, match="never changes"):
        store.call_sync(lambda db: db.execute("UPDATE dup_rounds SET rack = 'X'"))
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        store.call_sync(lambda db: db.execute("DELETE FROM dup_rounds"))


def test_the_close_is_guarded_by_the_board_it_was_read_with(
        store: Store, seeded: Seeded, admin: Change) -> None:
    def body(db: Database) -> bool:
        rnd = opened(db, seeded, admin)
        moved = DupRound(**{**{f: getattr(rnd, f) for f in rnd.__slots__},
                            "board_before": EMPTY.replace(".", "A", 1)})
        return close_round_row(db, moved, EMPTY, {}, admin, seeded.tournament.id)

    assert store.call_sync(body) is False


def test_slips_are_kept_and_only_replaced(store: Store, seeded: Seeded, admin: Change) -> None:
    def body(db: Database) -> list[tuple[int, int | None]]:
        rnd = opened(db, seeded, admin)
        for text in ("8H KOS", "8H KOSA"):
            add_slip(db, rnd, seeded.players[0], admin, seeded.tournament.id, text=text,
                     coord="8H", word=text[3:], declared=6, received_at=START,
                     source="arbiter")
        return db.execute("SELECT id, replaced_by FROM dup_slips ORDER BY id").fetchall()

    assert store.call_sync(body) == [(1, 2), (2, None)]
    with pytest.raises(sqlite3.IntegrityError, match="only replaced"):
        store.call_sync(lambda db: db.execute("UPDATE dup_slips SET text = '8H X' WHERE id = 2"))
    with pytest.raises(sqlite3.IntegrityError, match="only replaced"):
        store.call_sync(lambda db: db.execute("UPDATE dup_slips SET replaced_by = 2 "
                                              "WHERE id = 1"))
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        store.call_sync(lambda db: db.execute("DELETE FROM dup_slips"))


def test_scores_are_versions_and_never_rewritten(
        store: Store, seeded: Seeded, admin: Change) -> None:
    def body(db: Database) -> list[tuple[int, int]]:
        rnd = opened(db, seeded, admin)
        for points in (0, 6):
            add_score(db, rnd, seeded.players[0], admin, slip_id=None, outcome="scored",
                      points=points, rule="004 §5D", reason=None, verdict={})
        return [(s.version, s.points) for s in current_scores(db, rnd.id)]

    assert store.call_sync(body) == [(2, 6)]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.call_sync(lambda db: db.execute("UPDATE dup_scores SET points = 99"))


def test_a_protest_is_decided_once(store: Store, seeded: Seeded, admin: Change) -> None:
    def body(db: Database) -> tuple[bool, bool]:
        opened(db, seeded, admin)
        game = db.execute("SELECT id FROM dup_games").fetchone()[0]
        protest = add_protest(db, game_by_id(db, game), seeded.players[0], admin, round_no=1,
                              word="KLE", claim="wrongly-rejected", reason="SSSJ")
        first = decide_protest_row(db, protest, True, "áno", admin, seeded.tournament.id)
        second = decide_protest_row(db, protest, False, "nie", admin, seeded.tournament.id)
        return first is not None, second is not None

    assert store.call_sync(body) == (True, False)
    with pytest.raises(sqlite3.IntegrityError, match="decided once"):
        store.call_sync(lambda db: db.execute("UPDATE dup_protests SET status = 'rejected'"))
