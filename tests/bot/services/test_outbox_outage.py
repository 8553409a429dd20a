"""A Discord outage of 15 minutes and of 3 hours during a round (issue 20.1): the bot's sender
keeps trying every message for as long as it is timely, so nothing is lost — what is still
timely when Discord returns goes out late, what became stale meanwhile (its round closed, its
moment passed) is dropped with an audit line (DESIGN.md 4), and the head admin is told both,
through the outbox, once Discord takes messages again."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlite_utils import Database

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.delivery.outbox import OUTAGE_REPORT, tell_after_outage
from bot.services.notifier import Message, RecordingNotifier
from bot.services.tournament import admin, play, rounds
from bot.store import Change, Store, list_audit
from bot.store.outbox import OutboxStatus, failed_attempt, list_outbox, mark_sent

from .conftest import ADMIN_ID, START, make_world

STEP = timedelta(seconds=10)  # the bot's outbox pass (runner.OUTBOX_EVERY_S)
DOWN_FROM = START - timedelta(minutes=20)


class OutageNotifier(RecordingNotifier):
    """A fake Discord that refuses everything while the movable clock is inside the outage,
    and records what it accepted with the moment it accepted it."""

    def __init__(self, clock: ManualClock, down_until: datetime) -> None:
        super().__init__()
        self.clock, self.down_until = clock, down_until
        self.refused = 0
        self.at: list[datetime] = []

    def _check(self) -> None:
        if DOWN_FROM <= self.clock.now() < self.down_until:
            self.refused += 1
            raise ConnectionError("Cannot connect to host discord.com:443")
        self.at.append(self.clock.now())

    async def announce(self, tournament_id: int, message: Message) -> None:
        self._check()
        await super().announce(tournament_id, message)

    async def direct(self, player_id: int, message: Message) -> None:
        self._check()
        await super().direct(player_id, message)

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        self._check()
        await super().to_admin(tournament_id, message)


async def _live(bot: App, clock: ManualClock, until: datetime) -> None:
    """The bot's loops until `until`: an outbox pass every 10 s, due timers every minute."""
    scheduler = Scheduler(bot)
    while clock.now() < until:
        clock.advance(STEP)
        await bot.sender.flush()
        if clock.now().second == 0:
            await scheduler.run_due()


@pytest.mark.parametrize("outage", [timedelta(minutes=15), timedelta(hours=3)],
                         ids=["15min", "3h"])
async def test_an_outage_loses_no_message(store: Store, outage: timedelta) -> None:
    clock = ManualClock(DOWN_FROM - timedelta(minutes=10))
    down_until = DOWN_FROM + outage
    discord = OutageNotifier(clock, down_until)
    bot = App(store, clock, discord)
    cli = App(store, clock, RecordingNotifier(), delivery="queue")  # the admin works on
    world = await make_world(cli, published=False)
    clock.set(DOWN_FROM + timedelta(minutes=1))
    assert (await rounds.publish_round(cli, world.slug, 1, str(ADMIN_ID))).ok  # pairings
    await _live(bot, clock, START + timedelta(minutes=15))
    assert (await play.report_absence(bot, world.slug, world.discord(0))).ok  # a DM, timely
    await _live(bot, clock, START + timedelta(hours=1))
    assert (await rounds.close_round(cli, world.slug, 1, str(ADMIN_ID), force=True)).ok
    await _live(bot, clock, max(down_until, clock.now()) + timedelta(minutes=6))

    assert discord.refused > 0
    outbox = store.read_sync(list_outbox)
    statuses = {row.status for row in outbox}
    assert OutboxStatus.PENDING not in statuses and OutboxStatus.FAILED not in statuses
    (report,) = [row for row in outbox if row.message_key == "outbox.outage_report"]
    assert report.status is OutboxStatus.SENT and report.done_at is not None
    assert down_until <= report.done_at <= down_until + timedelta(minutes=5, seconds=10)
    dropped_audit = {entry.subject for entry in
                     store.read_sync(lambda db: list_audit(db, action="outbox.dropped"))}
    for row in outbox:
        if row.status is OutboxStatus.DROPPED:  # stale: audited and told, never sent late
            assert row.key in dropped_audit
            assert f"č. {row.id} · {row.message_key}" in report.params["dropped"]
        elif row.created_at < down_until and row is not report:  # queued during the outage
            assert row.done_at is not None and row.done_at >= down_until
            assert f"č. {row.id} · {row.message_key}" in report.params["late"]
    keys = {row.message_key: row.status for row in outbox}
    assert keys["round.closed"] is OutboxStatus.SENT  # the standings are never stale
    if outage == timedelta(minutes=15):  # back before the round started: all of it went out
        assert statuses == {OutboxStatus.SENT}
        assert keys["round.published"] is OutboxStatus.SENT
        assert report.params["n_dropped"] == 0 and report.params["n_late"] >= 1
    else:  # back after round 1 closed: its pairings and the absence ping are stale
        assert keys["round.published"] is OutboxStatus.DROPPED
        assert keys["play.absence_ping"] is OutboxStatus.DROPPED
        assert report.params["n_dropped"] >= 2 and report.params["n_late"] >= 1
    # the head admin's report arrived once, to him, after every late message
    told = [m for w, _, m in discord.sent if m.key == "outbox.outage_report"]
    assert len(told) == 1


async def test_an_outage_report_goes_to_the_dms_own_event(store: Store) -> None:
    """Issue 44.8: a DM an outage delayed is reported to its event's head admin — the DM
    carries its event — not to the newest tournament's (`max(id)`), another event's."""
    clock = ManualClock(START)
    bot = App(store, clock, RecordingNotifier())
    older = await make_world(bot, slug="kt-a")
    newer = await make_world(bot, slug="kt-b", players=0)
    excluded = older.players[0].id
    cli = App(store, clock, RecordingNotifier(), delivery="queue")
    assert (await admin.exclude(cli, "kt-a", ADMIN_ID, excluded, "hrubé správanie")).ok
    [dm] = [r for r in await store.read(list_outbox) if r.destination == "dm"]

    def outage(db: Database) -> None:  # refused once, then delivered late
        failed_attempt(db, dm.id, "ConnectionError", START, Change.scheduler(START, "test"))
        mark_sent(db, dm.id, START + timedelta(minutes=30))

    await store.call(outage)
    assert await store.call(tell_after_outage, START, START + timedelta(minutes=31)) == 1
    [report] = [r for r in await store.read(list_outbox) if r.message_key == OUTAGE_REPORT]
    assert (report.destination, report.target) == ("admin", older.tournament.id)
    assert report.target != newer.tournament.id
