"""Swiss or round robin (RULES.md 1): online events are Swiss at any field size (e-SP 2.4; the
main rules' SP 1.1–4 "sa na online turnaje nevzťahujú"); an online event is a round robin only
when its propozície say so (`event_format`); live events keep SP 1.3's size rule."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import Case, End, Entrant, Profile, Result, is_round_robin, pair_round

ONLINE = Profile.load("sss-online")
LIVE = Profile.load("sss-live")
CAS = Profile.load("cas")


def won(rnd: int, first: str, second: str, first_wins: bool) -> Result:
    case = Case(End.FINISHED, first, second, 400, 380, round=rnd, moved=frozenset({first, second}))
    a, b = (1.0, 0.0) if first_wins else (0.0, 1.0)
    return Result(case, a, b, 400, 380, frozenset(), True, "e-SP 3.5")


def entrants(n: int) -> list[Entrant]:
    return [Entrant(f"p{i + 1}", 2000.0 - 10 * i) for i in range(n)]


@pytest.mark.parametrize(
    ("profile", "event_format", "players", "rounds", "expected"),
    [
        pytest.param(ONLINE, None, 8, 7, False, id="e-SP 2.4: 8 players / 7 rounds online: Swiss"),
        pytest.param(ONLINE, None, 4, 3, False, id="e-SP 2.4: 4 players / 3 rounds online: Swiss"),
        pytest.param(ONLINE, "round-robin", 8, 7, True, id="propozície: round robin online"),
        pytest.param(ONLINE, "round-robin", 24, 7, True, id="propozície: a partial round robin"),
        pytest.param(ONLINE, "swiss", 8, 7, False, id="propozície: Swiss named explicitly"),
        pytest.param(LIVE, None, 8, 7, True, id="SP 1.3: players <= rounds + 1 live"),
        pytest.param(LIVE, None, 9, 7, False, id="SP 1.3: players > rounds + 1 live"),
        pytest.param(LIVE, "swiss", 8, 7, False, id="SP 1.3 live, the propozície say Swiss"),
        pytest.param(CAS, None, 8, 7, False, id="ČAS 16.34: pairing by the rozpis, never by size"),
    ],
)
def test_is_round_robin(profile: Profile, event_format: str | None, players: int, rounds: int,
                        expected: bool) -> None:
    assert is_round_robin(players, rounds, profile, event_format) is expected


def test_profiles_cite_their_format_and_the_balance_analogy() -> None:
    assert (ONLINE.pairing.format, ONLINE.pairing.format_rule) == ("swiss", "e-SP 2.4")
    assert ONLINE.pairing.balance_rule == "SP 1.3 analogicky"  # an interpretation online
    assert (LIVE.pairing.format, LIVE.pairing.format_rule) == ("by-size", "SP 1.3")


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="formát"):
        is_round_robin(8, 7, ONLINE, "knockout")


def test_eight_online_players_round_two_pairs_winners_with_winners() -> None:
    """The audit's case: Berger tables put 1-point players against 0-point ones in round 2."""
    field = entrants(8)
    r1 = pair_round(field, [], 1, 7, ONLINE)
    results = [won(1, p.first, p.second, True) for p in r1 if p.second]
    points = {r.case.first: 1.0 for r in results} | {r.case.second: 0.0 for r in results}
    swiss = pair_round(field, results, 2, 7, ONLINE)
    assert all(points[p.first] == points[p.second] for p in swiss)
    robin = pair_round(field, results, 2, 7, ONLINE, event_format="round-robin")
    assert any(points[p.first] != points[p.second] for p in robin)  # Berger: by table only


@given(st.integers(2, 8).map(lambda k: 2 * k), st.lists(st.booleans(), min_size=8, max_size=8))
def test_round_two_online_meets_equal_scores_at_any_size(size: int, wins: list[bool]) -> None:
    """e-SP 2.4 "pokiaľ možno rovnakej výkonnosti": after a round 1 with no draws, every
    even online field — small ones included — pairs round 2 within score groups (one mixed
    table when each group has an odd number of players)."""
    rounds = max(2, size - 1)
    field = entrants(size)
    r1 = pair_round(field, [], 1, rounds, ONLINE)
    results = [won(1, p.first, p.second, wins[i % len(wins)]) for i, p in enumerate(r1)]
    points = {pid: r.points_of(pid) for r in results for pid in r.case.players}
    r2 = pair_round(field, results, 2, rounds, ONLINE)
    mixed = sum(points[p.first] != points[p.second] for p in r2)
    assert mixed == (size // 2) % 2


def test_a_profile_without_a_format_key_keeps_sp_1_3() -> None:
    """Profiles written before the key existed load with format "by-size" (SP 1.3)."""
    old = replace(ONLINE.pairing, format="by-size")
    assert is_round_robin(8, 7, replace(ONLINE, pairing=old))
