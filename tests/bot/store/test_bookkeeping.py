"""Timers, rating history, sync runs, the audit log and stored times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.store import (
    Change,
    DuplicateError,
    Store,
    StoreError,
    SyncKind,
    SyncOutcome,
    TimerKind,
    TimerStatus,
    add_timer,
    apply_rating,
    cancel_timer,
    due_timers,
    finish_sync_run,
    fire_timer,
    from_text,
    get_player,
    last_sync_run,
    list_audit,
    list_timers,
    next_due,
    rating_history,
    record,
    start_sync_run,
    to_text,
)

from .conftest import START, Seeded


def test_timer_added_once_per_key(store: Store, seeded: Seeded, admin: Change) -> None:
    t = seeded.tournament.id
    first, created = store.call_sync(add_timer, TimerKind.WAITING_END, "kt:r1:t1:wait",
                                     START + timedelta(minutes=10), admin, tournament_id=t,
                                     payload={"table": 1})
    again, created_again = store.call_sync(add_timer, TimerKind.WAITING_END, "kt:r1:t1:wait",
                                           START + timedelta(hours=5), admin)
    assert created and not created_again
    assert again == first and first.payload == {"table": 1}
    assert len(store.read_sync(list_audit, action="timer.add")) == 1


def test_due_timers_in_order_fired_once_and_cancelled(store: Store, admin: Change) -> None:
    # One due time is written in Bratislava time: stored as UTC, it must still sort right.
    bratislava = timezone(timedelta(hours=1))
    plan = {"c": START + timedelta(minutes=30), "a": START.astimezone(bratislava),
            "b": START + timedelta(minutes=5), "later": START + timedelta(hours=2)}
    timers = {key: store.call_sync(add_timer, TimerKind.REMINDER, key, due, admin)[0]
              for key, due in plan.items()}
    now = START + timedelta(minutes=30)
    assert [t.key for t in store.read_sync(due_timers, now)] == ["a", "b", "c"]
    assert store.read_sync(next_due) == START
    by = Change.scheduler(now)
    assert store.call_sync(fire_timer, timers["a"].id, by) is True
    assert store.call_sync(fire_timer, timers["a"].id, by) is False
    assert store.call_sync(cancel_timer, "b", admin) is True
    assert store.call_sync(cancel_timer, "b", admin) is False
    assert store.call_sync(cancel_timer, "a", admin) is False  # already fired
    assert store.call_sync(fire_timer, timers["b"].id, by) is False  # cancelled never fires
    assert [t.key for t in store.read_sync(due_timers, now)] == ["c"]
    fired = store.read_sync(list_timers, None, TimerStatus.FIRED)
    assert [(t.key, t.fired_at) for t in fired] == [("a", now)]


def test_rating_change_updates_player_and_history(store: Store, seeded: Seeded,
                                                  admin: Change) -> None:
    player, t = seeded.players[0], seeded.tournament.id
    change = store.call_sync(apply_rating, player, 1712.5, 7, admin, tournament_id=t,
                             season="2024/2025")
    assert (change.before_value, change.before_games) == (1700.0, 0)
    updated = store.read_sync(get_player, player)
    assert (updated.screlo, updated.rated_games, updated.last_season) == (1712.5, 7,
                                                                          "2024/2025")
    with pytest.raises(DuplicateError, match="already changed"):
        store.call_sync(apply_rating, player, 1800.0, 14, admin, tournament_id=t)
    decay = store.call_sync(apply_rating, player, 1662.5, 7, admin)
    assert decay.kind == "decay"
    assert [h.after_value for h in store.read_sync(rating_history, player)] == [1712.5, 1662.5]
    assert store.read_sync(get_player, player).last_season == "2024/2025"


def test_sync_runs_for_catch_up(store: Store, seeded: Seeded) -> None:
    night = [Change.scheduler(START + timedelta(days=n)) for n in range(3)]
    ok = store.call_sync(start_sync_run, SyncKind.NIGHTLY, night[0])
    store.call_sync(finish_sync_run, ok.id, SyncOutcome.OK, night[0], summary={"games": 12})
    failed = store.call_sync(start_sync_run, SyncKind.NIGHTLY, night[1])
    store.call_sync(finish_sync_run, failed.id, SyncOutcome.FAILED, night[1])
    running = store.call_sync(start_sync_run, SyncKind.ROUND, night[2],
                              tournament_id=seeded.tournament.id)
    last_ok = store.read_sync(last_sync_run, SyncKind.NIGHTLY)
    assert last_ok is not None and last_ok.id == ok.id and last_ok.summary == {"games": 12}
    assert store.read_sync(last_sync_run, SyncKind.NIGHTLY, outcome=None).id == failed.id
    assert store.read_sync(last_sync_run, SyncKind.ROUND,
                           tournament_id=seeded.tournament.id, outcome=None) == running
    with pytest.raises(StoreError, match="already finished"):
        store.call_sync(finish_sync_run, ok.id, SyncOutcome.OK, night[2])
    with pytest.raises(ValueError, match="outcome"):
        store.call_sync(finish_sync_run, running.id, SyncOutcome.RUNNING, night[2])


def test_audit_rows_record_who_what_why(store: Store, seeded: Seeded) -> None:
    by = Change.player(seeded.players[0], START, "oznámenie")
    store.call_sync(record, by, "announce.pairings", tournament_id=seeded.tournament.id,
                    subject="round:1", data={"at": START, "tables": {2, 1}})
    entries = store.read_sync(list_audit, tournament_id=seeded.tournament.id)
    assert [e.action for e in entries][:2] == ["tournament.create", "entry.add"]
    last = entries[-1]
    assert (last.action, last.actor_kind, last.reason) == ("announce.pairings", "player",
                                                           "oznámenie")
    assert last.data == {"at": "2025-03-01T09:00:00+00:00", "tables": [1, 2]}
    assert store.read_sync(list_audit, after_id=last.id) == []


def test_times_round_trip_as_utc_text() -> None:
    bratislava = timezone(timedelta(hours=2))
    moment = datetime(2025, 7, 1, 11, 30, 15, 250000, tzinfo=bratislava)
    text = to_text(moment)
    assert text == "2025-07-01T09:30:15.250000+00:00"
    assert from_text(text) == moment and from_text(text).tzinfo is UTC
    with pytest.raises(ValueError, match="naive"):
        to_text(datetime(2025, 7, 1, 11, 30))
    with pytest.raises(ValueError, match="naive"):
        Change.admin("1", datetime(2025, 7, 1))
