"""Fixtures for the Discord layer: a StrediskoBot with the sample cog inside the harness."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import ModuleType

import pytest

from bot.discord.client import StrediskoBot
from bot.discord.testkit import DiscordHarness


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
