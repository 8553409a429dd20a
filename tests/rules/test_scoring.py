"""Scoring: one test row per row of RULES.md section 2 (e-SP 3.5, 4.3–4.9), and the
ČAS / SSS-live variants. A = first (starts), B = second."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

import pytest

from rules import Case, End, Profile, Result, score
from rules.profile import PROFILE_DIR

ONLINE = Profile.load("sss-online")
LIVE = Profile.load("sss-live")
CAS = Profile.load("cas")
AB = frozenset({"A", "B"})
NONE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Want:
    points: tuple[float, float]
    scores: tuple[int, int]
    forfeited: frozenset[str]
    rated: bool
    rule: str


def _check(result: Result, want: Want) -> None:
    assert (result.first_points, result.second_points) == want.points
    assert (result.first_score, result.second_score) == want.scores
    assert result.forfeited == want.forfeited
    assert result.rated is want.rated
    assert result.rule == want.rule


ROWS = [
    # row 1: finished, points by score
    ("row1_finished_win", Case(End.FINISHED, "A", "B", 420, 300, moved=AB),
     Want((1.0, 0.0), (420, 300), NONE, True, "e-SP 3.5")),
    ("row1_finished_loss", Case(End.FINISHED, "A", "B", 300, 301, moved=AB),
     Want((0.0, 1.0), (300, 301), NONE, True, "e-SP 3.5")),
    ("row1_finished_equal_scores_draw", Case(End.FINISHED, "A", "B", 350, 350, moved=AB),
     Want((0.5, 0.5), (350, 350), NONE, True, "e-SP 3.5")),
    # row 1 interpretation: two rounds without a valid move = a normal finish at the score
    ("row1_two_rounds_no_valid_move", Case(End.FINISHED, "A", "B", 120, 180, moved=AB),
     Want((0.0, 1.0), (120, 180), NONE, True, "e-SP 3.5")),
    # row 2: time loss, the loser gets 0 even when ahead; score as it stood
    ("row2_time_loss_while_ahead", Case(End.TIME_LOSS, "A", "B", 400, 300, loser="A", moved=AB),
     Want((0.0, 1.0), (400, 300), NONE, True, "e-SP 3.5")),
    # row 3: resignation, score at the moment of resignation, not a forfeit
    ("row3_resigned", Case(End.RESIGNED, "A", "B", 200, 250, loser="B", moved=AB),
     Want((1.0, 0.0), (200, 250), NONE, True, "e-SP 3.5")),
    # row 4 worked examples (e-SP 4.8): opponent leading by 20 -> margin raised to 50
    ("row4_disconnect_raise_20_to_50",
     Case(End.DISCONNECTED, "A", "B", 400, 420, loser="A", moved=AB),
     Want((0.0, 1.0), (400, 450), frozenset({"A"}), True, "e-SP 4.8, 4.9")),
    ("row4_disconnect_lead_80_unchanged",
     Case(End.DISCONNECTED, "A", "B", 480, 400, loser="B", moved=AB),
     Want((1.0, 0.0), (480, 400), frozenset({"B"}), True, "e-SP 4.8, 4.9")),
    ("row4_disconnect_lead_exactly_50_unchanged",
     Case(End.DISCONNECTED, "A", "B", 450, 400, loser="B", moved=AB),
     Want((1.0, 0.0), (450, 400), frozenset({"B"}), True, "e-SP 4.8, 4.9")),
    ("row4_disconnected_player_was_leading",
     Case(End.DISCONNECTED, "A", "B", 380, 300, loser="A", moved=AB),
     Want((0.0, 1.0), (380, 430), frozenset({"A"}), True, "e-SP 4.8, 4.9")),
    ("row4_disconnect_before_his_first_move_not_rated",
     Case(End.DISCONNECTED, "A", "B", 0, 30, loser="A", moved=frozenset({"B"})),
     Want((0.0, 1.0), (0, 50), frozenset({"A"}), False, "e-SP 4.8, 4.9")),
    # row 5: no-show, 100:0 to the present player, forfeited against the absent one
    ("row5_no_show", Case(End.NO_SHOW, "A", "B", loser="B", moved=frozenset({"A"})),
     Want((1.0, 0.0), (100, 0), frozenset({"B"}), False, "e-SP 4.3, 4.9")),
    ("row5_no_show_of_the_starter", Case(End.NO_SHOW, "A", "B", loser="A"),
     Want((0.0, 1.0), (0, 100), frozenset({"A"}), False, "e-SP 4.3, 4.9")),
    # row 6: neither came
    ("row6_both_no_show", Case(End.BOTH_NO_SHOW, "A", "B"),
     Want((0.0, 0.0), (0, 0), AB, False, "e-SP 4.9")),
    # row 7: not finished within the game time limit; the board score is discarded
    ("row7_over_limit", Case(End.OVER_LIMIT, "A", "B", 310, 280, moved=AB),
     Want((0.0, 0.0), (0, 0), AB, False, "e-SP 4.5, 4.9")),
    # row 8: bye
    ("row8_bye", Case(End.BYE, "A", None),
     Want((1.0, 0.0), (20, 0), NONE, False, "e-SP 4.9")),
    # row 9: server failed to save, the whole result agreed
    ("row9_save_failed_agreed",
     Case(End.SAVE_FAILED, "A", "B", 380, 360, agreed=True, moved=AB),
     Want((1.0, 0.0), (380, 360), NONE, True, "e-SP 4.6")),
    ("row9_save_failed_agreed_with_matching_winner",
     Case(End.SAVE_FAILED, "A", "B", 300, 360, agreed=True, winner="B", moved=AB),
     Want((0.0, 1.0), (300, 360), NONE, True, "e-SP 4.6")),
    # row 10: agree on the winner only -> 50:0
    ("row10_save_failed_winner_only", Case(End.SAVE_FAILED, "A", "B", winner="B", moved=AB),
     Want((0.0, 1.0), (0, 50), frozenset({"A"}), False, "e-SP 4.6, 4.9")),
    # row 11: no agreement -> 0:0 against both
    ("row11_save_failed_no_agreement", Case(End.SAVE_FAILED, "A", "B", moved=AB),
     Want((0.0, 0.0), (0, 0), AB, False, "e-SP 4.6, 4.9")),
    # row 12 worked example: 420:300 agreed draw -> 300:300
    ("row12_agreed_draw_lower_score", Case(End.AGREED_DRAW, "A", "B", 420, 300, moved=AB),
     Want((0.5, 0.5), (300, 300), NONE, True, "e-SP 3.5")),
    # row 13: a draw not confirmed by both in time is reported as the game played (FINISHED)
    ("row13_unconfirmed_draw_stands_as_played", Case(End.FINISHED, "A", "B", 420, 300, moved=AB),
     Want((1.0, 0.0), (420, 300), NONE, True, "e-SP 3.5")),
]  # fmt: skip


@pytest.mark.parametrize(("case", "want"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_rules_md_section_2_rows(case: Case, want: Want) -> None:
    _check(score(case, ONLINE), want)


def test_every_end_is_covered_by_a_row() -> None:
    # every online end by a row of RULES.md 2; MISSED_ROUND exists only under ČAS 14.4
    assert {row[1].end for row in ROWS} == set(End) - {End.MISSED_ROUND}
    assert End.MISSED_ROUND in {row[1].end for row in CAS_ROWS}


CAS_ROWS = [
    # ČAS 14.2: one-sided forfeit 0:200 or the current score, whichever is better for the winner
    ("cas_resigned_current_score_better",
     Case(End.RESIGNED, "A", "B", 200, 450, loser="A", moved=AB),
     Want((0.0, 1.0), (200, 450), frozenset({"A"}), False, "ČAS 13.1, 13.6 b, 14.2")),
    ("cas_resigned_while_ahead_gets_0_200",
     Case(End.RESIGNED, "A", "B", 300, 150, loser="A", moved=AB),
     Want((0.0, 1.0), (0, 200), frozenset({"A"}), False, "ČAS 13.1, 13.6 b, 14.2")),
    # ČAS 13.6 b: leaving the game (online: a disconnection) is resigning it
    ("cas_disconnected_small_lead_gets_200_0",
     Case(End.DISCONNECTED, "A", "B", 320, 300, loser="B", moved=AB),
     Want((1.0, 0.0), (200, 0), frozenset({"B"}), False, "ČAS 13.6 b, 14.2")),
    # ČAS 14.4: a late entrant's or a temporarily withdrawn player's missed round: 0, 0:0
    ("cas_missed_round_0_and_0_0", Case(End.MISSED_ROUND, "A", None, round=2),
     Want((0.0, 0.0), (0, 0), NONE, False, "ČAS 14.4")),
    ("cas_no_show_200_0", Case(End.NO_SHOW, "A", "B", loser="B"),
     Want((1.0, 0.0), (200, 0), frozenset({"B"}), False, "ČAS 13.1, 14.2")),
    ("cas_double_forfeit_0_0", Case(End.BOTH_NO_SHOW, "A", "B"),
     Want((0.0, 0.0), (0, 0), AB, False, "ČAS 13.1, 14.3")),
    ("cas_bye_half_point_300_300", Case(End.BYE, "A", None),
     Want((0.5, 0.0), (300, 300), NONE, False, "ČAS 14.5")),
    ("cas_finished_rated", Case(End.FINISHED, "A", "B", 300, 310, moved=AB),
     Want((0.0, 1.0), (300, 310), NONE, True, "ČAS 6.3")),
]  # fmt: skip


@pytest.mark.parametrize(("case", "want"), [r[1:] for r in CAS_ROWS], ids=[r[0] for r in CAS_ROWS])
def test_cas_profile(case: Case, want: Want) -> None:
    _check(score(case, CAS), want)


LIVE_ROWS = [
    # SP 2.6 d: resignation 0:100, or 0:lead when the current lead is larger
    ("live_resigned_small_lead_0_100",
     Case(End.RESIGNED, "A", "B", 330, 300, loser="B", moved=AB),
     Want((1.0, 0.0), (100, 0), frozenset({"B"}), True, "SP 2.6 d")),
    ("live_resigned_big_lead_0_150",
     Case(End.RESIGNED, "A", "B", 450, 300, loser="B", moved=AB),
     Want((1.0, 0.0), (150, 0), frozenset({"B"}), True, "SP 2.6 d")),
    ("live_no_show_100_0", Case(End.NO_SHOW, "A", "B", loser="A"),
     Want((0.0, 1.0), (0, 100), frozenset({"A"}), False, "SP 2.1, 2.6 a")),
    ("live_bye_20_0", Case(End.BYE, "A", None),
     Want((1.0, 0.0), (20, 0), NONE, False, "SP 2.6 c")),
    ("live_score_sheets_winner_only_100_0", Case(End.SAVE_FAILED, "A", "B", winner="A"),
     Want((1.0, 0.0), (100, 0), frozenset({"B"}), False, "SP 2.7")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "want"), [r[1:] for r in LIVE_ROWS], ids=[r[0] for r in LIVE_ROWS]
)
def test_sss_live_profile(case: Case, want: Want) -> None:
    _check(score(case, LIVE), want)


@pytest.mark.parametrize(
    ("profile", "end"),
    [(LIVE, End.TIME_LOSS), (LIVE, End.AGREED_DRAW), (LIVE, End.OVER_LIMIT), (CAS, End.TIME_LOSS),
     # ČAS 4.1, 16.3: no forfeit for time; e-SP and SP have no missed-round result
     (CAS, End.OVER_LIMIT), (ONLINE, End.MISSED_ROUND), (LIVE, End.MISSED_ROUND)],
)
def test_an_end_the_profile_does_not_know_is_refused(profile: Profile, end: End) -> None:
    loser = "A" if end is End.TIME_LOSS else None
    with pytest.raises(ValueError, match=f"end: '{end.value}' does not exist under profile"):
        score(Case(end, "A", "B", 300, 200, loser=loser), profile)


def test_numbers_and_citations_come_from_the_profile() -> None:
    data = tomllib.loads((PROFILE_DIR / "sss-online.toml").read_text(encoding="utf-8"))
    data["disconnect"].update(margin=70, rule="propozície 7")
    data["no_show"].update(winner_score=150)
    custom = Profile.from_dict(data)
    raised = score(Case(End.DISCONNECTED, "A", "B", 400, 420, loser="A", moved=AB), custom)
    assert (raised.second_score, raised.rule) == (470, "propozície 7")
    assert score(Case(End.NO_SHOW, "A", "B", loser="A"), custom).second_score == 150


def test_a_plain_string_end_is_accepted() -> None:
    case = Case("agreed_draw", "A", "B", 420, 300, moved=AB)  # type: ignore[arg-type]
    assert score(case, ONLINE).first_score == 300


def test_rated_needs_moves_by_both_players() -> None:
    played = Case(End.FINISHED, "A", "B", 300, 200, moved=frozenset({"A"}))
    assert score(played, ONLINE).rated is False


# (what is wrong, the case, words the message must name)
INVALID = [
    ("loser not in the game", Case(End.TIME_LOSS, "A", "B", loser="C"), "loser: 'C'"),
    ("same player twice", Case(End.FINISHED, "A", "A"), "second: 'A' cannot play"),
    ("negative score", Case(End.FINISHED, "A", "B", -5, 100), "first_score: must not be neg"),
    ("negative score", Case(End.FINISHED, "A", "B", 5, -1), "second_score"),
    ("float score", Case(End.FINISHED, "A", "B", 5.5, 1), "first_score: expected an integer"),  # type: ignore[arg-type]
    ("bool score", Case(End.FINISHED, "A", "B", True, 1), "first_score: expected an integer"),
    ("negative round", Case(End.FINISHED, "A", "B", round=-1), "round"),
    ("bye with an opponent", Case(End.BYE, "A", "B"), "second: a bye has no opponent"),
    ("bye with a score", Case(End.BYE, "A", None, 20), "no game was played"),
    ("non-bye without opponent", Case(End.FINISHED, "A", None), "second: finished needs"),
    ("no first player", Case(End.FINISHED, "", "B"), "first:"),
    ("disconnected without loser", Case(End.DISCONNECTED, "A", "B"), "loser: disconnected"),
    ("no-show without loser", Case(End.NO_SHOW, "A", "B"), "loser: no_show needs"),
    ("moved names a stranger", Case(End.FINISHED, "A", "B", moved=frozenset("AC")), "moved: 'C'"),
    ("loser where the end has none", Case(End.FINISHED, "A", "B", loser="A"), "loser: finished"),
    ("loser on an agreed draw", Case(End.AGREED_DRAW, "A", "B", loser="B"), "loser: agreed_draw"),
    ("winner outside save_failed", Case(End.FINISHED, "A", "B", winner="A"), "winner: only"),
    ("agreed outside save_failed", Case(End.FINISHED, "A", "B", agreed=True), "agreed: only"),
    ("save_failed winner a stranger", Case(End.SAVE_FAILED, "A", "B", winner="Z"), "winner: 'Z'"),
    ("agreed score contradicts winner",
     Case(End.SAVE_FAILED, "A", "B", 400, 300, agreed=True, winner="B"), "winner: 'B' contradicts"),
    ("agreed draw score with a winner",
     Case(End.SAVE_FAILED, "A", "B", 300, 300, agreed=True, winner="A"), "contradicts"),
    ("save_failed scores without agreement",
     Case(End.SAVE_FAILED, "A", "B", 300, 200, winner="A"), "used only when agreed=True"),
    ("no-show with a score", Case(End.NO_SHOW, "A", "B", 100, 0, loser="B"), "no game was played"),
    ("absent player moved",
     Case(End.NO_SHOW, "A", "B", loser="B", moved=frozenset("B")), "moved: 'B' made a move"),
    ("nobody came but someone moved",
     Case(End.BOTH_NO_SHOW, "A", "B", moved=frozenset("A")), "moved: nobody came"),
    ("unknown end", Case("walkover", "A", "B"), "end: unknown end 'walkover'"),  # type: ignore[arg-type]
]  # fmt: skip


@pytest.mark.parametrize(("case", "words"), [i[1:] for i in INVALID], ids=[i[0] for i in INVALID])
def test_invalid_case_raises_a_clear_value_error(case: Case, words: str) -> None:
    with pytest.raises(ValueError) as err:
        score(case, ONLINE)
    assert words in str(err.value)
