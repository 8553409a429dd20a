"""Two classic events whose rounds overlap, four players in both (issue 44.3 and 44.8): one
herna.net record has one owner whichever event's poll reads it; a record nobody's pairing
explains is told once; a refused record stays refused; the nightly catch-up is per event.
The herna.net simulator over real HTTP (127.0.0.1) and a real SQLite store."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, time, timedelta

import pytest

from bot.clock import ManualClock
from bot.scheduler import Scheduler, last_scheduled
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.nightly import nightly
from bot.services.results.records import record_payload
from bot.services.results.round_poll import poll_round
from bot.services.results.sync import sync_round, sync_tournament
from bot.store import (
    Change,
    SyncKind,
    TablePairing,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    get_platform_record,
    list_results,
    replace_pairings,
    set_status,
    update_round,
    upsert_platform_record,
)
from scrapers.herna import EndKind, HernaClient, layout
from scrapers.herna.simulator import Simulator

from .sync_world import NICKS, SLUG, START, at, evidence, game, setup_tournament

A, C = "kt-a", "kt-c"
#: A's round 1 starts at START, C's 20 minutes later (both: 50 minutes to the limit).
C_START = 20
#: who sits where in round 1 (indices into NICKS): four players are in both events
TABLES = {A: [(0, 1), (2, 3), (6, 7)], C: [(0, 2), (1, 3), (4, 5)]}
#: the round-1 games as herna.net shows them: (id, event, table, start, end, scores)
GAMES = [
    ("201", A, 1, 2, 18, (410, 380)),
    ("202", A, 2, 3, 19, (390, 402)),
    ("203", A, 3, 5, 44, (455, 300)),
    ("301", C, 1, 21, 40, (377, 366)),  # played during A's round, by two of A's players
    ("302", C, 2, 22, 41, (420, 421)),
    ("303", C, 3, 25, 55, (333, 290)),
]
#: what each event's round 1 comes to: every table the game its players finished (e-SP 3.5)
EXPECTED = {slug: {table: ("provisional", "finished", *scores)
                   for _, owner, table, _, _, scores in GAMES if owner == slug}
            for slug in (A, C)}


def _build(tx: Tx, slugs: tuple[str, ...]) -> dict[str, list[TablePairing]]:
    by = Change.admin(1, tx.now, "test setup")
    players = [create_player(tx.db, name=f"Hráč {nick}", herna_nick=nick, screlo=1700.0 - n,
                             by=by).id for n, nick in enumerate(NICKS)]
    tables = {}
    for slug in slugs:
        start = START + timedelta(minutes=C_START if slug == C else 0)
        t = create_tournament(tx.db, slug=slug, name=f"Online {slug}", season="2024/2025",
                              round_starts=[start, start + timedelta(hours=2)],
                              waiting_minutes=10, game_limit_minutes=50, by=by, admin_ids=[1])
        seated = sorted({n for pair in TABLES[slug] for n in pair})
        for n in seated:
            add_entry(tx.db, t.id, players[n], by, paid=True)
        tables[slug] = replace_pairings(
            tx.db, t.id, 1, [(k + 1, players[i], players[j])
                             for k, (i, j) in enumerate(TABLES[slug])], by)
        set_status(tx.db, t.id, TournamentStatus.RUNNING, by)
        update_round(tx.db, t.id, 1, by, published_at=tx.now)
    return tables


async def build(app: App, *slugs: str) -> dict[str, list[TablePairing]]:
    return await app.run(_build, slugs)


def add_games(sim: Simulator) -> None:
    for game_id, owner, table, start, end, scores in GAMES:
        first, second = TABLES[owner][table - 1]
        record = game(game_id, NICKS[first], NICKS[second], start, end, scores)
        sim.add_game(record)  # shown from its start, in progress until it ends


async def round_one(app: App, slug: str) -> dict[int, tuple[object, ...]]:
    def read(tx: Tx) -> dict[int, tuple[object, ...]]:
        t = tx.db.execute("SELECT id FROM tournaments WHERE slug = ?", [slug]).fetchone()[0]
        found = {}
        for r in list_results(tx.db, t):
            table = tx.db.execute("SELECT round_no, table_no FROM pairings WHERE id = ?",
                                  [r.pairing_id]).fetchone()
            if table[0] == 1:
                found[table[1]] = (str(r.status), r.end_kind, r.first_score, r.second_score)
        return found
    return await app.run(read)


def stray_notes(notifier: RecordingNotifier) -> list[str]:
    return [k for k in notifier.keys("admin") if k.startswith("sync.unmatched")]


# -- one record, one owner ----------------------------------------------------------------


@pytest.mark.parametrize("order", [(A, C), (C, A), (A,), (C,)],
                         ids=["A then C", "C then A", "A alone", "C alone"])
async def test_both_events_get_the_results_they_get_alone_whichever_poll_reads_first(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier, order: tuple[str, ...]) -> None:
    """The polls of the events run one after another in each tick, as the bot's round poll
    does; whichever reads a shared player's game first, the game lands on the table whose
    pairing it matches, and no event calls it a stray."""
    await build(app, *order)
    add_games(sim)
    for minute in (30, 45, 60, 75):  # games in progress, finished; A's limit, C's limit
        for late, slug in enumerate(order):  # a tick's second poll a minute after its first
            at(clock, minute + late)
            await poll_round(app, slug, 1, herna)
    for slug in order:
        assert await round_one(app, slug) == EXPECTED[slug]
    if len(order) == 2:  # beside its sibling, no game of one is the other's stray
        assert stray_notes(notifier) == []


async def test_a_game_held_as_a_stray_still_reaches_its_owners_table_unfetched(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    """A record already in `platform_records` without a table (as a sibling's poll stored it
    before issue 44) is placed on its owner's table without reading herna.net's page again."""
    tables = await build(app, A, C)
    add_games(sim)
    at(clock, 45)
    record = game("301", NICKS[0], NICKS[2], 21, 40, (377, 366))
    await app.run(lambda tx: upsert_platform_record(tx.db, "301", record_payload(record),
                                                    tx.by_platform()))
    summary = await sync_round(app, C, 1, herna)
    assert not [r for r in sim.requests if r.endswith(layout.game_url("301"))]
    assert summary.fetched == summary.listed - 1  # every other game listed was fetched
    assert [e.payload["game_id"] for e in await evidence(app, tables[C][0])] == ["301"]
    assert (await round_one(app, C))[1] == EXPECTED[C][1]


async def test_a_game_of_a_sibling_read_first_by_the_other_poll_is_its_owners(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    """A's poll reads C's two games of shared players and places them at C's tables (the
    summary says whose they were); C's own poll then has nothing left to fetch for them."""
    tables = await build(app, A, C)
    add_games(sim)
    at(clock, 45)
    first = await sync_round(app, A, 1, herna)
    assert sorted(first.added) == ["201", "202", "203"] and first.unmatched == []
    assert [(e["game_id"], e["event"], e["table"]) for e in first.elsewhere] == [
        ("301", C, 1), ("302", C, 2)]
    for table, game_id in ((0, "301"), (1, "302")):
        assert [e.payload["game_id"] for e in await evidence(app, tables[C][table])] == [game_id]
    second = await sync_round(app, C, 1, herna)
    assert second.added == ["303"]  # its game in progress; 301 and 302 are in place already


