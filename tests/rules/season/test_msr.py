"""M-SR qualification (SP A3 7.1): ladders worked out by hand in the comments; nothing here
computes an expected value with the code under test."""

from __future__ import annotations

import pytest

from rules.season import Season, Tie, season_ladder
from rules.season.msr import msr_ladder

A3 = "SP A3 7.1"
SMALL = [8, 6, 5, 4, 3, 2, 1]  # a small table for hand computation: place 1 = 8 … place 7 = 1


def _rows(ladder):
    return {r.player: r for r in ladder.rows}


def test_full_season_champion_declined_out_and_the_field_size_at_the_line(event) -> None:
    # E1: a01..a32 (field 32), a03 excluded; E2: b01..b40 (field 40). Champion c (no events),
    # b02 declined. A3 table: place i gives T[i] (40, 35, 32, 30 … 1) to a_i and b_i alike,
    # except a03 (out: 0, and his 32 go to nobody — a04 keeps 30).
    # Seats for the rest: 32 − champion = 31. Counting eligible players by total:
    #   40: a01 b01 (2) · 35: a02 (b02 declined) (3) · 32: b03 (4) · 30: a04 b04 (6) …
    #   place i ≥ 4 ends at 2i − 2 seats → place 16 ends at 30; place 17 (a17, b17: 16 pts)
    #   straddles seat 31. Cup: one live qualifier each, 16 = 16 (same rank); best results
    #   16 = 16; events 1 = 1; field: b17's event has 40 players, a17's 32 → b17 takes seat 31.
    # MS-B (32): b02 first — he declined M-SR, and A3 7.1 excludes from MS-B only the main
    #   event's players — then a17, a18/b18 … a32/b32 = 1 + 1 + 30 = 32 (b33..b40: 0 pts).
    # Ranks: 1 + players ahead: a01 b01 1 · a02 b02 3 · b03 5 · place i ≥ 4: 2i − 2 …
    #   b17 32, a17 33, place i ≥ 18: 2i − 2 + … = 2i − 2 (34 for 18); zero group: 64.
    e1 = event("E1", "live-qt", " ".join(f"a{i:02}" for i in range(1, 33)), out="a03")
    e2 = event("E2", "live-qt", " ".join(f"b{i:02}" for i in range(1, 41)), day=2)
    ladder = season_ladder(Season("2023", "sss-msr", (e1, e2), champion="c",
                                  declined=frozenset({"b02"})))
    rows = _rows(ladder)
    between = {f"{x}{i:02}" for x in "ab" for i in range(4, 17)}
    assert {p for p, r in rows.items() if r.qualified} == {
        "c", "a01", "b01", "a02", "b03", "b17"} | between
    assert ladder.cut == 32
    assert {p for p, r in rows.items() if r.group == "ms-b"} == {"a17"} | {
        f"{x}{i:02}" for x in "ab" for i in range(18, 33)}
    assert rows["c"].group == "champion" and rows["c"].total == 0
    assert rows["b02"].group == "declined-ms-b" and not rows["b02"].qualified
    assert rows["b02"].total == 35
    assert rows["a03"].total == 0 and rows["a03"].group is None
    assert [(n.event, n.reason, n.rule) for n in rows["a03"].not_counted] == [
        ("E1", "out", "e-SP 3.6, SP 4")]
    assert rows["a04"].total == 30  # the out player's 32 went to nobody
    assert [(c.event, c.points, c.coefficient, c.rule) for c in rows["a01"].counted] == [
        ("E1", 40.0, 1.0, A3)]
    assert [(n.event, n.reason) for n in rows["b33"].not_counted] == [("E2", "beyond-places")]
    ranks = {p: r.rank for p, r in rows.items()}
    assert (ranks["a01"], ranks["b01"], ranks["a02"], ranks["b02"], ranks["b03"]) == (
        1, 1, 3, 3, 5)
    assert (ranks["a04"], ranks["a16"], ranks["b17"], ranks["a17"], ranks["a18"]) == (
        6, 30, 32, 33, 34)
    assert ranks["c"] == ranks["a03"] == ranks["b40"] == 64
    assert ladder.ties == (Tie(("b17", "a17"), "field-size", A3, at_cut=True, line="ms"),)
    assert ladder.notes == ("declined-ms-b",)
    assert [r.player for r in ladder.rows][:3] == ["a01", "b01", "a02"]


