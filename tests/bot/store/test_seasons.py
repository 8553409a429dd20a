"""`season_ladders` (migration 0010, issue 44.2): a database made before it upgrades in place;
a season's last announced ladder is kept per file; a page owed is cleared only by the write
of that debt — a later finish's debt stays."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from sqlite_utils import Database

from bot.store import MIGRATIONS, Change, Store, create_tournament
from bot.store.seasons import owe_page, owed_pages, page_paid, record_announced, season_ladder

from .conftest import START


def test_a_database_made_before_0010_upgrades_and_keeps_a_season_per_file(
        db_path: Path) -> None:
    old = Database(sqlite3.connect(str(db_path), isolation_level=None))
    MIGRATIONS.apply(old, stop_before="0010_season_ladders")
    assert "season_ladders" not in old.table_names()
    old.close()
    later = START + timedelta(minutes=5)

    with Store(db_path) as store:
        def work(db: Database) -> None:
            for slug in ("kt-a", "kt-b"):  # ids 1 and 2: the finishes that owe the pages
                create_tournament(db, slug=slug, name=slug, season="2024/2025",
                                  round_starts=[START], waiting_minutes=10,
                                  game_limit_minutes=50, by=Change.admin("test", START))
            record_announced(db, "/s/msr.toml", "M-SR", ["ana", "bob"], 1, START)
            owe_page(db, "/s/msr.toml", "M-SR", "/web/msr", 1, START)
            owe_page(db, "/s/msr.toml", "M-SR", "/web/msr", 2, later)  # a later finish's
            assert not page_paid(db, "/s/msr.toml", "/web/msr", START)  # the older write
            owe_page(db, "/s/liga.toml", "Liga", "/web/liga", 2, later)
            assert page_paid(db, "/s/liga.toml", "/web/liga", later)

        store.call_sync(work)
        found = store.read_sync(season_ladder, "/s/msr.toml")
        assert found is not None and found.qualified == ("ana", "bob")
        assert [(o.file, o.page_owed_by, at) for o, at in store.read_sync(owed_pages)] == [
            ("/s/msr.toml", 2, later)]
        assert store.read_sync(season_ladder, "/s/liga.toml").qualified is None
