"""The Slovak Cup (SP A5 9.1): a season worked out by hand in the comments."""

from __future__ import annotations

import pytest

from rules.season import Season, season_ladder
from rules.season.cup import cup_ladder
from rules.season.profile import season_profile_from_dict

A5 = "SP A5 9.1"


@pytest.fixture
def season(event) -> Season:
    # "-" = a player unique to that event. A3 table: 40 35 32 30 28 27 26 25 24 23 … 13 (20th)
    late = " ".join(["-"] * 15)
    return Season("2023", "sss-cup", (
        event("L1", "live-qt", "p - o q"),                    # p 40, o 32, q 30
        event("L2", "live-qt", "p - - - o q", day=2),         # p 40, o 28, q 27
        event("L3", "live-qt", "- p - - - - - - o q", day=3),  # p 35, o 24, q 23
        event("L4", "live-qt", "- o p", day=4),               # o 35, p 32
        event("L5", "live-qt", f"- - - p {late} o", day=5),   # p 30, o 13 (20th)
        event("L6", "live-qt", "- - - - p", day=6),           # p 28
        event("L7", "live-qt", "- - - - - p", day=7),         # p 27
        event("O1", "online-qt", "- p", day=8),               # p 35
        event("O2", "online-qt", "p", day=9),                 # p 40
        event("P", "pairs", "- - p", day=10),                 # p 32
        event("M1", "m-version", "p", day=11),                # p 40
        event("M2", "m-version", "- p", day=12),              # p 35
        event("W1", "written", "- - - p - - - - - o", day=13, organizers="o"),  # p 30, o (23)
        event("W2", "written", "- p", day=14),                # p 35
        event("I1", "internet", "p - - - o", day=15, organizers="o q"),  # p 40, o (28)
        event("S", "msr", "- - - - p", day=16),               # p 28 × 2
        event("V", "msr-vykladacie", " ".join(["-"] * 9 + ["p"]), day=17),  # p 23 × 2
    ))


def test_every_slot_takes_its_best_results_times_its_coefficient(season) -> None:
    # p: six best live 40 + 40 + 35 + 32 + 30 + 28 = 205 (L7's 27 not); online 40 (O1's 35
    # not); pairs 32; "m" 40 (M2's 35 not); written: the better, W2 35 (W1's 30 not);
    # internet 40; MS 28 × 2 = 56; MS vykladacie 23 × 2 = 46 → 494, the cup's first place.
    ladder = season_ladder(season)
    p = ladder.rows[0]
    assert (p.player, p.rank, p.total, p.qualified) == ("p", 1, 494, False)
    assert [(c.event, c.points, c.coefficient, c.slot) for c in p.counted] == [
        ("L1", 40, 1, "live-qt"), ("L2", 40, 1, "live-qt"), ("L3", 35, 1, "live-qt"),
        ("L4", 32, 1, "live-qt"), ("L5", 30, 1, "live-qt"), ("L6", 28, 1, "live-qt"),
        ("O2", 40, 1, "online-qt"), ("P", 32, 1, "pairs"), ("M1", 40, 1, "m-version"),
        ("W2", 35, 1, "written"), ("I1", 40, 1, "internet"), ("S", 28, 2, "msr"),
        ("V", 23, 2, "msr-vykladacie")]
    assert all(c.rule == A5 and not c.organizer for c in p.counted)
    assert [(n.event, n.points, n.reason, n.rule) for n in p.not_counted] == [
        ("L7", 27, "not-best", A5), ("M2", 35, "not-best", A5), ("O1", 35, "not-best", A5),
        ("W1", 30, "not-best", A5)]
    assert (ladder.cut, ladder.rule, ladder.competition) == (0, A5, "sss-cup")


def test_the_organiser_gets_his_fourth_best_live_result(season) -> None:
    # o: live 35 (L4), 32, 28, 24, 13 → all five count in the six best = 132; his fourth best
    # is 24, credited for W1 and for I1. He also played both: at W1 10th (23 < 24: the credit
    # stands), at I1 5th (28 > 24: his place stands) → 132 + 24 + 28 = 184.
    # q organised I1 too but played only three live qualifiers: no fourth → no credit;
    # q = 30 + 27 + 23 = 80.
    rows = {r.player: r for r in season_ladder(season).rows}
    o, q = rows["o"], rows["q"]
    assert o.total == 184 and q.total == 80
    assert [(c.event, c.points, c.slot, c.organizer, c.rule) for c in o.counted
            if c.slot in ("written", "internet")] == [
        ("W1", 24, "written", True, A5), ("I1", 28, "internet", False, A5)]
    assert [(n.event, n.points, n.reason) for n in o.not_counted] == [
        ("I1", 24, "organizer"), ("W1", 23, "organizer")]
    assert [(n.event, n.points, n.reason) for n in q.not_counted] == [
        ("I1", 0, "organizer-too-few")]
    # 80 is also the MS winners' 40 × 2 (S#1, V#1): the three share the third rank
    assert (o.rank, q.rank, rows["S#1"].rank, rows["V#1"].rank) == (2, 3, 3, 3)


def test_with_shortfall_last_the_organiser_gets_his_weakest_live_result(season, raw) -> None:
    data = raw("sss-cup")
    data["cup"]["organizer"]["shortfall"] = "last"
    q = {r.player: r for r in cup_ladder(season, season_profile_from_dict(data)).rows}["q"]
    # q's live results 30, 27, 23: the weakest, 23, credited for I1 → 80 + 23
    assert q.total == 103
    assert [(c.event, c.points, c.organizer) for c in q.counted if c.slot == "internet"] == [
        ("I1", 23, True)]


def test_level_players_share_the_rank_a5_names_no_tie_break(event) -> None:
    ladder = season_ladder(Season("t", "sss-cup", (
        event("A", "live-qt", "a b"), event("B", "live-qt", "b a", day=2))))
    assert [(r.player, r.rank, r.total) for r in ladder.rows] == [("a", 1, 75), ("b", 1, 75)]
    assert ladder.ties == ()
