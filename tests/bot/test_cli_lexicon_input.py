"""The lexicon CLI's input, third pass (issue 42): every invisible or control character of a
query or a list shown escaped on one line; a list without forms, a built lexicon given as the
list, an output folder that only a path from the root would make — each refused in one line;
every input error exit 2 without the generic "chyba:" prefix; Slovak plurals; the stand-ins'
filters counted (the ČAS one leaves unit marks out)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.cli import main

WORDS = "chata\nmama\nkôň\n"
TOOLS = shutil.which("unmunch") and shutil.which("hunspell")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    printed = capsys.readouterr()
    return code, printed.out, printed.err


@pytest.mark.parametrize(("query", "shown", "char"), [
    ("ab\ncd", "ab\\ncd", "\\n"),
    ("ab\tcd", "ab\\tcd", "\\t"),
    ("a\u200db", "a\\u200db", "\\u200d"),  # zero-width joiner
    ("ma\u00adma", "ma\\xadma", "\\xad"),  # soft hyphen
    ("ma\u200bma", "ma\\u200bma", "\\u200b"),  # zero-width space
    ("ma\u00a0ma", "ma\\xa0ma", "\\xa0"),  # no-break space: not the plain one
    ("ma\u2028ma", "ma\\u2028ma", "\\u2028"),  # line separator
])
def test_a_query_with_an_invisible_character_is_one_line_that_shows_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], query: str, shown: str,
        char: str) -> None:
    words = tmp_path / "slova.txt"
    words.write_text(WORDS, encoding="utf-8")
    code, out, err = _run(capsys, "word", query, "--lexicon", str(words))
    assert code == 2 and out == ""
    assert err == (f"Slovo „{shown}“ obsahuje znak „{char}“: overiť sa dá len jedno slovo "
                   f"z písmen.\n")


def test_a_plain_space_is_still_named_a_space(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "slova.txt"
    words.write_text(WORDS, encoding="utf-8")
    code, _, err = _run(capsys, "word", "dve slová", "--lexicon", str(words))
    assert code == 2 and "obsahuje medzeru" in err


def test_a_list_line_with_an_invisible_character_is_shown_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "slova.txt"
    words.write_text("chata\nma\u00adma\nko\u200dň\n", encoding="utf-8")
    code, _, err = _run(capsys, "lexicon", "build", str(words), "--rules", "sss", "-o",
                        str(tmp_path / "x.lex"))
    assert code == 2
    assert "slova.txt:2: „ma\\xadma“ obsahuje „\\xad“" in err
    assert "slova.txt:3: „ko\\u200dň“ obsahuje „\\u200d“" in err
    assert "\u00ad" not in err and "\u200d" not in err


def test_an_empty_list_builds_nothing(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "prazdny.txt"
    words.write_text("# názov: nič\n\n", encoding="utf-8")
    out = tmp_path / "x.lex"
    code, stdout, err = _run(capsys, "lexicon", "build", str(words), "--rules", "sss", "-o",
                             str(out))
    assert code == 2 and stdout == ""
    assert err == "prazdny.txt: zoznam neobsahuje ani jeden tvar slova.\n"
    assert not out.exists()


def test_a_built_lexicon_given_as_the_list_is_named_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "slova.txt"
    words.write_text(WORDS, encoding="utf-8")
    built = tmp_path / "sk.lex"
    assert main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(built)]) == 0
    capsys.readouterr()
    copy = tmp_path / "zoznam.txt"  # whatever its name, the header says what it is
    copy.write_bytes(built.read_bytes())
    for given in (built, copy):
        code, _, err = _run(capsys, "lexicon", "build", str(given), "--rules", "sss", "-o",
                            str(tmp_path / "y.lex"))
        assert code == 2
        assert err.startswith(f"{given.name} je už zostavený lexikón, nie zoznam slov")
        assert "UTF-8" not in err and err.count("\n") == 1


def test_the_output_folder_is_made_only_inside_an_existing_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "slova.txt"
    words.write_text(WORDS, encoding="utf-8")
    deep = tmp_path / "nie" / "je" / "x.lex"
    code, _, err = _run(capsys, "lexicon", "build", str(words), "--rules", "sss", "-o",
                        str(deep))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"{deep}: priečinok {tmp_path / 'nie'} neexistuje")
    assert not (tmp_path / "nie").exists()  # nothing made on the way
    code, _, err = _run(capsys, "lexicon", "build", str(words), "--rules", "sss", "-o",
                        "/nonexistent-stredisko/dir/x.lex")
    assert code == 2 and not Path("/nonexistent-stredisko").exists()
    one = tmp_path / "nove" / "x.lex"  # one new folder in an existing one: made
    assert main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(one)]) == 0
    assert one.is_file()


def test_standin_refuses_an_output_folder_from_the_root_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cs_CZ.aff").write_text("SET UTF-8\n", encoding="utf-8")
    (tmp_path / "cs_CZ.dic").write_text("1\nmama\n", encoding="utf-8")
    out = tmp_path / "nie" / "je" / "cs.txt"
    code, _, err = _run(capsys, "lexicon", "standin", "cs", "--dict-dir", str(tmp_path),
                        "-o", str(out))
    assert code == 2 and err.startswith(f"{out}: priečinok") and err.count("\n") == 1
    assert not (tmp_path / "nie").exists()


@pytest.mark.parametrize("argv", [
    ["lexicon", "build", "{missing}", "--rules", "sss", "-o", "{out}"],
    ["lexicon", "show", "{missing}"],
    ["word", "chata", "--lexicon", "{missing}"],
])
def test_every_input_error_is_exit_2_without_the_generic_prefix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    missing, out = tmp_path / "chyba.txt", tmp_path / "x.lex"
    code, _, err = _run(capsys, *(a.format(missing=missing, out=out) for a in argv))
    assert code == 2, err
    assert err.count("\n") == 1 and not err.startswith("stredisko: chyba")
    assert "chyba.txt" in err


def test_a_missing_list_is_the_same_error_as_any_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "lexicon", "build", str(tmp_path / "nie.txt"), "--rules", "sss",
                        "-o", str(tmp_path / "x.lex"))
    assert (code, err) == (2, f"{tmp_path / 'nie.txt'}: súbor alebo priečinok neexistuje\n")


CS_AFF = """SET UTF-8

