"""Fixtures for the store tests: a real SQLite file in tmp_path, never a mock."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.store import (
    Change,
    Store,
    TablePairing,
    Tournament,
    add_entry,
    create_player,
    create_tournament,
    replace_pairings,
)

from ..conftest import new_store_file

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stredisko.db"


@pytest.fixture
def store(db_path: Path, migrated_db: Path | None) -> Iterator[Store]:
    opened = Store(new_store_file(db_path, migrated_db))
    yield opened
    opened.close_sync()


@pytest.fixture
def admin() -> Change:
    return Change.admin("777", START, "test")


@dataclass(frozen=True)
class Seeded:
    """A tournament of four entrants (ids in `players`), round 1 paired 1–2 and 3–4."""

    tournament: Tournament
    players: list[int]
    tables: list[TablePairing]


def seed(db: Database, by: Change, slug: str = "kt-2025-03") -> Seeded:
    tournament = create_tournament(
        db, slug=slug, name="Kvalifikačný turnaj", season="2024/2025",
        round_starts=[START + timedelta(hours=n) for n in range(3)],
        waiting_minutes=10, game_limit_minutes=50, by=by,
    )
    players = []
    for n, nick in enumerate(["Ďuro", "Žofka", "Ľubo", "Šimon"]):
        player = create_player(db, name=f"Hráč {nick}", herna_nick=f"{nick}{slug}",
                               screlo=1700.0 - n * 10, by=by)
        add_entry(db, tournament.id, player.id, by, paid=True)
        players.append(player.id)
    tables = replace_pairings(db, tournament.id, 1, [(1, players[0], players[1]),
                                                     (2, players[2], players[3])], by)
    return Seeded(tournament, players, tables)


@pytest.fixture
def seeded(store: Store, admin: Change) -> Seeded:
    return store.call_sync(seed, admin)


@pytest.fixture
def seed_fn() -> Callable[..., Seeded]:
    """The `seed` function, for tests that seed a database of their own."""
    return seed
