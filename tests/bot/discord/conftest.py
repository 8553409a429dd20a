"""Fixtures for the Discord layer: a StrediskoBot with the sample cog inside the harness; for
the runner's tests a minimal config file and a gateway that never contacts Discord."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.client import StrediskoBot
from bot.discord.testkit import GUILD_ID, DiscordHarness


def _load_sample_cog() -> ModuleType:
    # tests/ is not a package (pytest --import-mode=importlib), so load the helper by path.
    name = "stredisko_sample_cog"
    if name not in sys.modules:
        path = Path(__file__).with_name("sample_cog.py")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


sample_cog = _load_sample_cog()


def sample_bot() -> StrediskoBot:
    return StrediskoBot(cogs=[sample_cog.SampleCog])


@pytest.fixture
def make_bot() -> Callable[[], StrediskoBot]:
    return sample_bot


@pytest.fixture
async def harness() -> AsyncIterator[DiscordHarness]:
    async with DiscordHarness(sample_bot()) as h:
        yield h


# -- the runner -------------------------------------------------------------------------


def config_file(tmp_path: Path, token: str = "") -> Path:
    """`stredisko run`'s config: the store and heartbeat in `tmp_path`, the test guild."""
    path = tmp_path / "config.toml"
    token_line = f'token = "{token}"\n' if token else ""
    path.write_text(
        f'[store]\npath = "{tmp_path / "stredisko.db"}"\n'
        f'[discord]\nguild_id = {GUILD_ID}\nheartbeat_file = "{tmp_path / "heartbeat"}"\n'
        + token_line,
        encoding="utf-8",
    )
    return path


def fake_gateway(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Log in without Discord, idle instead of connecting; returns where syncs are recorded."""

    async def login(self: discord.Client, token: str) -> None:
        state = self._connection
        state.user = discord.ClientUser(state=state, data={
            "id": "1", "username": "stredisko", "discriminator": "0", "avatar": None,
            "verified": True, "mfa_enabled": False})
        state.application_id = 1
        await self.setup_hook()

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        self.dispatch("ready")
        await asyncio.Event().wait()

    syncs: list[object] = []

    async def sync(self: app_commands.CommandTree, *, guild: Any = None) -> list[Any]:
        syncs.append(guild.id if guild else "global")
        return []

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setattr(app_commands.CommandTree, "sync", sync)
    return syncs
