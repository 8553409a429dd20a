"""A round's timers: what is scheduled, and what each does when it falls due."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.services.app import App, Tx
from bot.services.tournament.play import report_absence
from bot.services.tournament.timers import schedule_round_timers
from bot.store import (
    ResultStatus,
    TimerKind,
    TimerStatus,
    add_timer,
    get_result,
    get_round,
    list_audit,
    list_results,
    list_timers,
    update_round,
)
from rules import End

from .conftest import ADMIN_ID, START, World, add_game, make_world, sent


def schedule(world: World, round_no: int) -> Any:
    def body(tx: Tx) -> None:
        schedule_round_timers(tx, world.tournament, get_round(tx.db, world.tournament.id,
                                                              round_no))
    return body


async def pending_timers(app: App, world: World) -> list[tuple[str, Any]]:
    timers = await app.store.read(list_timers, world.tournament.id, TimerStatus.PENDING)
    return [(t.kind, t.due_at) for t in timers]


async def test_a_round_gets_its_deadlines_once(app: App, world: World) -> None:
    await app.run(schedule(world, 1))
    await app.run(schedule(world, 1))  # again: harmless
    assert await pending_timers(app, world) == [
        (TimerKind.ROUND_START, START),
        (TimerKind.WAITING_END, START + timedelta(minutes=10)),
        (TimerKind.REMINDER, START + timedelta(minutes=40)),
        (TimerKind.GAME_LIMIT, START + timedelta(minutes=50)),
    ]


async def test_the_last_round_gets_the_dispute_window(app: App, world: World) -> None:
    await app.run(schedule(world, 3))
    last_limit = START + timedelta(hours=4, minutes=50)
    kinds = dict(await pending_timers(app, world))
    assert kinds[TimerKind.DISPUTE_WINDOW] == last_limit + timedelta(minutes=10)
    rnd = await app.store.read(get_round, world.tournament.id, 3)
    assert rnd.dispute_closes_at == last_limit + timedelta(minutes=10)


async def test_moved_round_times_replace_the_old_deadlines(app: App, world: World) -> None:
    await app.run(schedule(world, 1))

    def postpone(tx: Tx) -> None:
        by = tx.by_admin(ADMIN_ID, "server outage")
        update_round(tx.db, world.tournament.id, 1, by, starts_at=START + timedelta(minutes=30),
                     limit_at=START + timedelta(minutes=80))
        schedule_round_timers(tx, world.tournament, get_round(tx.db, world.tournament.id, 1))

    await app.run(postpone)
    pending = await pending_timers(app, world)
    assert (TimerKind.GAME_LIMIT, START + timedelta(minutes=80)) in pending
    # the postponed start is now more than 10 minutes away: it gets its reminder too
    assert (TimerKind.PRE_ROUND, START + timedelta(minutes=20)) in pending
    assert len(pending) == 5
    cancelled = await app.store.read(list_timers, world.tournament.id, TimerStatus.CANCELLED)
    assert len(cancelled) == 4


async def test_round_start_announces_and_tells_each_player(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app, players=5)
    await app.run(schedule(world, 1))
    fired = await Scheduler(app).run_due()
    assert fired == 1  # only the start is due at START
    texts = sent(app.notifier)  # type: ignore[arg-type]
    assert texts[0][1] == "timer.round_start" and "e-SP 4.5" in texts[0][2]
    dms = [(target, key) for target, key, _ in texts[1:]]
    ids = [p.id for p in world.players]
    assert dms == [(ids[0], "timer.round_start_dm"), (ids[1], "timer.round_start_dm"),
                   (ids[2], "timer.round_start_dm"), (ids[3], "timer.round_start_dm"),
                   (ids[4], "timer.bye_dm")]
    assert f"začína: {world.players[0].name}" in texts[1][2]


async def test_waiting_end_proposes_the_no_show(
        app: App, world: World, clock: ManualClock) -> None:
    await app.run(schedule(world, 1))
    clock.set(START + timedelta(minutes=3))
    await report_absence(app, world.slug, world.discord(0))
    clock.set(START + timedelta(minutes=10))
    await Scheduler(app).run_due()
    result = await app.store.read(get_result, world.tables[0].id)
    assert (result.status, result.end_kind) == (ResultStatus.PROPOSED, End.NO_SHOW)
    other = await app.store.read(get_result, world.tables[1].id)
    assert other.status is ResultStatus.PENDING  # no absence there: the game may still come


async def test_reminder_goes_only_to_pairs_without_a_game(
        app: App, world: World, clock: ManualClock) -> None:
    await app.run(schedule(world, 1))
    await add_game(app, world.tables[0], 200, 150, end="unfinished")
    clock.set(START + timedelta(minutes=40))
    await Scheduler(app).run_due()
    reminded = [target for target, key, _ in sent(app.notifier, "dm")  # type: ignore[arg-type]
                if key == "timer.limit_reminder"]
    assert reminded == [world.players[2].id, world.players[3].id]


async def test_game_limit_proposes_over_limit_and_both_no_show(
        app: App, world: World, clock: ManualClock) -> None:
    await app.run(schedule(world, 1))
    await add_game(app, world.tables[0], 200, 150, end="unfinished")
    clock.set(START + timedelta(minutes=50))
    await Scheduler(app).run_due()
    results = await app.store.read(list_results, world.tournament.id)
    assert [(r.status, r.end_kind) for r in results] == [
        (ResultStatus.PROPOSED, End.OVER_LIMIT), (ResultStatus.PROPOSED, End.BOTH_NO_SHOW)]
    assert "timer.game_limit" in app.notifier.keys("channel")  # type: ignore[attr-defined]


async def test_the_last_rounds_dispute_window_confirms_it(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app, rounds=1)
    await app.run(schedule(world, 1))
    await add_game(app, world.tables[0], 400, 300)
    clock.set(START + timedelta(minutes=60))
    await Scheduler(app).run_due()
    results = await app.store.read(list_results, world.tournament.id)
    assert [r.status for r in results] == [ResultStatus.CONFIRMED, ResultStatus.PROPOSED]
    assert "timer.still_open" in app.notifier.keys("admin")  # type: ignore[attr-defined]


async def test_auto_apply_approves_an_unanswered_proposal(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app, auto_apply_forfeits_after_minutes=30)
    await app.run(schedule(world, 1))
    clock.set(START + timedelta(minutes=51))
    await Scheduler(app).run_due()  # both tables: nobody came -> proposals + auto-apply timers
    auto = [t for t in await app.store.read(list_timers, world.tournament.id)
            if t.kind == TimerKind.AUTO_APPLY]
    assert [t.due_at for t in auto] == [START + timedelta(minutes=81)] * 2
    clock.set(START + timedelta(minutes=81))
    await Scheduler(app).run_due()
    results = await app.store.read(list_results, world.tournament.id)
    assert {r.status for r in results} == {ResultStatus.PROVISIONAL}
    assert {r.actor_kind for r in results} == {"scheduler"}
    rulings = await app.store.read(list_audit, action="evidence.ruling")
    assert len(rulings) == 2 and "automaticky" in (rulings[0].reason or "")


async def test_auto_apply_skips_a_proposal_the_admin_already_handled(
        app: App, clock: ManualClock) -> None:
    from bot.services.tournament.admin import approve
    world = await make_world(app, auto_apply_forfeits_after_minutes=30)
    await app.run(schedule(world, 1))
    clock.set(START + timedelta(minutes=51))
    await Scheduler(app).run_due()
    await approve(app, world.slug, ADMIN_ID, world.tables[0].id)
    clock.set(START + timedelta(minutes=90))
    await Scheduler(app).run_due()
    first = await app.store.read(get_result, world.tables[0].id)
    assert first.actor_kind == "admin"  # the scheduler did not touch it again


async def test_an_unknown_timer_kind_is_recorded_not_retried(app: App, world: World) -> None:
    def odd(tx: Tx) -> None:
        add_timer(tx.db, "moon_phase", "kt:odd", START, tx.by_scheduler(),
                  tournament_id=world.tournament.id)

    await app.run(odd)
    assert await Scheduler(app).run_due() == 1
    ignored = await app.store.read(list_audit, action="timer.ignored")
    assert ignored[0].data["kind"] == "moon_phase"
