"""A message an earlier version queued is delivered after an update as it was meant: its old
parameters fill today's template (`bot/services/delivery/queued_before.py`), instead of failing on
every retry for a parameter the old version never wrote. One no bridge covers is given up
and reported, and holds nothing back."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.delivery.queued_before import UPGRADES
from bot.services.notifier import Message, RecordingNotifier
from bot.store import Change, Store, create_tournament
from bot.store.outbox import Destination, queue_message

from .conftest import ADMIN_ID, START, render

#: each upgraded message as the earlier version queued it, and its text then
OLD = {
    "identity.linked_dm": (
        {"tournament": "KT", "nick": "anna77", "reason": "overené", "rule": "e-SP 2.5"},
        "Tvoj Discord účet je teraz prepojený s prezývkou „anna77“ v turnaji KT: overené "
        "(e-SP 2.5)."),
    "identity.unlinked_dm": (
        {"tournament": "KT", "nick": "anna77", "reason": "omyl", "rule": "e-SP 2.5"},
        "Tvoj Discord účet už nie je prepojený s prezývkou „anna77“ v turnaji KT: omyl "
        "(e-SP 2.5)."),
    "identity.rejected_dm": (
        {"tournament": "KT", "nick": "anna77", "reason": "cudzí účet", "rule": "e-SP 2.5"},
        "Žiadosť o prepojenie s prezývkou „anna77“ v turnaji KT je zamietnutá: cudzí účet "
        "(e-SP 2.5)."),
    "identity.request_admin": (
        {"request_id": 3, "player": "Anna Nová", "nick": "anna77", "account": "anna#1",
         "discord_id": 123, "recorded": "—", "rule": "e-SP 2.5"},
        "Žiadosť č. 3 o prepojenie Discord účtu: anna#1 (id 123) chce hrať ako Anna Nová "
        "(herna.net: anna77); v registri je Discord meno: —. Schváľ alebo zamietni ju v "
        "/admin poradovnik (e-SP 2.5)."),
}


def test_every_upgrade_has_its_old_form_here() -> None:
    assert set(OLD) == set(UPGRADES)


@pytest.mark.parametrize("key", sorted(OLD))
async def test_a_message_queued_before_the_update_goes_out_worded_as_then(
        store: Store, clock: ManualClock, key: str) -> None:
    params, text = OLD[key]
    destination = Destination.ADMIN if key == "identity.request_admin" else Destination.DM
    store.call_sync(lambda db: queue_message(db, destination, 1, key, params, clock.now()))
    delivered = RecordingNotifier()
    flushed = await App(store, clock, delivered).sender.flush()
    assert (flushed.sent, flushed.failed) == (1, 0)
    [(_, _, message)] = delivered.sent
    assert render(message.key, message.params) == text


class WordingNotifier(RecordingNotifier):
    """Words each message as the Discord notifier does before it posts it."""

    async def direct(self, player_id: int, message: Message) -> None:
        render(message.key, message.params)
        await super().direct(player_id, message)

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        render(message.key, message.params)
        await super().to_admin(tournament_id, message)


async def test_a_message_that_cannot_be_worded_is_given_up_and_holds_nothing_back(
        store: Store, clock: ManualClock) -> None:
    """A template and parameters that do not fit (a change nobody bridged) is a fault of
    ours: it is not retried for ever holding back the place's later messages; it is given up,
    audited, and the head admin is told its number."""
    def queue(db: Any) -> None:
        tournament_id = create_tournament(
            db, slug="kt", name="KT", season="2026/2027", round_starts=[START],
            waiting_minutes=15, game_limit_minutes=60, admin_ids=[ADMIN_ID],
            by=Change.admin(ADMIN_ID, clock.now())).id
        queue_message(db, Destination.DM, 7, "identity.linked_dm", {"nick": "x"},
                      clock.now(), tournament_id=tournament_id)  # no tournament, reason, rule
        queue_message(db, Destination.DM, 7, "play.register_already",
                      {"to": "—", "tournament": "KT"}, clock.now(), tournament_id=tournament_id)

    store.call_sync(queue)
    notifier = WordingNotifier()
    app = App(store, clock, notifier)
    first = await app.sender.flush()
    assert (first.sent, first.failed) == (1, 1)
    assert notifier.keys("dm") == ["play.register_already"]  # not held back behind it
    statuses = store.read_sync(lambda db: [r[0] for r in db.execute(
        "SELECT status FROM outbox ORDER BY id")])
    assert statuses[:2] == ["failed", "sent"]
    assert store.read_sync(lambda db: db.execute(
        "SELECT count(*) FROM audit WHERE action = 'outbox.failed'").fetchone()[0]) == 1
    await app.sender.flush()
    # told what it is: no "Discord was unreachable" report of what came after it
    [(_, _, told)] = [s for s in notifier.sent if s[0] == "admin"]
    assert told.key == "outbox.unwordable" and told.params["message"] == "identity.linked_dm"
    assert "č. 1 (identity.linked_dm) nemožno zostaviť" in render(told.key, told.params)
    assert (await app.sender.flush()).sent == 0  # told once
