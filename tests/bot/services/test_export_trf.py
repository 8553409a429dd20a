"""The TRF export: every mapping of a round to TRF's result codes, and a tournament with a
round still being played read back by py4swiss's own TrfParser."""

from __future__ import annotations

from pathlib import Path

import pytest
from py4swiss.trf import TrfParser
from py4swiss.trf.exceptions import ParsingError

from bot.services.app import App
from bot.services.exports.games import Line, Outcome, Seat
from bot.services.exports.trf import player_line, result_code, trf_file
from bot.services.exports.tsh import tsh_files
from rules import End, Standing

from .test_exports import two_rounds
from .test_rounds import SLUG, create, propozicie


def _game(points: float, other: float, *, rated: bool = False, forfeited: bool = False,
          opponent_forfeited: bool = False, end: End = End.FINISHED) -> Seat:
    outcome = Outcome(points, 0, other, 0, rated, forfeited, opponent_forfeited, end, "")
    return Seat(2, True, opponent=5, started=True, outcome=outcome)


@pytest.mark.parametrize(("seat", "code"), [
    (_game(1, 0, rated=True, end=End.TIME_LOSS), "1"),  # e-SP 3.5, even if he was behind
    (_game(0.5, 0.5, rated=True, end=End.AGREED_DRAW), "="),  # e-SP 3.5 row 12
    (_game(0, 1, rated=True, end=End.RESIGNED), "0"),
    (_game(1, 0, opponent_forfeited=True, end=End.NO_SHOW), "+"),  # e-SP 4.3, 4.9
    (_game(0, 1, forfeited=True, end=End.NO_SHOW), "-"),
    (_game(0, 0, forfeited=True, opponent_forfeited=True, end=End.OVER_LIMIT), "-"),  # 4.5
    (_game(1, 0, end=End.RESIGNED), "W"),  # unrated: someone made no move
    (_game(0, 1, end=End.RESIGNED), "L"),
    (Seat(2, True, outcome=Outcome(1, 20, 0, 0, False, False, False, End.BYE, "")), "U"),
    (Seat(2, False), "Z"),  # withdrawn / excluded (e-SP 3.6)
    (Seat(2, True, opponent=5), None),  # no result yet
], ids=["time-loss", "draw", "resigned", "forfeit-win", "forfeit-loss", "double-forfeit",
        "unrated-win", "unrated-loss", "bye", "not-paired", "pending"])
def test_result_codes(seat: Seat, code: str | None) -> None:
    assert result_code(seat) == code


async def test_a_running_round_ends_the_cells(app: App, tmp_path: Path) -> None:
    await two_rounds(app, tmp_path)
    path = tmp_path / "kt.trf"
    path.write_text((await trf_file(app, SLUG)).data, encoding="utf-8")
    parsed = TrfParser.parse(path, strict=True)
    assert [(p.points_times_ten, [(r.id, r.color.value, r.result.value) for r in p.results])
            for p in parsed.player_sections] == [
        (0, [(2, "b", "0")]), (10, [(1, "w", "1")]), (0, [(4, "b", "0")]),
        (10, [(3, "w", "1")])]
    assert parsed.x_section.number_of_rounds == 3


async def test_before_round_1(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=3))
    path = tmp_path / "kt.trf"
    path.write_text((await trf_file(app, SLUG)).data, encoding="utf-8")
    parsed = TrfParser.parse(path, strict=True)
    assert [p.results for p in parsed.player_sections] == [[], [], []]
    assert parsed.tournament_section.date_of_start is None
    assert (await tsh_files(app, SLUG)).data.count == 3


def test_long_names_keep_the_columns() -> None:
    standing = Standing(rank=12, player="1", points=2.5, wins=2, median_buchholz=0,
                        buchholz=0, score=0, spread=0, games=3, out=None,
                        qualification_points=0)
    line = Line(7, "Maximilián Alexander Hohenzollern-Sigmaringen", 1600, False, standing, False,
                (Seat(1, False),))
    text = player_line(line)
    assert text[80:89] == " 2.5   12" and text[91:99] == "0000 - Z"


async def test_the_head_admin_is_the_chief_arbiter_and_every_line_ends_with_cr(
        app: App, tmp_path: Path) -> None:
    """TRF-16: 102 Chief Arbiter; Remark 1: "Each line shall have a CR … as last character"
    (CR LF: LF-splitting readers keep their lines) — and py4swiss still reads it strictly."""
    await create(app, tmp_path, propozicie(players=4, extra='head_admin = "Ján Rozhodný"'))
    data = (await trf_file(app, SLUG)).data
    lines = data.split("\n")
    assert lines[-1] == "" and all(line.endswith("\r") for line in lines[:-1])
    assert "102 Ján Rozhodný\r" in lines
    path = tmp_path / "kt.trf"
    path.write_bytes(data.encode("utf-8"))
    parsed = TrfParser.parse(path, strict=True)
    assert parsed.tournament_section.chief_arbiter == "Ján Rozhodný"
    assert len(parsed.player_sections) == 4


async def test_without_a_head_admin_no_102_line(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=2))
    assert not any(line.startswith("102") for line in (await trf_file(app, SLUG)).data.split())


def test_why_no_132_line_py4swiss_refuses_the_layout_trf16_prescribes(tmp_path: Path) -> None:
    """TRF-16: round n's date at the columns of round n (92–99, 102–109). When py4swiss reads
    that, the export can add its 132 line (see bot/services/exports/trf.py)."""
    dates = "132" + " " * 88 + "26/11/21  26/11/21"
    assert dates[91:99] == dates[101:109] == "26/11/21"
    path = tmp_path / "dates.trf"
    path.write_text(f"012 T\r\n{dates}\r\n", encoding="utf-8")
    with pytest.raises(ParsingError):
        TrfParser.parse(path, strict=False)
