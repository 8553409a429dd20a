"""`stredisko duplicate top|score` through the real entry point (`bot.cli.main`) on real files:
the JSON contract of issue 23.7, Slovak text, and bad input as one Slovak line with exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.i18n import default_catalogue
from rules.duplicate.validate import REASON_RULES

WORDS = ["slovo", "slová", "lov", "sol", "os", "so", "lo", "ol", "vol", "volá"]
INPUT_CODES = ["board_rows", "board_columns", "board_letter", "rack_size", "rack_letter",
               "coord_unreadable", "coord_off_board", "slip_unreadable", "slip_letter",
               "lexicon_empty"]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    lexicon = tmp_path / "words.txt"
    lexicon.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    rows = ["." * 15] * 15
    empty = tmp_path / "empty.txt"
    empty.write_text("\n".join(rows) + "\n", encoding="utf-8")
    rows[7] = ".......SLoVO..."
    mid = tmp_path / "mid.txt"
    mid.write_text("\n".join(rows) + "\n", encoding="utf-8")
    short = tmp_path / "short.txt"
    short.write_text("\n".join(rows[:14]) + "\n", encoding="utf-8")
    return {"lexicon": lexicon, "empty": empty, "mid": mid, "short": short}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["duplicate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_top_json(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "top", "--lexicon", str(files["lexicon"]), "--tiles", "sss-100",
                       "--board", str(files["empty"]), "--rack", "SLOVOA?", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["top_score"] == 14
    assert doc["tops"] == [{"word": "SLOVO", "coord": c, "score": 14}
                           for c in ("H4", "8D", "8H", "H8")]
    assert doc["count"] > len(doc["tops"])
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", doc["lexicon"])


def test_top_text_is_slovak(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "top", "--lexicon", str(files["lexicon"]),
                       "--board", str(files["mid"]), "--rack", "SLOVAA?")
    assert code == 0
    assert out.startswith("Legálnych ťahov: ")
    assert "najvyššie skóre: " in out


def test_score_valid_and_refused(files: dict[str, Path],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--lexicon", str(files["lexicon"]), "--board", str(files["mid"]),
              "--rack", "SLOVAA?", "--json"]
    code, out, _ = run(capsys, "score", *common, "--move", "L4 SL(O)VO")
    assert code == 0
    assert json.loads(out) == {"valid": True, "score": 10, "words": ["SLoVO"], "reason": None,
                               "rule": None, "lexicon": json.loads(out)["lexicon"],
                               "tiles": "sss-100"}
    code, out, _ = run(capsys, "score", *common, "--move", "L4 SLOVA")
    doc = json.loads(out)
    assert (code, doc["valid"], doc["score"], doc["rule"]) == (0, False, 0, "004 §6")
    assert doc["reason"].startswith("na poli 8L leží O")
    no_o = ["--lexicon", str(files["lexicon"]), "--board", str(files["mid"]), "--rack", "SLVAA?"]
    code, out, _ = run(capsys, "score", *no_o, "--move", "L4 SLOVO")
    assert out.startswith("Neplatný ťah (0 b.): žolík nie je označený")


@pytest.mark.parametrize(("board", "rack", "move", "message"), [
    ("short", "SLOVAA?", None, "Doska musí mať 15 riadkov, tento súbor má 14."),
    ("mid", "SLOVAAAAA", None, "Zásobník musí mať 1 až 7 kameňov, zadaných je 9."),
    ("mid", "SLOVAW", None, "V zásobníku je neznáme písmeno „W“"),
    ("mid", "SLOVAA?", "P4 SLOVO", "Súradnica „P4“ je mimo dosky"),
    ("mid", "SLOVAA?", "4L SLO9O", "V ťahu „4L SLO9O“ je neznáme písmeno „9“."),
])
def test_bad_input_is_one_slovak_line_and_exit_2(
        files: dict[str, Path], capsys: pytest.CaptureFixture[str], board: str, rack: str,
        move: str | None, message: str) -> None:
    action = ["top"] if move is None else ["score", "--move", move]
    code, out, err = run(capsys, *action, "--lexicon", str(files["lexicon"]),
                         "--board", str(files[board]), "--rack", rack)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_every_code_has_its_words_in_both_languages() -> None:
    catalogue = default_catalogue()
    for lang in ("sk", "en"):
        messages = catalogue.languages[lang].messages
        for code in INPUT_CODES:
            assert f"duplicate.input.{code}" in messages
        for reason in REASON_RULES:
            assert f"duplicate.reason.{reason}" in messages


def _forms(graph: object, node: int, prefix: str) -> list[str]:
    found = [prefix] if graph.final(node) else []  # type: ignore[attr-defined]
    for letter, nxt in graph.arcs(node).items():  # type: ignore[attr-defined]
        found += _forms(graph, nxt, prefix + letter)
    return found


def test_top_on_a_built_lexicon_equals_its_forms_as_a_list(
        files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A built lexicon (by path, and by id in [lexicon] dir) gives the tops its admissible forms
    give as a plain list, and the JSON names the built lexicon's id."""
    from bot.services.lexicon import files as lexicon_files

    built = tmp_path / "lexicons" / "slova.lex"
    built.parent.mkdir()
    assert main(["lexicon", "build", str(files["lexicon"]), "--rules", "sss", "-o",
                 str(built)]) == 0
    loaded = lexicon_files.load(built)
    plain = tmp_path / "forms.txt"
    plain.write_text("\n".join(_forms(loaded.graph, loaded.graph.root, "")) + "\n",
                     encoding="utf-8")
    capsys.readouterr()
    args = ("--board", str(files["mid"]), "--rack", "SLOVAA?", "--json")
    _, by_list, _ = run(capsys, "top", "--lexicon", str(plain), *args)
    _, by_path, _ = run(capsys, "top", "--lexicon", str(built), *args)
    config = tmp_path / "config.toml"
    config.write_text(f'[lexicon]\ndir = "{built.parent}"\n', encoding="utf-8")
    code = main(["--config", str(config), "duplicate", "top", "--lexicon", loaded.id, *args])
    by_id = capsys.readouterr().out
    assert code == 0
    expected = json.loads(by_list)
    for out in (by_path, by_id):
        doc = json.loads(out)
        assert doc["lexicon"] == loaded.id
        assert (doc["count"], doc["top_score"], doc["tops"]) == (
            expected["count"], expected["top_score"], expected["tops"])


def test_a_missing_lexicon_is_one_line_and_exit_2(
        files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "top", "--lexicon", str(tmp_path / "nie.lex"),
                         "--board", str(files["empty"]), "--rack", "SLOVOA?")
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert "nie.lex" in err


def test_top_piped_into_head_ends_quietly(files: dict[str, Path]) -> None:
    """`stredisko duplicate top … | head -n 1` (tools/verify-image.sh): the reader's early
    close is no error — it printed "stredisko: chyba: Broken pipe". The reader here closes
    before the first write, so every run meets the closed pipe."""
    stredisko = Path(sys.executable).with_name("stredisko")
    child = subprocess.Popen(
        [str(stredisko), "duplicate", "top", "--lexicon", str(files["lexicon"]), "--board",
         str(files["empty"]), "--rack", "SLOVOA?"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    err = child.stderr.read()
    assert child.wait(timeout=120) == 0 and err == ""
