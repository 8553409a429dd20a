"""Fixtures shared by every test under tests/bot: a real SQLite store in tmp_path (never a mock),
an App with a ManualClock and a RecordingNotifier, and a small running tournament. (Closer
conftest files may override a name: tests/bot/store has its own synchronous `store`.)

`world` is a tournament of four linked players (Discord ids 1001–1004), three rounds starting
at START, START + 2 h, START + 4 h (waiting period 10 min, game time limit 50 min), round 1
paired 1–2 and 3–4 and published; the clock stands at START. Its records are entered by hand
(`settings.platform_sync = false`): the platform is not synced, the records present are all
there are. `make_world` builds variants (more players, other settings, unpublished).

`kt24` is the bundled 24-player rehearsal (`make demo`), run once per test session (see there).

The helpers (START, World, make_world, new_tournament, enter_player, add_game, said, sent, …)
are imported with
`from .conftest import ...` (tests/bot) or `from ..conftest import ...`; tests/bot/services
re-exports them for its own `from .conftest import ...`.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import io
import json
import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.i18n import t
from bot.rehearse.command import print_outcome
from bot.rehearse.engine import rehearse
from bot.rehearse.scenario import load_scenario
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply
from bot.services.results.evidence_map import game_payload
from bot.store import (
    Change,
    Evidence,
    EvidenceKind,
    Player,
    Store,
    TablePairing,
    Tournament,
    TournamentStatus,
    add_entry,
    append_evidence,
    connect,
    create_player,
    create_tournament,
    get_tournament,
    replace_pairings,
    set_status,
    update_round,
)
from scrapers.herna import EndKind, GameRecord
from scrapers.herna.generate import STANDARD_TABLE

from .chromium import chromium  # noqa: F401  (the session's headless browser: a fixture)

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)  # round 1's official start
ADMIN_ID = 9999  # the head administrator's Discord id
SLUG = "kt-test"
NAMES = ["Ďuro Ďurkovič", "Žofia Šťastná", "Ľubomír Čierny", "Šimon Ťažký", "Ivana Veľká"]


@dataclass(frozen=True)
class World:
    tournament: Tournament
    players: list[Player]
    tables: list[TablePairing]  # round 1

    @property
    def slug(self) -> str:
        return self.tournament.slug

    def discord(self, n: int) -> int:
        """The Discord id of player `n` (0-based)."""
        discord_id = self.players[n].discord_id
        assert discord_id is not None
        return discord_id


KT24 = Path(__file__).resolve().parents[2] / "examples" / "rehearsal" / "kt-online-24.toml"


@dataclass(frozen=True)
class Rehearsed:
    """One finished rehearsal: its database, its JSON document, its text output (transcript,
    standings, the page line) and its results page. Shared: copy the database to write."""

    db: Path
    document: dict[str, Any]
    text: str
    page: Path

    def copy_db(self, folder: Path) -> Path:
        """A private copy of the finished database (the store closed it checkpointed)."""
        target = folder / self.db.name
        shutil.copyfile(self.db, target)
        return target


@pytest.fixture(scope="session")
def kt24(tmp_path_factory: pytest.TempPathFactory) -> Rehearsed:
    """The bundled 24-player rehearsal, run once per test session instead of once per module
    that reads it (24–42 s each here). Under pytest-xdist the workers share one run: the
    first to take the lock rehearses into the session's shared temporary folder (keyed by the
    scenario's hash), the others wait and read it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / f"kt24-{hashlib.sha256(KT24.read_bytes()).hexdigest()[:16]}"
    with (shared / "kt24.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / "done").exists():
            folder.mkdir(exist_ok=True)
            outcome = asyncio.run(rehearse(load_scenario(str(KT24)), folder / "skuska.db",
                                           html=folder / "stranka"))
            for name, as_json in (("document.json", True), ("text.txt", False)):
                out = io.StringIO()
                print_outcome(outcome, out, as_json)
                (folder / name).write_text(out.getvalue(), encoding="utf-8")
            (folder / "done").touch()
    return Rehearsed(folder / "skuska.db",
                     json.loads((folder / "document.json").read_text(encoding="utf-8")),
                     (folder / "text.txt").read_text(encoding="utf-8"), folder / "stranka")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stredisko.db"


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """An empty database migrated once per session (per xdist worker): a `store` fixture
    starts from a copy of it instead of migrating a new file again (~20 ms a test, issue 21.3).
    A test module of the migrations themselves overrides it with None: from scratch there."""
    path = tmp_path_factory.mktemp("migrated") / "stredisko.db"
    connect(path).close()  # the last connection: SQLite checkpoints and removes the WAL
    assert not path.with_name(path.name + "-wal").exists()
    return path


def new_store_file(db_path: Path, migrated_db: Path | None) -> Path:
    """`db_path` as a migrated empty database (a copy of `migrated_db`, unless None)."""
    if migrated_db is not None:
        shutil.copyfile(migrated_db, db_path)
    return db_path


@pytest.fixture
async def store(db_path: Path, migrated_db: Path | None) -> AsyncIterator[Store]:
    opened = await Store.open(new_store_file(db_path, migrated_db))
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def app(store: Store, clock: ManualClock, notifier: RecordingNotifier) -> App:
    return App(store, clock, notifier)


def new_tournament(tx: Tx, by: Change, round_starts: list[datetime], *, slug: str = SLUG,
                   **options: Any) -> Tournament:
    """The test worlds' tournament (a draft): 10 min waiting, 50 min games, ADMIN_ID its head
    admin, the platform not synced unless `settings` say so; `options` go to create_tournament."""
    settings = {"platform_sync": False, **options.pop("settings", {})}
    return create_tournament(
        tx.db, slug=slug, name="Kvalifikačný turnaj online", season="2024/2025",
        round_starts=round_starts, waiting_minutes=10, game_limit_minutes=50, by=by,
        admin_ids=[ADMIN_ID], settings=settings, **options)


def enter_player(tx: Tx, tournament: Tournament, by: Change, **person: Any) -> Player:
    """A new player (`person` goes to create_player), entered and paid."""
    player = create_player(tx.db, by=by, **person)
    add_entry(tx.db, tournament.id, player.id, by, paid=True)
    return player


def _build(tx: Tx, players: int, rounds: int, published: bool, slug: str,
           status: TournamentStatus, options: dict[str, Any]) -> World:
    by = Change.admin(ADMIN_ID, tx.now, "test setup")
    t = new_tournament(tx, by, [START + timedelta(hours=2 * n) for n in range(rounds)],
                       slug=slug, **options)
    made = [enter_player(tx, t, by, name=NAMES[n], herna_nick=f"{slug}-hrac{n + 1}",
                         discord_id=1001 + n + 100 * (slug != SLUG),
                         discord_name=f"hrac{n + 1}", screlo=1800.0 - 20 * n)
            for n in range(players)]
    ids = [p.id for p in made]
    tables = [(k + 1, ids[2 * k], ids[2 * k + 1]) for k in range(players // 2)]
    if players % 2:
        tables.append((len(tables) + 1, ids[-1], None))
    pairings = replace_pairings(tx.db, t.id, 1, tables, by)
    if status is not TournamentStatus.DRAFT:  # a new tournament is a draft already
        set_status(tx.db, t.id, status, by)
    if published:
        update_round(tx.db, t.id, 1, by, published_at=tx.now)
    return World(get_tournament(tx.db, t.id), made, pairings)


async def make_world(app: App, *, players: int = 4, rounds: int = 3, published: bool = True,
                     slug: str = SLUG, status: TournamentStatus = TournamentStatus.RUNNING,
                     **options: Any) -> World:
    """A running tournament (see the module docstring); `options` go to create_tournament
    (e.g. `auto_apply_forfeits_after_minutes=30`, `settings={"platform_sync": True}`)."""
    world = await app.run(_build, players, rounds, published, slug, status, options)
    assert isinstance(world, World)
    return world


@pytest.fixture
async def world(app: App) -> World:
    return await make_world(app)


async def add_game(app: App, pairing: TablePairing, first_score: int, second_score: int, *,
                   end: str = "finished", minutes: tuple[int, int] = (5, 40),
                   on: int | None = None, swap: bool = False, game_id: str = "g1",
                   moves: tuple[int, int] = (10, 10), round_start: datetime = START
                   ) -> Evidence:
    """Append a herna.net record of a game at `pairing` (as the sync would): it started and
    ended `minutes` after `round_start` (ended None for an unfinished game)."""
    first, second = pairing.first_id, pairing.second_id
    assert second is not None
    if swap:
        first, second = second, first
    started = round_start + timedelta(minutes=minutes[0])
    ended = None if end == "unfinished" else round_start + timedelta(minutes=minutes[1])
    payload = game_payload(game_id=game_id, first=first, second=second,
                           first_score=first_score, second_score=second_score, end=end,
                           started=started, ended=ended, on=on,
                           moves={first: moves[0], second: moves[1]})

    def body(tx: Tx) -> Evidence:
        return append_evidence(tx.db, pairing.id, EvidenceKind.PLATFORM_GAME, tx.by_platform(),
                               payload=payload, at=started)

    evidence = await app.run(body)
    assert isinstance(evidence, Evidence)
    return evidence


def render(key: str, params: dict[str, Any], rule: str | None = None) -> str:
    """A message in Slovak and English, as an adapter renders it (a missing parameter
    fails here, not in front of a player); returns the Slovak text."""
    values = dict(params)
    if rule is not None:
        values.setdefault("rule", rule)
    t(key, "en-US", **values)
    return t(key, "sk", **values)


def said(reply: Reply) -> str:
    return render(reply.key, reply.params, reply.rule)


def sent(notifier: RecordingNotifier, where: str | None = None) -> list[tuple[int, str, str]]:
    """Every message sent (target, key, Slovak text), optionally only of one kind."""
    return [(target, m.key, render(m.key, m.params)) for w, target, m in notifier.sent
            if where is None or w == where]


def herna_game(game_id: str, first: str, second: str, started: datetime,
               scores: tuple[int, int], minutes: int = 30) -> GameRecord:
    """A herna.net record of a game finished normally at the standard table settings (2x20,
    slovenský jazyk), ended `minutes` after `started`: what the simulator is given."""
    return GameRecord(
        game_id=game_id, first=first, second=second, first_score=scores[0],
        second_score=scores[1], end=EndKind.FINISHED, ended_on=None, started=started,
        ended=started + timedelta(minutes=minutes), first_moves=12, second_moves=11,
        settings=STANDARD_TABLE)
