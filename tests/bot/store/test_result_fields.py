"""ResultFields.of: a scored rules.Result becomes a storable result version."""

from __future__ import annotations

from bot.store import ResultFields, ResultStatus
from rules import Case, End, Profile, score


def test_a_scored_disconnection_keeps_points_scores_forfeit_and_rule() -> None:
    case = Case(End.DISCONNECTED, "a", "b", 300, 320, loser="b", moved=frozenset({"a", "b"}))
    result = score(case, Profile.load("sss-online"))
    fields = ResultFields.of(result, ResultStatus.PROPOSED, {"evidence": [3]})
    assert fields.status is ResultStatus.PROPOSED and fields.end_kind == "disconnected"
    assert (fields.first_points, fields.second_points) == (result.first_points,
                                                           result.second_points)
    assert (fields.first_score, fields.second_score) == (result.first_score,
                                                         result.second_score)
    assert fields.forfeited == ["b"] and fields.rule == result.rule
    assert fields.verdict == {"evidence": [3]}
