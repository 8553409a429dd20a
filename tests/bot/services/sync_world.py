"""The sync tests' small world: a tournament of 8 seated herna nicks, games timed in minutes
after round 1's start, the simulator over real HTTP and a client without politeness limits.
Fixtures `sim` and `herna` are registered by conftest.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.store import (
    Change,
    Evidence,
    EvidenceKind,
    StoredResult,
    TablePairing,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    get_result,
    list_evidence,
    replace_pairings,
    set_status,
    update_round,
)
from scrapers.herna import Credentials, GameRecord, HernaClient, HernaSettings
from scrapers.herna.simulator import Simulator

from ..conftest import herna_game

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)  # round 1's official start = the clock's start
PASSWORD = "heslo-simulátora"
NICKS = ["Ďurko01", "Žofka02", "Ľubo03", "Šimon04", "Čaba05", "Ťuťko06", "Anča07", "Mišo08"]
SLUG = "kt-sync"


@dataclass(frozen=True)
class Setup:
    tournament_id: int
    players: list[int]  # store ids, in NICKS order
    tables: list[TablePairing]  # round 1: NICKS[0]–[1], [2]–[3], …


def _build(tx: Tx, slug: str, rounds: int, status: TournamentStatus) -> Setup:
    by = Change.admin(1, tx.now, "test setup")
    t = create_tournament(
        tx.db, slug=slug, name="Online KT", season="2024/2025",
        round_starts=[START + timedelta(hours=2 * n) for n in range(rounds)],
        waiting_minutes=10, game_limit_minutes=50, by=by, admin_ids=[1])
    ids = []
    for n, nick in enumerate(NICKS):
        player = create_player(tx.db, name=f"Hráč {nick}", herna_nick=f"{nick}{slug[-1]}"
                               if slug != SLUG else nick, screlo=1700.0 - n, by=by)
        add_entry(tx.db, t.id, player.id, by, paid=True)
        ids.append(player.id)
    tables = replace_pairings(tx.db, t.id, 1, [(k + 1, ids[2 * k], ids[2 * k + 1])
                                               for k in range(4)], by)
    set_status(tx.db, t.id, status, by)
    update_round(tx.db, t.id, 1, by, published_at=tx.now)
    return Setup(t.id, ids, tables)


async def setup_tournament(app: App, *, slug: str = SLUG, rounds: int = 2,
                           status: TournamentStatus = TournamentStatus.RUNNING) -> Setup:
    made = await app.run(_build, slug, rounds, status)
    assert isinstance(made, Setup)
    return made


def game(game_id: str, first: str, second: str, start: int, end: int = 30,
         scores: tuple[int, int] = (400, 350), **changes: object) -> GameRecord:
    """`herna_game` timed in minutes after the round's start, with any fields changed."""
    record = herna_game(game_id, first, second, START + timedelta(minutes=start), scores,
                        minutes=end - start)
    return replace(record, **changes) if changes else record


def round_games() -> list[GameRecord]:
    """One finished game per table, ending 30, 32, 40 and 45 minutes into the round."""
    return [game(str(100 + k), NICKS[2 * k], NICKS[2 * k + 1], 2 + k, end)
            for k, end in enumerate((30, 32, 40, 45))]


@pytest.fixture
def sim(clock: ManualClock) -> Simulator:
    assert clock.now() == START
    return Simulator({"sss": PASSWORD}, clock=clock.now, page_size=3)


@pytest.fixture
async def herna(sim: Simulator) -> AsyncIterator[HernaClient]:
    async with sim.serve() as url, HernaClient(Credentials("sss", PASSWORD), polite_off(url)
                                               ) as client:
        yield client


def polite_off(url: str) -> HernaSettings:
    """No politeness limits, no retries: the tests ask 127.0.0.1 only."""
    return HernaSettings(base_url=url, max_concurrent=None, per_second=None, backoff=0.0,
                         timeout=5.0, retries=0)


def at(clock: ManualClock, minutes: int) -> None:
    clock.set(START + timedelta(minutes=minutes))


async def read(app: App, fn, *args, **kwargs):  # a read-only helper transaction
    return await app.run(lambda tx: fn(tx.db, *args, **kwargs))


async def evidence(app: App, table: TablePairing) -> list[Evidence]:
    return [e for e in await read(app, list_evidence, table.id)
            if e.kind is EvidenceKind.PLATFORM_GAME]


async def result(app: App, table: TablePairing) -> StoredResult | None:
    return await read(app, get_result, table.id)


def slovak(notifier: RecordingNotifier) -> dict[str, str]:
    """The sync's messages rendered (English must render too): key -> the Slovak text."""
    texts = {}
    for _, _, message in notifier.sent:
        if message.key.startswith(("sync.", "herna.")):
            assert "{" not in t(message.key, "en", **message.params)
            texts[message.key] = t(message.key, "sk", **message.params)
    return texts


# -- during a round -----------------------------------------------------------------------
