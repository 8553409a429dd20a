"""`stredisko lexicon build` and `stredisko word` through the real entry point (`bot.cli.main`)
on real files: verdicts with source, rule and lexicon id; exit 0 all valid, 1 any invalid, 2 bad
input; bad word lists (not UTF-8, foreign letters, duplicates, 10 M lines, 1 GB) refused or
reported with SÚBOR:RIADOK in Slovak."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.services.lexicon import files as service
from rules.lexicon import admissibility
from rules.lexicon.artifact import MAGIC

WORDS = """# zoznam slov spolku (test)
chata
mama
xy
ťuk
kôň
vodíkom
wolfram
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def lists(tmp_path: Path) -> Path:
    folder = tmp_path / "zoznamy"
    folder.mkdir()
    _write(folder / "b2.txt", "# B2 spolku\nja\nty\nch\n")
    _write(folder / "b3.txt", "kôň\nchy\n")
    _write(folder / "b5.txt", "vodík\nargón\n")
    return folder


@pytest.fixture
def built(tmp_path: Path, lists: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    words = _write(tmp_path / "slova.txt", WORDS)
    out = tmp_path / "lexikony" / "sk-test.lex"
    out.parent.mkdir()
    code = main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(out),
                 "--short-lists", str(lists)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "2-písmenové slová rozhoduje len B2" in printed.out
    assert "b2.txt" in printed.out and "sha256" in printed.out
    return out


def _word(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["word", *argv])
    printed = capsys.readouterr()
    return code, printed.out, printed.err


def test_built_lexicon_is_the_admissible_set(built: Path) -> None:
    lexicon = service.load(built)
    assert lexicon.rules == "sss" and not lexicon.standin
    # B2/B3 replaced the file's short words; B5 added "vodík"/"argón" (5 letters, B7 absent)
    # declined (10.1 bod 5), and the closed lists of 10.1 bod 1, 2, 6 added their longer forms
    sss = admissibility("sss")
    closed = {form for rule in sss.always if rule.list != "b5"
              for form in sss.lists[rule.list].words if len(form) > 3}
    assert set(lexicon.graph) - closed == {
        "ja", "ty", "ch", "kôň", "chy", "chata", "mama", "wolfram", "vodík", "vodíka",
        "vodíku", "vodíkom", "vodíky", "vodíkov", "vodíkoch", "vodíkmi", "argón", "argónu",
        "argóne", "argónom", "argóny", "argónov", "argónoch", "argónmi"}
    assert {"áčkom", "ypsilonmi", "sigiem", "omega"} <= closed
    assert lexicon.exclusive == {2: admissibility("sss").specs["b2"].title,
                                 3: admissibility("sss").specs["b3"].title}


def test_word_verdicts_and_exit_codes(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _word(capsys, "ja", "KÔŇ", "chata", "--lexicon", str(built))
    assert code == 0 and not err
    lines = out.splitlines()
    lexicon_id = service.load(built).id
    assert lines[0].startswith(f"Lexikón {lexicon_id}:")
    assert lines[1].startswith("ja — PLATNÉ (zdroj: B2") and "SP B1 10.1 bod 3" in lines[1]
    assert lines[2].startswith("kôň — PLATNÉ") and "SP B1 10.1 bod 4" in lines[2]
    assert "ch sa počíta ako dve písmená" in lines[3]
    code, out, _ = _word(capsys, "xy", "ja", "--lexicon", str(built))
    assert code == 1 and "xy — NEPLATNÉ (zdroj: B2" in out


def test_word_json_records_the_lexicon_in_every_verdict(
        built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _word(capsys, "ťuk", "wolfram", "--lexicon", str(built), "--json")
    document = json.loads(out)
    assert code == 1 and document["rules"] == "sss"
    lexicon_id = document["lexicon"]["id"]
    assert lexicon_id.startswith("lx-") and document["lexicon"]["standin"] is False
    tuk, wolfram = document["verdicts"]
    assert tuk == {"word": "ťuk", "valid": False, "source": tuk["source"],
                   "rule": "SP B1 10.1 bod 4", "reason": tuk["reason"], "lexicon": lexicon_id}
    assert wolfram["valid"] and wolfram["rule"] == "SP B1 10.1"


def test_lexicon_by_id_from_the_configured_folder(
        built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _write(tmp_path / "config.toml", '[lexicon]\ndir = "lexikony"\n')
    lexicon_id = service.load(built).id
    for name in ("sk-test", lexicon_id):
        code, out, err = _word(capsys, "mama", "--config", str(config), "--lexicon", name)
        assert (code, err) == (0, "") and lexicon_id in out
    _write(config, '[lexicon]\ndir = "lexikony"\ndefault = "sk-test"\n')
    assert _word(capsys, "mama", "--config", str(config))[0] == 0
    code, _, err = _word(capsys, "mama", "--config", str(config), "--lexicon", "iny")
    assert code == 2 and "Lexikón „iny“ sa nenašiel" in err and "lexikony" in err


def test_without_any_lexicon(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _word(capsys, "mama")
    assert (code, out) == (2, "") and "Chýba lexikón" in err


def test_rules_other_than_the_build_are_refused(
        built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _word(capsys, "mama", "--lexicon", str(built), "--rules", "cas")
    assert code == 2 and "podľa pravidiel sss, nie cas" in err


@pytest.mark.parametrize(("query", "says"), [
    ("dva slova", "medzeru"), ("abc1", "„1“"), ("x" * 10_000, "10000 znakov"), ("", "Prázdne"),
])
def test_a_query_that_is_no_word(built: Path, capsys: pytest.CaptureFixture[str],
                                 query: str, says: str) -> None:
    code, out, err = _word(capsys, "mama", query, "--lexicon", str(built))
    assert (code, out) == (2, "") and says in err and err.count("\n") == 1


def test_a_plain_word_list_is_judged_through_the_profile(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = _write(tmp_path / "zoznam.txt", "# stand-in: test\nmama\nxy\nmamou\n")
    code, out, _ = _word(capsys, "mamou", "xy", "--lexicon", str(plain))
    assert "NÁHRADNÝ zoznam z test" in out and "mamou — PLATNÉ" in out
    bundled = admissibility("sss").lists.get("b2")
    if bundled is None:  # the bundled B2 is not there yet: the file decides, and says so
        assert code == 0 and "B2 tu nie je" in out
    else:  # the bundled B2 decides two-letter words whatever the file says
        assert ("xy — PLATNÉ" in out) == ("xy" in bundled.words)
        assert f"zdroj: {bundled.title}" in out


def test_a_word_list_not_in_utf8_is_refused_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "cp1250.txt"
    words.write_bytes("mama\nchata\nkôň\n".encode("cp1250"))
    code = main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(tmp_path / "x.lex")])
    err = capsys.readouterr().err
    assert code == 2 and "cp1250.txt:3: riadok nie je v kódovaní UTF-8" in err
    assert not (tmp_path / "x.lex").exists()


def test_foreign_letters_are_listed_with_their_lines_and_capped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["mama", "straße", "dva slova", *(f"x{i}" for i in range(30))]
    words = _write(tmp_path / "zle.txt", "\n".join(lines) + "\n")
    out = tmp_path / "x.lex"
    code = main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(out)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and not out.exists()
    assert err[0] == ("zle.txt: riadky, ktoré nie sú tvarom slova: 32; zoznam sa nepoužil "
                      "(oprav ich, alebo zostav s --skip-invalid):")
    assert err[1].startswith("zle.txt:2: „straße“ obsahuje písmeno „ß“")
    assert err[2] == "zle.txt:3: „dva slova“ obsahuje medzeru, tvar slova má len písmená"
    assert len(err) == 1 + service.MAX_LISTED + 1 and err[-1] == "… a ďalšie: 12"
    code = main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(out),
                 "--skip-invalid"])
    printed = capsys.readouterr()
    assert code == 0 and out.exists()
    assert "vynechané riadky, ktoré nie sú tvarom slova: 32" in printed.err
    # the one good form, and the bundled lists the build applies (B2, B3 decide; B5 always)
    bundled = set().union(*(found.words for found in admissibility("sss").lists.values()))
    assert set(service.load(out).graph) == {"mama"} | bundled


def test_duplicates_empty_and_unplayable_lengths_are_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = _write(tmp_path / "d.txt", "mama\n\nMAMA\nmama\na\n" + "a" * 16 + "\nchata\n")
    code = main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(tmp_path / "d.lex")])
    err = capsys.readouterr().err
    assert code == 0
    assert "d.txt: vynechané prázdne riadky: 1." in err
    assert "d.txt: vynechané opakované tvary: 2 (prvý na riadku 3)." in err
    assert "d.txt: vynechané tvary kratšie ako 2 alebo dlhšie ako 15 písmen: 2" in err


def test_ten_million_lines_are_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "10M.txt"
    with words.open("wb") as file:
        for _ in range(10):
            file.write(b"ab\n" * 1_000_000)
    code = main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(tmp_path / "x.lex")])
    err = capsys.readouterr().err
    assert code == 2 and "10M.txt:5000001: zoznam má viac ako 5000000 riadkov" in err


