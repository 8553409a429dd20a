"""The reminders a round's timers send besides its deadlines: before the start, and when the
waiting period is over (issue 6: "reminders (before the round, …, waiting period over)")."""

from __future__ import annotations

from datetime import timedelta

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.services.app import App, Tx
from bot.services.tournament.play import arrive, report_absence
from bot.services.tournament.timers import schedule_round_timers
from bot.store import TimerKind, TimerStatus, get_round, list_timers

from .conftest import START, World, make_world, sent


def schedule(world: World, round_no: int):  # type: ignore[no-untyped-def]
    def body(tx: Tx) -> None:
        schedule_round_timers(tx, world.tournament, get_round(tx.db, world.tournament.id,
                                                              round_no))
    return body


async def test_a_round_published_early_reminds_the_channel_ten_minutes_before(
        app: App, clock: ManualClock) -> None:
    world = await make_world(app, players=4)
    clock.set(START)  # round 2 is published well before its start
    await app.run(schedule(world, 2))
    timers = await app.store.read(list_timers, world.tournament.id, TimerStatus.PENDING)
    rnd = await app.store.read(get_round, world.tournament.id, 2)
    pre = [t for t in timers if t.kind == TimerKind.PRE_ROUND]
    assert [t.due_at for t in pre] == [rnd.starts_at - timedelta(minutes=10)]
    clock.set(rnd.starts_at - timedelta(minutes=10))
    assert await Scheduler(app).run_due() == 1
    (where, key, text), = sent(app.notifier)  # type: ignore[arg-type]
    assert (where, key) == (world.tournament.id, "timer.pre_round")
    assert "O 10 minút" in text and "2. kolo" in text and "e-SP 4.3" in text


async def test_no_reminder_when_the_round_is_published_less_than_ten_minutes_before(
        app: App, world: World) -> None:
    await app.run(schedule(world, 1))  # the clock is at the round's start
    timers = await app.store.read(list_timers, world.tournament.id, TimerStatus.PENDING)
    assert TimerKind.PRE_ROUND not in {t.kind for t in timers}


async def test_the_end_of_the_waiting_period_is_announced_and_told_to_the_absent_table(
        app: App, world: World, clock: ManualClock) -> None:
    await app.run(schedule(world, 1))
    clock.set(START + timedelta(minutes=2))
    await report_absence(app, world.slug, world.discord(0))
    await arrive(app, world.slug, world.discord(2))  # another table: nothing to tell them
    app.notifier.sent.clear()  # type: ignore[attr-defined]
    clock.set(START + timedelta(minutes=10))
    await Scheduler(app).run_due()
    texts = sent(app.notifier)  # type: ignore[arg-type]
    channel = [text for _, key, text in texts if key == "timer.waiting_over"]
    assert len(channel) == 1 and "Čakacia lehota 1. kola skončila" in channel[0]
    dms = [(target, text) for target, key, text in texts if key == "timer.waiting_over_dm"]
    absent, reporter = world.players[1], world.players[0]
    assert [target for target, _ in dms] == [reporter.id, absent.id]
    assert all(absent.name in text and reporter.name in text and "e-SP 4.3, 4.9" in text
               for _, text in dms)