# -- a record nobody's pairing explains ---------------------------------------------------


async def test_an_unexplained_record_is_told_once_across_polls(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    """Two of A's players (also in C) play a game no pairing of either event explains, still
    in progress over several polls: each event's head admin is told of it once."""
    await build(app, A, C)
    for minute in (30, 35, 40):  # the score moves between polls: a changed record each time
        at(clock, minute)
        sim.add_game(replace(game("901", NICKS[0], NICKS[3], 24, 60, (10 * minute, 9 * minute)),
                             ended=None, end=EndKind.UNFINISHED))
        for slug in (A, C):
            await sync_round(app, slug, 1, herna)
    told = [(target, m.params["game_id"]) for where, target, m in notifier.sent
            if where == "admin" and m.key.startswith("sync.unmatched")]
    ids = await app.run(lambda tx: [tx.db.execute(
        "SELECT id FROM tournaments WHERE slug = ?", [s]).fetchone()[0] for s in (A, C)])
    assert sorted(told) == sorted((t, "901") for t in ids)


# -- a refused record stays refused -------------------------------------------------------


async def test_a_stray_rewrite_keeps_the_refused_mark_of_a_shared_record(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    """C stores an impossible record of its table as refused; after C has finished, A's poll
    reads it again — C's finished pairing still explains it, so it is no stray of A's (the
    evening rehearsal's A finishing after B) — and an impossible game of two A players that
    no pairing explains is A's stray. Each shared record keeps its "refused" mark (else it
    would pass as a finished, valid game)."""
    await build(app, A, C)
    at(clock, 45)
    sim.add_game(game("301", NICKS[0], NICKS[2], 21, 40, (377, -5)))  # a negative score
    await sync_round(app, C, 1, herna)
    stored = await app.run(lambda tx: get_platform_record(tx.db, "301"))
    assert stored is not None and stored.payload["refused"][0]["code"] == "score_negative"

    def finish_c(tx: Tx) -> None:
        t = tx.db.execute("SELECT id FROM tournaments WHERE slug = ?", [C]).fetchone()[0]
        set_status(tx.db, t, TournamentStatus.FINISHED, Change.admin(1, tx.now, "test"))
    await app.run(finish_c)
    sim.add_game(game("309", NICKS[0], NICKS[3], 10, 30, (-7, 350)))  # paired nowhere
    summary = await sync_round(app, A, 1, herna)
    assert [u["game_id"] for u in summary.unmatched] == ["309"]
    for game_id in ("301", "309"):
        stored = await app.run(lambda tx, g=game_id: get_platform_record(tx.db, g))
        assert stored is not None and stored.payload["refused"][0]["code"] == "score_negative"


# -- the nightly catch-up is per event ----------------------------------------------------


async def test_the_nightly_catch_up_redoes_the_event_whose_run_is_missing(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient) -> None:
    """The night's run succeeded for one event only (the other's never ran): the start-up
    catch-up is owed, and it syncs the other event, not the one already done."""
    await setup_tournament(app)
    await setup_tournament(app, slug="kt-druhy")
    night = last_scheduled(clock.now(), time(3, 0))
    assert night < clock.now()
    done = await sync_tournament(app, SLUG, herna, kind=SyncKind.NIGHTLY)  # today, after 3:00
    assert done.outcome == "ok"
    synced: list[list[str]] = []

    async def job(since: datetime) -> None:
        synced.append([s.slug for s in await nightly(app, herna, since=since)])

    scheduler = Scheduler(app, nightly=job, nightly_at=time(3, 0))
    assert await scheduler.nightly_due()
    await scheduler.start()
    await scheduler.stop()
    assert synced == [["kt-druhy"]]
    assert not await scheduler.nightly_due()


# -- results found in one poll: announced as they were played -----------------------------


async def test_results_found_in_one_poll_are_announced_oldest_first(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    """Three tables' games started 2, 3, 4 minutes into the round and ended at 44, 20 and 30:
    one poll finds all three; they are announced in the order they ended (the first to start
    finished last), not newest first."""
    await setup_tournament(app)
    for table, (start, end) in enumerate(((2, 44), (3, 20), (4, 30))):
        sim.add_game(game(str(100 + table), NICKS[2 * table], NICKS[2 * table + 1], start, end))
    at(clock, 45)
    await sync_round(app, SLUG, 1, herna)
    announced = [m.params["table"] for where, _, m in notifier.sent
                 if where == "channel" and m.key == "result.official"]
    assert announced == [2, 3, 1]
