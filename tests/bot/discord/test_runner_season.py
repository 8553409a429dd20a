"""`stredisko run` writes a season page a kill left owed (issue 44.2): `stredisko finish` was
killed between its commit and the page; the bot's start writes the page before anything else,
from the season file and the database as they are."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.config import load_config
from bot.discord import runner

from ..services.test_season_ladder_moves import _still_owed, killed_at_the_page
from .conftest import config_file, fake_gateway, run_tournament


async def test_the_start_writes_a_season_page_a_kill_left_owed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    fake_gateway(monkeypatch)
    run_tournament(tmp_path / "stredisko.db")  # the event the bot serves
    config = config_file(tmp_path, extra='[season]\nfile = ["sezona.toml"]\nhtml_dir = "web"\n')
    _, page = await asyncio.to_thread(killed_at_the_page, tmp_path, "kt-test")
    stop = asyncio.Event()
    with caplog.at_level(logging.INFO, "stredisko"):
        task = asyncio.create_task(runner.serve(load_config(config, env={}), "token",
                                                sync_commands=False, stop=stop))
        while "scheduler started" not in caplog.text:
            assert not task.done()
            await asyncio.sleep(0.01)
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    assert "kt-test-hrac1" in page.read_text(encoding="utf-8")
    assert f"season page owed since an interrupted finish written: {page}" in caplog.text
    assert await asyncio.to_thread(_still_owed, config) == []
