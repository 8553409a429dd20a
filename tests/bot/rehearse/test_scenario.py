"""The rehearsal's scenario file: every error of the spec is refused before anything runs,
naming the line it is on (marked `# !` in the texts below); a good file parses."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.rehearse.scenario import Scenario, load_scenario, parse_scenario, ruling_round
from bot.services.tournament.propozicie import SetupError

SMALL = Path(__file__).parent / "scenarios" / "small.toml"

BASE = """\
[tournament]
name = "Skúška chýb"
rounds = 2
round_starts = ["2026-11-21 09:00", "2026-11-21 10:00"]
waiting_minutes = 10
game_limit_minutes = 50

[[player]]
id = "anna"
name = "Anna Nováková"
herna = "anna77"

[[player]]
id = "boris"
name = "Boris Šťastný"
herna = "borisko"

[[player]]
id = "cyril"
name = "Cyril Ďurovič"
herna = "cyro"
"""

GAME = """
[[event]]
at = "2026-11-21 09:41"
type = "game"
first = "boris"
second = "anna"
score = [312, 365]
end = "finished"
started = "2026-11-21 09:02"
"""


def marked_line(text: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if "# !" in line)


def refused(text: str) -> SetupError:
    with pytest.raises(SetupError) as caught:
        parse_scenario(text)
    assert caught.value.line == marked_line(text), caught.value.reason
    return caught.value


def test_the_small_scenario_parses_in_time_order() -> None:
    scenario = load_scenario(SMALL)
    assert isinstance(scenario, Scenario)
    assert [p.file_id for p in scenario.propozicie.players] == [
        "anna", "boris", "cyril", "dana", "eva"]
    assert sorted(scenario.rounds) == [1, 3]
    assert scenario.rounds[1].pairings == (("boris", "anna"), ("cyril", "dana"), ("eva", None))
    times = [e.at for e in scenario.events]
    assert times == sorted(times)
    assert {e.type for e in scenario.events} == {
        "checkin", "game", "draw", "absent", "arrived", "report", "dispute", "ruling",
        "withdraw"}
    game = next(e for e in scenario.events if e.type == "game")
    assert game.at == datetime(2026, 11, 21, 8, 20, tzinfo=UTC)  # 09:20 Bratislava
    assert game.moves == (12, 12) and game.score == (320, 300) and game.end == "draw"
    ruling = next(e for e in scenario.events if e.type == "ruling")
    assert ruling.agreed and ruling.score == (350, 400) and ruling.round is None
    assert ruling_round(scenario, ruling.at) == 2


def test_ties_run_in_file_order() -> None:
    text = BASE + """
[[event]]
at = "2026-11-21 09:05"
type = "absent"
player = "boris"

[[event]]
at = "2026-11-21 09:05"
type = "arrived"
player = "anna"

