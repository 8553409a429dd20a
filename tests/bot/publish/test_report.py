"""The report's own checks and the Slovak formats the page uses."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from bot.publish import Player, ReportError, ScreloChange, TableResult, TournamentReport
from bot.publish.slovak import forfeit_note, game_points, local_time, number, signed
from rules.model import End, Rating


def test_report_freezes_its_containers(report):
    with pytest.raises(TypeError):
        report.players["z"] = Player("z", "Z")  # type: ignore[index]
    assert isinstance(report.standings, tuple)
    assert isinstance(report.rounds[1], tuple)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "  "}, "the tournament name is empty"),
        ({"generated_at": datetime(2025, 3, 7, 20, 5)}, "generated_at has no time zone"),
        ({"round_starts": {2: datetime(2025, 3, 7, 20, 5)}}, "round_starts[2] has no time zone"),
        ({"criteria": ("points", "sonneborn")}, "unknown standings criterion 'sonneborn'"),
        ({"excluded": {"zz": "dôvod"}}, "screlo/excluded/seeds names unknown player 'zz'"),
        ({"seeds": {"s": 1700.0}}, "names unknown player 's'"),
        (
            {"screlo": {"q": ScreloChange(Rating(1600, 0), Rating(1610, 1))}},
            "names unknown player 'q'",
        ),
    ],
)
def test_bad_report_parts_are_named(report, change, message):
    with pytest.raises(ReportError) as caught:
        dataclasses.replace(report, **change)
    assert message in str(caught.value)


def test_a_player_twice_in_a_round_or_standings_is_refused(report, result):
    twice = result(End.FINISHED, "a", "c", (1, 0), (1, 0), "e-SP 3.5")
    rounds = {**report.rounds, 1: (*report.rounds[1], TableResult(4, twice))}
    with pytest.raises(ReportError, match="player 'a' plays twice in round 1"):
        dataclasses.replace(report, rounds=rounds)
    with pytest.raises(ReportError, match="player 'a' is twice in the standings"):
        dataclasses.replace(report, standings=(*report.standings, report.standings[0]))
    stranger = result(End.FINISHED, "a", "ghost", (1, 0), (1, 0), "e-SP 3.5")
    with pytest.raises(ReportError, match="round 5, table 1 names unknown player 'ghost'"):
        dataclasses.replace(report, rounds={5: [TableResult(1, stranger)]})
    with pytest.raises(ReportError, match=r"players\['x'\] holds player 'y'"):
        dataclasses.replace(report, players={"x": Player("y", "Y")})


def test_an_empty_report_is_valid():
    empty = TournamentReport("T", "P", datetime(2025, 1, 1, tzinfo=UTC), {}, {}, [])
    assert empty.rounds == {} and empty.criteria[0] == "points"


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (12.5, 1, "12,5"),
        (7.0, 1, "7"),
        (-3.24, 1, "−3,2"),
        (-0.01, 1, "0"),
        (1856.24, 1, "1856,2"),
        (1.25, 2, "1,25"),
        (1600.0, 0, "1600"),
    ],
)
def test_number_uses_a_decimal_comma(value, decimals, text):
    assert number(value, decimals) == text


def test_signed_game_points_and_local_time():
    assert [signed(6.24), signed(-24.6), signed(0.0)] == ["+6,2", "−24,6", "0"]
    assert [game_points(p) for p in (1.0, 0.5, 0.0)] == ["1", "½", "0"]
    assert local_time(datetime(2025, 10, 26, 0, 30, tzinfo=UTC)) == "26. 10. 2025 2:30 SELČ"
    assert local_time(datetime(2025, 10, 26, 1, 30, tzinfo=UTC)) == "26. 10. 2025 2:30 SEČ"


def test_forfeit_note(result):
    names = {"a": "Ann", "b": "Bob"}
    one = result(End.NO_SHOW, "a", "b", (100, 0), (1, 0), "e-SP 4.3, 4.9",
                 forfeited=frozenset({"b"}), loser="b")  # fmt: skip
    both = result(End.OVER_LIMIT, "a", "b", (0, 0), (0, 0), "e-SP 4.5, 4.9",
                  forfeited=frozenset({"a", "b"}))  # fmt: skip
    played = result(End.FINISHED, "a", "b", (400, 300), (1, 0), "e-SP 3.5")
    assert forfeit_note(one, names) == "kontumácia proti: Bob"
    assert forfeit_note(both, names) == "kontumácia proti obom"
    assert forfeit_note(played, names) == ""
