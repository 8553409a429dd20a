"""The plausibility bounds of a platform record (Profile.plausible), table-driven per reason."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rules.plausibility import (
    ENDED_BEFORE_START,
    FROM_THE_FUTURE,
    MOVES_NEGATIVE,
    MOVES_TOO_MANY,
    SCORE_NEGATIVE,
    SCORE_TOO_HIGH,
    TOO_LONG,
    check_game,
)
from rules.profile import Profile

START = datetime(2026, 3, 7, 9, 0, tzinfo=UTC)
ONLINE = Profile.load("sss-online").plausible


def facts(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"scores": (420, 380), "moves": (14, 13), "started": START,
                            "ended": START + timedelta(minutes=35),
                            "seen_at": START + timedelta(minutes=40)}
    return base | changes


# (what, facts changed, (code, value, bound, rule) expected)
CASES = [
    ("negative score", {"scores": (-50, 380)}, (SCORE_NEGATIVE, -50, 0, "e-SP 3.5")),
    ("9 999 999", {"scores": (420, 9_999_999)}, (SCORE_TOO_HIGH, 9_999_999, 1500, "e-SP 3.5")),
    ("negative moves", {"moves": (-1, 13)}, (MOVES_NEGATIVE, -1, 0, "e-SP 3.5")),
    ("too many moves", {"moves": (14, 400)}, (MOVES_TOO_MANY, 400, 100, "e-SP 3.5")),
    ("ended before it started", {"ended": START - timedelta(minutes=5)},
     (ENDED_BEFORE_START, -5, 0, "e-SP 4.4, 4.5")),
    ("lasted five hours", {"ended": START + timedelta(hours=5),
                           "seen_at": START + timedelta(hours=6)},
     (TOO_LONG, 300, 90, "e-SP 4.4, 4.5")),
    ("from the future", {"seen_at": START}, (FROM_THE_FUTURE, 35, 10, "e-SP 4.4, 4.5")),
]


@pytest.mark.parametrize(("what", "changes", "expected"), CASES, ids=[c[0] for c in CASES])
def test_an_impossible_record_is_refused_citing_the_rule(what, changes, expected) -> None:
    (found,) = check_game(ONLINE, **facts(**changes))
    assert (found.code, found.value, found.bound, found.rule) == expected, what
    assert found.as_dict()["rule"] == expected[3]


@pytest.mark.parametrize("changes", [
    {},
    {"scores": (0, 0), "moves": (0, 0)},
    {"scores": (1500, 1500), "moves": (100, 100)},
    {"ended": None},  # still in progress
    {"ended": START + timedelta(minutes=90), "seen_at": START + timedelta(minutes=90)},
    {"seen_at": START + timedelta(minutes=25)},  # herna's clock 10 minutes ahead: tolerated
])
def test_a_possible_record_passes(changes) -> None:
    assert check_game(ONLINE, **facts(**changes)) == ()


def test_several_reasons_are_all_named() -> None:
    found = check_game(ONLINE, **facts(scores=(-3, 2_000_000), moves=(500, 1)))
    assert [f.code for f in found] == [SCORE_NEGATIVE, SCORE_TOO_HIGH, MOVES_TOO_MANY]


def test_each_profile_cites_its_own_rules() -> None:
    live = Profile.load("sss-live").plausible
    (found,) = check_game(live, **facts(scores=(-1, 0)))
    assert found.rule == "SP 2.6"
