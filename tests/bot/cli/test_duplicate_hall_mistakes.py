"""What a hall arbiter making mistakes meets (issue 41.3), each through `bot.cli.main` on a
real database, ČAS profile: a mistyped rack corrected while the round is open, a word typed in
lower case, a slip without its score, a protest against a word nobody played, `(CH)`, the
audit's actor and reasons, the game-end lines of a hall without Discord, the replay of racks
typed in the hall and a tie awaiting its shoot-out in the final results."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.bot.cli.test_duplicate_arbiter import arbiter_hall, rows, start
from tests.bot.cli.test_duplicate_hall import cli, slips

WORDS = ("les", "lesk", "kos", "sok", "osa", "kosa", "sova", "vosk", "kolo", "oko", "seno",
         "nos", "sen", "ten", "okno", "rok", "rak", "ako", "tak", "to", "on", "ona", "sa",
         "ale", "len", "lano", "kolesa", "voda", "dom", "mak", "tok", "kat", "vek", "lev",
         "kosti", "sklo")


def audit(db: Path, action: str) -> list[tuple[object, ...]]:
    return rows(db, f"SELECT actor_kind, actor_id, reason FROM audit WHERE action = '{action}' "
                    "ORDER BY id")


def test_a_mistyped_rack_is_corrected_while_the_round_is_open(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`rack … --oprava --reason`: the rack replaced (checked against the bag), the limit
    started again (003 r. 15), the slips already typed judged at the close on the corrected
    rack, the correction audited with the arbiter's name and reason. Typed again without
    --oprava it says how to correct, not only "close the round first"."""
    db, _ = start(capsys, arbiter_hall(tmp_path, WORDS))
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOST",
                         "--admin", "Hana")
    assert code == 0 and "Zásobník: AEKLOST" in out, err
    # typed while the wrong rack stands: VOSK needs the V only the true rack has
    code, _, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H VOSK",
                       "--declared", "1")
    assert code == 0, err
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "otvorené so zásobníkom AEKLOST" in err and "--oprava" in err
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV", "--oprava")
    assert code == 2 and "potrebuje dôvod" in err
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV", "--oprava",
                         "--reason", "preklep: V, nie T", "--admin", "Hana")
    assert code == 0, err
    assert "[v sále] 1. partia, 1. kolo: zásobník opravený — nie AEKLOST, ale AEKLOSV (" in out
    assert "Zásobník 1. kola opravený: AEKLOST → AEKLOSV (A1 E1 K1 L1 O1 S1 V" in out
    assert "Zapísané lístky (1) sa posúdia pri uzavretí podľa opraveného zásobníka." in out
    assert rows(db, "SELECT rack FROM dup_rounds") == [("AEKLOSV",)]
    assert audit(db, "duplicate.round.rack_fix") == [
        ("admin", "Hana", "oprava zásobníka 1. kola: AEKLOST → AEKLOSV — preklep: V, nie T")]
    # again: nothing changes; a rack the bag cannot give is refused as when typed first
    code, out, _ = cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV", "--oprava",
                       "--reason", "znova")
    assert code == 0 and "už je AEKLOSV: nič sa nemení" in out
    code, _, err = cli(capsys, db, "duplicate", "rack", "sala", "1", "QQQQQQQ", "--oprava",
                       "--reason", "x")
    assert code == 2 and "Zásobník odmietnutý" in err
    code, out, err = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert code == 0, err
    # judged on the corrected rack: VOSK is a valid move (its declared 1 counts, 003 r. 45)
    assert "Ján Novák: 8H VOSK — 1 (uvedená nižšia hodnota" in out, out
    code, _, err = cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOST", "--oprava",
                       "--reason", "neskoro")
    assert code == 2 and "1. kolo nie je otvorené" in err


def refused_slip(tmp_path: Path, capsys: pytest.CaptureFixture[str], *slip: str
                 ) -> tuple[Path, str]:
    """A hall game at its first round (rack AEKLOSV) where the slip typed is refused: one
    line, nothing printed, nothing stored. (The database, the line.)"""
    db, _ = start(capsys, arbiter_hall(tmp_path, WORDS))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV")
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", *slip)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert slips(db) == 0
    return db, err


@pytest.mark.parametrize("slip", [("5c přimetán", "--declared", "70"),
                                  ("8H kosa", "--declared", "7")])
def test_a_word_in_lower_case_is_refused_showing_how_blanks_are_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], slip: tuple[str, ...]) -> None:
    """Never silently all blanks: one Slovak line that shows the word in capitals and how a
    blank is written; nothing stored."""
    db, err = refused_slip(tmp_path, capsys, *slip)
    word = slip[0].split()[1]
    assert f"„{word.upper()}“" in err and "SL(O)VO" in err and "malými písmenami" in err
    assert "(003 r. 38)" in err
    # all blanks written in parentheses are taken (the explicit confirmation)
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H (O)(N)",
                         "--declared", "0")
    assert code == 0 and "8H (O)(N)" in out, err


@pytest.mark.parametrize("move", ["5C Přimetán", "8H kosA"])
def test_more_blanks_than_the_set_has_is_refused_showing_how_blanks_are_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], move: str) -> None:
    """A word in sentence case (its lower-case letters would be seven blanks), or any three
    bare lower-case letters where the set has two blanks, is never a move: one line saying
    so, nothing stored."""
    _, err = refused_slip(tmp_path, capsys, move, "--declared", "70")
    assert "sada má žolíky len 2" in err and f"„{move.split()[1].upper()}“" in err
    assert "SL(O)VO" in err and "(003 r. 38)" in err


