"""`find_seat`: the player, his entry, his table and his opponent in one query — the same rows
the separate lookups read."""

from __future__ import annotations

from sqlite_utils import Database

from bot.store import (
    Change,
    Store,
    add_entry,
    create_player,
    find_pairing,
    find_seat,
    get_entry,
    get_player,
    update_player,
)

from .conftest import Seeded


def test_a_seat_is_what_the_separate_lookups_read(store: Store, seeded: Seeded,
                                                  admin: Change) -> None:
    t, (a, b, c, d) = seeded.tournament, seeded.players

    def check(db: Database) -> None:
        for n, (me, opponent) in enumerate([(a, b), (b, a), (c, d), (d, c)]):
            update_player(db, me, admin, discord_id=9000 + n)
            seat = find_seat(db, t.id, 1, 9000 + n)
            assert seat is not None
            assert seat.player == get_player(db, me)
            assert seat.entry == get_entry(db, t.id, me)
            assert seat.pairing == find_pairing(db, t.id, 1, me)
            assert seat.opponent == get_player(db, opponent)

    store.call_sync(check)


def test_missing_parts_are_none(store: Store, seeded: Seeded, admin: Change) -> None:
    t = seeded.tournament

    def check(db: Database) -> None:
        assert find_seat(db, t.id, 1, 4242) is None  # nobody has this account
        update_player(db, seeded.players[0], admin, discord_id=4242)
        assert find_seat(db, t.id, 2, 4242).pairing is None  # type: ignore[union-attr]
        no_round = find_seat(db, t.id, None, 4242)
        assert no_round is not None and no_round.pairing is None and no_round.opponent is None
        outsider = create_player(db, name="Cudzinec", herna_nick="cudzinec", discord_id=5151,
                                 by=admin)
        seat = find_seat(db, t.id, 1, 5151)
        assert seat is not None and seat.player == outsider and seat.entry is None
        add_entry(db, t.id, outsider.id, admin)  # entered after the pairing: no table
        seat = find_seat(db, t.id, 1, 5151)
        assert seat is not None and seat.entry is not None and seat.pairing is None

    store.call_sync(check)
