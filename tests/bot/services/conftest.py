"""The services tests' fixtures (`db_path`, `store`, `clock`, `notifier`, `app`, `world`) live in
tests/bot/conftest.py, so every test under tests/bot gets them. This module only re-exports
that module's helpers for the services tests' `from .conftest import ...`, and for modules that
load this file by path (tests/bot/discord/test_admin_cog.py): no fixture is defined here, so
pytest registers each fixture once.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def _bot_conftest() -> ModuleType:
    if __package__:  # imported by pytest as part of the tests.bot.services package
        return importlib.import_module("..conftest", __package__)
    # Loaded by path (no package): load tests/bot/conftest.py by path the same way.
    name = "stredisko_bot_conftest"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).parents[1] /
                                                      "conftest.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_kit = _bot_conftest()
START = _kit.START
ADMIN_ID = _kit.ADMIN_ID
SLUG = _kit.SLUG
NAMES = _kit.NAMES
World = _kit.World
make_world = _kit.make_world
add_game = _kit.add_game
render = _kit.render
said = _kit.said
sent = _kit.sent
