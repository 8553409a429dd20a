"""The live hall through `bot.cli.main` (issue 24 items 5, 9): a whole small game on a real
database — propozície, the arbiter's racks and slips (one by one and a CSV), the close with the
top and every slip's score and reason, standings, a protest and its decision, the final results
and the replay of the racks — and bad input as one Slovak line, exit 2, nothing stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main

WORDS = ("les", "lesk", "kos", "sok", "osa", "kosa", "sova", "vosk", "kolo", "oko", "seno",
         "nos", "sen", "ten", "okno", "rok", "rak", "ako", "tak", "to", "on", "ona", "sa",
         "ale", "len", "lano", "kolesa", "voda", "dom", "mak", "tok", "kat", "vek", "lev")
SEED = "3f" * 32


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    words = tmp_path / "slova.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    prop = tmp_path / "propozicie.toml"
    prop.write_text(f"""[tournament]
name = "Opisované scrabble v sále"
slug = "sala"
format = "duplicate"
rounds = 1
round_starts = ["2026-12-05 10:00"]

[duplicate]
profile = "cas-duplicate"
lexicon = "{words}"
mode = "hall"
parts = 2
rounds_per_part = 1

[[player]]
id = "1"
name = "Ján Novák"

[[player]]
id = "2"
name = "Eva Malá"
herna = "evam"

