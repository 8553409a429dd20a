"""Every command block of the README (issue 43.3: only the quick start and the Docker section
were executed, so two broken lexicon commands still passed). Every `stredisko …` line of every
```sh block — synopses with placeholders and alternatives included — is parsed by the real
command line with its placeholders typed as a newcomer would; a wrong subcommand or option
fails here. The blocks that need no Discord, herna.net, root, network or a long hunspell build
run as written, in a scratch folder of their own: the season's and the lexicon's (its list
given as a small file where the stand-in would be: building the stand-in from hunspell-sk
takes minutes and is tested in tests/bot/services/test_standin_examples.py)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import _parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

#: what a newcomer types for the README's placeholders
TYPED = [("SCENARIO.toml", "examples/rehearsal/kt-online-24.toml"),
         ("BOARD.txt", "doska.txt"), ("FILE.csv", "listky.csv"), ("SLUG", "kt-2026-11"),
         ("ROUND", "1"), ("TABLE", "1"), ("END", "dohrana"), ("NICK…", "danka"),
         ("NICK", "danka"), ("DISCORD_ID", "123456789012345678"), ("PLAYER", "1"),
         ("WORDS", "slova.txt"), ("WORD", "SLOVO"), ("SCORE", "10"), ("SECONDS", "5"),
         ("RACK", "AEKLOST"), ("N", "1"), ("FILE", "vystup.csv"), ("DIR", "web"), ("ID", "sk"),
         ("\"…\"", "\"dôvod\"")]
#: runs elsewhere or not here: the quick start and Docker (tests/test_readme.py); make
SKIPPED_SECTIONS = ("Rýchly štart", "Running the bot in Docker")


def _sections() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    parts = re.split(r"\n(?=## )", text)
    return [(part.splitlines()[0].lstrip("# "), part) for part in parts]


def _without_optionals(line: str) -> str:
    """`[…]` groups dropped, nested ones too: a synopsis's optional parts."""
    out, depth = [], 0
    for char in line:
        if char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def _first_alternatives(line: str) -> str:
    """`a|b|c` → `a`: a synopsis's choices, the first one typed."""
    return re.sub(r"(?<![\s|])([^\s|\"]+)(\|[^\s|\"]+)+", r"\1", line)


def _typed(command: str) -> str:
    for placeholder, value in TYPED:
        command = re.sub(rf"(?<![\w./-]){re.escape(placeholder)}(?![\w-])", value, command)
    return command


def block_commands() -> list[tuple[str, str]]:
    """(section, command) for every `stredisko …` line of every ```sh block outside the
    quick start and the Docker section: continuations joined, comments dropped, `&&` split."""
    found = []
    for title, text in _sections():
        if title.startswith(SKIPPED_SECTIONS):
            continue
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                command = re.sub(r"(^|\s)#.*$", "", line).strip()
                for part in re.split(r"&&|;\s", command):
                    part = part.strip()
                    if part.startswith("stredisko "):
                        found.append((title, " ".join(part.split())))
                    elif re.match(r"[a-z-]+ [A-Z]", part) and found:  # "; decide SLUG N …"
                        first = found[-1][1].split()
                        found.append((title, " ".join([*first[:2], *part.split()])))
    return found


def synopsis_args(command: str) -> list[str]:
    return shlex.split(_typed(_first_alternatives(_without_optionals(command))))[1:]


def test_the_readme_has_command_blocks_beyond_the_quick_start() -> None:
    titles = {title for title, _ in block_commands()}
    assert any("Lexikóny" in t for t in titles) and any("Rebríček" in t for t in titles)
    assert len(block_commands()) > 40


@pytest.mark.parametrize("command", [c for _, c in block_commands()])
def test_every_readme_command_parses(command: str) -> None:
    """A subcommand or an option the README names but the command line does not know fails
    with argparse's exit 2; `--help` lines exit 0."""
    args = synopsis_args(command)
    try:
        _parser().parse_args(args)
    except SystemExit as stop:
        assert stop.code == 0, f"{command!r} → {args}"


def _run(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in ("STREDISKO_DB", "STREDISKO_LEXICON_DIR", "DISCORD_TOKEN"):
        env.pop(name, None)
    return subprocess.run(["bash", "-c", command], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=600, check=False)


def _section_block(title: str) -> list[str]:
    return [c for t, c in block_commands() if t.startswith(title)]


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path


def test_the_season_block_runs_as_written(scratch: Path) -> None:
    commands = [_without_optionals(c) for c in _section_block("Rebríček sezóny")]
    assert commands[0].startswith("stredisko rehearse examples/rehearsal/kt-online-24.toml")
    for command in commands:
        done = _run(command, scratch)
        assert done.returncode == 0, f"$ {command}\n{done.stdout[-800:]}\n{done.stderr}"
        assert "Traceback" not in done.stderr
    assert (scratch / "skuska.db").is_file()


def test_the_lexicon_block_runs_as_written(scratch: Path) -> None:
    """The stand-in line is parsed (above), the rest run on a small list in its place."""
    commands = _section_block("Lexikóny")
    assert commands[0].startswith("stredisko lexicon standin sk -o lexicons/sk-standin.txt")
    (scratch / "lexicons").mkdir()
    (scratch / "lexicons" / "sk-standin.txt").write_text(
        "# skúšobný zoznam\nkôň\nchata\nmama\n", encoding="utf-8")
    (scratch / "config.toml").write_text('[lexicon]\ndir = "lexicons"\n', encoding="utf-8")
    expected = {1: 0, 2: 1, 3: 0}  # `word … xy` exits 1: one of the words is NEPLATNÉ
    for n, command in enumerate(commands[1:], start=1):
        done = _run(command, scratch)
        assert done.returncode == expected[n], f"$ {command}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
    assert (scratch / "lexicons" / "sk.lex").is_file()
