"""The durable outbox (bot.services.delivery.outbox, bot.store.outbox): messages written with the
change, delivered by the sender and marked once; queued by the CLI for the bot; never sent late."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.services.app import App, Tx
from bot.services.delivery.outbox import LONGEST_RETRY, Timely
from bot.services.notifier import Message, RecordingNotifier
from bot.services.tournament import play, rounds
from bot.store import Store, list_audit
from bot.store.outbox import OutboxStatus, count_pending, list_outbox

from .conftest import ADMIN_ID, START, World, make_world, sent


class FlakyNotifier(RecordingNotifier):
    """Discord with an outage: the first `failures` deliveries raise, then it recovers."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def announce(self, tournament_id: int, message: Message) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("503 Service Unavailable")
        await super().announce(tournament_id, message)


def _withdrawn(store: Store) -> list[Any]:
    return [r for r in store.read_sync(list_outbox) if r.message_key == "play.withdrawn"]


def _statuses(store: Store) -> list[OutboxStatus]:
    return [row.status for row in store.read_sync(list_outbox)]


async def test_a_use_case_stores_its_messages_with_the_change_and_marks_them_sent(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier) -> None:
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    ((row,),) = [app.store.read_sync(list_outbox)]
    assert (row.destination, row.target, row.message_key) == (
        "dm", world.players[1].id, "play.absence_ping")
    assert row.status is OutboxStatus.SENT and row.done_at == clock.now()
    assert (row.tournament_id, row.round_no, row.valid_until) == (
        world.tournament.id, 1, START + timedelta(minutes=50))
    # the parameters came back with their types: the time renders in Bratislava time
    ((_, _, text),) = sent(notifier, "dm")
    assert "10:10" in text
    assert notifier.sent[0][2].ref == row.key


async def test_a_refused_use_case_leaves_no_message(app: App, world: World,
                                                    clock: ManualClock) -> None:
    clock.set(START + timedelta(hours=1))  # after the limit: the absence is refused
    reply = await play.report_absence(app, world.slug, world.discord(0))
    assert not reply.ok
    assert app.store.read_sync(list_outbox) == []


async def test_the_cli_queues_and_the_bot_delivers_at_start(
        store: Store, clock: ManualClock) -> None:
    shown = RecordingNotifier()
    cli = App(store, clock, shown, delivery="queue")
    world = await make_world(cli, published=False)
    assert (await rounds.publish_round(cli, world.slug, 1, str(ADMIN_ID))).ok
    assert [m.key for _, _, m in shown.sent] == ["round.published"]  # shown to the operator
    assert store.read_sync(count_pending) == 1  # … and left for the bot

    delivered = RecordingNotifier()
    bot = App(store, clock, delivered)
    flushed = await bot.sender.flush()
    assert (flushed.sent, flushed.dropped) == (1, 0)
    assert delivered.keys() == ["round.published"]
    assert delivered.sent[0][2].params == shown.sent[0][2].params
    assert (await bot.sender.flush()).sent == 0  # never twice
    assert _statuses(store) == [OutboxStatus.SENT]


async def test_a_message_whose_round_closed_is_dropped_with_an_audit_line(
        store: Store, clock: ManualClock) -> None:
    cli = App(store, clock, RecordingNotifier(), delivery="queue")
    world = await make_world(cli, published=False)
    await rounds.publish_round(cli, world.slug, 1, str(ADMIN_ID))
    clock.set(START + timedelta(hours=1))
    closed = await rounds.close_round(cli, world.slug, 1, str(ADMIN_ID), force=True)
    assert closed.ok

    delivered = RecordingNotifier()
    flushed = await App(store, clock, delivered).sender.flush()
    # the standings still go out (and the head admin's proposals); the pairings do not
    assert delivered.keys("channel") == ["round.closed"]
    assert flushed.dropped == 1
    (dropped,) = store.read_sync(lambda db: list_audit(db, action="outbox.dropped"))
    assert dropped.data["message"] == "round.published"
    assert dropped.data["why"] == "1. kolo je uzavreté"


async def test_a_message_past_its_moment_is_dropped(app: App, world: World,
                                                    clock: ManualClock) -> None:
    def remind(tx: Tx) -> None:
        tx.announce(world.tournament.id, "timer.pre_round",
                    timely=Timely(world.tournament.id, 1, START), round=1, start=START, n=10,
                    waiting=10, rule="e-SP 4.3")

    app.delivery = "queue"
    await app.run(remind)
    clock.set(START + timedelta(seconds=1))
    flushed = await app.sender.flush()
    assert (flushed.sent, flushed.dropped) == (0, 1)
    assert app.store.read_sync(list_outbox)[0].status is OutboxStatus.DROPPED


