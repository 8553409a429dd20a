"""Fixtures of the results-page tests: a sample tournament (the headless Chromium is
tests/bot/chromium.py's `chromium`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from bot.publish import Player, ResultStatus, ScreloChange, TableResult, TournamentReport
from rules.model import Case, End, Rating, Result, Standing

XSS_NAME = '<script>alert("x")</script> & "Ľubo"'
XSS_NICK = '"><img src=x onerror=alert(1)>'


def make_result(
    end: End,
    first: str,
    second: str | None,
    scores: tuple[int, int],
    points: tuple[float, float],
    rule: str,
    *,
    forfeited: frozenset[str] = frozenset(),
    loser: str | None = None,
    winner: str | None = None,
    agreed: bool = False,
) -> Result:
    case = Case(end, first, second, *scores, loser=loser, winner=winner, agreed=agreed)
    return Result(case, *points, *scores, forfeited, rated=not forfeited, rule=rule)


@pytest.fixture
def result() -> Callable[..., Result]:
    """Build a `Result` directly (rules.score is not what these tests check)."""
    return make_result


def _standing(rank: int, player: str, points: float, wins: int, qp: int, **kw: object) -> Standing:
    base: dict[str, object] = {
        "median_buchholz": 4.5,
        "buchholz": 7.0,
        "score": 1000 + rank,
        "spread": 10 * (3 - rank),
        "games": 4,
        "out": None,
        "neustadtl": 1.25,
    }
    base.update(kw)
    return Standing(rank, player, points, wins, qualification_points=qp, **base)  # type: ignore[arg-type]


def sample_report() -> TournamentReport:
    """Five players, four rounds, every kind of forfeit the page must explain; e excluded."""
    r = make_result
    e_sp49 = "e-SP 4.9"
    rounds = {
        1: [
            TableResult(1, r(End.FINISHED, "a", "b", (420, 380), (1, 0), "e-SP 3.5")),
            TableResult(2, r(End.RESIGNED, "c", "d", (250, 300), (1, 0), "e-SP 3.5", loser="d")),
            TableResult(3, r(End.BYE, "e", None, (20, 0), (1, 0), e_sp49)),
        ],
        2: [
            TableResult(1, r(End.TIME_LOSS, "b", "c", (400, 350), (0, 1), "e-SP 3.5", loser="b")),
            TableResult(
                2,
                r(
                    End.NO_SHOW,
                    "d",
                    "e",
                    (100, 0),
                    (1, 0),
                    "e-SP 4.3, 4.9",
                    forfeited=frozenset({"e"}),
                    loser="e",
                ),
            ),
            TableResult(3, r(End.BYE, "a", None, (20, 0), (1, 0), e_sp49)),
        ],
        3: [
            TableResult(
                1,
                r(
                    End.DISCONNECTED,
                    "a",
                    "c",
                    (370, 320),
                    (1, 0),
                    "e-SP 4.8, 4.9",
                    forfeited=frozenset({"c"}),
                    loser="c",
                ),
                ResultStatus.PROVISIONAL,
            ),
            TableResult(
                2,
                r(
                    End.BOTH_NO_SHOW,
                    "b",
                    "e",
                    (0, 0),
                    (0, 0),
                    e_sp49,
                    forfeited=frozenset({"b", "e"}),
                ),
                ResultStatus.DISPUTED,
            ),
            TableResult(3, r(End.BYE, "d", None, (20, 0), (1, 0), e_sp49)),
        ],
        4: [
            TableResult(
                1,
                r(End.AGREED_DRAW, "a", "d", (300, 300), (0.5, 0.5), "e-SP 3.5"),
                ResultStatus.PROVISIONAL,
            ),
            TableResult(
                2,
                r(
                    End.OVER_LIMIT,
                    "c",
                    "b",
                    (0, 0),
                    (0, 0),
                    "e-SP 4.5, 4.9",
                    forfeited=frozenset({"b", "c"}),
                ),
                ResultStatus.PROPOSED,
            ),
        ],
    }
    reason = "vylúčený: 2 kontumácie bez ťahu (e-SP 3.6 a)"
    standings = [
        _standing(1, "a", 3.5, 3, 40, median_buchholz=3.0, buchholz=5.5),
        _standing(2, "d", 2.5, 2, 35),
        _standing(3, "c", 2.0, 2, 32, buchholz=6.5),
        _standing(4, "e", 1.0, 1, 0, out=reason, games=3),
        _standing(5, "b", 0.0, 0, 30, spread=-120),
    ]
    players = {
        "a": Player("a", "Ján Kováč", "jkovac"),
        "b": Player("b", "Zuzana Šťastná", "zuza"),
        "c": Player("c", "Peter Ďurica", ""),
        "d": Player("d", XSS_NAME, XSS_NICK),
        "e": Player("e", "Mária Nováková", "maja"),
    }
    screlo = {
        "a": ScreloChange(Rating(1850.0, 121), Rating(1856.24, 124)),
        "b": ScreloChange(Rating(1740.0, 49), Rating(1715.4, 50)),
        "c": ScreloChange(Rating(1600.0, 0), Rating(1600.0, 1)),
        "d": ScreloChange(Rating(2010.5, 300), Rating(2031.0, 301)),
    }
    return TournamentReport(
        name="1. online kvalifikácia 2025",
        profile_title="SSS — online turnaje (Príloha D, e-SP)",
        generated_at=datetime(2025, 3, 7, 19, 5, tzinfo=UTC),
        players=players,
        rounds=rounds,
        standings=standings,
        standings_rule="e-SP 2.4",
        screlo=screlo,
        excluded={"e": reason},
        round_starts={1: datetime(2025, 3, 7, 17, 0, tzinfo=UTC)},
    )


@pytest.fixture
def report() -> TournamentReport:
    return sample_report()