SFX A Y 2
SFX A a y a
SFX A a ou a
"""
# kg, km, pc, fp: unit marks hunspell-cs lists without flags; vlk, smrt: words without a vowel
CS_DIC = "7\nmama/A\nkg\nkm\npc\nfp\nvlk\nsmrt\n"


@pytest.mark.skipif(not TOOLS, reason="unmunch/hunspell missing: apt-get install hunspell "
                    "hunspell-tools")
def test_the_czech_stand_in_leaves_unit_marks_out_and_counts_them_in_slovak(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cs_CZ.aff").write_text(CS_AFF, encoding="utf-8")
    (tmp_path / "cs_CZ.dic").write_text(CS_DIC, encoding="utf-8")
    out = tmp_path / "cs.txt"
    code, said, err = _run(capsys, "lexicon", "standin", "cs", "--dict-dir", str(tmp_path),
                           "-o", str(out))
    assert code == 0, err
    forms = [line for line in out.read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    assert forms == ["mama", "mamou", "mamy", "smrt", "vlk"]
    # Slovak plurals: 5 tvarov, but 3 riadky / 4 heslá where the number asks for them
    assert "— 5 tvarov (unmunch: 5 riadkov" in said
    assert "vynechané — značky a skratky bez bodky, heslá bez slabiky (kg, km, pc) — heslá: 4" \
        in said
    (tmp_path / "cs_CZ.dic").write_text("2\nmama/A\nkg\n", encoding="utf-8")
    code, said, _ = _run(capsys, "lexicon", "standin", "cs", "--dict-dir", str(tmp_path),
                         "-o", str(out))
    assert code == 0 and "— 3 tvary (unmunch: 3 riadky" in said
