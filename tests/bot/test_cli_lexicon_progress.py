"""`stredisko lexicon build` and `lexicon standin` show on a terminal which step runs and how
far it is (issue 35): the project's progress bar (`bot.progress.Steps`), one bar a step, each
ended by a newline; a log or a pipe gets the result alone."""

from __future__ import annotations

import io
import itertools
import re
import sys
from pathlib import Path

import pytest

from bot.cli import main

from .services.test_lexicon_standin import AFF, DIC, TOOLS


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _lines(text: str) -> list[str]:
    """What a terminal shows at the end: each line as its last redraw left it."""
    return [line.rsplit("\r", 1)[-1] for line in text.split("\n") if line]


def _words(tmp_path: Path, n: int) -> Path:
    words = ("".join(letters) for letters in itertools.product("abdeiklmnoprstuv", repeat=4))
    path = tmp_path / "slova.txt"
    path.write_text("\n".join(itertools.islice(words, n)) + "\n", encoding="utf-8")
    return path


def test_build_shows_its_four_steps_and_the_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    words = _words(tmp_path, 40_000)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["lexicon", "build", str(words), "--rules", "sss",
                 "-o", str(tmp_path / "x.lex")]) == 0
    text = terminal.getvalue()
    shown = _lines(text)
    assert [line.split(" [")[0] for line in shown] == [
        "stredisko: 1/4 čítam zoznam slova.txt",
        "stredisko: 2/4 vyberám prípustné tvary",
        "stredisko: 3/4 zostavujem graf slov",
        "stredisko: 4/4 zapisujem x.lex",
    ]
    assert shown[0].endswith("] 40000/40000")
    forms = int(shown[2].rsplit("/", 1)[1])  # with the bundled B2, B3 and B5
    assert forms > 40_000 and shown[2].endswith(f"] {forms}/{forms}")
    # the count moved while the list was read: 16384 and 32768 lines were drawn in place
    read = text.split("\n")[0]
    assert re.findall(r"\] (\d+)/40000", read) == ["16384", "32768", "40000"]


def test_a_failed_step_ends_its_bar_before_the_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    words = tmp_path / "zle.txt"
    words.write_bytes(b"mama\n\xff\xfe\n")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["lexicon", "build", str(words), "--rules", "sss",
                 "-o", str(tmp_path / "x.lex")]) == 2
    shown = _lines(terminal.getvalue())
    assert shown[0] == "stredisko: 1/4 čítam zoznam zle.txt …"
    assert shown[1].startswith("zle.txt:2: riadok nie je v kódovaní UTF-8")


def test_a_log_gets_no_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = _words(tmp_path, 100)
    assert main(["lexicon", "build", str(words), "--rules", "sss",
                 "-o", str(tmp_path / "x.lex")]) == 0
    assert "stredisko: 1/4" not in capsys.readouterr().err


@pytest.mark.skipif(not TOOLS, reason="unmunch/hunspell missing: apt-get install hunspell "
                    "hunspell-tools")
def test_standin_shows_its_steps_and_hunspells_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sk_SK.aff").write_text(AFF, encoding="utf-8")
    (tmp_path / "sk_SK.dic").write_text(DIC, encoding="utf-8")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = tmp_path / "sk-standin.txt"
    assert main(["lexicon", "standin", "sk", "--dict-dir", str(tmp_path), "-o", str(out)]) == 0
    shown = _lines(terminal.getvalue())
    assert [line.split(" [")[0] for line in shown] == [
        "stredisko: 1/4 rozbaľujem slovník sk_SK.dic (unmunch)",
        "stredisko: 2/4 vyberám kandidátov",
        "stredisko: 3/4 hunspell overuje kandidátov",
        "stredisko: 4/4 zapisujem sk-standin.txt",
    ]
    candidates = int(shown[2].rsplit("/", 1)[1])
    assert candidates > 0 and shown[2].endswith(f"] {candidates}/{candidates}")
