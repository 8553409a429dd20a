"""A folder or file the process may not use gets one Slovak line naming the uid it runs as, the
image's uid 10001 and the remedy (issue 34.4) — what a root-owned host folder on `/data` or a
root-owned `chmod 600` config.toml gives the image's user. The real thing: `stredisko` (its
entry point, bot.cli.main) runs as another user on a scratch folder, so the system itself
refuses; nothing is mocked. As root the child drops to nobody (uid 65534) after importing what
the commands need (the interpreter may live where nobody may not go, e.g. /root/.pyenv); as
any other user the folder's and file's modes keep it out."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

STREDISKO = Path(sys.executable).with_name("stredisko")
NOBODY = 65534
#: bot.cli.main as the stranger: every module a command imports late is imported before the drop
AS_STRANGER = f"""
import os, sys, getpass, sqlite3, asyncio
import bot.cli, bot.discord.runner, bot.cli.tournament, bot.store
if os.geteuid() == 0:
    os.setgroups([]); os.setgid({NOBODY}); os.setuid({NOBODY})
sys.exit(bot.cli.main(sys.argv[1:]))
"""
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SLUG = "kt-2026-11"


STRANGER_UID = NOBODY if os.geteuid() == 0 else os.getuid()


@pytest.fixture
def scratch() -> Iterator[Path]:
    # not tmp_path: pytest keeps it in a folder only its owner may enter, nobody could not
    folder = Path(tempfile.mkdtemp(prefix="stredisko-permissions-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in folder.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(folder)


def _stredisko(scratch: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {"PATH": os.environ.get("PATH", ""), "HOME": str(scratch), "LANG": "C.UTF-8",
                   **env}
    return subprocess.run([sys.executable, "-c", AS_STRANGER, *argv], cwd=scratch,
                          env=environment, text=True, capture_output=True, timeout=120,
                          check=False)


@pytest.fixture
def tournament(scratch: Path) -> Path:
    """The README's first steps, done by the folder's owner: the tournament in data/, whose
    folder the stranger may then enter and read but not write (a root-owned host folder)."""
    shutil.copy(EXAMPLES / "propozicie.toml", scratch / "propozicie.toml")
    (scratch / "data").mkdir()
    db = scratch / "data" / "stredisko.db"
    done = subprocess.run([str(STREDISKO), "create", "propozicie.toml", "--db", str(db),
                           "--admin", "test"], cwd=scratch, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    (scratch / "data").chmod(0o555)
    return db


def _readable_by_stranger(scratch: Path) -> None:
    """The checkout (profiles, locales, the package) must be readable after the drop."""
    closed = [str(p) for p in (ROOT, *ROOT.parents) if not p.stat().st_mode & stat.S_IXOTH]
    if os.geteuid() == 0 and closed:
        pytest.skip(f"uid {NOBODY} may not enter {closed[0]}, where the checkout is")
    done = _stredisko(scratch, "--help")
    if done.returncode != 0:
        pytest.skip(f"uid {STRANGER_UID} cannot run this checkout's stredisko: {done.stderr}")


def _says_no_write(err: str, folder: str) -> None:
    assert err.count("\n") == 1, err
    assert f"{folder}: stredisko sem nesmie zapisovať – beží ako používateľ uid " \
        f"{STRANGER_UID} (obraz Docker: uid 10001)" in err, err
    assert "sudo chown -R 10001:10001" in err and "Traceback" not in err


def test_a_new_database_in_a_folder_it_may_not_write(scratch: Path) -> None:
    _readable_by_stranger(scratch)
    shutil.copy(EXAMPLES / "propozicie.toml", scratch / "propozicie.toml")
    (scratch / "data").mkdir()
    (scratch / "data").chmod(0o555)
    done = _stredisko(scratch, "create", "propozicie.toml", "--db", "data/stredisko.db",
                      "--admin", "test")
    assert done.returncode == 1
    progress, error = done.stderr.splitlines()
    assert progress == "stredisko: zakladám turnaj …"
    assert error.startswith("stredisko: chyba: Databázu data/stredisko.db nemožno otvoriť")
    _says_no_write(error + "\n", "data")


def test_a_write_to_a_database_whose_folder_it_may_not_write(scratch: Path,
                                                             tournament: Path) -> None:
    _readable_by_stranger(scratch)
    done = _stredisko(scratch, "paid", SLUG, "danka", "--db", str(tournament), "--admin", "t")
    assert done.returncode == 1
    _says_no_write(done.stderr, str(tournament.parent))


def test_the_bot_on_a_database_it_may_not_write_stops_with_the_line(
        scratch: Path, tournament: Path) -> None:
    """Before the fix: SQLite opened the file read-only and the first write (the lease) crashed
    with a traceback, "attempt to write a readonly database". Discord is never reached: the
    check comes before the login."""
    _readable_by_stranger(scratch)
    config = scratch / "config.toml"
    config.write_text(f'[store]\npath = "{tournament}"\n[discord]\nguild_id = 1\n'
                      f'tournament = "{SLUG}"\nheartbeat_file = "{scratch / "heartbeat"}"\n',
                      encoding="utf-8")
    done = _stredisko(scratch, "run", "--config", str(config), DISCORD_TOKEN="not.a.token")
    assert done.returncode == 2
    assert done.stderr.startswith(f"stredisko: chyba: databázu {tournament} nemožno otvoriť: ")
    _says_no_write(done.stderr, str(tournament.parent))


def test_a_config_it_may_not_read(scratch: Path) -> None:
    """A `chmod 600` config.toml owned by someone else (root, on the host)."""
    _readable_by_stranger(scratch)
    config = scratch / "config.toml"
    config.write_text('[discord]\ntoken = "tajné"\n', encoding="utf-8")
    config.chmod(0o600)
    if os.geteuid() != 0:
        config.chmod(0o000)  # its owner: only no permission at all keeps him out
    done = _stredisko(scratch, "run", "--config", str(config))
    assert done.returncode == 2
    assert done.stderr == (
        f"stredisko: chyba: konfigurácia: {config}: stredisko tento súbor nesmie čítať – beží "
        f"ako používateľ uid {STRANGER_UID} (obraz Docker: uid 10001), ktorý na to nemá "
        "oprávnenie. Dajte súboru právo čítania (chmod 644) a token ani heslo doň nepíšte: "
        "patria do premenných prostredia DISCORD_TOKEN, HERNA_USER, HERNA_PASSWORD (docker run "
        "--env-file SÚBOR).\n")