# (u's events, v's events, the criterion that puts u ahead): each event is (kind, u's or v's
# place, field); the other places are filled by players unique to that event (≤ 6 points,
# or 8 in a written competition, which M-SR does not count). Table: 8, 6, 5, 4, 3, 2, 1.
CRITERIA = [
    # M-SR 12 = 12; cup (all kinds): u 12 + written 8 = 20 > v 12
    ([("live-qt", 1, 8), ("live-qt", 4, 8), ("written", 1, 2)],
     [("live-qt", 1, 8), ("live-qt", 4, 8)], "cup-position"),
    # A3's own example 6 + 3 beats 6 + 2 + 1 (cup equal: all six best live qualifiers)
    ([("live-qt", 2, 8), ("live-qt", 5, 8)],
     [("live-qt", 2, 8), ("live-qt", 6, 8), ("live-qt", 7, 8)], "best-results"),
    # A3's other example: 8 + 1 beats 5 + 4
    ([("live-qt", 1, 8), ("live-qt", 7, 8)], [("live-qt", 3, 8), ("live-qt", 4, 8)],
     "best-results"),
    # 8 + 4 each; u also played a third (8th of 8: no points) → more events
    ([("live-qt", 1, 8), ("live-qt", 4, 8), ("live-qt", 8, 8)],
     [("live-qt", 1, 8), ("live-qt", 4, 8)], "events-played"),
    # 8 + 4 each, 2 events each; u's best result came in a field of 10, v's in 8
    ([("live-qt", 1, 10), ("live-qt", 4, 8)], [("live-qt", 1, 8), ("live-qt", 4, 10)],
     "field-size"),
    # online and pairs and "m" qualify too (A5 9.1 calls them QT); cup equal (one per slot)
    ([("online-qt", 1, 8), ("pairs", 4, 8)], [("m-version", 1, 8), ("online-qt", 4, 8)],
     None),
]


@pytest.mark.parametrize(("u", "v", "criterion"), CRITERIA)
def test_a_tie_at_the_line_goes_through_the_criteria_in_order(
    event, small, u, v, criterion
) -> None:
    events = tuple(
        event(f"{who}{i}", kind, " ".join(who if p == place else "-"
                                          for p in range(1, field + 1)), day=i)
        for who, results in (("u", u), ("v", v))
        for i, (kind, place, field) in enumerate(results, start=1)
    )
    profile = small("sss-msr", SMALL, msr={"seats": 1, "ms_b_seats": 0})
    ladder = msr_ladder(Season("t", "sss-msr", events), profile, small("sss-cup", SMALL))
    rows = _rows(ladder)
    assert rows["u"].total == rows["v"].total
    if criterion is None:  # level on everything: all tied players advance (A3 7.1)
        assert ladder.ties == (Tie(("u", "v"), "all-advance", A3, at_cut=True,
                                   decided=False, line="ms"),)
        assert rows["u"].rank == rows["v"].rank == 1
        assert rows["u"].qualified and rows["v"].qualified and ladder.cut == 2
        assert ladder.notes == ("all-tied-advance",)
    else:
        assert ladder.ties == (Tie(("u", "v"), criterion, A3, at_cut=True, line="ms"),)
        assert (rows["u"].rank, rows["v"].rank) == (1, 2)
        assert (rows["u"].group, rows["v"].group) == ("ms", None)
        assert ladder.cut == 1 and ladder.notes == ()


def _declined_season(event) -> Season:
    return Season("t", "sss-msr", (
        event("Q1", "live-qt", "a b c d e f g"),
        event("Q2", "online-qt", "b a x c d e f", day=2, out="x"),
        event("Q3", "pairs", "h g", day=3),
        event("W", "written", "g h", day=4),
    ), champion="h", declined=frozenset({"a"}))


