"""The duplicate rows (migrations 0006_duplicate, 0007_duplicate_shoot_out, 0009_dup_slip_fixes):
what the database itself refuses — a closed round changed, a slip rewritten, a score or
shoot-out version changed or deleted, a protest decided twice, an arbiter's correction of a
slip he did not type — the guarded close that lets exactly one caller close a round, and 0007
and 0009 applied to a copy of a database made before them."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.store import MIGRATIONS, Change, Store, list_audit
from bot.store.duplicate import (
    DupRound,
    DupSlip,
    add_event,
    add_game,
    add_protest,
    add_round,
    add_score,
    add_shoot_out,
    add_slip,
    add_slip_fix,
    close_round_row,
    current_scores,
    current_shoot_outs,
    decide_protest_row,
    game_by_id,
    get_event,
    shoot_out_history,
    superseded_slips,
)
from rules.duplicate.board import Board

from .conftest import START, Seeded, seed

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


def shoot_out(db: Database, seeded: Seeded, player: int, score: int, seconds: float,
              by: Change, word: str | None = None) -> None:
    add_shoot_out(db, seeded.tournament.id, seeded.players[player], by, score=score,
                  seconds=seconds, word=word, rule="003 r. 49")


def test_a_shoot_out_correction_is_a_new_version_and_the_first_stays(
        store: Store, seeded: Seeded, admin: Change) -> None:
    """003 r. 49's results are entered, corrected by a later version, never rewritten."""
    def body(db: Database) -> None:
        opened(db, seeded, admin)
        shoot_out(db, seeded, 0, 24, 95.5, admin, "8H SLOVO")
        shoot_out(db, seeded, 1, 30, 170, admin)
        shoot_out(db, seeded, 0, 26, 95.5, Change.admin("778", START, "zle sčítané"))

    store.call_sync(body)
    now = store.read_sync(current_shoot_outs, seeded.tournament.id)
    assert [(s.player_id, s.version, s.score, s.seconds, s.word, s.actor_id, s.reason)
            for s in now] == [(seeded.players[0], 2, 26, 95.5, None, "778", "zle sčítané"),
                              (seeded.players[1], 1, 30, 170.0, None, "777", "test")]
    history = store.read_sync(shoot_out_history, seeded.tournament.id)
    assert [(s.version, s.score, s.word) for s in history] == [
        (1, 24, "8H SLOVO"), (1, 30, None), (2, 26, None)]
    audit = store.read_sync(lambda db: list_audit(db, action="duplicate.shoot_out"))
    assert [(a.actor_id, a.reason) for a in audit] == [("777", "test"), ("777", "test"),
                                                        ("778", "zle sčítané")]
    for sql in ("UPDATE dup_shoot_outs SET score = 99", "DELETE FROM dup_shoot_outs"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.call_sync(lambda db, sql=sql: db.execute(sql))
    with pytest.raises(sqlite3.IntegrityError):
        store.call_sync(shoot_out, seeded, 2, -1, 10, admin)
    with pytest.raises(sqlite3.IntegrityError):
        store.call_sync(shoot_out, seeded, 2, 10, 0, admin)


def test_0007_upgrades_a_copy_of_a_database_made_before_it(
        db_path: Path, tmp_path: Path, admin: Change) -> None:
    """A duplicate event stored by the version before the shoot-out: the copy migrates in
    place with its rows, takes a shoot-out, and the original is left as it was."""
    old = Database(sqlite3.connect(str(db_path), isolation_level=None))
    old.execute("PRAGMA foreign_keys = ON")
    MIGRATIONS.apply(old, stop_before="0007_duplicate_shoot_out")
    old.execute("BEGIN")
    seeded = seed(old, admin)
    opened(old, seeded, admin)
    old.execute("COMMIT")
    old.close()
    copy = tmp_path / "kopia.db"
    shutil.copy(db_path, copy)

    with Store(copy) as store:
        event = store.read_sync(get_event, seeded.tournament.id)
        assert event is not None and event.profile == "cas-duplicate"
        store.call_sync(shoot_out, seeded, 0, 24, 95.5, admin)
        assert [s.score for s in store.read_sync(current_shoot_outs,
                                                 seeded.tournament.id)] == [24]
    original = Database(sqlite3.connect(str(db_path)))
    assert "dup_shoot_outs" not in original.table_names()
    # untouched: 0007 and every later migration still pending
    assert [m.name for m in MIGRATIONS.pending(original)][:1] == ["0007_duplicate_shoot_out"]
    original.close()


def typed(db: Database, rnd: DupRound, seeded: Seeded, by: Change, text: str,
          source: str = "arbiter", player: int = 0) -> DupSlip:
    return add_slip(db, rnd, seeded.players[player], by, seeded.tournament.id, text=text,
                    coord="8H", word=text[3:], declared=6, received_at=START, source=source)


FIXED = {"rule": "003 r. 42", "reason": "oprava zápisu rozhodcu"}
R42 = r"\(003 r\. 42\)"  # the trigger's refusal cites the rule


def test_only_the_arbiters_replaced_entry_can_be_fixed(
        store: Store, seeded: Seeded, admin: Change) -> None:
    """003 r. 42: the arbiter's correction of his own typing names the entry the correction
    replaced; the database refuses one for a Discord slip, another player's slip, an entry
    not directly replaced, or a closed round — and never changes or deletes one."""
    def body(db: Database) -> tuple[DupRound, list[DupSlip]]:
        rnd = opened(db, seeded, admin)
        made = [typed(db, rnd, seeded, admin, "8H KOS"), typed(db, rnd, seeded, admin, "8H SOK"),
                typed(db, rnd, seeded, admin, "8H OKO"),  # three entries of player 0
                typed(db, rnd, seeded, admin, "8H KOS", "discord", 1),
                typed(db, rnd, seeded, admin, "8H SOK", "arbiter", 1),
                typed(db, rnd, seeded, admin, "8H KOS", "csv", 2)]
        add_slip_fix(db, made[1], made[2], admin, seeded.tournament.id, **FIXED)
        return rnd, made

    rnd, made = store.call_sync(body)
    assert store.read_sync(superseded_slips, rnd.id) == {made[1].id}
    for wrong, fixed, why in ((made[0], made[2], R42),  # not the entry it replaced
                              (made[3], made[4], R42),  # Discord: the player's own
                              (made[0], made[5], R42),  # another player's
                              (made[1], made[2], "UNIQUE")):  # fixed once
        with pytest.raises(sqlite3.IntegrityError, match=why):
            store.call_sync(add_slip_fix, wrong, fixed, admin, seeded.tournament.id, **FIXED)
    for sql in ("UPDATE dup_slip_fixes SET reason = 'x'", "DELETE FROM dup_slip_fixes"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.call_sync(lambda db, sql=sql: db.execute(sql))

    def close_then_fix(db: Database) -> None:
        later = typed(db, rnd, seeded, admin, "8H OSA", "arbiter", 2)
        close_round_row(db, rnd, EMPTY, {}, admin, seeded.tournament.id)
        add_slip_fix(db, made[5], later, admin, seeded.tournament.id, **FIXED)

    with pytest.raises(sqlite3.IntegrityError, match=R42):
        store.call_sync(close_then_fix)


def test_0009_upgrades_a_copy_of_a_database_made_before_it(
        db_path: Path, tmp_path: Path, admin: Change) -> None:
    """Slips typed by the version before the arbiter's corrections: the copy migrates in
    place with them, takes a fix of them, and the original is left as it was."""
    old = Database(sqlite3.connect(str(db_path), isolation_level=None))
    old.execute("PRAGMA foreign_keys = ON")
    MIGRATIONS.apply(old, stop_before="0009_dup_slip_fixes")
    old.execute("BEGIN")
    seeded = seed(old, admin)
    rnd = opened(old, seeded, admin)
    wrong, fixed = (typed(old, rnd, seeded, admin, text) for text in ("8H KOS", "8H SOK"))
    old.execute("COMMIT")
    old.close()
    copy = tmp_path / "kopia.db"
    shutil.copy(db_path, copy)

    with Store(copy) as store:
        assert store.read_sync(lambda db: db.execute(
            "SELECT text FROM dup_slips ORDER BY id").fetchall()) == [("8H KOS",), ("8H SOK",)]
        store.call_sync(add_slip_fix, wrong, fixed, admin, seeded.tournament.id, **FIXED)
        assert store.read_sync(superseded_slips, rnd.id) == {wrong.id}
    original = Database(sqlite3.connect(str(db_path)))
    assert "dup_slip_fixes" not in original.table_names()
    # 0009 is the first pending (later ones follow it)
    assert next(m.name for m in MIGRATIONS.pending(original)) == "0009_dup_slip_fixes"
    original.close()
