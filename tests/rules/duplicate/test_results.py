"""Results of duplicate games (issue 23 item 6): points and % of the top (004 §7), totals over
games (003 r. 46–47), tie-breaks (r. 48, 49), corrections that move scores and ranks but never
the board (004 §5D), the word list of each round (r. 26); properties of the standings."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from rules.duplicate import (
    Correction,
    Game,
    ShootOut,
    Slip,
    Standing,
    duplicate_profile,
    percent,
    percent_text,
    score_game,
    shoot_out_groups,
    standings,
)

CAS = duplicate_profile("cas-duplicate")
GREEK = duplicate_profile("greek-duplicate")


def played(player: str, round_no: int, score: int, word: str = "SLOVO",
           declared: int | None = None, **more: object) -> Slip:
    declared = score if declared is None else declared
    return Slip(player, round_no, f"8H {word}", score, (word,), declared=declared, **more)


def game(tops: tuple[int, ...], scores: dict[str, list[int]], **more: object) -> Game:
    slips = tuple(played(p, r, s) for p, row in scores.items()
                  for r, s in enumerate(row, start=1))
    return Game("g1", tuple(scores), tops, slips, **more)


def test_points_and_percent_of_the_top():
    """004 §7: 800 points of a final board of 1000 = "800-80%"."""
    result = score_game(game((500, 300, 200), {"p1": [400, 300, 100]}), GREEK)
    total = result.totals["p1"]
    assert (total.points, total.top, percent_text(total.percent)) == (800, 1000, "80")
    assert total.percent_sum == Fraction(80) + 100 + 50
    assert [percent_text(r.percent("p1")) for r in result.rounds] == ["80", "100", "50"]
    assert percent_text(percent(2, 3), 1) == "66.7" and percent(5, 0) == 0


def test_a_tie_on_points_goes_to_the_sum_of_round_percentages():
    """003 r. 48: p2's 90 + 10 of tops 100 + 10 is 190 %, p1's 100 + 0 only 100 %."""
    rows = standings([score_game(game((100, 10), {"p1": [100, 0], "p2": [90, 10]}), CAS)], CAS)
    assert [(s.rank, s.player, s.points, s.decided_by, s.rule) for s in rows] == [
        (1, "p2", 100, "points", "003 r. 46–47"),
        (2, "p1", 100, "percent-sum", "003 r. 48")]


def test_a_full_tie_waits_for_the_shoot_out_and_then_follows_it():
    """003 r. 49: the higher-scoring word, then the faster submission."""
    result = [score_game(game((50,), {"p1": [40], "p2": [40], "p3": [50]}), CAS)]
    rows = standings(result, CAS)
    assert [(s.rank, s.player, s.decided_by) for s in rows] == [
        (1, "p3", "points"), (2, "p1", "points"), (2, "p2", "tied")]
    shots = {"p1": ShootOut(40, 100.0), "p2": ShootOut(40, 90.5)}
    rows = standings(result, CAS, shots)
    assert [(s.rank, s.player, s.decided_by, s.rule) for s in rows] == [
        (1, "p3", "points", "003 r. 46–47"), (2, "p2", "points", "003 r. 46–47"),
        (3, "p1", "shoot-out", "003 r. 49")]
    # a result for only one of the tied players separates nobody, and is not shown
    rows = standings(result, CAS, {"p1": ShootOut(60, 1.0)})
    assert [(s.rank, s.decided_by, s.shoot_out) for s in rows] == [
        (1, "points", None), (2, "points", None), (2, "tied", None)]


def test_a_shoot_out_level_again_shares_the_place_and_one_without_a_tie_is_ignored():
    """003 r. 49 says nothing after the time: equal words in equal times share the place; a
    result of a player nobody is level with (say, a correction ended his tie) changes
    nothing and is not shown."""
    result = [score_game(game((50,), {"p1": [40], "p2": [40], "p3": [50]}), CAS)]
    assert shoot_out_groups(result, CAS) == [("p1", "p2")]
    shots = {"p1": ShootOut(30, 12.5, "8H SLOVO"), "p2": ShootOut(30, 12.5),
             "p3": ShootOut(90, 1.0)}
    rows = standings(result, CAS, shots)
    assert [(s.rank, s.player, s.decided_by, s.rule, s.shoot_out) for s in rows] == [
        (1, "p3", "points", "003 r. 46–47", None),
        (2, "p1", "points", "003 r. 46–47", shots["p1"]),
        (2, "p2", "tied-after-shoot-out", "003 r. 49", shots["p2"])]


def test_a_three_way_tie_is_ordered_by_score_then_time():
    result = [score_game(game((50,), {p: [20] for p in ("p1", "p2", "p3", "p4")}), GREEK)]
    shots = {"p1": ShootOut(30, 100.0), "p2": ShootOut(31, 170.0), "p3": ShootOut(30, 99.5),
             "p4": ShootOut(30, 100.0)}
    rows = standings(result, GREEK, shots)
    assert [(s.rank, s.player, s.decided_by) for s in rows] == [
        (1, "p2", "points"), (2, "p3", "shoot-out"), (3, "p1", "shoot-out"),
        (3, "p4", "tied-after-shoot-out")]
    assert {s.rule for s in rows[1:]} == {"003 r. 49 (analogy)"}


def test_several_games_are_summed():
    """003 r. 46: "budou sečteny bodové hodnoty hráčů z obou partií"."""
    first = score_game(game((60, 40), {"p1": [60, 0], "p2": [30, 40]}), CAS)
    second = score_game(Game("g2", ("p1", "p2"), (80,), (played("p1", 1, 10),
                                                         played("p2", 1, 80))), CAS)
    rows = standings([first, second], CAS)
    assert [(s.player, s.points, s.top) for s in rows] == [("p2", 150, 180), ("p1", 70, 180)]
    assert rows[0].percent_sum == Fraction(50) + 100 + 100


def test_a_correction_changes_scores_and_ranks_but_not_the_board():
    """004 §5D: a wrongly accepted word loses its points, a wrongly rejected one gains them;
    "Δεν μεταβάλλεται τίποτε ως προς το ταμπλό" — the tops stay."""
    slips = (played("p1", 1, 50, "ZLÉ"), played("p2", 1, 40, "DOBRÉ", rejected=frozenset(
        {"DOBRÉ"})), played("p1", 2, 20), played("p2", 2, 20))
    before = score_game(Game("g1", ("p1", "p2"), (50, 20), slips), CAS)
    fixes = (Correction("ZLÉ", False, "nie je v PSP"), Correction("DOBRÉ", True, "je v KSSJ"))
    after = score_game(Game("g1", ("p1", "p2"), (50, 20), slips, corrections=fixes), CAS)
    assert [s.player for s in standings([before], CAS)] == ["p1", "p2"]
    assert [(s.player, s.points) for s in standings([after], CAS)] == [("p2", 60), ("p1", 20)]
    assert [r.top for r in after.rounds] == [r.top for r in before.rounds] == [50, 20]
    assert after.rounds[0].scores["p1"].corrected == (fixes[0],)
    assert [(w.word, w.approved, w.players, w.corrected) for w in after.words
            if w.round == 1] == [("DOBRÉ", True, ("p2",), fixes[1]),
                                 ("ZLÉ", False, ("p1",), fixes[0])]


def test_a_player_above_the_top_is_shown_and_flagged_not_capped():
    """Only a correction can do it: the computer did not know the word it admitted."""
    slips = (played("p1", 1, 60, "NOVÉ", rejected=frozenset({"NOVÉ"})),)
    g = Game("g1", ("p1",), (50,), slips, corrections=(Correction("NOVÉ", True, "SSSJ"),))
    row = standings([score_game(g, CAS)], CAS)[0]
    assert (row.points, percent_text(row.percent), row.above_top) == (60, "120", (("g1", 1),))


def test_the_word_list_of_each_round():
    """003 r. 26: every word written, approved or not, with who wrote it; slips that were not
    judged (late, several) add nothing."""
    slips = (played("p1", 1, 10, "AHOJ"), played("p2", 1, 10, "AHOJ"),
             played("p3", 1, 9, "HOJA", rejected=frozenset({"HOJA"})),
             played("p4", 1, 30, "LATE", late=True))
    words = score_game(Game("g1", ("p1", "p2", "p3", "p4"), (12,), slips), CAS).words
    assert [(w.round, w.word, w.approved, w.players) for w in words] == [
        (1, "AHOJ", True, ("p1", "p2")), (1, "HOJA", False, ("p3",))]


# -- properties ----------------------------------------------------------------------------

PLAYERS = ["a", "b", "c", "d", "e"]


@st.composite
def tournaments(draw: st.DrawFn, top: int = 60):
    results = []
    for g in range(draw(st.integers(1, 3))):
        tops = tuple(draw(st.lists(st.integers(0, top), min_size=1, max_size=5)))
        slips = tuple(
            played(p, r, draw(st.integers(0, top)), declared=draw(st.integers(0, top + 5)),
                   late=draw(st.booleans()))
            for p in PLAYERS for r, top in enumerate(tops, start=1) if draw(st.booleans()))
        results.append(score_game(Game(f"g{g}", tuple(PLAYERS), tops, slips), CAS))
    shots = draw(st.dictionaries(st.sampled_from(PLAYERS), st.builds(
        ShootOut, st.integers(0, 3), st.sampled_from([1.0, 2.0]))))
    return results, shots


@given(tournaments())
def test_standings_are_a_total_order_consistent_with_the_keys(tournament):
    results, shots = tournament
    rows = standings(results, CAS, shots)
    assert sorted(r.player for r in rows) == PLAYERS
    for i, row in enumerate(rows):
        better = [r for r in rows if (r.points, r.percent_sum) > (row.points, row.percent_sum)]
        same = [r for r in rows if (r.points, r.percent_sum) == (row.points, row.percent_sum)]
        assert len(better) < row.rank <= len(better) + len(same)
        if i:
            above = rows[i - 1]
            assert (above.points, above.percent_sum) >= (row.points, row.percent_sum)
            assert (row.rank == above.rank) == row.decided_by.startswith("tied")
        # nobody beat the top without a correction, so nothing exceeds 100 %
        assert row.percent <= 100 and not row.above_top
        assert row.points == sum(r.totals[row.player].points for r in results)
    assert standings(list(reversed(results)), CAS, shots) == rows


@given(tournaments())
def test_every_round_scores_at_most_the_top_and_at_least_zero(tournament):
    results, _ = tournament
    for result in results:
        for r in result.rounds:
            assert all(0 <= s.points <= r.top and s.rule for s in r.scores.values())


def shot_key(row: Standing) -> tuple[int, float]:
    assert row.shoot_out is not None
    return -row.shoot_out.score, row.shoot_out.seconds


@given(st.one_of(tournaments(), tournaments(top=3)))
def test_the_shoot_out_only_reorders_players_level_on_points_and_percentages(tournament):
    """003 r. 49 comes after r. 47–48: whatever the results, the order of (points, Σ %)
    stays, a player outside a level group keeps his rank and shows no shoot-out, and a level
    group is reordered only once all of it has a result — then by the higher score, then the
    shorter time, players equal on both sharing the place."""
    results, shots = tournament
    before = standings(results, CAS)
    after = standings(results, CAS, shots)
    assert [(s.points, s.percent_sum) for s in after] == [
        (s.points, s.percent_sum) for s in before]
    was = {s.player: s.rank for s in before}
    groups = {p: g for g in shoot_out_groups(results, CAS) for p in g}
    for row in after:
        group = groups.get(row.player, (row.player,))
        played = len(group) > 1 and all(p in shots for p in group)
        assert (row.shoot_out is not None) == played
        assert was[row.player] == min(was[p] for p in group)  # level: one shared rank before
        assert was[row.player] <= row.rank < was[row.player] + len(group)
        if not played:
            assert row.rank == was[row.player] and row.decided_by in ("points",
                                                                        "percent-sum", "tied")
    for above, row in pairwise(after):
        if row.shoot_out is not None and groups[row.player] == groups.get(above.player):
            assert shot_key(above) <= shot_key(row)
            assert (row.rank == above.rank) == (shot_key(above) == shot_key(row))
            assert row.rule == "003 r. 49"