[[player]]
id = "3"
name = "Peter Veľký"
""", encoding="utf-8")
    return tmp_path


def cli(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def slips(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM dup_slips").fetchone()[0])


def test_a_whole_hall_game(hall: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = hall / "sala.db"
    code, out, err = cli(capsys, db, "create", str(hall / "propozicie.toml"))
    assert code == 0, err
    code, out, _ = cli(capsys, db, "duplicate", "start", "sala", "--seed", SEED)
    assert code == 0 and "1. partia sa začala" in out
    code, out, _ = cli(capsys, db, "duplicate", "rack", "sala", "1", "AKLOSVE")
    assert code == 0 and "Zásobník: AEKLOSV" in out
    code, out, _ = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H KOSA",
                       "--declared", "99")
    assert code == 0 and "Ján Novák: Lístok prijatý (1. kolo): 8H KOSA, 99 bodov." in out
    csv = hall / "kolo1.csv"
    csv.write_text("hráč,ťah,body\nEva Malá,8H KLE,3\n3,H8 KOLESA,\n", encoding="utf-8")
    code, out, err = cli(capsys, db, "duplicate", "slips", "sala", "1", str(csv))
    assert code == 0, err
    assert out.count("Lístok prijatý") == 2
    code, out, _ = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert code == 0
    assert "1. kolo uzavreté. Najlepší ťah: " in out
    assert "Ján Novák: 8H KOSA — 0 (uvedená vyššia hodnota než skutočná: 0 bodov; 003 r. 45)" \
        in out
    assert "Eva Malá: 8H KLE — 0 (neprípustné slovo: 0 bodov — KLE; 003 r. 1, 43)" in out
    assert "Peter Veľký: H8 KOLESA — 0 (neúplný lístok" in out  # no score written (r. 38)
    code, out, _ = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert code == 0 and "už bolo uzavreté skôr" in out
    for round_no in range(2, 40):
        code, out, err = cli(capsys, db, "duplicate", "draw", "sala", str(round_no))
        assert code == 0, err
        if "sa skončila" in out:
            break
        code, out, err = cli(capsys, db, "duplicate", "close", "sala", str(round_no))
        assert code == 0, err
        if "sa skončila" in out:
            break
    code, out, _ = cli(capsys, db, "duplicate", "standings", "sala")
    assert code == 0 and out.splitlines()[0].startswith("1. ")
    code, out, err = cli(capsys, db, "duplicate", "protest", "sala", "1", "2", "KLE",
                         "--claim", "odmietnuté", "--reason", "je v SSSJ")
    assert code == 0, err
    code, _, err = cli(capsys, db, "duplicate", "final", "sala")
    assert code == 2 and "Nerozhodnuté námietky: 1" in err
    code, out, err = cli(capsys, db, "duplicate", "decide", "sala", "1", "vyhovieť",
                         "--reason", "SSSJ")
    assert code == 0 and "vyhovené" in out, err
    code, out, _ = cli(capsys, db, "duplicate", "final", "sala")
    assert code == 0 and SEED in out
    code, out, _ = cli(capsys, db, "duplicate", "replay", "sala")
    assert code == 0 and "Semeno zodpovedá odtlačku" in out
    assert "NEZHODA" not in out and out.count("zhoda") >= 2


@pytest.mark.parametrize(("argv", "says"), [
    (("slip", "sala", "1", "Nikto", "8H KOS", "--declared", "3"), "nie je prihlásený"),
    (("slip", "sala", "1", "1", "8H K0S", "--declared", "3"), "neznáme písmeno"),
    (("slip", "sala", "1", "1", "16A KOS", "--declared", "3"), "mimo dosky"),
    (("slip", "sala", "1", "1", "X" * 10_000), "príliš dlhý"),
    (("slip", "sala", "1", "1", "8H KOS", "--declared", "tri"), "nie je číslo"),
    (("slip", "sala", "2", "1", "8H KOS", "--declared", "3"), "nie je 2. kolo"),
    (("slip", "sala", "jeden", "1", "8H KOS"), "nie je číslo"),
])
def test_bad_slips_are_one_line_exit_2_nothing_stored(
        hall: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
        says: str) -> None:
    db = hall / "sala.db"
    cli(capsys, db, "create", str(hall / "propozicie.toml"))
    cli(capsys, db, "duplicate", "start", "sala", "--seed", SEED)
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AKLOSVE")
    code, out, err = cli(capsys, db, "duplicate", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err, err
    assert slips(db) == 0


def test_a_slip_for_a_closed_round_and_bad_racks(
        hall: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = hall / "sala.db"
    cli(capsys, db, "create", str(hall / "propozicie.toml"))
    cli(capsys, db, "duplicate", "start", "sala", "--seed", SEED)
    for rack, says in (("AKLOSVEE", "najviac 7 kameňov"), ("AKLOSVQ", "písmeno Q"),
                       ("Y" * 7, "písmeno Y: zadané 7×"), ("A" * 10_000, "10000")):
        code, _, err = cli(capsys, db, "duplicate", "rack", "sala", "1", rack)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AKLOSVE")
    cli(capsys, db, "duplicate", "close", "sala", "1")
    code, _, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H KOS",
                       "--declared", "3")
    assert code == 2 and "je už uzavreté" in err
    assert slips(db) == 0


def test_the_arbiter_names_a_player_by_his_id_in_the_propozicie(
        hall: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A duplicate entrant without a herna nick is found by his id in the file too (as well as
    by his number, name or nick); a label two players answer to is refused, nothing stored."""
    prop = hall / "propozicie.toml"
    text = prop.read_text(encoding="utf-8").replace('id = "3"', 'id = "peter"')
    prop.write_text(text + '\n[[player]]\nid = "1a"\nname = "peter"\n', encoding="utf-8")
    db = hall / "sala.db"
    assert cli(capsys, db, "create", str(prop))[0] == 0
    assert cli(capsys, db, "duplicate", "start", "sala", "--seed", SEED)[0] == 0
    assert cli(capsys, db, "duplicate", "rack", "sala", "1", "AKLOSVE")[0] == 0
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1A", "8H KOSA",
                         "--declared", "9")
    assert code == 0 and "peter: Lístok prijatý (1. kolo): 8H KOSA" in out, err
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "Peter", "8H KOS",
                         "--declared", "5")  # "peter" is one's id and the other's name
    assert code == 2 and "zodpovedá viacerým hráčom" in err and slips(db) == 1
