"""The README is executed (issue 34.3): its quick start ("Rýchly štart") and its Docker
section, in order, as written, on a scratch folder holding what a checkout's root holds
(`examples/`, `config.example.toml`), through the installed `stredisko` of this environment —
so a command that fails for a newcomer fails here.

The commands are read from README.md itself: the inline `stredisko …` / `cp …` spans of the
quick start, the lines of the Docker section's ```sh blocks. Each must appear in the tables
below with what it does offline: OK (exit 0), REFUSED (the README says it refuses in this
state: its exit code and line), or not run, with the reason (Discord, herna.net, the Docker
engine, root). A README command missing from the tables, or a table entry the README lost,
fails the test: nothing is skipped silently. The Docker engine's commands are run by
tools/verify-image.sh against a built image; here their `stredisko …` part is parsed by the
real command line, so a wrong subcommand or option in them fails too.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import _parser
from bot.config import load_config

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent  # the environment's console scripts: .venv/bin/stredisko


@dataclass(frozen=True)
class Outcome:
    code: int | None  # None: not run here
    says: str = ""  # the refusal's line (REFUSED) or why it is not run


OK = Outcome(0)


def refused(code: int, says: str) -> Outcome:
    return Outcome(code, says)


def not_run(reason: str) -> Outcome:
    return Outcome(None, reason)


DISCORD = not_run("needs Discord: a bot token and a server")
HERNA = not_run("reads herna.net")
ENGINE = not_run("needs the Docker engine: tools/verify-image.sh runs it in the image")
#: placeholders the README writes in capitals, and what a newcomer would type for them
TYPED = {"PREZÝVKA…": "danka", "DISCORD_ID": "123456789012345678", "SLUG": "kt-2026-11",
         "ID_KANÁLA": "123456789012345679"}

QUICK_START: list[tuple[str, Outcome]] = [
    ("stredisko examples examples", OK),
    ("cp examples/propozicie.toml propozicie.toml", OK),
    ("stredisko create propozicie.toml", OK),
    ("cp examples/players.csv hraci.csv", OK),
    ("stredisko import-players kt-2026-11 hraci.csv", OK),
    ("stredisko paid kt-2026-11 PREZÝVKA…", OK),
    ("cp examples/screlo.csv screlo.csv", OK),
    ("stredisko import-screlo screlo.csv", OK),
    ("stredisko admins kt-2026-11 --add DISCORD_ID", OK),
    ("stredisko admins kt-2026-11", OK),
    ("cp examples/config.example.toml config.toml", OK),
    ("stredisko run --config config.toml --sync-commands", DISCORD),
    ("stredisko run --config config.toml", DISCORD),
    ("stredisko channel kt-2026-11 ID_KANÁLA", OK),
    ("stredisko checkin open kt-2026-11", OK),
    ("stredisko checkin close kt-2026-11", OK),
    ("stredisko pair kt-2026-11 1", OK),
    ("stredisko show pairings kt-2026-11 1", OK),
    ("stredisko publish kt-2026-11 1", OK),
    ("stredisko sync kt-2026-11", HERNA),
    ("stredisko show results kt-2026-11 1", OK),
    # the proposal comes from the games read on herna.net (step 6): offline there is none
    ("stredisko approve kt-2026-11 1 2", refused(1, "nie je tu návrh na schválenie")),
    ('stredisko rule kt-2026-11 1 2 nedostavenie --loser danka '
     '--reason "neprišla v čakacej lehote"', OK),
    ('stredisko rule kt-2026-11 1 1 dohrana --score 350 420 --reason "zápis z herna.net"', OK),
    ("stredisko rule --help", OK),
    ("stredisko close kt-2026-11 1", refused(1, "1. kolo má 2 neuzavreté výsledky")),
    ("stredisko close kt-2026-11 1 --force", OK),
    ("stredisko finish kt-2026-11", refused(1, "Turnaj ešte nemožno ukončiť")),
    ("stredisko finish kt-2026-11 --force", OK),
    ("stredisko export results kt-2026-11 -o vysledky.csv", OK),
    ("stredisko export screlo -o screlo-po-turnaji.csv", OK),
    ("stredisko export tsh kt-2026-11 -o tsh/kt.t", OK),
    ("stredisko export trf kt-2026-11 -o kt.trf", OK),
    ("stredisko publish kt-2026-11 web", OK),
    ("cp examples/season/sezona.toml sezona.toml", OK),
    ("stredisko season sezona.toml", OK),
    ("stredisko season sezona.toml --html sezona", OK),
    ("stredisko show audit kt-2026-11", OK),
    ("stredisko rehearse examples/rehearsal/kt-online-24.toml", OK),
]
#: what the quick start leaves behind, each named in the README
QUICK_START_FILES = ["stredisko.db", "vysledky.csv", "screlo-po-turnaji.csv", "tsh/kt.t",
                     "kt.trf", "web/index.html", "sezona/index.html"]

RUN_DETACHED = ("docker run -d --name stredisko --restart unless-stopped --stop-timeout 30 "
                "--env-file stredisko.env -v stredisko-data:/data "
                '-v "$PWD/config.toml:/app/config.toml:ro" stredisko')
#: images the README's `docker run`s name: the bot's, and the one that makes stand-in lists
IMAGES = ("stredisko", "stredisko-lexikon")

DOCKER: list[tuple[str, Outcome]] = [
    ("docker build -t stredisko .", ENGINE),
    ("cp examples/propozicie.toml propozicie.toml", OK),
    ("cp examples/config.example.toml config.toml", OK),
    ("cp examples/stredisko.env stredisko.env", OK),
    ("chmod 644 propozicie.toml config.toml", OK),
    ("chmod 600 stredisko.env", OK),
    ('docker run --rm -v stredisko-data:/data -v "$PWD/propozicie.toml:/app/propozicie.toml:ro" '
     "stredisko create /app/propozicie.toml", ENGINE),
    ("docker run --rm -v stredisko-data:/data stredisko admins SLUG --add DISCORD_ID", ENGINE),
    ("docker run --rm -it --env-file stredisko.env -v stredisko-data:/data "
     '-v "$PWD/config.toml:/app/config.toml:ro" stredisko run --config /app/config.toml '
     "--sync-commands", ENGINE),
    (RUN_DETACHED, ENGINE),
    ("docker logs stredisko", ENGINE),
    ("docker stop stredisko && docker rm stredisko", ENGINE),
    ("git pull && docker build -t stredisko .", ENGINE),
    (RUN_DETACHED, ENGINE),
    ("docker build -t stredisko-lexikon -f Dockerfile.lexikon .", ENGINE),
    ("docker run --rm -v stredisko-data:/data stredisko-lexikon "
     "lexicon standin sk -o /data/lexicons/sk-standin.txt", ENGINE),
    ("docker run --rm -v stredisko-data:/data stredisko "
     "lexicon build /data/lexicons/sk-standin.txt --rules sss -o /data/lexicons/sk.lex", ENGINE),
    ("docker run --rm -v stredisko-data:/data stredisko word kôň chata --lexicon sk", ENGINE),
    ("docker run --rm --network none stredisko rehearse "
     "/app/examples/rehearsal/kt-online-24.toml", ENGINE),
    ("docker run --rm --network none -v stredisko-data:/data stredisko "
     "rehearse /app/examples/rehearsal/kt-online-24.toml --html /data/skuska", ENGINE),
]


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def quick_start_commands() -> list[str]:
    """The quick start's inline commands in reading order (a span may wrap a line)."""
    spans = re.findall(r"`([^`]+)`", _section("Rýchly štart"))
    commands = [" ".join(span.split()) for span in spans]
    return [c for c in commands if c.startswith(("stredisko ", "cp "))]


