"""An online duplicate game driven by the stored timers and the movable clock (issue 24 items
2, 4): the 30-second warning, the close at the deadline (off the store's thread, before the
timer's claim), the next round after the pause, and a restart that resumes from the rows."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.services.app import App, Tx
from bot.services.duplicate import tops
from bot.services.duplicate.game import (
    DEADLINE,
    GameStarted,
    RoundOpened,
    start_game,
)
from bot.services.duplicate.slips import SlipReceipt, submit_slip
from bot.services.notifier import RecordingNotifier
from bot.services.tournament.timers import handle_timer
from bot.store import Store, Timer, fire_timer, list_timers

from .conftest import discord, make_event

SEED = "0d" * 32


def rounds(app: App) -> list[tuple[int, str, str | None]]:
    return app.store.read_sync(lambda db: db.execute(
        "SELECT number, rack, closed_at FROM dup_rounds ORDER BY number").fetchall())


async def test_the_timers_run_the_rounds(app: App, words: Path, clock: ManualClock,
                                         notifier: RecordingNotifier) -> None:
    world = await make_event(app, words, mode="online", move_seconds=180, warning_seconds=30,
                             pause_seconds=20)
    started = await app.run(start_game, world.slug, seed=SEED)
    assert isinstance(started, GameStarted) and isinstance(started.opened, RoundOpened)
    await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(),
                  discord_id=discord(0), declared=1)
    scheduler = Scheduler(app)
    await scheduler.run_due()  # the round's tops timer: the move generator starts (003 r. 17)
    warmed = [job for key, job in tops._jobs.items() if key[4] == started.opened.rack]
    assert len(warmed) == 1
    clock.advance(timedelta(seconds=150))
    await scheduler.run_due()
    assert notifier.keys("channel")[-1] == "duplicate.online.warning"
    assert rounds(app)[0][2] is None
    clock.advance(timedelta(seconds=30))
    await scheduler.run_due()
    assert rounds(app)[0][2] is not None  # closed at the deadline, with the warmed-up tops
    stored = app.store.read_sync(lambda db: db.execute(
        "SELECT json_extract(tops, '$.top_score') FROM dup_rounds").fetchone()[0])
    assert stored == warmed[0].result().score
    assert notifier.keys("channel").count("duplicate.online.summary") == 1
    # a slip Discord received at the deadline reaches the store after the close (003 r. 19:
    # the time of receipt decides): it is scored as the player's next score version
    straggler = await app.run(submit_slip, world.slug, "8H KOSA",
                              received_at=started.opened.deadline, discord_id=discord(1),
                              declared=1)
    assert isinstance(straggler, SlipReceipt) and not straggler.late
    judged = app.store.read_sync(lambda db: db.execute(
        "SELECT player_id, version, slip_id FROM dup_scores ORDER BY id").fetchall())
    assert judged[-1] == (2, 2, straggler.slip_id)
    assert notifier.keys("dm").count("duplicate.online.evaluation") == 4  # 3 + the straggler
    assert len(rounds(app)) == 1  # the pause before the next rack
    clock.advance(timedelta(seconds=20))
    await scheduler.run_due()
    assert [r[0] for r in rounds(app)] == [1, 2]
    assert notifier.keys("channel")[-1] == "duplicate.online.round_open"
    audit = app.store.read_sync(lambda db: db.execute(
        "SELECT COUNT(*) FROM audit WHERE action = 'duplicate.round.close'").fetchone()[0])
    assert audit == 1


async def test_the_deadline_timer_alone_closes_the_round(
        app: App, words: Path, clock: ManualClock) -> None:
    """Without the scheduler's preparation (a plain `handle_timer` caller), the claiming
    transaction closes the round itself."""
    world = await make_event(app, words, mode="online")
    await app.run(start_game, world.slug, seed=SEED)
    clock.advance(timedelta(seconds=180))
    timer = next(t for t in app.store.read_sync(list_timers, world.tournament.id)
                 if t.kind == DEADLINE)

    def fire(tx: Tx, due: Timer) -> bool:
        claimed = fire_timer(tx.db, due.id, tx.by_scheduler())
        if claimed:
            handle_timer(tx, due)
        return claimed

    assert await app.run(fire, timer) is True
    assert rounds(app)[0][2] is not None
    assert await app.run(fire, timer) is False  # fired once


async def test_a_restart_mid_round_keeps_the_rack_and_the_deadline(
        app: App, words: Path, clock: ManualClock, db_path: Path) -> None:
    world = await make_event(app, words, mode="online")
    await app.run(start_game, world.slug, seed=SEED)
    before = rounds(app)
    deadline = next(t.due_at for t in app.store.read_sync(list_timers, world.tournament.id)
                    if t.kind == DEADLINE)
    await app.store.close()  # kill -9 mid-round: nothing but the rows survives
    store = await Store.open(db_path)
    try:
        notifier = RecordingNotifier()
        again = App(store, clock, notifier)
        assert rounds(again) == before
        clock.set(deadline)
        await Scheduler(again).run_due()
        assert rounds(again)[0][2] is not None
        assert notifier.keys("channel").count("duplicate.online.summary") == 1
        await Scheduler(again).run_due()  # a second pass finds nothing to do
        assert notifier.keys("channel").count("duplicate.online.summary") == 1
    finally:
        await store.close()


async def test_an_online_game_starts_at_its_time(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    at = clock.now() + timedelta(minutes=5)
    await make_event(app, words, mode="online", starts=(at,))
    scheduler = Scheduler(app)
    await scheduler.run_due()
    assert rounds(app) == []
    clock.set(at)
    await scheduler.run_due()
    assert [r[0] for r in rounds(app)] == [1]
    assert notifier.keys("channel")[:2] == ["duplicate.online.game_start",
                                           "duplicate.online.round_open"]
