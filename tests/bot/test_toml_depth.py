"""Every TOML reader behind one depth guard (`bot.toml_text`, issue 20.5): a 1.2 kB file nested
600 levels deep is one Slovak line naming the line through the real entry points — the
propozície (`stredisko create`), a season file, a rehearsal scenario,
`stredisko simulator`'s games, config.toml — never a RecursionError traceback."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot import toml_text
from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEEP = "name = 'x'\n\nvalue = " + "[" * 600 + "]" * 600 + "\n"
DEEP_INLINE = "a = " + "{b = " * 600 + "1" + "}" * 600 + "\n"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("text", [DEEP, DEEP_INLINE], ids=["arrays", "inline-tables"])
@pytest.mark.parametrize("command", ["create", "season", "rehearse", "config"])
def test_a_deeply_nested_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          command: str, text: str) -> None:
    path = tmp_path / "hlboky.toml"
    path.write_text(text, encoding="utf-8")
    db = str(tmp_path / "x.db")
    argv = {"create": ["create", str(path), "--db", db],
            "season": ["season", str(path), "--db", db],
            "rehearse": ["rehearse", str(path)],
            "config": ["sync", "x", "--config", str(path), "--db", db]}[command]
    code, err = _cli(capsys, *argv)
    assert code in (1, 2), err
    lines = [line for line in err.strip().splitlines() if not line.endswith("…")]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Recursion" not in err
    assert "vnorenie hlbšie ako 100" in err and ("riadok" in err or "line" in err), err


def test_the_simulator_games_file_too(tmp_path: Path) -> None:
    path = tmp_path / "partie.toml"
    path.write_text(DEEP, encoding="utf-8")
    command = "import sys; from bot.cli import main; sys.exit(main())"  # stredisko simulator
    done = subprocess.run([sys.executable, "-c", command, "simulator", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "vnorenie" in done.stderr


@pytest.mark.parametrize("text", [
    'a = "[[[[[[" \n',  # brackets inside strings, comments and multi-line strings count not
    "# " + "[" * 500 + "\nb = 1\n",
    'c = """\n' + "{" * 500 + '\n"""\n',
    "d = '" + "[" * 500 + "'\n",
    "e = [[1, 2], [3, [4, {f = 5}]]]\n[[g]]\nh = 1\n",
])
def test_ordinary_files_read_as_tomllib_reads_them(text: str) -> None:
    assert toml_text.loads(text) == tomllib.loads(text)


def test_the_limit_is_exact() -> None:
    assert toml_text.loads("a = " + "[" * 100 + "]" * 100)["a"]
    with pytest.raises(toml_text.TooDeep, match=r"riadok 3"):
        toml_text.loads("\n\na = " + "[" * 101 + "]" * 101)
