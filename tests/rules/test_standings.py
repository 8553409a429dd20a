"""Standings: e-SP 2.4 / SP 1.3 order, RULES.md section 6 interpretations, SP A3 points and
the e-SP 3.6 treatment of withdrawn or excluded players. Expected values computed by hand."""

from __future__ import annotations

import pytest

from rules import Case, End, Profile, Result, Standing, score, standings

ONLINE = Profile.load("sss-online")
LIVE = Profile.load("sss-live")
CAS = Profile.load("cas")


def game(rnd: int, a: str, b: str | None, end: End, *scores: int, loser: str | None = None) -> Case:
    """A case in which everybody present made a move (the absent one and a bye: nobody)."""
    present = {a, b} - {None, loser} if end is End.NO_SHOW else {a, b} - {None}
    moved = frozenset() if end is End.BYE else frozenset(present)
    return Case(end, a, b, *scores, loser=loser, moved=moved, round=rnd)  # type: ignore[arg-type]


def scored(cases: list[Case], profile: Profile = ONLINE) -> list[Result]:
    return [score(c, profile) for c in cases]


def by_player(lines: list[Standing]) -> dict[str, Standing]:
    return {s.player: s for s in lines}


# Five players, three rounds, several rows of RULES.md section 2.
SMALL = [
    game(1, "A", "B", End.FINISHED, 400, 300),  # A wins
    game(1, "C", "D", End.FINISHED, 350, 350),  # draw
    game(1, "E", None, End.BYE),  # row 8: 1 point, 20:0
    game(2, "A", "C", End.DISCONNECTED, 300, 320, loser="A"),  # row 4: C 350:300
    game(2, "B", "E", End.NO_SHOW, loser="E"),  # row 5: B 100:0, a forfeit win
    game(2, "D", None, End.BYE),
    game(3, "A", "D", End.AGREED_DRAW, 420, 300),  # row 12: 300:300
    game(3, "B", "C", End.TIME_LOSS, 380, 300, loser="B"),  # row 2: C wins at 300:380
    game(3, "E", None, End.BYE),
]
SEEDS = ["A", "B", "C", "D", "E"]


def test_small_tournament_by_hand() -> None:
    lines = standings(SEEDS, scored(SMALL), ONLINE)
    # points: C 2.5; D 2, E 2 (E has more wins); A 1.5; B 1
    assert [s.player for s in lines] == ["C", "E", "D", "A", "B"]
    assert [s.rank for s in lines] == [1, 2, 3, 4, 5]
    got = {
        s.player: (s.points, s.wins, s.median_buchholz, s.buchholz, s.score, s.spread, s.games)
        for s in lines
    }
    assert got == {
        # opponents' points: A [B 1, C 2.5, D 2], B [A 1.5, E 2, C 2.5], C [D 2, A 1.5, B 1],
        # D [C 2.5, A 1.5] (+ a bye), E [B 1] (+ two byes)
        "A": (1.5, 1, 2.0, 5.5, 1000, 50, 3),
        "B": (1.0, 1, 2.0, 6.0, 780, 80, 3),  # the no-show win counts as a win
        "C": (2.5, 2, 1.5, 4.5, 1000, -30, 3),
        "D": (2.0, 1, 0.0, 4.0, 670, 20, 3),  # two opponents: both dropped -> 0
        "E": (2.0, 2, 0.0, 1.0, 40, -60, 3),  # byes count as wins, add nothing to Buchholz
    }
    assert [s.qualification_points for s in lines] == [40, 35, 32, 30, 28]  # SP A3
    assert not any(s.tied for s in lines)


def test_neustadtl_beaten_full_drawn_half() -> None:  # SP 1.3
    lines = by_player(standings(SEEDS, scored(SMALL), ONLINE))
    # C drew D (2 / 2), beat A (1.5) and B (1); A beat B (1), drew D (2 / 2); E's bye is no one
    assert lines["C"].neustadtl == 3.5
    assert lines["A"].neustadtl == 2.0
    assert lines["D"].neustadtl == 2.0  # drew C (2.5 / 2) and A (1.5 / 2)
    assert lines["E"].neustadtl == 0.0  # byes beat no one
    assert lines["B"].neustadtl == 2.0  # the forfeit win over E (2 points)


