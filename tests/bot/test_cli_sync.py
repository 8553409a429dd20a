"""`stredisko sync SLUG --base-url URL`: the command path itself (bot/cli.py → HernaClient →
`sync_command`) against the herna.net simulator over real HTTP on 127.0.0.1, on a real SQLite
file set up through the CLI. The simulator runs in a thread with its own event loop, because
the CLI calls `asyncio.run` itself; "now" is pinned with time-machine (the CLI reads the system
clock)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from bot.cli import main
from scrapers.herna.simulator import Simulator

from .conftest import herna_game

EXAMPLES = Path(__file__).parents[2] / "examples"
SLUG = "kt-2026-11"
NAME = "Online KT — skúška"
ROUND_1 = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # 09:00 in Bratislava (propozicie.toml)
BEFORE = ROUND_1 - timedelta(minutes=3)  # check-in closed, the round about to start
DURING = ROUND_1 + timedelta(minutes=45)  # games ended, the 50-minute limit not yet passed
USER = "sss-stredisko"
PASSWORD = "tajné-heslo-ôž"
TABLE_LINE = re.compile(r"stôl (\d+): .+? \((\S+)\)(?: začína)? – .+? \((\S+)\)")

Cli = Callable[..., tuple[int, str, str]]


class ThreadedSimulator:
    """The simulator served from a thread of its own (its own event loop) while the test's
    thread runs the CLI, which starts and ends its own loop with `asyncio.run`."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="herna-simulator", daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        assert self._ready.wait(10), "the simulator did not start"
        return self.url

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._halt)
        self._thread.join(10)
        assert not self._thread.is_alive(), "the simulator did not stop"
        self._loop.close()

    def _halt(self) -> None:
        assert self._stop is not None
        self._stop.set()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        async with self.sim.serve() as url:
            self.url = url
            self._ready.set()
            await self._stop.wait()


@pytest.fixture
def sim() -> Simulator:
    return Simulator({USER: PASSWORD}, clock=lambda: DURING)


@pytest.fixture
def herna(sim: Simulator) -> Iterator[str]:
    with ThreadedSimulator(sim) as url:
        yield url


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> Cli:
    """Runs `stredisko ARGS --db … --admin hlavny` in tmp_path; returns (code, stdout, stderr)
    and checks that the herna.net password shows in neither."""
    monkeypatch.chdir(tmp_path)  # no config.toml of the working tree is read
    db = str(tmp_path / "cli.db")

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", db, "--admin", "hlavny"])
        out, err = capsys.readouterr()
        assert PASSWORD not in out and PASSWORD not in err
        return code, out, err

    return run


@pytest.fixture
def config(tmp_path: Path) -> str:
    """Politeness limits off (only 127.0.0.1 is asked), one retry after a failure."""
    path = tmp_path / "sync.toml"
    path.write_text("[herna]\nmax_concurrent = 0\nper_second = 0\nretries = 1\n"
                    "timeout_seconds = 5\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def login(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERNA_USER", USER)
    monkeypatch.setenv("HERNA_PASSWORD", PASSWORD)


def paired_round(cli: Cli) -> dict[int, tuple[str, str]]:
    """The example tournament created, its players imported, round 1 paired and published
    through the CLI, before the round starts; returns table -> (first nick, second nick)."""
    with time_machine.travel(BEFORE):
        assert cli("create", str(EXAMPLES / "propozicie.toml"))[0] == 0
        assert cli("import-players", SLUG, str(EXAMPLES / "players.csv"))[0] == 0
        assert cli("pair", SLUG, "1")[0] == 0
        assert cli("publish", SLUG, "1")[0] == 0
        code, out, _ = cli("show", "pairings", SLUG, "1")
    assert code == 0
    tables = {int(n): (first, second) for n, first, second in TABLE_LINE.findall(out)}
    assert sorted(tables) == [1, 2, 3, 4], out
    return tables


SCORES = {1: (412, 365), 2: (298, 431), 3: (377, 377)}  # table 4 has not played


def played(sim: Simulator, tables: dict[int, tuple[str, str]]) -> None:
    """Tables 1–3 finished their games on herna.net (started 3–5 minutes into the round)."""
    for n, scores in SCORES.items():
        sim.add_game(herna_game(str(700 + n), *tables[n], ROUND_1 + timedelta(minutes=2 + n),
                                scores))