def test_ch_in_one_blank_cites_the_czech_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, err = refused_slip(tmp_path, capsys, "8H (CH)ATA", "--declared", "5")
    assert "žolík „(CH)“ nahrádza viac písmen" in err and "(ČAS SŘ 16.41)" in err


def test_a_cas_slip_without_its_score_is_refused_as_from_discord(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, err = refused_slip(tmp_path, capsys, "8H KOSA")
    assert "Na lístku chýba bodová hodnota ťahu (003 r. 45)" in err


def test_the_audit_names_the_arbiter_and_says_why_in_slovak(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The slip and the typed close are the arbiter's (`--admin`, else the OS user), not
    "arbiter" and "stredisko (časovač)"; the reasons are Slovak."""
    db, _ = start(capsys, arbiter_hall(tmp_path, WORDS))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV", "--admin", "Hana")
    code, _, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H KOSA",
                       "--declared", "7", "--admin", "Hana")
    assert code == 0, err
    assert cli(capsys, db, "duplicate", "close", "sala", "1", "--admin", "Hana")[0] == 0
    assert audit(db, "duplicate.slip") == [
        ("admin", "Hana", "lístok hráča Ján Novák zapísaný rozhodcom")]
    assert audit(db, "duplicate.round.close") == [
        ("admin", "Hana", "uzavretie 1. kola 1. partie")]
    assert audit(db, "duplicate.round.open") == [
        ("admin", "Hana", "otvorenie 1. kola 1. partie")]
    assert audit(db, "duplicate.game.start")[0][2] == "začiatok 1. partie"


def play_out(db: Path, capsys: pytest.CaptureFixture[str], first: int = 2) -> str:
    """Draws and closes rounds until the game ends; everything printed."""
    printed = ""
    for round_no in range(first, 40):
        code, out, _ = cli(capsys, db, "duplicate", "draw", "sala", str(round_no))
        printed += out
        if code != 0 or "sa skončila" in out:
            break
        code, out, _ = cli(capsys, db, "duplicate", "close", "sala", str(round_no))
        printed += out
        if code != 0 or "sa skončila" in out:
            break
    return printed


def test_a_hall_game_end_without_discord_and_an_honest_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hall with `discord = "none"`: the protest window names the arbiter, not /namietka; a
    protest against a word nobody played is refused (003 r. 27); the seed line and `replay`
    say which racks were typed in the hall and check only what the seed drew; two players
    level are told their shoot-out is pending (003 r. 49)."""
    db, _ = start(capsys, arbiter_hall(tmp_path, WORDS))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEKLOSV")
    cli(capsys, db, "duplicate", "slip", "sala", "1", "3", "8H KOSA", "--declared", "1")
    cli(capsys, db, "duplicate", "close", "sala", "1")
    printed = play_out(db, capsys)
    assert "u rozhodcu" in printed and "/namietka" not in printed
    code, _, err = cli(capsys, db, "duplicate", "protest", "sala", "1", "1", "XYZ",
                       "--claim", "odmietnuté", "--reason", "je v slovníku")
    assert code == 2 and "Slovo XYZ sa v 1. kole nehralo" in err and "003 r. 26–27" in err
    code, out, err = cli(capsys, db, "duplicate", "protest", "sala", "1", "1", "KOSA",
                         "--claim", "prijaté", "--reason", "nie je v SSSJ")
    assert code == 0, err
    cli(capsys, db, "duplicate", "decide", "sala", "1", "zamietnuť", "--reason", "je")
    code, out, err = cli(capsys, db, "duplicate", "final", "sala")
    assert code == 0, err
    assert "Zásobníky kôl 1 sa losovali v sále — semeno ich neurčilo a neoverí ich; zo " \
           "semena: 2" in out
    assert "si overíš" not in out
    assert "2. Ján Novák — 0 bodov (0 %) — rovnosť: o poradí rozhodne rozstrel, ešte " \
           "nezapísaný (003 r. 49)" in out
    code, out, _ = cli(capsys, db, "duplicate", "replay", "sala")
    assert code == 0
    assert "1. kolo: AEKLOSV — losované v sále, semeno ho neurčilo (neoveruje sa)" in out
    assert "1. kolo: hralo sa" not in out and "2. kolo: hralo sa" in out


def test_replay_of_a_game_whose_racks_were_all_typed_checks_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H TO", "--declared", "2")
    assert cli(capsys, db, "duplicate", "close", "sala", "1")[0] == 0
    with sqlite3.connect(db) as conn:  # no scoring top in round 2 ends the game
        state = conn.execute("SELECT state FROM dup_games").fetchone()[0]
    if state == "running":
        code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "2", "AEIKLMN")
        assert code == 0, err
        assert cli(capsys, db, "duplicate", "close", "sala", "2")[0] == 0
    code, out, err = cli(capsys, db, "duplicate", "final", "sala")
    assert code == 0, err
    code, out, _ = cli(capsys, db, "duplicate", "replay", "sala")
    assert "Všetky zásobníky sa losovali v sále" in out and "zhoda" not in out
