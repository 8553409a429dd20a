"""The duplicate services' fixtures: a tiny word list (one per session), and `make_event`:
a duplicate tournament of a few linked players in a real SQLite store (the `app` fixture's)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.services.app import App, Tx
from bot.services.duplicate.setup import DuplicateSettings, create_event, load_lexicon
from bot.store import Change, Player, Tournament, add_entry, create_player, create_tournament

from ...conftest import ADMIN_ID, NAMES, START

#: a tiny Slovak word list: enough moves on any rack the tests type
WORDS = ("les", "lesk", "sever", "oko", "kolo", "sok", "kos", "osa", "ovsa", "sova", "sklo",
         "kosa", "les", "lev", "vek", "ves", "seno", "nos", "sen", "ten", "tento", "oves",
         "okno", "rok", "rak", "sad", "ako", "tak", "kto", "to", "on", "ona", "ono", "sa",
         "ale", "len", "lano", "ostal", "rosa", "kolesa", "slovo", "voda", "dom", "mak",
         "mok", "tvar", "vos", "vosk", "kov", "kole", "sako", "taka", "tok", "kat")
SLUG = "dup-test"


@pytest.fixture(scope="session")
def words(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lexicon") / "slova.txt"
    path.write_text("\n".join(sorted(set(WORDS))) + "\n", encoding="utf-8")
    return path


@dataclass(frozen=True)
class DupWorld:
    tournament: Tournament
    players: list[Player]
    lexicon: Path

    @property
    def slug(self) -> str:
        return self.tournament.slug


def discord(n: int) -> int:
    return 2001 + n


async def make_event(app: App, lexicon: Path, *, players: int = 3, slug: str = SLUG,
                     **settings: Any) -> DupWorld:
    """A duplicate tournament (draft) with `players` entrants linked to Discord ids 2001…;
    `settings` go to DuplicateSettings (profile cas-duplicate, hall mode by default)."""
    values: dict[str, Any] = {"profile": "cas-duplicate", "lexicon": str(lexicon),
                              "mode": "hall", **settings}
    loaded = load_lexicon(str(lexicon), lexicon.parent)

    def body(tx: Tx) -> DupWorld:
        by = Change.admin(ADMIN_ID, tx.now, "test setup")
        t = create_tournament(tx.db, slug=slug, name="Duplikát", season="2026/2027",
                              round_starts=[START], waiting_minutes=0, game_limit_minutes=60,
                              by=by, admin_ids=[ADMIN_ID], settings={"format": "duplicate"})
        made = []
        for n in range(players):
            p = create_player(tx.db, name=NAMES[n], herna_nick=f"{slug}-{n + 1}", by=by,
                              discord_id=discord(n), discord_name=f"hrac{n + 1}")
            add_entry(tx.db, t.id, p.id, by, paid=True)
            made.append(p)
        create_event(tx, t.id, DuplicateSettings(**values), loaded)
        return DupWorld(t, made, lexicon)

    world = await app.run(body)
    assert isinstance(world, DupWorld)
    return world


def later(seconds: float) -> timedelta:
    return timedelta(seconds=seconds)