async def test_an_outage_keeps_messages_pending_and_in_order(
        store: Store, clock: ManualClock) -> None:
    notifier = FlakyNotifier(failures=2)
    app = App(store, clock, notifier)
    world = await make_world(app, published=False)

    def two(tx: Tx) -> None:
        for name in ("Prvý", "Druhý"):
            tx.announce(world.tournament.id, "play.withdrawn", player=name, rule="e-SP 3.6")
        tx.direct(world.players[0].id, "play.withdrawn_ok", tournament="T", rule="e-SP 3.6")

    await app.run(two)
    # the first announcement failed; the second waits behind it; the DM is another place
    assert notifier.keys() == ["play.withdrawn_ok"]
    assert _statuses(store) == [OutboxStatus.PENDING, OutboxStatus.PENDING, OutboxStatus.SENT]
    assert (await app.sender.flush()).sent == 0  # the retry is not due yet
    clock.advance(timedelta(seconds=5))
    assert (await app.sender.flush()).failed == 1  # the outage goes on
    clock.advance(timedelta(seconds=10))
    assert (await app.sender.flush()).sent == 2
    players = [m.params["player"] for w, _, m in notifier.sent if w == "channel"]
    assert players == ["Prvý", "Druhý"]
    first = store.read_sync(list_outbox)[0]
    assert (first.attempts, first.status) == (2, OutboxStatus.SENT)


async def test_a_message_discord_refuses_for_hours_is_retried_at_most_5_minutes_apart(
        store: Store, clock: ManualClock) -> None:
    app = App(store, clock, FlakyNotifier(failures=40))
    world = await make_world(app, published=False)
    await app.run(lambda tx: tx.announce(world.tournament.id, "play.withdrawn", player="X",
                                         rule="e-SP 3.6"))
    waits = []
    for _ in range(40):  # the first attempt failed in app.run; 39 more fail, then sent
        (row,) = _withdrawn(store)
        assert row.status is OutboxStatus.PENDING and row.next_attempt_at is not None
        waits.append(row.next_attempt_at - clock.now())
        clock.set(row.next_attempt_at)
        await app.sender.flush()
    assert max(waits) == LONGEST_RETRY == timedelta(minutes=5)
    assert waits[:3] == [timedelta(seconds=5), timedelta(seconds=10), timedelta(seconds=20)]
    (row,) = _withdrawn(store)
    assert (row.status, row.attempts) == (OutboxStatus.SENT, 40)
    # Discord is back: the head admin is told it went out late (the report is sent too)
    (report,) = [r for r in store.read_sync(list_outbox) if r.message_key != 'play.withdrawn']
    assert (report.message_key, report.status) == ('outbox.outage_report', OutboxStatus.SENT)
    assert report.params['n_late'] == 1 and f'č. {row.id} · play.withdrawn' in report.params['late']
    assert not store.read_sync(lambda db: list_audit(db, action="outbox.failed"))


def test_a_message_leaves_pending_once_the_database_says_so(store: Store) -> None:
    def send_twice(db: Any) -> None:
        db.execute("INSERT INTO outbox (key, destination, target, message_key, created_at) "
                   "VALUES ('k', 'dm', 1, 'x', '2025-01-01T00:00:00+00:00')")
        db.execute("UPDATE outbox SET status = 'sent', done_at = created_at")
        db.execute("UPDATE outbox SET status = 'pending', done_at = NULL")

    with pytest.raises(Exception, match="delivered, dropped or failed once"):
        store.call_sync(send_twice)


async def test_stale_timers_speak_no_more_after_the_cli_finished_the_tournament(
        store: Store, clock: ManualClock) -> None:
    """The measured case: rounds published from the CLI, the tournament finished, then the bot
    starts and fires every overdue timer. Nothing stale reaches a player."""
    cli = App(store, clock, RecordingNotifier(), delivery="queue")
    world = await make_world(cli, published=False, rounds=2)
    admin = str(ADMIN_ID)
    for number in (1, 2):
        if number > 1:  # round 1's no-shows are only proposed: pair over them
            assert (await rounds.pair_round(cli, world.slug, number, admin, force=True)).ok
        assert (await rounds.publish_round(cli, world.slug, number, admin)).ok
        clock.set(START + timedelta(hours=2 * number - 1))
        assert (await rounds.close_round(cli, world.slug, number, admin, force=True)).ok
    assert (await rounds.finish_tournament(cli, world.slug, admin, force=True)).ok

    delivered = RecordingNotifier()
    bot = App(store, clock, delivered)
    await bot.sender.flush()
    fired = await Scheduler(bot).run_due()
    assert fired >= 8  # every round's timers were overdue and ran once
    public = {m.key for w, _, m in delivered.sent if w != "admin"}
    # what the CLI did is announced; no "round 2 starts", no "you play X", no reminder
    assert public == {"round.closed", "finish.done", "result.round_confirmed"}, public
    assert not [w for w, _, _ in delivered.sent if w == "dm"]
    stale = store.read_sync(lambda db: list_audit(db, action="timer.stale"))
    assert {entry.data["why"] for entry in stale} == {"turnaj je skončený"}
