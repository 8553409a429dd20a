"""One bot per database (issue 20.2): two real `stredisko run` processes on one file — the
second refuses to start with one Slovak line (exit 2); once the first is killed (kill -9, no
clean stop) the next one takes the lease over and runs. The lease's rules on a real store:
a holder on another host is dead only when its heartbeat is old; a bot whose lease was taken
over stops."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.services.delivery import lease
from bot.store import Store
from bot.store.lease import current_lease, write_lease

from ..conftest import START
from .conftest import RUN_ADMIN, config_file, run_tournament
from .test_runner import ROOT, _driver


def _start(tmp_path: Path, started: Path, prelude: str = "",
           env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "DISCORD_TOKEN": "fake", "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen(
        [sys.executable, str(_driver(tmp_path, prelude)), str(config_file(tmp_path)),
         str(started),
         str(RUN_ADMIN.id)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_started(proc: subprocess.Popen[str], started: Path) -> None:
    deadline = time.monotonic() + 60
    while not started.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the bot never started"
        time.sleep(0.05)


def _lease_row(db: Path) -> object:
    with Store(db) as store:
        return store.read_sync(current_lease)


def test_a_second_bot_on_a_served_database_refuses_and_takes_over_from_a_dead_one(
        tmp_path: Path) -> None:
    db = tmp_path / "stredisko.db"
    run_tournament(db)
    first = _start(tmp_path, tmp_path / "first")
    procs = [first]
    try:
        _wait_started(first, tmp_path / "first")
        held = _lease_row(db)
        assert held is not None and held.pid == first.pid  # type: ignore[attr-defined]

        second = _start(tmp_path, tmp_path / "second")
        procs.append(second)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2
        assert err.strip().splitlines()[-1].count("už obsluhuje iný bot") == 1
        assert f"proces {first.pid}" in err and "Traceback" not in err
        assert not (tmp_path / "second").exists()

        first.send_signal(signal.SIGKILL)  # a crash: the lease stays, its holder is dead
        first.communicate(timeout=30)
        third = _start(tmp_path, tmp_path / "third")
        procs.append(third)
        _wait_started(third, tmp_path / "third")
        taken = _lease_row(db)
        assert taken.pid == third.pid  # type: ignore[attr-defined]
        third.send_signal(signal.SIGTERM)
        _, err = third.communicate(timeout=30)
        assert third.returncode == 0, err
        assert "taken over" in err and f"{first.pid}" in err
        assert _lease_row(db) is None  # a clean stop gives the lease back
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


async def test_a_holder_elsewhere_is_dead_only_when_its_heartbeat_is_old(tmp_path: Path) -> None:
    clock = ManualClock(START)
    store = await Store.open(tmp_path / "lease.db")
    try:
        await store.call(write_lease, "iny:1:x", "iny-stroj", 1, START)
        clock.advance(lease.DEAD_AFTER)  # exactly a minute: still alive
        with pytest.raises(lease.LeaseHeld) as held:
            await lease.acquire(store, clock)
        assert held.value.lease.host == "iny-stroj"
        clock.advance(timedelta(seconds=1))
        mine = await lease.acquire(store, clock)
        taken = await store.read(current_lease)
        assert taken is not None and (taken.holder, taken.pid) == (mine.holder, os.getpid())
        assert taken.generation == mine.generation == 2  # one more than the holder's
    finally:
        await store.close()


async def test_a_bot_whose_lease_was_taken_over_stops(tmp_path: Path) -> None:
    clock = ManualClock(START)
    store = await Store.open(tmp_path / "lease.db")
    try:
        mine = await lease.acquire(store, clock)
        stop = asyncio.Event()
        await store.call(write_lease, "iny:1:x", "iny-stroj", 1, START)  # judged dead meanwhile
        await asyncio.wait_for(lease.keep(store, clock, mine, stop, every=0.01), 5)
        assert mine.lost.is_set() and stop.is_set()
    finally:
        await store.close()
