"""Online screlo (RULES.md section 8): the association's published examples and hand-computed
cases for band crossing, acceleration, newcomers, unrated results and decay."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.model import Case, End, Rating, Result
from rules.profile import PROFILE_DIR, Profile
from rules.screlo import accelerate, change, compose, decay, expected, k_factor, rate, replay

ONLINE = Profile.load("sss-online")


def game(a: str, b: str, a_points: float, *, rated: bool = True) -> Result:
    """A finished game between a (starts) and b; a scores `a_points` (1, ½ or 0)."""
    return Result(
        case=Case(End.FINISHED, a, b, 400, 350, round=1),
        first_points=a_points,
        second_points=1 - a_points,
        first_score=400,
        second_score=350,
        forfeited=frozenset(),
        rated=rated,
        rule="e-SP 3.5",
    )


def bye(a: str) -> Result:
    case = Case(End.BYE, a, None, round=1)
    return Result(case, 1.0, 0.0, 20, 0, frozenset(), False, "e-SP 4.9")


# --- RULES.md 8.1: the probability of a rating difference ---------------------------------


def test_published_probability_difference_110() -> None:
    assert expected(110, ONLINE) == 0.65
    assert expected(-110, ONLINE) == 0.35


@pytest.mark.parametrize(
    ("diff", "p"), [(0, 0.5), (10, 0.51), (100, 0.64), (200, 0.76), (300, 0.86), (-200, 0.24)]
)
def test_curve_values_rounded_to_two_decimals(diff: float, p: float) -> None:
    assert expected(diff, ONLINE) == p


@given(st.floats(min_value=-2000, max_value=2000, allow_nan=False))
def test_curve_is_symmetric_and_monotone(diff: float) -> None:
    assert expected(diff, ONLINE) + expected(-diff, ONLINE) == pytest.approx(1.0, abs=1e-9)
    assert expected(diff, ONLINE) <= expected(diff + 25, ONLINE)
    assert 0.0 <= expected(diff, ONLINE) <= 1.0


def profile_with(**screlo: object) -> Profile:
    data = tomllib.loads((PROFILE_DIR / "sss-online.toml").read_text(encoding="utf-8"))
    data["screlo"].update(screlo)
    return Profile.from_dict(data, "test")


def test_explicit_table_replaces_the_curve() -> None:
    profile = profile_with(table=[[0, 0.5], [4, 0.51], [11, 0.52], [100, 0.70]])
    assert expected(3.9, profile) == 0.5
    assert expected(4, profile) == 0.51
    assert expected(-50, profile) == pytest.approx(0.48)
    assert expected(250, profile) == 0.70


# --- RULES.md 8.3: K -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "games", "k"),
    [(1740, 49, 30), (1740, 50, 20), (1800, 10, 24), (1850, 121, 16), (1999, 0, 24),
     (2000, 49, 15), (2100, 500, 10)],
)
def test_k_by_band_and_games_before(rating: float, games: int, k: float) -> None:
    assert k_factor(rating, games, ONLINE) == k


# --- the published examples, through a whole tournament ---------------------------------------


def test_published_example_121_games_at_1850() -> None:
    # expected 3 × 0.65 + 2 × 0.76 + 2 × 0.57 = 4.61; he scores 5 -> (5 − 4.61) × 16 = +6.24
    before = {"hrac": Rating(1850, 121)}
    before |= {f"a{i}": Rating(1740, 80) for i in range(3)}
    before |= {f"b{i}": Rating(1650, 80) for i in range(2)}
    before |= {f"c{i}": Rating(1800, 80) for i in range(2)}
    wins = {"a0", "a1", "b0", "b1", "c0"}
    results = [game("hrac", o, 1.0 if o in wins else 0.0) for o in sorted(before) if o != "hrac"]
    new = rate(before, results, ONLINE)
    assert new["hrac"].value == pytest.approx(1850 + 6.24)
    assert new["hrac"].games == 128
    # an opponent who lost at 1740 with 80 games: K 20 × (0 − 0.35) = −7
    assert new["a0"].value == pytest.approx(1740 - 7.0)
    assert new["a0"].games == 81


def test_published_example_49_games_at_1740() -> None:
    # expected 2 × 0.65 + 2 × 0.5 + 2 × 0.76 = 3.82; he scores 3 -> (3 − 3.82) × 30 = −24.6
    before = {"hrac": Rating(1740, 49)}
    before |= {"a0": Rating(1630, 60), "a1": Rating(1630, 60)}
    before |= {"b0": Rating(1740, 60), "b1": Rating(1740, 60)}
    before |= {"c0": Rating(1540, 60), "c1": Rating(1540, 60)}
    points = {"a0": 1.0, "a1": 0.0, "b0": 0.5, "b1": 0.5, "c0": 1.0, "c1": 0.0}
    results = [game(o, "hrac", 1 - p) for o, p in points.items()]  # he goes second: no matter
    new = rate(before, results, ONLINE)
    assert new["hrac"].value == pytest.approx(1740 - 24.6)
    assert new["hrac"].games == 55


# --- RULES.md 8.4: proportional K across 1800 and 2000 ----------------------------------------


def test_crossing_1800_upwards_uses_both_ks() -> None:
    # 1780, 60 games, 4 wins against equals: surplus +2. 20 points to 1800 cost 1.0 at K 20,
    # the other 1.0 goes at K 16 -> 1816 (not 1780 + 40).
    before = {"hrac": Rating(1780, 60)} | {f"o{i}": Rating(1780, 60) for i in range(4)}
    new = rate(before, [game("hrac", f"o{i}", 1.0) for i in range(4)], ONLINE)
    assert new["hrac"].value == pytest.approx(1816.0)


def test_crossing_2000_downwards_uses_both_ks() -> None:
    # 2010, 100 games, surplus −2: 10 points down to 2000 cost 1.0 at K 10, −1.0 at K 16
    assert change(2010, 100, -2.0, ONLINE) == pytest.approx(-26.0)


def test_crossing_both_boundaries() -> None:
    # 1790, 10 games (K 30/24/15), surplus +9: 10 pts cost 1/3, 200 pts cost 25/3, 1/3 × 15 = 5
    assert change(1790, 10, 9.0, ONLINE) == pytest.approx(215.0)


def test_rating_on_a_boundary_going_down_uses_the_lower_band() -> None:
    # 1800 belongs to the 1800–1999 band (K 16), but every point lost lies below 1800 (K 20)
    assert change(1800, 100, -1.0, ONLINE) == pytest.approx(-20.0)
    assert change(1800, 100, 1.0, ONLINE) == pytest.approx(16.0)


def test_no_crossing_is_plain_k_times_surplus() -> None:
    assert change(1850, 121, 0.39, ONLINE) == pytest.approx(6.24)
    assert change(1740, 49, -0.82, ONLINE) == pytest.approx(-24.6)


# --- RULES.md 8.5: acceleration; newcomers ------------------------------------------------------


def test_newcomer_gain_above_five_per_game_is_added_again() -> None:
    # newcomers at 1600 with 0 games; 4 wins against 1600: 30 × 2 = 60 > 5 × 4 = 20 -> 60 + 40
    results = [game("nov", f"o{i}", 1.0) for i in range(4)]
    new = rate({}, results, ONLINE)
    assert new["nov"] == Rating(1700.0, 4)
    # each opponent lost one game: 30 × (0 − 0.5) = −15, a loss is never accelerated
    assert new["o0"] == Rating(1585.0, 1)


def test_no_acceleration_from_51_games() -> None:
    before = {"hrac": Rating(1600, 51)} | {f"o{i}": Rating(1600, 60) for i in range(4)}
    new = rate(before, [game("hrac", f"o{i}", 1.0) for i in range(4)], ONLINE)
    assert new["hrac"].value == pytest.approx(1640.0)  # K 20 × 2, not accelerated


def test_gain_just_above_the_threshold_is_accelerated() -> None:
    # 1600, 0 games, one draw against 1767 (p 0.28 for him): 30 × 0.22 = 6.6 > 5 -> 8.2
    new = rate({"x": Rating(1767, 60)}, [game("n", "x", 0.5)], ONLINE)
    assert new["n"].value == pytest.approx(1600 + 6.6 + 1.6)
    assert expected(1767 - 1600, ONLINE) == 0.72


def test_gain_exactly_at_the_threshold_is_not_accelerated() -> None:
    assert accelerate(20.0, 0, 4, ONLINE) == 20.0
    assert accelerate(20.5, 0, 4, ONLINE) == 21.0
    assert accelerate(20.5, 51, 4, ONLINE) == 20.5


# --- which results count ------------------------------------------------------------------------


def test_unrated_results_and_byes_change_nothing_but_players_appear() -> None:
    before = {"a": Rating(1900, 70), "b": Rating(1700, 70)}
    results = [game("a", "b", 0.0, rated=False), bye("c")]
    new = rate(before, results, ONLINE)
    assert new == {"a": Rating(1900, 70), "b": Rating(1700, 70), "c": Rating(1600.0, 0)}


def test_only_players_of_the_tournament_are_returned() -> None:
    before = {"a": Rating(1700, 70), "b": Rating(1700, 70), "idle": Rating(2000, 300)}
    assert set(rate(before, [game("a", "b", 0.5)], ONLINE)) == {"a", "b"}


def test_replay_threads_ratings_through_tournaments() -> None:
    first = [game("a", "b", 1.0)]
    second = [game("a", "b", 1.0)]
    after_one = rate({}, first, ONLINE)
    expected_after_two = rate(after_one, second, ONLINE)
    assert replay([first, second], ONLINE) == expected_after_two
    assert expected_after_two["a"].games == 2


# --- decay (e-SP 2.4) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "seasons", "after"),
    [(1700, 1, 1650), (1700, 2, 1600), (1700, 5, 1600), (1620, 1, 1600), (1580, 3, 1580),
     (1600, 1, 1600), (2000, 0, 2000)],
)
def test_decay(value: float, seasons: int, after: float) -> None:
    assert decay(Rating(value, 33), seasons, ONLINE) == Rating(after, 33)


def test_decay_rejects_negative_seasons() -> None:
    with pytest.raises(ValueError, match="záporný"):
        decay(Rating(1700, 1), -1, ONLINE)


def test_compose_adds_an_event_s_own_change_to_the_registry_as_it_stands() -> None:
    """DESIGN.md 6b (issue 44.1): matoh, 1902.0/135 after a first qualifier, finishes a second
    one that rated him from 1910.0/133 to 1910.16/135: the registry is 1902.16/137."""
    assert compose(Rating(1902.0, 135), Rating(1910.0, 133), Rating(1910.16, 135)) == Rating(
        pytest.approx(1902.16), 137)
    after = Rating(1631.5, 4)  # nothing changed since the event's start: its own figures
    assert compose(Rating(1600.0, 0), Rating(1600.0, 0), after) is after
    assert compose(None, Rating(1600.0, 0), after) is after  # a newcomer counts from 1600
    # a newcomer given a rating by the association's list during the event keeps it
    assert compose(Rating(1700.0, 20), Rating(1600.0, 0), after) == Rating(1731.5, 24)


_RATINGS = st.builds(Rating, st.integers(150000, 230000).map(lambda v: v / 100),
                     st.integers(0, 300))


@given(start=_RATINGS, afters=st.lists(_RATINGS, min_size=1, max_size=5),
       order=st.randoms(use_true_random=False))
def test_compose_in_any_order_gives_the_start_plus_every_change(
        start: Rating, afters: list[Rating], order: object) -> None:
    """Events that all started at `start`, finished in any order: start + the sum of changes
    (games exactly; the value up to float sums far below the 0.1 shown)."""
    shuffled = list(afters)
    order.shuffle(shuffled)  # type: ignore[attr-defined]
    registry = start
    for after in shuffled:
        registry = compose(registry, start, after)
    assert registry.games == start.games + sum(a.games - start.games for a in afters)
    assert registry.value == pytest.approx(
        start.value + sum(a.value - start.value for a in afters), abs=1e-9)