def test_median_buchholz_drops_best_and_worst_opponent() -> None:
    # X meets players who end with 0, 1 and 3 points: Buchholz 4, median Buchholz 1
    cases = [
        game(1, "X", "P0", End.FINISHED, 300, 200),
        game(1, "P1", "Q", End.FINISHED, 300, 200),
        game(1, "P2", "R", End.FINISHED, 300, 200),
        game(2, "X", "P1", End.FINISHED, 300, 200),
        game(2, "P2", "S", End.FINISHED, 300, 200),
        game(3, "X", "P2", End.FINISHED, 200, 300),
    ]
    players = ["X", "P0", "P1", "P2", "Q", "R", "S"]
    x = by_player(standings(players, scored(cases), ONLINE))["X"]
    assert (x.buchholz, x.median_buchholz) == (4.0, 1.0)


def test_forfeited_game_keeps_its_opponent_in_buchholz() -> None:  # section 6 interpretation
    cases = [game(1, "A", "B", End.NO_SHOW, loser="B"), game(1, "C", "D", End.FINISHED, 300, 200),
             game(2, "B", "C", End.FINISHED, 300, 200)]  # fmt: skip
    lines = by_player(standings(["A", "B", "C", "D"], scored(cases), ONLINE))
    assert lines["A"].buchholz == 1.0  # B's point from round 2
    assert lines["B"].buchholz == 1.0 + 1.0  # A (1) and C (1)


def test_full_tie_falls_back_to_seed_order_and_is_marked() -> None:
    cases = [game(1, "A", "B", End.FINISHED, 400, 300), game(1, "C", "D", End.FINISHED, 400, 300)]
    results = scored(cases)
    lines = standings(["C", "A", "D", "B"], results, ONLINE)
    assert [(s.player, s.tied) for s in lines] == [
        ("C", True), ("A", True), ("D", True), ("B", True),
    ]  # fmt: skip
    assert [s.player for s in standings(["A", "B", "C", "D"], results, ONLINE)] == list("ACBD")


def test_tied_only_marks_the_players_in_the_tie() -> None:
    cases = [game(1, "A", "B", End.FINISHED, 400, 300), game(1, "C", "D", End.FINISHED, 400, 300),
             game(1, "E", None, End.BYE)]  # fmt: skip
    lines = standings(list("ABCDE"), scored(cases), ONLINE)
    assert {s.player: s.tied for s in lines} == {
        "A": True, "C": True, "E": False, "B": True, "D": True,
    }  # fmt: skip


def test_wins_break_a_tie_on_points() -> None:  # e-SP 2.4: 2nd criterion
    lines = standings(SEEDS, scored(SMALL), ONLINE)
    e, d = lines[1], lines[2]
    assert (e.player, d.player, e.points, d.points, e.wins, d.wins) == ("E", "D", 2, 2, 2, 1)


SPREAD_VS_SCORE = [
    game(1, "W", "Y", End.FINISHED, 500, 480),  # W: score 500, spread 20
    game(1, "X", "Z", End.FINISHED, 400, 200),  # X: score 400, spread 200
]


@pytest.mark.parametrize(
    ("profile", "order"),
    [(ONLINE, ["W", "X", "Y", "Z"]), (LIVE, ["X", "W", "Y", "Z"])],
    ids=["online_5th_is_active_score_e-SP_2.4", "live_5th_is_spread_SP_1.3"],
)
def test_fifth_criterion(profile: Profile, order: list[str]) -> None:
    lines = standings(["W", "X", "Y", "Z"], scored(SPREAD_VS_SCORE, profile), profile)
    assert [s.player for s in lines] == order