def results_of(cli: Cli) -> str:
    with time_machine.travel(DURING):
        code, out, _ = cli("show", "results", SLUG, "1")
    assert code == 0
    return out


def sync(cli: Cli, herna: str, config: str, *, at: datetime = DURING,
         slug: str = SLUG) -> tuple[int, str, str]:
    """`stredisko sync SLUG` against the simulator, with "now" at `at`."""
    with time_machine.travel(at):
        return cli("sync", slug, "--base-url", herna, "--config", config)


# -- the whole path ------------------------------------------------------------------------


def test_sync_reads_the_round_from_herna_and_stores_the_results(
    cli: Cli, sim: Simulator, herna: str, config: str, login: None
) -> None:
    tables = paired_round(cli)
    played(sim, tables)

    code, out, err = sync(cli, herna, config)
    assert code == 0, err
    progress = [line for line in err.splitlines() if "herna.net" in line]
    assert progress == ["stredisko: čítam partie z herna.net …", "stredisko: herna.net 1/3",
                        "stredisko: herna.net 2/3", "stredisko: herna.net 3/3"]
    assert (f"Synchronizácia turnaja {NAME} s herna.net je hotová. Načítaných partií: 3, "
            "nové záznamy 3, zmenené záznamy 0") in out
    assert out.count("[kanál]") >= 3  # each new result announced
    assert sim.logins == 1

    shown = results_of(cli)
    lines = {int(n): line for n, line in re.findall(r"stôl (\d+): (.+)", shown)}
    assert "412:365 (1:0), dohraná partia, e-SP 3.5 — predbežný" in lines[1]
    assert "298:431 (0:1), dohraná partia" in lines[2]
    assert "377:377 (0,5:0,5), dohraná partia" in lines[3]
    assert lines[4].endswith("výsledok ešte nie je známy")  # no game on herna.net yet

    # a second run fetches everything again and changes nothing
    code, out, _ = sync(cli, herna, config)
    assert code == 0 and "nové záznamy 0, zmenené záznamy 0" in out
    assert results_of(cli) == shown


def test_the_summary_counts_every_record_it_flagged(
    cli: Cli, sim: Simulator, herna: str, config: str, login: None
) -> None:
    """A record with the wrong table settings is flagged for the admin; a record with an
    impossible score is refused (the admin is told why it does not count): both are flagged."""
    tables = paired_round(cli)
    game = herna_game("801", *tables[1], ROUND_1 + timedelta(minutes=2), (412, 365))
    sim.add_game(dataclasses.replace(
        game, settings=dataclasses.replace(game.settings, tempo="2x25")))
    sim.add_game(herna_game("802", *tables[2], ROUND_1 + timedelta(minutes=3), (4000, 300)))
    code, out, err = sync(cli, herna, config)
    assert code == 0, err
    notes = [line for line in out.splitlines() if line.startswith("[admin]")]
    assert len(notes) == 2 and "nesprávne nastavenie stola" in notes[0]
    assert "skóre 4000 je nad možnou hranicou" in notes[1]
    assert "nové záznamy 2, zmenené záznamy 0, záznamy s príznakom 2," in out


# -- failures: one clear line, a non-zero exit, nothing stored lost -------------------------