def test_champion_declined_out_kinds_and_a_tie_at_the_ms_b_line(event, small) -> None:
    # The older reading (declined_plays_ms_b = false): who declined M-SR skips MS-B too.
    # table 8, 6, 5, 4, 3, 2, 1; 3 seats (champion h included), MS-B 1 seat
    # Q1 live-qt  a b c d e f g     → a8 b6 c5 d4 e3 f2 g1
    # Q2 online-qt b a x c d e f, x out → b8 a6 (x: 0, his 5 to nobody) c4 d3 e2 f1
    # Q3 pairs    h g               → h8 g6
    # W  written  g h               → M-SR does not count it (kind-not-counted)
    # totals: a14 b14 c9 h8 d7 g7 e5 f3 x0; a declined, h champion, x no points.
    # MS (2 seats besides h): b, c. MS-B (1 seat): d and g level at 7 →
    #   cup (same table, every slot ×1 but MS): d 4 + 3 = 7, g 1 + 6 + 8 (written) = 15 → g.
    # ranks: a1 b1 c3 h4 g5 d6 e7 f8 x9
    older = {"seats": 3, "ms_b_seats": 1, "declined_plays_ms_b": False}
    ladder = msr_ladder(_declined_season(event), small("sss-msr", SMALL, msr=older),
                        small("sss-cup", SMALL))
    rows = _rows(ladder)
    assert ladder.notes == ("declined-not-ms-b",)
    assert {p: (r.rank, r.total, r.group, r.qualified) for p, r in rows.items()} == {
        "a": (1, 14, "declined", False), "b": (1, 14, "ms", True), "c": (3, 9, "ms", True),
        "h": (4, 8, "champion", True), "g": (5, 7, "ms-b", False), "d": (6, 7, None, False),
        "e": (7, 5, None, False), "f": (8, 3, None, False), "x": (9, 0, None, False),
    }
    assert [r.player for r in ladder.rows] == ["a", "b", "c", "h", "g", "d", "e", "f", "x"]
    assert ladder.ties == (Tie(("g", "d"), "cup-position", A3, at_cut=True, line="ms-b"),)
    assert ladder.cut == 3
    assert [(n.event, n.reason) for n in rows["g"].not_counted] == [("W", "kind-not-counted")]
    assert [(n.event, n.reason) for n in rows["x"].not_counted] == [("Q2", "out")]
    assert [(c.event, c.points, c.slot) for c in rows["c"].counted] == [
        ("Q1", 5.0, "live-qt"), ("Q2", 4.0, "online-qt")]


def test_who_declined_m_sr_plays_ms_b_by_the_letter_of_a3_7_1(event, small) -> None:
    # The same season under the bundled default: A3 7.1 excludes from MS-B only "hráčov, ktorí
    # sa zúčastňujú hlavného turnaja". MS: b, c (and h); a (14, declined) is the best of the
    # rest, so he takes the one MS-B seat; d and g (7) are then below every line: no tie.
    ladder = msr_ladder(_declined_season(event),
                        small("sss-msr", SMALL, msr={"seats": 3, "ms_b_seats": 1}),
                        small("sss-cup", SMALL))
    rows = _rows(ladder)
    assert {p: (r.group, r.qualified) for p, r in rows.items() if r.group} == {
        "a": ("declined-ms-b", False), "b": ("ms", True), "c": ("ms", True),
        "h": ("champion", True)}
    assert ladder.ties == ()
    assert ladder.notes == ("declined-ms-b",)


def test_fewer_players_than_seats_says_so_and_no_points_qualify_nobody(event) -> None:
    ladder = season_ladder(Season("t", "sss-msr", (event("Q", "live-qt", "a b", out="b"),)))
    assert [(r.player, r.qualified, r.group) for r in ladder.rows] == [
        ("a", True, "ms"), ("b", False, None)]
    assert ladder.notes == ("seats-unfilled",)


def test_a_declined_champion_frees_his_seat(event, small) -> None:
    # table 8, 6, …; 2 seats; champion c declined → a and b take both seats, and c, who
    # declined M-SR, the first MS-B seat (A3 7.1 excludes only the main event's players)
    season = Season("t", "sss-msr", (event("Q", "live-qt", "a b c"),), champion="c",
                    declined=frozenset({"c"}))
    ladder = msr_ladder(season, small("sss-msr", SMALL, msr={"seats": 2}),
                        small("sss-cup", SMALL))
    assert [(r.player, r.group) for r in ladder.rows] == [
        ("a", "ms"), ("b", "ms"), ("c", "declined-ms-b")]
