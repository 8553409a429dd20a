"""The ČAS duplicate cup (seed 003): a season worked out by hand in the comments."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.season import Season, SeasonError, Tie, season_ladder

NET, LIVE = "ČAS PoS: Internetové turnaje", "ČAS PoS: Živé turnaje"
KH = "ČAS PoS: Křížovka a hádanka"
ORG = "ČAS PoS: Internetové turnaje, Živé turnaje"
# the profile's table (only 55 is in the seed): 55 50 47 45 43, then 48 − place down to 1
T = [55, 50, 47, 45, 43, *range(42, 0, -1)]


def _season(event, **kw) -> Season:
    live = " ".join(f"l{i:02}" for i in range(1, 16))
    return Season("2002", "cas-duplicate-cup", (
        event("I1", "cas-internet", "a b c y", day=1, organizers="z"),     # a55 b50 c47 y45
        event("I2", "cas-internet", "b a z c", day=2, organizers="y"),     # b55 a50 z47 c45
        event("I3", "cas-internet", "z c a b y", day=3),                   # z55 c50 a47 b45 y43
        event("I4", "cas-internet", "c z b a", day=4),                     # c55 z50 b47 a45
        event("I5", "cas-internet", "a b", day=5, organizers="z"),         # a55 b50
        # Křížovka a hádanka at 31.10.: k2 and a level 2nd
        event("K", "cas-correspondence", "k1 k2 a k3 k4", ranks=(1, 2, 2, 4, 5)),
        event("O", "cas-online", "o1 o2 o3 o4 o5 c"),
        # live: l01..l13 places 1–13, l14 and l15 level 14th (34 points each)
        event("L", "cas-live", live, ranks=(*range(1, 15), 14)),
    ), declined=frozenset({"k2"}), **kw)


def test_internet_ladder_best_four_and_the_organisers_credit(event) -> None:
    # a: 55 50 47 45 55 → best four 55 + 55 + 50 + 47 = 207 (I4's 45 not)
    # b: 50 55 45 47 50 → 55 + 50 + 50 + 47 = 202 (I3's 45 not)
    # c: 47 45 50 55 → 197
    # z organised I1 and I5; played I2 47, I3 55, I4 50 → three: credit (47+55+50)/3 = 152/3
    #   once, for I1 (the earlier); I5 "organizer-credit-once"; total 152 + 152/3 = 608/3
    # y organised I2; played I1 45, I3 43 → two, fewer than three: no credit; 88
    internet = season_ladder(_season(event)).parts[0]
    rows = {r.player: r for r in internet.rows}
    assert [(r.player, r.rank) for r in internet.rows] == [
        ("a", 1), ("z", 2), ("b", 3), ("c", 4), ("y", 5)]
    assert {p: r.total for p, r in rows.items()} == {
        "a": 207, "z": float(Fraction(608, 3)), "b": 202, "c": 197, "y": 88}
    assert [(c.event, c.points, c.organizer, c.rule) for c in rows["z"].counted] == [
        ("I3", 55, False, NET), ("I1", float(Fraction(152, 3)), True, ORG),
        ("I4", 50, False, NET), ("I2", 47, False, NET)]
    assert [(n.event, n.reason, n.rule) for n in rows["z"].not_counted] == [
        ("I5", "organizer-credit-once", ORG)]
    assert [(n.event, n.reason) for n in rows["y"].not_counted] == [
        ("I2", "organizer-too-few")]
    assert [(n.event, n.points, n.reason) for n in rows["a"].not_counted] == [
        ("I4", 45, "not-best")]
    assert all(r.qualified and r.group == "internet" for r in internet.rows)


def test_seats_fill_ladder_by_ladder_and_freed_seats_go_to_the_live_ladder(event) -> None:
    # internet: 5 players, 8 seats → a z b c y.
    # correspondence top 8 = all five: k1 seated; k2 and a level (a lot, not drawn: shared
    #   rank 2); a already seated → his seat is freed; k2 declined → freed; k3 k4 seated.
    # online top 4: o1..o4 (c, 6th, would be seated already anyway).
    # live: 12 + 2 freed = 14 seats: l01..l13, then l14/l15 level for the last seat — a lot
    #   not drawn: both "lot-pending", the seat held; 5 + 3 + 4 + 13 = 25 seated, 1 held.
    ladder = season_ladder(_season(event))
    seated = [(r.rank, r.player, r.group) for r in ladder.rows if r.qualified]
    assert seated == [
        (1, "a", "internet"), (2, "z", "internet"), (3, "b", "internet"), (4, "c", "internet"),
        (5, "y", "internet"), (6, "k1", "correspondence"), (7, "k3", "correspondence"),
        (8, "k4", "correspondence"), (9, "o1", "online"), (10, "o2", "online"),
        (11, "o3", "online"), (12, "o4", "online"),
        *((12 + i, f"l{i:02}", "live") for i in range(1, 14))]
    rest = [(r.rank, r.player, r.group, r.qualified) for r in ladder.rows[25:]]
    assert rest == [(26, "l14", "lot-pending", False), (26, "l15", "lot-pending", False),
                    (28, "k2", "declined", False), (29, "o5", None, False)]
    assert ladder.cut == 25
    assert ladder.notes == ("lot-pending", "seats-unfilled")
    assert Tie(("a", "k2"), "lot", KH, at_cut=False, decided=False,
               line="correspondence") in ladder.ties
    assert Tie(("l14", "l15"), "lot", LIVE, at_cut=True, decided=False,
               line="live") in ladder.ties
    correspondence = ladder.parts[1]
    assert [(r.player, r.rank) for r in correspondence.rows] == [
        ("k1", 1), ("a", 2), ("k2", 2), ("k3", 4), ("k4", 5)]
    # an order, not points: each row counts its place in the one event
    assert [(c.place, c.points) for r in correspondence.rows for c in r.counted] == [
        (1, 0), (2, 0), (2, 0), (4, 0), (5, 0)]
    live = ladder.parts[3]
    assert live.row_of("l14").total == live.row_of("l15").total == T[13] == 34
    assert ladder.row_of("nobody") is None


def test_a_drawn_lot_orders_the_tie_and_gives_the_seat(event) -> None:
    ladder = season_ladder(_season(event, lots=(("l15", "l14"), ("k2", "a"))))
    rows = {r.player: r for r in ladder.rows}
    assert (rows["l15"].group, rows["l14"].group) == ("live", None)
    assert ladder.cut == 26
    assert Tie(("l15", "l14"), "lot", LIVE, at_cut=True, line="live") in ladder.ties
    assert Tie(("k2", "a"), "lot", KH, line="correspondence") in ladder.ties
    assert ladder.notes == ("seats-unfilled",)
    assert [(r.player, r.rank) for r in ladder.parts[1].rows][:3] == [
        ("k1", 1), ("k2", 2), ("a", 3)]


def test_best_result_then_second_best_decide_before_the_lot(event) -> None:
    # p 55 + 45 = 100, q 50 + 50 = 100: p's best result (55) is the better → p first;
    # x1 55, x2 47
    ladder = season_ladder(Season("t", "cas-duplicate-cup", (
        event("I1", "cas-internet", "p q"), event("I2", "cas-internet", "x1 q x2 p", day=2),
    )))
    assert [(r.player, r.rank) for r in ladder.parts[0].rows] == [
        ("p", 1), ("q", 2), ("x1", 3), ("x2", 4)]
    assert ladder.parts[0].ties == (Tie(("p", "q"), "best-results", NET, line="internet"),)


def test_two_online_qualifiers_are_refused(event) -> None:
    with pytest.raises(SeasonError) as caught:
        season_ladder(Season("t", "cas-duplicate-cup", (
            event("O1", "cas-online", "a"), event("O2", "cas-online", "b", day=2))))
    assert caught.value.code == "one-event-only"