def _round_robin() -> list[Case]:
    # A and B both 2 points, 2 wins, equal (median) Buchholz; A beat the stronger players
    return [
        game(1, "A", "B", End.FINISHED, 310, 300),
        game(1, "C", "D", End.FINISHED, 300, 300),
        game(2, "C", "A", End.FINISHED, 320, 300),
        game(2, "B", "D", End.FINISHED, 500, 100),
        game(3, "A", "D", End.FINISHED, 305, 300),
        game(3, "B", "C", End.FINISHED, 500, 100),
    ]


def test_round_robin_uses_neustadtl_then_spread() -> None:  # SP 1.3
    results = scored(_round_robin(), LIVE)
    swiss = standings(list("ABCD"), results, LIVE)
    robin = standings(list("ABCD"), results, LIVE, round_robin=True)
    assert [s.player for s in swiss][:2] == ["B", "A"]  # by spread
    assert [s.player for s in robin][:2] == ["A", "B"]  # Neustadtl: A beat B 2, D 0.5;
    # B beat D 0.5, C 1.5
    a, b = robin[0], robin[1]
    assert (a.neustadtl, b.neustadtl) == (2.5, 2.0)


def test_out_player_keeps_his_place_and_nobody_gets_its_points() -> None:  # e-SP 3.6
    out = {"C": "e-SP 3.6 b): vylúčený"}
    lines = standings(SEEDS, scored(SMALL), ONLINE, out=out)
    assert [s.player for s in lines] == ["C", "E", "D", "A", "B"]  # ranked by his games
    assert [s.qualification_points for s in lines] == [0, 35, 32, 30, 28]
    assert lines[0].out == out["C"] and lines[1].out is None


def test_qualification_points_stop_after_place_32() -> None:  # SP A3
    players = [f"P{i:02d}" for i in range(40)]
    cases = [
        game(1, players[i], players[i + 1], End.FINISHED, 300 + i, 100) for i in range(0, 40, 2)
    ]
    lines = standings(players, scored(cases), ONLINE)
    points = [s.qualification_points for s in lines]
    assert points[:3] == [40, 35, 32] and points[31] == 1 and points[32:] == [0] * 8
    assert sum(points) == sum(ONLINE.qualification.table)


def test_cas_bye_is_half_a_point_and_not_a_win() -> None:  # ČAS 14.5
    lines = by_player(
        standings(
            ["A", "B", "C"],
            scored([game(1, "A", "B", End.FINISHED, 300, 200), game(1, "C", None, End.BYE)], CAS),
            CAS,
        )
    )
    assert (lines["C"].points, lines["C"].wins, lines["C"].spread) == (0.5, 0, 0)


def test_player_without_games_is_last_with_zeros() -> None:
    lines = standings(["A", "B", "Late"], scored([game(1, "A", "B", End.FINISHED, 300, 200)]),
                      ONLINE)  # fmt: skip
    late = lines[-1]
    assert (late.player, late.points, late.games, late.buchholz) == ("Late", 0.0, 0, 0.0)


@pytest.mark.parametrize(
    ("players", "cases", "out", "words"),
    [
        (["A", "B", "A"], [], None, "players: 'A' is listed twice"),
        (["A"], [game(1, "A", "B", End.FINISHED, 1, 0)], None, "results: 'B' is not among"),
        (["A", "B"], [], {"Z": "odstúpil"}, "out: 'Z' is not among the players"),
        (
            ["A", "B", "C"],
            [game(1, "A", "B", End.FINISHED, 1, 0), game(1, "C", "A", End.FINISHED, 1, 0)],
            None,
            "'A' has two games in round 1",
        ),
    ],
    ids=["duplicate_player", "unknown_player", "unknown_out", "two_games_one_round"],
)
def test_bad_input_is_refused(
    players: list[str], cases: list[Case], out: dict[str, str] | None, words: str
) -> None:
    with pytest.raises(ValueError) as err:
        standings(players, scored(cases), ONLINE, out=out)
    assert words in str(err.value)
