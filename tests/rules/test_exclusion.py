"""Exclusion: e-SP 3.6 (a) and (b) with the RULES.md section 5 interpretation."""

from __future__ import annotations

import pytest

from rules import Case, End, Profile, Result, exclusions, score
from rules.exclusion import exclusion_details

ONLINE = Profile.load("sss-online")
LIVE = Profile.load("sss-live")
CAS = Profile.load("cas")


def both(*players: str) -> frozenset[str]:
    return frozenset(players)


def no_show(rnd: int, present: str, absent: str) -> Case:
    return Case(End.NO_SHOW, present, absent, loser=absent, moved=both(present), round=rnd)


def resigned(rnd: int, winner: str, resigner: str) -> Case:
    return Case(
        End.RESIGNED, winner, resigner, 250, 180, loser=resigner, moved=both(winner, resigner),
        round=rnd,
    )  # fmt: skip


def disconnected(rnd: int, other: str, gone: str) -> Case:
    return Case(
        End.DISCONNECTED, other, gone, 200, 210, loser=gone, moved=both(other, gone), round=rnd
    )


def time_loss(rnd: int, winner: str, loser: str) -> Case:
    return Case(End.TIME_LOSS, winner, loser, 200, 300, loser=loser, moved=both(winner, loser),
                round=rnd)  # fmt: skip


def over_limit(rnd: int, a: str, b: str, moved: frozenset[str]) -> Case:
    return Case(End.OVER_LIMIT, a, b, 150, 140, moved=moved, round=rnd)


def finished(rnd: int, a: str, b: str) -> Case:
    return Case(End.FINISHED, a, b, 400, 300, moved=both(a, b), round=rnd)


def scored(cases: list[Case], profile: Profile = ONLINE) -> list[Result]:
    return [score(c, profile) for c in cases]


def test_a_two_no_shows_exclude() -> None:  # e-SP 3.6 (a): 0:100 twice
    results = scored([no_show(1, "B", "X"), finished(2, "X", "C"), no_show(3, "D", "X")])
    reason = exclusions(results, ONLINE)["X"]
    assert reason.startswith("e-SP 3.6 a): 2 partie prehraté kontumačne")
    assert (
        "1. kolo: nedostavenie sa, súper B" in reason
        and "3. kolo: nedostavenie sa, súper D" in reason
    )
    assert set(exclusions(results, ONLINE)) == {"X"}


def test_a_no_show_plus_a_resignation_count_together() -> None:  # e-SP 3.6 (a)
    results = scored([no_show(1, "B", "X"), resigned(2, "C", "X")])
    (detail,) = exclusion_details(results, ONLINE)
    assert (detail.player, detail.clause) == ("X", "a")
    assert [r.case.end for r in detail.games] == [End.NO_SHOW, End.RESIGNED]
    assert "2. kolo: vzdanie, súper C" in detail.reason


def test_a_both_absent_counts_for_both_players() -> None:  # e-SP 3.6 (a): "príp. 0:0"
    results = scored([Case(End.BOTH_NO_SHOW, "X", "Y", round=1), no_show(2, "C", "X")])
    assert set(exclusions(results, ONLINE)) == {"X"}  # Y has only one such game


def test_a_two_resignations_exclude() -> None:  # e-SP 3.5: "Vzdanie 2 súťažných partií"
    results = scored([resigned(1, "B", "X"), resigned(2, "C", "X")])
    assert exclusion_details(results, ONLINE)[0].clause == "a"


def test_a_one_such_game_is_not_enough() -> None:
    assert exclusions(scored([no_show(1, "B", "X"), finished(2, "X", "C")]), ONLINE) == {}


