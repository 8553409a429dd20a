"""The tournament commands of `stredisko`, run through `main([...])` on a real SQLite file."""

from __future__ import annotations

import contextlib
import csv
import io
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main

EXAMPLES = Path(__file__).parents[2] / "examples"
SLUG = "kt-2026-11"


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    db = str(tmp_path / "cli.db")

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", db, "--admin", "hlavny"])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def test_a_round_from_the_command_line(cli, tmp_path: Path) -> None:  # type: ignore
    code, out, _ = cli("create", str(EXAMPLES / "propozicie.toml"))
    assert code == 0 and "Online KT — skúška (kt-2026-11, sezóna 2026/27) je založený" in out
    code, out, _ = cli("import-players", SLUG, str(EXAMPLES / "players.csv"))
    assert code == 0 and "prihlásení hráči: 2, z toho noví v registri: 2" in out
    code, out, err = cli("pair", SLUG, "1")
    assert code == 0 and "1. kolo je spárované: 4 stoly (e-SP 2.4)" in out
    assert "párujem kolo" in err  # progress goes to stderr
    assert "stôl 1: Filip Čierny (fifo) začína – Cyril Ďurica (cyro)" in out  # top seed second
    code, out, _ = cli("publish", SLUG, "1")
    assert code == 0 and out.startswith("[kanál] Online KT — skúška — 1. kolo")
    code, out, _ = cli("rule", SLUG, "1", "1", "finished", "--score", "350", "420",
                       "--reason", "zápis z herna.net")
    assert code == 0, out
    code, out, _ = cli("show", "results", SLUG, "1")
    assert code == 0 and "Filip Čierny – Cyril Ďurica 350:420 (0:1)" in out
    code, out, _ = cli("show", "standings", SLUG)
    assert code == 0 and out.splitlines()[1].startswith("  1. Cyril Ďurica (cyro): 1 bod")
    code, out, _ = cli("show", "audit", SLUG)
    assert code == 0 and "párovanie kola zapísané — 1. kolo" in out  # Slovak, no store ids
    assert "výsledok zapísaný — stôl 1 (1. kolo). Dôvod: zápis z herna.net" in out
    assert "pairing:" not in out and "result.put" not in out

    target = tmp_path / "vysledky.csv"
    code, _, err = cli("export", "results", SLUG, "-o", str(target), "--format", "stroj")
    assert code == 0 and "Export (results): 4 riadky." in err
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert rows[0]["first_score"] == "350" and rows[0]["status"] == "provisional"
    # the default: for Slovak Excel (UTF-8 with BOM, ";", CRLF, Slovak headers and values)
    code, _, err = cli("export", "results", SLUG, "-o", str(target))
    assert code == 0 and target.read_bytes().startswith(b"\xef\xbb\xbfkolo;st\xc3\xb4l;")
    excel = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8-sig"), newline=""),
                                delimiter=";"))
    assert excel[0]["skóre prvého"] == "350" and excel[0]["stav"] == "predbežný"
    code, _, err = cli("export", "tsh", SLUG, "--format", "stroj")
    assert code == 2 and "--format platí len pre exporty CSV" in err
    code, out, _ = cli("export", "tsh", SLUG)
    assert code == 0 and len(out.splitlines()) == 8
    code, out, _ = cli("publish-page", SLUG, str(tmp_path / "web"))
    assert code == 0 and (tmp_path / "web" / "index.html").exists()
    # `publish SLUG DIR` (the name for it) writes the same page; a number is a round
    code, out, _ = cli("publish", SLUG, str(tmp_path / "stranka"))
    assert code == 0 and "Cyril Ďurica" in (tmp_path / "stranka" / "index.html").read_text(
        encoding="utf-8")
    code, out, _ = cli("publish", SLUG, "1")  # again: the same answer, nothing new queued
    assert code == 0 and "1. kolo: oficiálny začiatok" in out
    code, out, _ = cli("close", SLUG, "1")
    assert code == 1  # three tables still without a result: the warning comes first
    code, out, _ = cli("decay", "2027/28")
    assert code == 0 and "Začiatok sezóny 2027/28" in out


def test_errors_end_in_one_line_and_a_non_zero_exit(cli, tmp_path: Path) -> None:  # type: ignore
    bad = tmp_path / "zle.toml"
    bad.write_text('[tournament]\nname = "X"\nrounds = "tri"\nround_starts = []\n',
                   encoding="utf-8")
    code, out, err = cli("create", str(bad))
    assert code == 1 and out == ""
    assert err.strip().splitlines()[-1].startswith(f"Propozície {bad}, riadok 3:")
    code, _, err = cli("pair", "nic", "1")
    assert code == 1 and "Turnaj „nic“ nepoznám." in err
    code, _, err = cli("show", "pairings", "nic")  # the round is optional: the tournament is not
    assert code == 1 and err.strip() == "Turnaj „nic“ nepoznám."
    code, _, err = main_with_bad_db(tmp_path)
    assert code == 1 and err.startswith("stredisko: chyba:") and len(err.splitlines()) == 1


def test_the_channel_in_the_propozicie_as_the_readme_writes_it(cli, tmp_path: Path) -> None:  # type: ignore
    """README step 5: the event's channel as `channel_id = …` in the propozície (issue 44.7:
    it crashed `create` with a KeyError traceback)."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "`channel_id = …` v propozíciách" in readme
    example = (EXAMPLES / "propozicie.toml").read_text(encoding="utf-8")
    commented = next(line for line in example.splitlines() if line.startswith("# channel_id = "))
    written = tmp_path / "propozicie.toml"
    written.write_text(example.replace(commented, commented[2:]), encoding="utf-8")
    code, out, err = cli("create", str(written))
    assert code == 0 and "je založený" in out and "Traceback" not in err
    with contextlib.closing(sqlite3.connect(tmp_path / "cli.db")) as db:
        stored = db.execute("SELECT channel_id FROM tournaments WHERE slug = ?", (SLUG,))
        assert stored.fetchall() == [(123456789012345679,)]
    bad = tmp_path / "zly-kanal.toml"
    for wrong in ("12", str(2**64)):  # not a channel; beyond SQLite's integers
        bad.write_text(example.replace(commented, f"channel_id = {wrong}"), encoding="utf-8")
        code, out, err = cli("create", str(bad))
        assert code == 1 and out == "" and "Traceback" not in err
        assert err.strip().splitlines()[-1].startswith(f"Propozície {bad}, riadok 20: "
                                                       "[tournament]: channel_id: ")


def main_with_bad_db(tmp_path: Path) -> tuple[int, str, str]:

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["show", "standings", "x", "--db", str(tmp_path / "no" / "such" / "x.db")])
    return code, out.getvalue(), err.getvalue()


def test_the_tsh_export_lists_every_name_it_changed(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 20.11: "007" and "Ján 2. Druhý" cannot be written as they are; the export says
    so for each, and the .t keeps each original in `; original …`."""
    assert cli("create", str(EXAMPLES / "propozicie.toml"))[0] == 0
    players = tmp_path / "hraci.csv"
    players.write_text("meno;herna\n007;agent\nJán 2. Druhý;jan2\nAnna Nová;anna\n",
                       encoding="utf-8")
    assert cli("import-players", SLUG, str(players))[0] == 0
    code, out, err = cli("export", "tsh", SLUG)
    assert code == 0
    assert "Meno „007“ TSH v tomto tvare neunesie" in err and "v .t je „?“" in err
    assert "Meno „Ján 2. Druhý“" in err and "v .t je „Druhý, Ján“" in err
    assert "Anna Nová" not in err
    assert "; original 007" in out and "; original Ján 2. Druhý" in out
