"""What `stredisko word` and `lexicon build` answer beyond the verdicts (issue 35): `--json`
errors as a JSON document with exit 2; a folder named as the lexicon and a compiled lexicon
with a damaged header each said for what they are; the list's label from the user (--title or
the file's `# názov:` line), never "zoznam slov spolku" on the program's word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.services.lexicon import files as service
from rules.lexicon.artifact import MAGIC

ROOT = Path(__file__).parents[2]
REHEARSAL_WORDS = ROOT / "examples" / "rehearsal" / "duplicate-slova.txt"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # the parser's own refusal, as the console script ends
        code = int(exit_.code or 0)
    printed = capsys.readouterr()
    return code, printed.out, printed.err


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "slova.txt"
    path.write_text("chata\nmama\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("argv", "says"), [
    (["word", "--json"], "chýbajúce povinné argumenty: SLOVO"),
    (["word", "dve slová", "--json", "--lexicon", "{words}"], "obsahuje medzeru"),
    (["word", "mama", "--json", "--lexicon", "{missing}"], "sa nenašiel"),
    (["word", "mama", "--json"], "Chýba lexikón"),
    # a bad argument the parser itself refuses (issue 35: was a line on stderr)
    (["word", "mama", "--json", "--rules", "xyz"], "--rules"),
    (["word", "mama", "--json", "--nieco"], "--nieco"),
    (["word", "mama", "--json", "--lexicon", "{words}", "--rules", "cas"],
     None),  # a plain list under cas is fine: the control case, a verdict document
])
def test_json_errors_are_json_with_exit_2(
        argv: list[str], says: str | None, words: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.toml: no [lexicon] default
    filled = [a.format(words=words, missing=tmp_path / "nie.lex") for a in argv]
    code, out, err = _run(capsys, *filled)
    document = json.loads(out)
    if says is None:
        assert code == 0 and document["verdicts"][0]["word"] == "mama"
        return
    assert code == 2 and not err
    assert list(document) == ["error"] and says in document["error"]


def test_json_error_of_an_unreadable_lexicon(
        words: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(words))

    monkeypatch.setattr(Path, "open", refuse)
    code, out, err = _run(capsys, "word", "mama", "--json", "--lexicon", str(words))
    assert code == 2 and not err and "slova.txt" in json.loads(out)["error"]


def test_plain_errors_stay_one_line_on_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "word", "mama", "--lexicon", str(tmp_path / "nie.lex"))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "sa nenašiel" in err


def test_a_folder_is_said_to_be_a_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "lexikony"
    folder.mkdir()
    for argv in (["word", "mama", "--lexicon", str(folder)], ["lexicon", "show", str(folder)]):
        code, out, err = _run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err.startswith(f"Lexikón „{folder}“ je priečinok, nie súbor") and \
            "nenašiel" not in err


def test_an_id_in_the_lexicon_folder_wins_over_a_folder_of_that_name(
        tmp_path: Path, words: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lexicons").mkdir()
    assert main(["lexicon", "build", str(words), "--rules", "sss",
                 "-o", str(tmp_path / "lexicons" / "sk.lex")]) == 0
    (tmp_path / "sk").mkdir()
    capsys.readouterr()
    code, out, _ = _run(capsys, "word", "mama", "--lexicon", "sk")
    assert code == 0 and "mama — PLATNÉ" in out


@pytest.mark.parametrize("damage", ["magic", "version line"])
def test_a_compiled_lexicon_with_a_damaged_header_is_said_damaged(
        damage: str, tmp_path: Path, words: Path, capsys: pytest.CaptureFixture[str]) -> None:
    built = tmp_path / "sk.lex"
    assert main(["lexicon", "build", str(words), "--rules", "sss", "-o", str(built)]) == 0
    data = bytearray(built.read_bytes())
    if damage == "magic":
        data[0:3] = b"\x00\x00\x00"  # the first bytes: no longer the magic line
    else:
        data[len(MAGIC) - 2] = ord("7")  # "STREDISKO-LEXICON 7"
    damaged = tmp_path / ("poskodeny.lex" if damage == "magic" else "poskodeny.bin")
    damaged.write_bytes(bytes(data))
    capsys.readouterr()
    code, out, err = _run(capsys, "word", "mama", "--lexicon", str(damaged))
    assert (code, out) == (2, "")
    assert err.startswith(f"{damaged.name}: zostavený lexikón je poškodený")
    assert "UTF-8" not in err


def test_build_labels_the_rehearsal_list_by_its_file_not_as_the_associations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "skuska.lex"
    code, said, _ = _run(capsys, "lexicon", "build", str(REHEARSAL_WORDS), "--rules", "sss",
                         "-o", str(out))
    assert code == 0 and "zoznam slov spolku" not in said
    lexicon = service.load(out)
    assert lexicon.title == "zoznam slov duplicate-slova.txt"
    code, said, _ = _run(capsys, "word", "auto", "--lexicon", str(out))
    assert code == 0 and "zdroj: zoznam slov duplicate-slova.txt" in said
    assert "zoznam slov spolku" not in said


def test_the_label_comes_from_the_title_option_or_the_files_header(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    named = tmp_path / "spolok.txt"
    named.write_text("# názov: zoznam slov spolku 2026\nchata\nmama\n", encoding="utf-8")
    plain = tmp_path / "slova.txt"
    plain.write_text("chata\nmama\n", encoding="utf-8")
    cases = [
        (named, [], "zoznam slov spolku 2026"),
        (named, ["--title", "môj výber"], "môj výber"),  # the command line wins
        (plain, ["--title", "zoznam slov spolku (2026)"], "zoznam slov spolku (2026)"),
    ]
    for source, extra, title in cases:
        out = tmp_path / f"{source.stem}-{len(extra)}.lex"
        assert main(["lexicon", "build", str(source), "--rules", "sss", "-o", str(out),
                     *extra]) == 0
        assert service.load(out).title == title
    # a plain list judged on the spot reads its header the same way
    assert service.load(named).title == "zoznam slov spolku 2026"


def test_a_title_or_file_name_holding_an_escape_reaches_the_terminal_escaped(
        words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36.2: no raw ESC reaches a terminal — the built lexicon's title (the user's
    --title, or a list's `# názov:` line) and a lexicon file's name in an error are shown
    with their control characters escaped."""
    out = tmp_path / "x.lex"
    code, said, err = _run(capsys, "lexicon", "build", str(words), "--rules", "sss", "-o",
                           str(out), "--title", "Zoznam \x1b[2J")
    assert code == 0 and "\x1b" not in said + err and "Zoznam \\x1b[2J" in said
    odd = tmp_path / "zle\x1b[31m.lex"
    odd.write_bytes(b"STREDISKO-LEXICON garbage\n")
    code, said, err = _run(capsys, "word", "mama", "--lexicon", str(odd))
    assert code == 2 and "\x1b" not in said + err and "\\x1b[31m" in err
