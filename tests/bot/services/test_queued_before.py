"""A message an earlier version queued is delivered after an update as it was meant: its old
parameters fill today's template (`bot/services/queued_before.py`), instead of failing on
every retry for a parameter the old version never wrote."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.queued_before import UPGRADES
from bot.store import Store
from bot.store.outbox import Destination, queue_message

from .conftest import render

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