[[event]]
at = "2026-11-21 09:04"
type = "arrived"
player = "cyril"
"""
    events = parse_scenario(text).events
    assert [(e.type, e.player) for e in events] == [
        ("arrived", "cyril"), ("absent", "boris"), ("arrived", "anna")]


@pytest.mark.parametrize("snippet", [
    '\n[[event]]\nat = "2026-11-21 09:05"\ntype = "absent"\nplayer = "zoltan"  # !\n',
    GAME.replace('first = "boris"', 'first = "zoltan"  # !'),
    GAME.replace('end = "finished"', 'end = "resigned"\non = "zoltan"  # !'),
    '\n[[round]]\nnumber = 1\npairings = [["anna", "zoltan"], ["cyril"]]  # !\n',
])
def test_an_unknown_player_id_anywhere(snippet: str) -> None:
    assert "zoltan" in refused(BASE + snippet).reason


def test_a_duplicate_player_id_or_nick() -> None:
    twice = '\n[[player]]\nid = "anna"  # !\nname = "Iná Anna"\nherna = "ina"\n'
    assert "dvakrát" in refused(BASE + twice).reason
    nick = '\n[[player]]\nid = "dana"\nname = "Dana"\nherna = "ANNA77"  # !\n'
    assert "dvakrát" in refused(BASE + nick).reason


def test_a_time_that_does_not_parse() -> None:
    error = refused(BASE + GAME.replace('at = "2026-11-21 09:41"', 'at = "21. 11. o 9:41"  # !'))
    assert "RRRR-MM-DD HH:MM" in error.reason


@pytest.mark.parametrize("when", ["2026-11-21 05:59", "2026-11-21 12:51"])
def test_a_time_outside_the_tournament(when: str) -> None:
    # round 1 starts 09:00 (−3 h = 06:00); the last limit is 10:50 (+2 h = 12:50)
    event = f'\n[[event]]\nat = "{when}"  # !\ntype = "withdraw"\nplayer = "anna"\n'
    assert "mimo turnaja" in refused(BASE + event).reason


def test_the_edges_of_the_tournament_are_inside() -> None:
    for when in ("2026-11-21 06:00", "2026-11-21 12:50"):
        event = f'\n[[event]]\nat = "{when}"\ntype = "withdraw"\nplayer = "anna"\n'
        assert len(parse_scenario(BASE + event).events) == 1


def test_a_game_started_after_its_event() -> None:
    error = refused(BASE + GAME.replace('started = "2026-11-21 09:02"',
                                        'started = "2026-11-21 09:45"  # !'))
    assert "nemôže začať" in error.reason


@pytest.mark.parametrize("score", ["[312]", "[312, 2001]", "[312, -1]", "[312.5, 300]",
                                   '["312", 300]', "312"])
def test_a_malformed_score(score: str) -> None:
    refused(BASE + GAME.replace("score = [312, 365]", f"score = {score}  # !"))


def test_a_malformed_report_score() -> None:
    event = '\n[[event]]\nat = "2026-11-21 09:30"\ntype = "report"\nplayer = "anna"\n'
    error = refused(BASE + event + "score = [400, 350, 1]  # !\n")
    assert "0–2000" in error.reason


def test_an_end_not_in_the_list_of_its_type() -> None:
    error = refused(BASE + GAME.replace('end = "finished"', 'end = "no_show"  # !'))
    assert "finished" in error.reason  # the known game ends are listed
    ruling = ('\n[[event]]\nat = "2026-11-21 09:55"\ntype = "ruling"\nplayer = "anna"\n'
              'end = "draw"  # !\nreason = "r"\n')
    assert "agreed_draw" in refused(BASE + ruling).reason


def test_on_must_be_one_of_the_pair() -> None:
    game = GAME.replace('end = "finished"', 'end = "time_loss"\non = "cyril"  # !')
    assert "nehral" in refused(BASE + game).reason
    ruling = ('\n[[round]]\nnumber = 1\npairings = [["anna", "boris"], ["cyril"]]\n'
              '\n[[event]]\nat = "2026-11-21 09:55"\ntype = "ruling"\nplayer = "anna"\n'
              'end = "no_show"\non = "cyril"  # !\nreason = "neprišiel"\n')
    assert "nehrá pri tomto stole" in refused(BASE + ruling).reason


def test_winner_must_be_one_of_the_pair() -> None:
    ruling = ('\n[[round]]\nnumber = 1\npairings = [["anna", "boris"], ["cyril"]]\n'
              '\n[[event]]\nat = "2026-11-21 09:55"\ntype = "ruling"\nplayer = "boris"\n'
              'end = "save_failed"\nwinner = "cyril"  # !\nreason = "zhoda na víťazovi"\n')
    refused(BASE + ruling)


def test_a_game_against_oneself() -> None:
    error = refused(BASE + GAME.replace('second = "anna"', 'second = "boris"  # !'))
    assert "sám so sebou" in error.reason


def test_a_missing_required_key() -> None:
    game = GAME.replace('[[event]]', '[[event]]  # !').replace('started = "2026-11-21 09:02"\n',
                                                            "")
    assert "started" in refused(BASE + game).reason
    on = GAME.replace('end = "finished"', 'end = "resigned"  # !')
    assert "„on“" in refused(BASE + on).reason
    no_type = '\n[[event]]  # !\nat = "2026-11-21 09:05"\nplayer = "anna"\n'
    assert "type" in refused(BASE + no_type).reason


def test_an_unknown_key_type_or_table() -> None:
    assert "neznámy kľúč" in refused(BASE + GAME + 'color = "red"  # !\n').reason
    event = '\n[[event]]\nat = "2026-11-21 09:05"\ntype = "coffee"  # !\nplayer = "anna"\n'
    assert "coffee" in refused(BASE + event).reason
    assert "neznáma tabuľka" in refused(BASE + "\n[[hint]]  # !\ntext = 'x'\n").reason
    assert "neznámy kľúč" in refused(
        BASE + '\n[[round]]\nnumber = 1\npairings = [["anna", "boris"], ["cyril"]]\n'
               'tables = 2  # !\n').reason


@pytest.mark.parametrize("body, why", [
    ('number = 3  # !\npairings = [["anna", "boris"], ["cyril"]]', "neexistuje"),
    ('number = 1\npairings = [["anna", "boris"], ["anna"]]  # !', "dvakrát"),
    ('number = 1\npairings = [["anna", "boris", "cyril"]]  # !', "očakáva sa"),
])
def test_a_bad_round(body: str, why: str) -> None:
    assert why in refused(BASE + f"\n[[round]]\n{body}\n").reason


def test_a_round_given_twice() -> None:
    pairs = 'pairings = [["anna", "boris"], ["cyril"]]'
    text = BASE + f"\n[[round]]\nnumber = 1\n{pairs}\n\n[[round]]\nnumber = 1  # !\n{pairs}\n"
    assert "dvakrát" in refused(text).reason


def test_a_checkin_outside_its_window() -> None:
    # default window: round 1 start − 30 min to − 10 min (08:30–08:50, closing excluded)
    ok = '\n[[event]]\nat = "2026-11-21 08:30"\ntype = "checkin"\nplayer = "anna"\n'
    assert parse_scenario(BASE + ok).has_checkin
    late = '\n[[event]]\nat = "2026-11-21 08:50"  # !\ntype = "checkin"\nplayer = "anna"\n'
    assert "prezentácia" in refused(BASE + late).reason
    own = BASE.replace("game_limit_minutes = 50",
                       'game_limit_minutes = 50\ncheckin_opens = "2026-11-21 07:00"')
    early = '\n[[event]]\nat = "2026-11-21 07:30"\ntype = "checkin"\nplayer = "anna"\n'
    assert len(parse_scenario(own + early).events) == 1


def test_round_starts_must_increase_and_leave_room_after_the_limit() -> None:
    back = BASE.replace('round_starts = ["2026-11-21 09:00", "2026-11-21 10:00"]',
                        'round_starts = ["2026-11-21 09:00", "2026-11-21 08:00"]  # !')
    refused(back)
    tight = BASE.replace('round_starts = ["2026-11-21 09:00", "2026-11-21 10:00"]',
                         'round_starts = ["2026-11-21 09:00", "2026-11-21 09:54"]  # !')
    assert "5 minút" in refused(tight).reason
    room = tight.replace("09:54", "09:55").replace("  # !", "")
    assert len(parse_scenario(room).round_starts) == 2


def test_on_and_winner_only_where_the_end_takes_them() -> None:
    game = GAME.replace('end = "finished"', 'end = "finished"\non = "anna"  # !')
    refused(BASE + game)
    ruling = ('\n[[event]]\nat = "2026-11-21 09:55"\ntype = "ruling"\nplayer = "anna"\n'
              'end = "finished"\nwinner = "anna"  # !\nreason = "r"\n')
    assert "save_failed" in refused(BASE + ruling).reason


@pytest.mark.parametrize("body, why", [
    (f'number = {2**70}  # !\npairings = [["anna", "boris"], ["cyril"]]',
     f"number: {2**70} je mimo rozsahu 1 – 99"),
    ('number = nan  # !\npairings = [["anna", "boris"], ["cyril"]]', "očakáva sa celé číslo"),
], ids=["2^70", "nan"])
def test_a_round_number_out_of_bounds(body: str, why: str) -> None:
    assert why in refused(BASE + f"\n[[round]]\n{body}\n").reason


@pytest.mark.parametrize("text, why", [
    ('"zlé\\u0000skóre"', "text: obsahuje neviditeľný riadiaci znak (U+0000)"),
    (f'"{"x" * 1001}"', "text: 1001 znakov je priveľa (najviac 1000)"),
], ids=["nul", "1001-characters"])
def test_a_dispute_text_out_of_bounds(text: str, why: str) -> None:
    event = '\n[[event]]\nat = "2026-11-21 09:55"\ntype = "dispute"\nplayer = "anna"\n'
    assert why in refused(BASE + GAME + event + f"text = {text}  # !\n").reason