def test_a_one_gigabyte_file_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "1G.txt"
    with words.open("wb") as file:
        file.truncate(2**30)  # sparse: no disk used
    code, out, err = _word(capsys, "mama", "--lexicon", str(words))
    assert (code, out) == (2, "") and "1G.txt: súbor má 1024 MB" in err


def test_a_one_gigabyte_lexicon_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "1G.lex"
    with fake.open("wb") as file:
        file.write(MAGIC)
        file.truncate(2**30)
    code, out, err = _word(capsys, "mama", "--lexicon", str(fake))
    assert (code, out) == (2, "") and "1G.lex: súbor má 1024 MB" in err


def test_a_damaged_lexicon(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray(built.read_bytes())
    data[-1] ^= 1
    built.write_bytes(bytes(data))
    code, _, err = _word(capsys, "mama", "--lexicon", str(built))
    assert code == 2 and "zostavený lexikón je poškodený" in err


def test_show(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "show", str(built)]) == 0
    out = capsys.readouterr().out
    assert service.load(built).id in out and "slova.txt" in out


def test_build_creates_the_folder_of_its_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "slova.txt", WORDS)
    assert main(["lexicon", "build", "slova.txt", "--rules", "sss", "-o", "nodir/x.lex"]) == 0, \
        capsys.readouterr().err
    assert service.load(tmp_path / "nodir" / "x.lex").forms > 0
    assert sorted(p.name for p in (tmp_path / "nodir").iterdir()) == ["x.lex"]


def test_a_refused_output_names_the_file_asked_for_not_its_part(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = _write(tmp_path / "slova.txt", WORDS)
    out = tmp_path / "x.lex"
    out.mkdir()  # a folder where the lexicon should go: the rename over it is refused
    # an input error like any other (issue 42): one line, exit 2
    assert main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(out)]) == 2
    assert capsys.readouterr().err == f"{out}: je to priečinok, nie súbor\n"
    assert not (tmp_path / "x.lex.part").exists()