def docker_commands() -> list[str]:
    """The Docker section's ```sh lines: continuations joined, comments dropped."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", _section("Running the bot in Docker"), re.S):
        joined = block.replace("\\\n", " ")
        for line in joined.splitlines():
            command = " ".join(re.sub(r"(^|\s)#.*$", "", line).split())
            if command:
                commands.append(command)
    return commands


#: `docker run` options the README uses that take a value (the rest are flags: --rm, -it, -d)
DOCKER_VALUED = {"-v", "-e", "--env-file", "--name", "--restart", "--network", "--entrypoint",
                 "--stop-timeout"}


def _image_and_args(words: list[str]) -> tuple[str, list[str]]:
    """`docker run`'s words after `run`: the image and the arguments its entry point gets."""
    at = 0
    while words[at].startswith("-"):
        at += 2 if words[at] in DOCKER_VALUED else 1
    return words[at], words[at + 1:]


def _typed(command: str) -> str:
    for placeholder, value in TYPED.items():
        command = command.replace(placeholder, value)
    return command


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A scratch folder holding what the README's commands read from a checkout's root."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copy(ROOT / "config.example.toml", tmp_path)
    return tmp_path


def _run(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """One README line through bash, as a newcomer types it, `stredisko` from this
    environment (the activated .venv of step 1)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in ("DISCORD_TOKEN", "HERNA_USER", "HERNA_PASSWORD", "STREDISKO_DB",
                 "STREDISKO_HEARTBEAT", "STREDISKO_LEXICON_DIR"):
        env.pop(name, None)  # the newcomer's shell has none of them
    return subprocess.run(["bash", "-c", _typed(command)], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=300, check=False)


def _play(table: list[tuple[str, Outcome]], folder: Path) -> list[str]:
    """Run the table's commands in order; what went otherwise than it says, one line each."""
    wrong = []
    for command, outcome in table:
        if outcome.code is None:
            continue
        done = _run(command, folder)
        said = (done.stdout + done.stderr).strip()
        if done.returncode != outcome.code or outcome.says not in said or "Traceback" in said:
            wrong.append(f"$ {command}\n  exit {done.returncode} (expected {outcome.code}"
                         f"{', saying ' + repr(outcome.says) if outcome.says else ''}):\n"
                         f"  {said[-600:]}")
    return wrong


def test_the_tables_follow_the_readme() -> None:
    assert quick_start_commands() == [command for command, _ in QUICK_START]
    assert docker_commands() == [command for command, _ in DOCKER]


def test_the_quick_start_runs_as_written(tmp_path: Path) -> None:
    """In a folder of its own, empty but for what the quick start itself puts there
    (issue 43.3: run in the repository's root it left nine files behind and overwrote the
    imported screlo.csv with the export)."""
    assert quick_start_commands() == [command for command, _ in QUICK_START]
    imported = (ROOT / "examples" / "screlo.csv").read_bytes()
    wrong = _play(QUICK_START, tmp_path)
    assert not wrong, "\n".join(wrong)
    missing = [name for name in QUICK_START_FILES if not (tmp_path / name).is_file()]
    assert not missing
    assert (tmp_path / "screlo.csv").read_bytes() == imported  # the export went beside it


def test_the_docker_section_runs_as_written(checkout: Path) -> None:
    """Its host-side steps run; each `docker run … stredisko ARGS` parses as the image's
    entry point `stredisko` would parse ARGS; the files it mounts exist afterwards, readable by
    others (uid 10001), the secrets file only by its owner, and the config loads."""
    assert docker_commands() == [command for command, _ in DOCKER]
    wrong = _play(DOCKER, checkout)
    assert not wrong, "\n".join(wrong)
    for command, _ in DOCKER:
        words = shlex.split(_typed(command))
        if words[:2] == ["docker", "run"]:
            image, args = _image_and_args(words[2:])
            assert image in IMAGES, command
            if args:  # none: the image's CMD, run --config /app/config.toml
                _parser().parse_args(args)  # SystemExit(2) on a wrong subcommand or option
    for name in ("propozicie.toml", "config.toml"):
        assert (checkout / name).stat().st_mode & 0o777 == 0o644
    assert (checkout / "stredisko.env").stat().st_mode & 0o777 == 0o600
    config = load_config(checkout / "config.toml", env={})
    assert config.discord.token == "" and config.herna.password == ""  # the file holds none
    secrets = (checkout / "stredisko.env").read_text(encoding="utf-8").splitlines()
    names = [line.split("=", 1)[0] for line in secrets if line and not line.startswith("#")]
    assert names == ["DISCORD_TOKEN", "HERNA_USER", "HERNA_PASSWORD"]