def test_b_three_forfeits_with_moves_exclude() -> None:  # e-SP 3.6 (b): any reason
    results = scored([
        disconnected(1, "B", "X"),
        disconnected(2, "C", "X"),
        over_limit(3, "X", "D", both("X", "D")),
    ])  # fmt: skip
    (detail,) = exclusion_details(results, ONLINE)
    assert (detail.player, detail.clause, len(detail.games)) == ("X", "b", 3)
    assert detail.reason.startswith("e-SP 3.6 b): 3 partie prehraté kontumačne z")
    assert "D" not in exclusions(results, ONLINE)  # one 0:0 forfeit against D only


def test_b_two_forfeits_with_moves_are_not_enough() -> None:
    results = scored([disconnected(1, "B", "X"), disconnected(2, "C", "X")])
    assert exclusions(results, ONLINE) == {}


def test_a_counts_only_forfeits_without_a_move() -> None:
    # a disconnection after moving counts for (b) only; with the over-limit game he did not
    # move in, (a) has 1 game and (b) has 2: nobody is excluded
    results = scored([disconnected(1, "B", "X"), over_limit(2, "X", "C", both("C"))])
    assert exclusions(results, ONLINE) == {}


@pytest.mark.parametrize("games", [2, 3, 7])
def test_time_losses_never_count(games: int) -> None:  # RULES.md section 5 interpretation
    cases = [time_loss(r, f"O{r}", "X") for r in range(1, games + 1)]
    assert exclusions(scored(cases), ONLINE) == {}
    # nor do they help reach a threshold with one real forfeit
    assert exclusions(scored([*cases[:2], no_show(5, "Q", "X")]), ONLINE) == {}


def test_clause_reached_first_is_reported() -> None:
    # (b) is reached in round 3 with disconnections; (a) only in round 4
    results = scored([
        disconnected(1, "B", "X"), disconnected(2, "C", "X"), disconnected(3, "D", "X"),
        no_show(4, "E", "X"), no_show(5, "F", "X"),
    ])  # fmt: skip
    (detail,) = exclusion_details(results, ONLINE)
    assert detail.clause == "b"
    assert [r.case.round for r in detail.games] == [1, 2, 3]


def test_details_are_in_round_order_whatever_the_input_order() -> None:
    results = scored([no_show(4, "C", "Y"), no_show(3, "B", "X"), no_show(1, "D", "X"),
                      no_show(2, "E", "Y")])  # fmt: skip
    details = exclusion_details(results, ONLINE)
    assert [d.player for d in details] == ["X", "Y"]  # X reached 2 in round 3, Y in round 4
    assert details[0].reason.index("1. kolo") < details[0].reason.index("3. kolo")


def test_resignations_do_not_count_when_the_profile_says_so() -> None:
    results = scored([resigned(1, "B", "X"), no_show(2, "C", "X")], CAS)
    assert exclusions(results, CAS) == {}  # ČAS: no automatic exclusion at all


def test_live_two_forfeits_of_any_kind_exclude() -> None:  # SP 2.6
    results = scored(
        [resigned(1, "B", "X"), Case(End.SAVE_FAILED, "X", "C", winner="C", round=2,
                                     moved=both("X", "C"))],
        LIVE,
    )  # fmt: skip
    (detail,) = exclusion_details(results, LIVE)
    assert (detail.clause, detail.reason[:8]) == ("b", "SP 2.6 b")


def test_unknown_rounds_are_named_by_the_game() -> None:
    cases = [Case(End.NO_SHOW, "B", "X", loser="X"), Case(End.NO_SHOW, "C", "X", loser="X")]
    reason = exclusions(scored(cases), ONLINE)["X"]
    assert "kolo" not in reason and "nedostavenie sa, súper C" in reason


def test_the_reason_names_opponents_by_the_names_given() -> None:
    results = scored([no_show(1, "B", "X"), no_show(2, "D", "X")])
    reason = exclusions(results, ONLINE, {"B": "Ľubica Šťastná", "X": "Ján Ďurica"})["X"]
    assert "1. kolo: nedostavenie sa, súper Ľubica Šťastná" in reason
    assert "2. kolo: nedostavenie sa, súper D" in reason  # no name given: the id
