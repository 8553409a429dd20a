"""The services tests' fixtures (`db_path`, `store`, `clock`, `notifier`, `app`, `world`) live in
tests/bot/conftest.py, so every test under tests/bot gets them. This module only re-exports
that module's helpers for the services tests' `from .conftest import ...`: no fixture is
imported here, so pytest registers each fixture once.
"""

from __future__ import annotations

from ..conftest import (  # noqa: F401  (re-exported)
    ADMIN_ID,
    NAMES,
    SLUG,
    START,
    World,
    add_game,
    make_world,
    render,
    said,
    sent,
)
from .sync_world import herna, sim  # noqa: F401  (the sync tests' fixtures)
