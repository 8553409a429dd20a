"""`stredisko word --serve` as the hall's operator starts it (a real process through the
`stredisko` entry point, a real port): the start line names the URL, the lexicon and the
rules; the page answers; Ctrl+C stops it with a line and exit 0. Bad options exit 2 with one
Slovak line, before anything is loaded."""

from __future__ import annotations

import contextlib
import io
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from bs4 import BeautifulSoup

from bot.cli import main

START = "import sys; from bot.cli import main; sys.exit(main())"


def _headline(page: str) -> str:
    found = BeautifulSoup(page, "lxml").find("p", class_="headline")
    return "" if found is None else found.get_text()


def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "slova.txt"
    path.write_text("kamarát\nmesto\nstolík\n", encoding="utf-8")
    return path


def test_the_page_runs_until_ctrl_c(tmp_path: Path) -> None:
    words = word_list(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-c", START, "word", "--serve", "--port", "0", "--lexicon", str(words)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("Stránka na overovanie slov beží na http://127.0.0.1:"), first
        assert "pravidlá sss" in first and "zoznam slov slova.txt" in first
        url = first.split(" beží na ")[1].split(" ")[0]
        page = httpx.get(url, params={"slovo": "mesto"}, timeout=10).text
        assert _headline(page) == "PLATNÉ: mesto"
        page = httpx.get(url, params={"slovo": "ou"}, timeout=10).text
        assert _headline(page) == "NEPLATNÉ: ou"  # B2 decides under sss
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert out.strip().splitlines()[-1] == "Stránka na overovanie slov je zastavená."


@pytest.mark.parametrize(("argv", "message"), [
    (["word", "--serve", "--port", "70000"], "port"),
    (["word", "--serve", "--port", "osem"], "port"),
    (["word"], "SLOVO"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, argv: list[str],
                                             message: str) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exited:
        sys.exit(main([*argv, "--lexicon", str(word_list(tmp_path))]))
    assert exited.value.code == 2
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_an_unreadable_lexicon_is_said_before_serving(tmp_path: Path) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["word", "--serve", "--port", "0", "--lexicon", str(tmp_path / "nie.txt")])
    assert code == 2
    assert err.getvalue().strip().startswith("Lexikón „")
