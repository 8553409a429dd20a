"""The ČAS profile (RULES.md 9; seed 001): no forfeit for time (ČAS 4.1, 16.3), leaving the
game = resigning (13.6 b), and a late entrant's or a temporary withdrawal's missed rounds:
0 points and 0:0 each (14.4), shown in the standings."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import (
    Case,
    End,
    NeedsAdmin,
    PairingEvidence,
    PlatformEnd,
    PlatformGame,
    Profile,
    RoundClock,
    reconcile,
    score,
    standings,
)

CAS = Profile.load("cas")
AB = frozenset({"A", "B"})


def t(minute: int) -> datetime:
    return datetime(2024, 5, 11, 9, minute, tzinfo=UTC)


def played(rnd: int, a: str, b: str, sa: int, sb: int) -> Case:
    return Case(End.FINISHED, a, b, sa, sb, moved=frozenset({a, b}), round=rnd)


@pytest.mark.parametrize(("field", "value", "where"), [
    ("over_limit.rule", "ČAS 4.1, 16.3", "40 minutes, then a DOHRÁVKA: no forfeit for time"),
    ("timing.rule", "ČAS 4.1, 16.3", "the game's time"),
    ("disconnect.rule", "ČAS 13.6 b, 14.2", "leaving the game = resigning"),
    ("missed_round.rule", "ČAS 14.4", "missed rounds"),
])
def test_cas_citations(field: str, value: str, where: str) -> None:
    table, key = field.split(".")
    assert getattr(getattr(CAS, table), key) == value, where
    assert "over_limit" not in CAS.ends and "time_loss" not in CAS.ends


def test_a_game_unfinished_at_the_limit_is_not_forfeited_under_cas() -> None:
    """ČAS 4.1, 16.3: no forfeit for time; should a clock still be set, the case goes to the
    referee (e-SP 5 wording in the engine), who cannot rule OVER_LIMIT under ČAS."""
    game = PlatformGame(id=1, game_id="h1", first="A", second="B", first_score=200,
                        second_score=180, end=PlatformEnd.UNFINISHED, started=t(2), ended=None,
                        moves={"A": 9, "B": 9})
    evidence = PairingEvidence(round=1, first="A", second="B", games=(game,))
    clock = RoundClock(start=t(0), limit=t(50), waiting_ends=t(0))
    verdict = reconcile(evidence, clock, t(55), CAS)
    assert isinstance(verdict, NeedsAdmin) and verdict.code == "over_limit_not_ruled"
    assert End.OVER_LIMIT not in verdict.allowed


def test_a_late_entrant_is_ranked_with_0_and_0_0_for_the_rounds_he_missed() -> None:
    """ČAS 14.4: C joins in round 3; rounds 1–2 are missed rounds — 0 points, 0:0, no game."""
    cases = [
        played(1, "A", "B", 400, 300), Case(End.MISSED_ROUND, "C", None, round=1),
        Case(End.BYE, "D", None, round=1),
        played(2, "B", "D", 350, 360), Case(End.MISSED_ROUND, "C", None, round=2),
        Case(End.BYE, "A", None, round=2),
        played(3, "C", "A", 420, 410), played(3, "D", "B", 300, 330),
    ]
    lines = {s.player: s for s in standings("ABCD", [score(c, CAS) for c in cases], CAS)}
    c = lines["C"]
    assert (c.points, c.games, c.score, c.spread) == (1.0, 1, 420, 10)
    assert c.buchholz == lines["A"].points  # the missed rounds add no opponent
    assert lines["D"].games == 3  # a ČAS bye (½, 300:300, 14.5) is a round played


@given(st.lists(st.integers(1, 5), unique=True, max_size=4), st.integers(0, 600),
       st.integers(0, 600))
def test_missed_rounds_change_nobody_else_and_add_nothing(missed: list[int], sa: int,
                                                           sb: int) -> None:
    """Invariant (ČAS 14.4): adding missed rounds for a player leaves everyone's points,
    Buchholz and games as they were, his own included (0 points, 0:0, no game)."""
    base = [score(played(6, "A", "B", sa, sb), CAS)]
    more = base + [score(Case(End.MISSED_ROUND, "C", None, round=r), CAS) for r in missed]
    before = {s.player: s for s in standings("ABC", base, CAS)}
    after = {s.player: s for s in standings("ABC", more, CAS)}
    for p in "ABC":
        assert (after[p].points, after[p].buchholz, after[p].games, after[p].score) == (
            before[p].points, before[p].buchholz, before[p].games, before[p].score)
