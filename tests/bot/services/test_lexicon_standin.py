"""The hunspell stand-in (issue 22): a tiny .dic/.aff written here goes through the same
pipeline as hunspell-sk (unmunch, the filter, hunspell -G), and the result is labelled a
stand-in all the way to the verdict. Needs Debian's hunspell and hunspell-tools; the filter is
tested without them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.services import lexicon as service
from bot.services.lexicon_standin import candidate
from rules.lexicon import admissibility

AFF = """SET UTF-8
NEEDAFFIX X

SFX A Y 2
SFX A a y a
SFX A a ou a

SFX B Y 1
SFX B 0 a .
"""
# Bratislava: a proper name (SP B1 10.2 bod 1); straße: ß is no tile; a: one letter;
# kôň carries NEEDAFFIX: unmunch prints it, hunspell itself does not accept it
DIC = "6\nmama/A\nchata/A\nBratislava/A\nstraße\na\nkôň/XB\n"
TOOLS = shutil.which("unmunch") and shutil.which("hunspell")


def test_the_filter_keeps_lower_case_playable_forms_of_board_length() -> None:
    sss = admissibility("sss")
    assert candidate("mama po:noun", sss) == "mama"
    assert candidate("wolfram", sss) == "wolfram"  # W: a blank
    for line in ("Bratislava", "straße", "a", "x" * 16, "", "DPH"):
        assert candidate(line, sss) is None
    assert candidate("kůň", sss) is None and candidate("kůň", admissibility("cas")) == "kůň"


@pytest.mark.skipif(not TOOLS, reason="unmunch/hunspell missing: apt-get install hunspell "
                    "hunspell-tools")
def test_standin_from_a_tiny_dictionary(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sk_SK.aff").write_text(AFF, encoding="utf-8")
    (tmp_path / "sk_SK.dic").write_text(DIC, encoding="utf-8")
    out = tmp_path / "sk-standin.txt"
    assert main(["lexicon", "standin", "sk", "--dict-dir", str(tmp_path), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "unmunch: 13 riadkov, kandidátov: 8, hunspell ich prijal: 7" in said
    lines = out.read_text(encoding="utf-8").splitlines()
    forms = [line for line in lines if not line.startswith("#")]
    assert forms == ["chata", "chatou", "chaty", "kôňa", "mama", "mamou", "mamy"]
    assert "# stand-in: hunspell-sk" in lines and lines[0].startswith("# stredisko: NÁHRADNÝ")
    lexicon_file = tmp_path / "sk.lex"
    assert main(["lexicon", "build", str(out), "--rules", "sss", "-o", str(lexicon_file)]) == 0
    capsys.readouterr()
    lexicon = service.load(lexicon_file)
    assert lexicon.standin and "NÁHRADNÝ" in lexicon.title
    assert main(["word", "mamou", "--lexicon", str(lexicon_file)]) == 0
    assert "mamou — PLATNÉ (zdroj: NÁHRADNÝ zoznam z hunspell-sk" in capsys.readouterr().out


def test_a_missing_dictionary_or_tool_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "x.txt"
    assert main(["lexicon", "standin", "cs", "--dict-dir", str(tmp_path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Chýba slovník cs_CZ" in err and "hunspell-cs" in err and err.count("\n") == 1
    (tmp_path / "cs_CZ.aff").write_text(AFF, encoding="utf-8")
    (tmp_path / "cs_CZ.dic").write_text(DIC, encoding="utf-8")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["lexicon", "standin", "cs", "--dict-dir", str(tmp_path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Chýba nástroj unmunch (balík hunspell-tools)" in err and not out.exists()


def _tiny_dictionary(folder: Path) -> Path:
    (folder / "sk_SK.aff").write_text(AFF, encoding="utf-8")
    (folder / "sk_SK.dic").write_text(DIC, encoding="utf-8")
    return folder


@pytest.mark.skipif(not TOOLS, reason="unmunch/hunspell missing: apt-get install hunspell "
                    "hunspell-tools")
def test_standin_creates_the_folder_it_is_told_to_write_into(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's `-o lexicons/sk-standin.txt` on a fresh checkout: no lexicons/ yet."""
    monkeypatch.chdir(tmp_path)
    _tiny_dictionary(tmp_path)
    out = Path("lexicons", "sk-standin.txt")
    assert main(["lexicon", "standin", "sk", "--dict-dir", ".", "-o", str(out)]) == 0, \
        capsys.readouterr().err
    assert "mamou" in out.read_text(encoding="utf-8").splitlines()
    assert [p.name for p in out.parent.iterdir()] == ["sk-standin.txt"]  # no .part left


def test_standin_names_the_file_asked_for_when_its_folder_cannot_be(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder that cannot be made (a file stands in its place) fails before the minute of
    unmunch, naming the user's file — not the temporary `.part` (tools need not be there)."""
    _tiny_dictionary(tmp_path)
    (tmp_path / "lexicons").write_text("not a folder", encoding="utf-8")
    out = tmp_path / "lexicons" / "sk-standin.txt"
    assert main(["lexicon", "standin", "sk", "--dict-dir", str(tmp_path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"stredisko: chyba: {out}: časť cesty nie je priečinok\n"
