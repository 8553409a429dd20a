"""Free text on the command line (issue 36.2; issue 35, the word CLI): the hall's protest and
decision reasons holding ESC or a direction override are refused with one line naming the
character, nothing stored; whatever the CLI quotes back — a slip it cannot read, a word it
cannot check, a reason stored in an older database (`show audit`) — reaches the terminal
escaped (`\\x1b`, `\\u202e`), never raw. Through `bot.cli.main` on real files."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.cli import main
from bot.store import Change
from bot.store.audit import record

from . import test_duplicate_hall as hall
from .test_duplicate_hall import SEED, cli

tied_hall = hall.tied_hall  # the hall's fixtures: a game played to its preliminary results
tied_game = hall.tied_game

RAW = ("\x00", "\x1b", "\u202e")


def raw_in(*texts: str) -> bool:
    return any(c in text for text in texts for c in RAW)


def protests(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT reason, status FROM dup_protests ORDER BY id").fetchall()


@pytest.mark.parametrize(("reason", "code_point"), [
    ("je v\x1b[2J SSSJ", "U+001B"), ("je v \u202eJSSS", "U+202E"), ("je\x00 v SSSJ", "U+0000")])
def test_a_protest_reason_with_a_control_character_is_refused(
        tied_game: Path, capsys: pytest.CaptureFixture[str], reason: str,
        code_point: str) -> None:
    db = tied_game
    code, out, err = cli(capsys, db, "duplicate", "protest", "sala", "1", "2", "KOSA",
                         "--claim", "prijaté", "--reason", reason)
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"stredisko: chyba: zdôvodnenie: obsahuje neviditeľný riadiaci znak ({code_point})")
    assert protests(db) == [] and not raw_in(out, err)


def test_a_decision_with_a_control_character_is_refused(
        tied_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tied_game
    code, _, err = cli(capsys, db, "duplicate", "protest", "sala", "1", "2", "KOSA",
                       "--claim", "prijaté", "--reason", "nie je v SSSJ\r\nstrana 2")
    assert code == 0, err
    code, out, err = cli(capsys, db, "duplicate", "decide", "sala", "1", "zamietnuť",
                         "--reason", "je v \u202eSSSJ")
    assert code == 2 and "zdôvodnenie: obsahuje neviditeľný riadiaci znak (U+202E)" in err
    assert protests(db) == [("nie je v SSSJ\nstrana 2", "pending")]  # "\r\n" stored as "\n"
    assert not raw_in(out, err)


def test_a_slip_the_cli_cannot_read_is_quoted_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = hall.write_hall(tmp_path)
    db = folder / "sala.db"
    cli(capsys, db, "create", str(folder / "propozicie.toml"))
    cli(capsys, db, "duplicate", "start", "sala", "--seed", SEED)
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AKLOSVE")
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1",
                         "8H KO\x1b[31mLO", "--declared", "3")
    assert code == 2 and "V ťahu „8H KO\\x1b[31mLO“ je neznáme písmeno „\\x1b“" in err
    assert not raw_in(out, err)


def test_show_audit_prints_a_stored_escape_sequence_escaped(
        tied_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reason stored before the rule (an older database: written past the services)."""
    db = Database(tied_game)
    tournament_id = db.execute("SELECT id FROM tournaments").fetchone()[0]
    by = Change.admin("rozhodca", datetime(2026, 12, 5, 12, 0, tzinfo=UTC),
                      "zle\x1b[2J\x1b[31m \u202ezapísané\x00")
    record(db, by, "duplicate.protest.decide", tournament_id=tournament_id)
    db.conn.commit()
    db.close()
    code, out, err = cli(capsys, tied_game, "show", "audit", "sala")
    assert code == 0, err
    assert "zle\\x1b[2J\\x1b[31m \\u202ezapísané\\x00" in out
    assert not raw_in(out, err)


def test_the_word_cli_echoes_a_control_character_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35: `stredisko word` quoted the word raw, and an ESC sequence cleared the screen."""
    words = tmp_path / "slova.txt"
    words.write_text("kolo\nsok\n", encoding="utf-8")
    code = main(["word", "ko\x1b[2Jlo", "--lexicon", str(words)])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == ("Slovo „ko\\x1b[2jlo“ obsahuje znak „\\x1b“: overiť sa dá len jedno "
                           "slovo z písmen.")
    code = main(["word", "ko\u202elo", "--lexicon", str(words)])
    out2, err2 = capsys.readouterr()
    assert code == 2 and "„ko\\u202elo“" in err2
    assert not raw_in(out, err, out2, err2)