def test_a_missing_login_is_one_clear_line(
    cli: Cli, sim: Simulator, herna: str, config: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    paired_round(cli)
    monkeypatch.delenv("HERNA_USER", raising=False)
    monkeypatch.delenv("HERNA_PASSWORD", raising=False)
    code, out, err = sync(cli, herna, config)
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert set(lines[:-1]) <= {"stredisko: čítam partie z herna.net …"}  # progress, if any
    assert lines[-1].startswith("stredisko: chyba:") and "HERNA_USER" in lines[-1]
    assert "HERNA_PASSWORD" in lines[-1] and "Traceback" not in err
    assert sim.requests == []  # herna.net was not asked


def test_herna_answering_500_fails_clearly_and_keeps_what_was_stored(
    cli: Cli, sim: Simulator, herna: str, config: str, login: None
) -> None:
    tables = paired_round(cli)
    played(sim, tables)
    assert sync(cli, herna, config)[0] == 0
    before = results_of(cli)

    sim.fail(None)  # 500 to every request from now on
    served = len(sim.requests)
    code, out, err = sync(cli, herna, config, at=DURING + timedelta(minutes=2))
    assert code == 1
    assert (f"Synchronizácia turnaja {NAME} s herna.net zlyhala: nenačítal sa ani jeden "
            "záznam.") in err
    assert "Traceback" not in err
    assert "[admin]" in out and "herna.net neodpovedá ani po opakovaných pokusoch" in out
    assert len(sim.requests) - served == 2  # the first attempt and the one retry
    assert results_of(cli) == before  # nothing stored is lost


def test_an_unknown_tournament_is_refused_before_herna_is_asked(
    cli: Cli, sim: Simulator, herna: str, config: str, login: None
) -> None:
    paired_round(cli)
    code, out, err = sync(cli, herna, config, slug="neexistuje")
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == "Turnaj „neexistuje“ nepoznám."
    assert sim.requests == [] and sim.logins == 0


def test_a_round_not_started_yet_is_refused(
    cli: Cli, sim: Simulator, herna: str, config: str, login: None
) -> None:
    paired_round(cli)
    code, out, err = sync(cli, herna, config, at=BEFORE)
    assert code == 1 and out == ""
    assert NAME in err.splitlines()[-1]
    assert sim.requests == []


# -- bounds: an endless pager ends, a killed sync is closed by the next ----------------------


def test_an_endless_history_pager_ends_at_the_page_cap(
    cli: Cli, sim: Simulator, herna: str, config: str, login: None, tmp_path: Path
) -> None:
    tables = paired_round(cli)
    played(sim, tables)
    sim.endless_history()  # "Strana n z 99999", each with a next link
    capped = tmp_path / "capped.toml"
    capped.write_text(Path(config).read_text(encoding="utf-8") + "max_pages = 4\n",
                      encoding="utf-8")
    code, out, err = sync(cli, herna, str(capped))
    assert code == 1 and "Traceback" not in err
    assert f"Synchronizácia turnaja {NAME} s herna.net sa nedokončila" in err
    admin = [line for line in out.splitlines() if "[admin]" in line]
    assert len(admin) == 1 and "neprestáva ponúkať ďalšiu stranu" in admin[0]
    assert sum(r.startswith("GET /partie") for r in sim.requests) == 4
    assert "Nové záznamy 3" in err  # the pages read were used: the games are stored


def test_a_killed_sync_is_closed_as_failed_by_the_next_one(
    cli: Cli, sim: Simulator, herna: str, config: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, login: None
) -> None:
    tables = paired_round(cli)
    played(sim, tables)
    sim.slow(3.0, path="/partie", times=1)  # the history hangs: kill the sync right there
    argv = ["sync", SLUG, "--base-url", herna, "--config", config,
            "--db", str(tmp_path / "cli.db"), "--admin", "hlavny"]
    script = ("import sys, time_machine\nfrom datetime import datetime\nfrom bot.cli import main\n"
              f"with time_machine.travel(datetime.fromisoformat({DURING.isoformat()!r})):\n"
              f"    sys.exit(main({argv!r}))\n")
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not any(r.startswith("GET /partie") for r in sim.requests):
        assert proc.poll() is None and time.monotonic() < deadline, "the sync never asked"
        time.sleep(0.05)
    proc.kill()  # SIGKILL mid-HTTP: no `finally` runs
    proc.wait()
    assert _outcomes(tmp_path) == ["running"]

    code, out, err = sync(cli, herna, config, at=DURING + timedelta(minutes=5))
    assert code == 0, err
    assert _outcomes(tmp_path) == ["failed", "ok"]
    died = [line for line in out.splitlines() if "sa nedokončila" in line]
    assert len(died) == 1 and "[admin]" in died[0] and "neúspešnú" in died[0]


def _outcomes(tmp_path: Path) -> list[str]:
    with closing(sqlite3.connect(tmp_path / "cli.db")) as db:
        return [row[0] for row in db.execute("SELECT outcome FROM sync_runs ORDER BY id")]
