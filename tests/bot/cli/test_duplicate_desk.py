"""The arbiter's desk (issue 41.2) through `bot.cli.main` with piped input: a line per command,
the event and the round implied, a slip in its short forms, one Slovak line for each refused
line with the desk reading on, and the same rows in the store as the one-shot commands write."""

from __future__ import annotations

import io
import os
import pty
import select
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from bot.cli import main

from .test_duplicate_arbiter import arbiter_hall
from .test_duplicate_hall import SEED

STREDISKO = str(Path(__file__).resolve().parents[3] / ".venv" / "bin" / "stredisko")
WORDS = ("kosa", "osa", "les", "kolo", "sova", "vosk", "oko", "sok", "to")


def desk(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path,
         lines: str, *options: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    code = main(["--db", str(db), "duplicate", "pult", "sala", "--admin", "Hana", *options])
    out, err = capsys.readouterr()
    return code, out, err


def created(tmp_path: Path) -> Path:
    """The arbiter tests' hall (ČAS, one part) created; its database."""
    hall = arbiter_hall(tmp_path, WORDS)
    db = hall / "sala.db"
    assert main(["--db", str(db), "create", str(hall / "propozicie.toml")]) == 0
    return db


def stored(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT p.name, s.text, s.declared FROM dup_slips s JOIN players p "
                            "ON p.id = s.player_id ORDER BY s.id").fetchall()


def test_a_round_through_the_desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = created(tmp_path)
    capsys.readouterr()
    code, out, err = desk(monkeypatch, capsys, db, f"""start --seed {SEED}
# a comment line is nothing
rack AEKLOSV
1 8H KOSA 7
"Eva Malá" H8 V SOVA 5 --late
slip 3 "8H VOSK" 9
Nikto 8H OSA 3
2 8H "OSA
1 8H KOSA
close
standings
koniec
slip 1 8H LES 3
""")
    assert code == 0
    assert "1. partia, 1. kolo otvorené. Zásobník: AEKLOSV" in out
    assert "Ján Novák: Lístok prijatý (1. kolo): 8H KOSA, 7 bodov." in out
    assert "Eva Malá: Lístok prijatý po limite (1. kolo): 8H SOVA, 5 bodov" in out
    assert "Peter Veľký: Lístok prijatý (1. kolo): 8H VOSK, 9 bodov." in out
    assert "1. kolo uzavreté. Najlepší ťah:" in out
    assert "Stôl rozhodcu ukončený (odmietnuté riadky: 3)." in out
    errors = err.strip().splitlines()
    assert len(errors) == 3, err  # one line per refused line, the desk read on
    assert "„Nikto“ nie je prihlásený" in errors[0]
    assert "Riadok nemožno prečítať" in errors[1]
    assert "Na lístku chýba bodová hodnota ťahu (003 r. 45)" in errors[2]
    # nothing after `koniec` is read; the rows are the one-shot commands' rows
    assert stored(db) == [("Ján Novák", "8H KOSA", 7), ("Eva Malá", "H8 V SOVA", 5),
                          ("Peter Veľký", "8H VOSK", 9)]
    with sqlite3.connect(db) as conn:
        actors = conn.execute("SELECT DISTINCT actor_id FROM audit WHERE action LIKE "
                              "'duplicate.%' AND action <> 'duplicate.event' "
                              "AND actor_kind = 'admin'").fetchall()
    assert actors == [("Hana",)]


def test_no_open_round_and_double_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = created(tmp_path)
    capsys.readouterr()
    code, out, err = desk(monkeypatch, capsys, db, f"""start --seed {SEED}
1 8H KOSA 7
close
rack AEKLOSV
1 8H KOSA 7
1 8H KOSA 8
2 8H OSA 3
2 8H OSA 3
3 8H SOK 3
3 8H SOK 4
3 8H SOK 4 --oprava
close
1 8H KOSA 7
close
""", "--dvojite")
    assert code == 0
    errors = err.strip().splitlines()
    assert "Teraz nie je otvorené žiadne kolo." in errors[0]
    assert "Teraz nie je otvorené žiadne kolo." in errors[1]
    assert "Kolo sa neuzavrie: zápisy lístkov sa líšia (1): Ján Novák: 8H KOSA 7 ≠ 8H KOSA 8" \
        in errors[2]  # Peter's difference was settled by mending the stored slip (--oprava)
    assert len(errors) == 3
    assert "≠ Ján Novák: druhé zapísanie „8H KOSA 8“ sa líši od prvého „8H KOSA 7“" in out
    assert "✓ Eva Malá: druhé zapísanie súhlasí (8H OSA 3)." in out
    assert "✓ Ján Novák: druhé zapísanie súhlasí (8H KOSA 7)." in out
    assert out.count("1. kolo uzavreté") == 1
    # a check typing is compared, never stored
    assert stored(db) == [("Ján Novák", "8H KOSA", 7), ("Eva Malá", "8H OSA", 3),
                          ("Peter Veľký", "8H SOK", 3), ("Peter Veľký", "8H SOK", 4)]


def test_on_a_terminal_tab_completes_and_the_arrow_recalls(tmp_path: Path) -> None:
    """A real terminal (a pty): "pom" + Tab is `pomoc`, ↑ brings the line back (readline)."""
    db = created(tmp_path)
    master, slave = pty.openpty()
    proc = subprocess.Popen([STREDISKO, "--db", str(db), "duplicate", "pult", "sala"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path,
                            env={**os.environ, "TERM": "xterm"})
    os.close(slave)

    def answer(keys: bytes, until: str) -> str:
        os.write(master, keys)
        seen, end = "", time.monotonic() + 20
        while until not in seen and time.monotonic() < end:
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 4096).decode("utf-8", "replace")
        return seen

    try:
        assert "Stôl rozhodcu turnaja sala" in answer(b"", "sala> ")
        assert "Príkazy (turnaj" in answer(b"pom\t\n", "koniec\r\nsala> ")
        recalled = answer(b"\x1b[A\n", "koniec\r\nsala> ")
        assert "pomoc" in recalled and "Príkazy (turnaj" in recalled
        assert "odmietnuté riadky: 0" in answer(b"koniec\n", "riadky")
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_double_entry_is_the_events_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`[duplicate] double_entry = true`: the desk checks second typings without --dvojite."""
    hall = arbiter_hall(tmp_path, WORDS, extra="double_entry = true\n")
    db = hall / "sala.db"
    assert main(["--db", str(db), "create", str(hall / "propozicie.toml")]) == 0
    capsys.readouterr()
    code, out, err = desk(monkeypatch, capsys, db, f"""start --seed {SEED}
rack AEKLOSV
1 8H KOSA 7
1 8H KOSA 9
close
""")
    assert code == 0 and "≠ Ján Novák" in out and "zápisy lístkov sa líšia (1)" in err
    assert stored(db) == [("Ján Novák", "8H KOSA", 7)]


def test_pult_typed_at_the_desk_starts_no_second_desk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`pult` at the desk is no action of it (as `tabula`): it started a second desk reading
    the same input, so one `koniec` ended that one and the next the first."""
    db = created(tmp_path)
    capsys.readouterr()
    code, out, err = desk(monkeypatch, capsys, db, "pult\nkoniec\nkoniec\n")
    assert code == 0 and (out + err).count("Stôl rozhodcu ukončený") == 1, out + err
