"""Players, tournaments, rounds and entries."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.store import (
    Change,
    DuplicateError,
    NotFoundError,
    Store,
    StoreError,
    TournamentStatus,
    add_entry,
    check_in,
    create_player,
    create_tournament,
    exclude,
    find_player_by_discord,
    find_player_by_nick,
    get_player,
    get_round,
    get_tournament_by_slug,
    last_published_round,
    list_audit,
    list_entries,
    set_paid,
    set_status,
    update_player,
    update_round,
    update_tournament,
    withdraw,
)

from .conftest import START, Seeded


def test_player_lookups_by_nick_any_case_and_by_discord(store: Store, admin: Change) -> None:
    created = store.call_sync(create_player, name="Ľudmila Šťastná", herna_nick=" Ľuda ",
                              discord_id=123456789012345678, by=admin)
    assert created.herna_nick == "Ľuda" and created.screlo is None  # newcomer
    assert store.read_sync(find_player_by_nick, "ľUDA") == created
    assert store.read_sync(find_player_by_discord, 123456789012345678) == created
    assert store.read_sync(find_player_by_nick, "nikto") is None
    with pytest.raises(DuplicateError, match="Ľudmila"):
        store.call_sync(create_player, name="Iná", herna_nick="ĽUDA", by=admin)
    with pytest.raises(DuplicateError, match="Discord"):
        store.call_sync(create_player, name="Iná", herna_nick="ina",
                        discord_id=123456789012345678, by=admin)
    with pytest.raises(NotFoundError):
        store.read_sync(get_player, 999)


def test_update_player_audits_before_and_after(store: Store, admin: Change) -> None:
    player = store.call_sync(create_player, name="Peter", herna_nick="pet", by=admin)
    updated = store.call_sync(update_player, player.id, admin, herna_nick="Peťo",
                              discord_name="peto#1")
    assert store.read_sync(find_player_by_nick, "PEŤO") == updated
    (entry,) = store.read_sync(list_audit, action="player.update")
    assert entry.data["before"]["herna_nick"] == "pet"
    assert entry.data["after"]["herna_nick"] == "Peťo"
    assert (entry.actor_kind, entry.actor_id, entry.reason) == ("admin", "777", "test")
    with pytest.raises(ValueError, match="screlo"):
        store.call_sync(update_player, player.id, admin, screlo=2000.0)


def test_tournament_with_rounds_and_limits(store: Store, admin: Change) -> None:
    starts = [START, START + timedelta(hours=1)]
    tournament = store.call_sync(
        create_tournament, slug="kt-jar", name="KT jar", season="2024/2025",
        round_starts=starts, waiting_minutes=10, game_limit_minutes=50, by=admin,
        channel_id=42, auto_apply_forfeits_after_minutes=30, settings={"dictionary": True},
    )
    assert tournament.status is TournamentStatus.DRAFT
    assert (tournament.rounds_planned, tournament.channel_id) == (2, 42)
    assert tournament.settings == {"dictionary": True}
    assert tournament.tempo == "2x20" and tournament.language_version == "slovenský jazyk"
    second = store.read_sync(get_round, tournament.id, 2)
    assert second.limit_at - second.starts_at == timedelta(minutes=50)
    assert store.read_sync(get_tournament_by_slug, "kt-jar") == tournament
    with pytest.raises(DuplicateError):
        store.call_sync(create_tournament, slug="kt-jar", name="x", season="s",
                        round_starts=starts, waiting_minutes=1, game_limit_minutes=1, by=admin)
    with pytest.raises(ValueError, match="increasing"):
        store.call_sync(create_tournament, slug="kt-zle", name="x", season="s",
                        round_starts=starts[::-1], waiting_minutes=1, game_limit_minutes=1,
                        by=admin)
    with pytest.raises(ValueError, match="cannot change"):
        store.call_sync(update_tournament, tournament.id, admin, slug="nove")
    changed = store.call_sync(update_tournament, tournament.id, admin, waiting_minutes=15)
    assert changed.waiting_minutes == 15
    published = store.call_sync(update_round, tournament.id, 1, admin, published_at=START)
    assert published.published_at == START


def test_status_only_moves_forward(store: Store, seeded: Seeded, admin: Change) -> None:
    running = store.call_sync(set_status, seeded.tournament.id, TournamentStatus.RUNNING, admin)
    assert running.status is TournamentStatus.RUNNING
    with pytest.raises(StoreError, match="cannot go to checkin"):
        store.call_sync(set_status, seeded.tournament.id, TournamentStatus.CHECKIN, admin)


def test_entries_in_registration_order_with_seed_copied(store: Store, seeded: Seeded,
                                                        admin: Change) -> None:
    entries = store.read_sync(list_entries, seeded.tournament.id)
    assert [e.player_id for e in entries] == seeded.players
    assert [e.registration_no for e in entries] == [1, 2, 3, 4]
    assert entries[1].seed_rating == 1690.0 and entries[1].paid
    with pytest.raises(DuplicateError):
        store.call_sync(add_entry, seeded.tournament.id, seeded.players[0], admin)


def test_entry_state_changes(store: Store, seeded: Seeded, admin: Change) -> None:
    t, (a, b, c, _) = seeded.tournament.id, seeded.players
    later = Change.player(a, START + timedelta(minutes=5))
    first = store.call_sync(check_in, t, a, later)
    again = store.call_sync(check_in, t, a, Change.player(a, START + timedelta(minutes=9)))
    assert first.checked_in_at == again.checked_in_at == later.at
    assert not store.call_sync(set_paid, t, b, False, admin).paid
    gone = store.call_sync(withdraw, t, b, "choroba", admin)
    assert gone.out == "choroba"
    out = store.call_sync(exclude, t, c, "e-SP 3.6 (b): 3 kontumácie", admin)
    assert out.excluded_at == START
    with pytest.raises(StoreError, match="already excluded"):
        store.call_sync(exclude, t, c, "znova", admin)
    with pytest.raises(StoreError, match="out of the tournament"):
        store.call_sync(check_in, t, b, admin)
    with pytest.raises(ValueError, match="reason"):
        store.call_sync(withdraw, t, a, "  ", admin)
    active = store.read_sync(lambda db: list_entries(db, t, active_only=True))
    assert [e.player_id for e in active] == [a, seeded.players[3]]


def test_the_last_published_round_is_the_current_one(
        store: Store, seeded: Seeded, admin: Change) -> None:
    tid = seeded.tournament.id
    assert store.call_sync(last_published_round, tid) is None  # nothing published yet
    store.call_sync(update_round, tid, 1, admin, published_at=START)
    store.call_sync(update_round, tid, 2, admin, published_at=START + timedelta(hours=1))
    assert store.call_sync(last_published_round, tid).number == 2
    assert store.call_sync(last_published_round, tid + 1) is None  # another tournament
