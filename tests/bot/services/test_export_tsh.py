"""The TSH export: its lines and config.tsh on a small tournament, every kind of table through
tsh's own rules (hypothesis), and a Slovak name through the declared encoding."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.services.app import App
from bot.services.exports.games import Outcome, Seat
from bot.services.exports.tsh import (
    TshExport,
    cell,
    original_field,
    renamed,
    tsh_files,
    tsh_name,
)
from rules import End

from .test_exports import two_rounds
from .test_rounds import SLUG
from .tsh_rules import parse, standings, tfile_encoding


async def test_lines_and_config(app: App, tmp_path: Path) -> None:
    await two_rounds(app, tmp_path)
    reply = await tsh_files(app, SLUG)
    files: TshExport = reply.data
    # seed order; round 1 the starters won 400:300; round 2 has no result: scores stop there
    # the test names carry digits ("Hráč Číslo1"): tsh cannot hold them, the original stays
    assert files.text.splitlines() == [
        "Číslo, Hráč 2000 2 3; 300; p12 2 1; paired 2 3; original Hráč Číslo1",
        "Číslo, Hráč 1950 1 4; 400; p12 1 2; paired 1 4; original Hráč Číslo2",
        "Číslo, Hráč 1900 4 1; 300; p12 2 2; paired 4 1; original Hráč Číslo3",
        "Číslo, Hráč 1850 3 2; 400; p12 1 1; paired 3 2; original Hráč Číslo4",
    ]
    assert files.changed == tuple((f"Hráč Číslo{n}", "Číslo, Hráč") for n in range(1, 5))
    assert [row["name"] for row in reply.params["rows"]] == [n for n, _ in files.changed]
    config = files.config("kt.t").splitlines()
    assert config[1:4] == ["encoding utf8", "config tfile_encoding = 'utf8'", "division A kt.t"]
    assert "config max_rounds = 3" in config and "config pairing_system = 'manual'" in config
    assert "config bye_spread = 20" in config  # e-SP 4.9
    assert [r.wins for r in standings(parse(files.text))] == [0, 1, 0, 1]


@pytest.mark.parametrize(("name", "written", "kept"), [
    ("007", "?", "007"),
    ("Ján 2. Druhý", "Druhý, Ján", "Ján 2. Druhý"),
    ("Anna;Beta Nová", "Nová, AnnaBeta", "Anna%3BBeta Nová"),
    ("100% Ďurica", "Ďurica", "100%25 Ďurica"),
    # issue 36.6: "#" starts a comment in tsh's files — a name holding one cut the line there
    ("Ján #2 Druhý", "Druhý, Ján", "Ján %232 Druhý"),
    ("Anna#Nová", "AnnaNová", "Anna%23Nová"),
], ids=["digits-only", "ordinal", "semicolon", "percent", "hash-number", "hash-inside"])
def test_a_name_tsh_cannot_hold_is_changed_listed_and_kept(name: str, written: str,
                                                           kept: str) -> None:
    assert renamed(name) and tsh_name(name) == written
    assert original_field(name) == kept
    assert urllib.parse.unquote(kept) == " ".join(name.split())  # the original, whole
    assert "#" not in tsh_name(name) and "#" not in kept
    assert not renamed("Anna Nováková") and tsh_name("Anna Nováková") == "Nováková, Anna"


def test_event_name_is_a_perl_string() -> None:
    files = TshExport("", "Jano's \\ turnaj", "2026-11-21", 7, 0, 20)
    assert "config event_name = 'Jano\\'s \\\\ turnaj'" in files.config("a.t")


def test_a_slovak_name_round_trips_in_the_declared_encoding(tmp_path: Path) -> None:
    files = TshExport("Ďurica, Cyril 2040 0; 20; p12 0\n", "Ľubovňa", "2026-11-21", 1, 1, 20)
    (tmp_path / "a.t").write_text(files.text, encoding="utf-8")
    config = files.config("a.t")
    assert config.isascii() or config.index("encoding utf8") < config.index("Ľubovňa")
    declared = {"utf8": "utf-8", "isolatin1": "latin-1"}[tfile_encoding(config)]
    [player] = parse((tmp_path / "a.t").read_bytes().decode(declared))
    assert player.name == "Ďurica, Cyril"
    # what tsh would show without the declaration
    assert parse((tmp_path / "a.t").read_bytes().decode("latin-1"))[0].name != player.name


# -- every kind of table, through tsh's rules ------------------------------------------------

POINTS = [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)]


@st.composite
def tables(draw: st.DrawFn) -> tuple[Outcome, Outcome, bool]:
    """Two players' outcomes of one table as stredisko can score it: a rated game (scores may
    contradict the result: a time loss, a resignation), an unrated result with its forfeits
    (a double forfeit 0:0 forfeited against both), or an unrated game without forfeits."""
    points = draw(st.sampled_from(POINTS))
    rated = draw(st.booleans()) and points != (0.0, 0.0)
    scores = (draw(st.integers(0, 700)), draw(st.integers(0, 700)))
    forfeited = (False, False) if rated else (
        (points[0] == 0, points[1] == 0) if points != (0.5, 0.5) and draw(st.booleans())
        else (False, False))
    if points == (0.0, 0.0):
        forfeited = (True, True)
    end = End.TIME_LOSS if rated else End.NO_SHOW
    a = Outcome(points[0], scores[0], points[1], scores[1], rated, forfeited[0], forfeited[1],
                end, "e-SP 3.5")
    b = Outcome(points[1], scores[1], points[0], scores[0], rated, forfeited[1], forfeited[0],
                end, "e-SP 3.5")
    return a, b, draw(st.booleans())


@given(tables())
def test_tsh_computes_stredisko_points_and_ratedness(table: tuple[Outcome, Outcome, bool]) -> None:
    a, b, a_started = table
    cells = [cell(Seat(1, True, opponent=2, started=a_started, outcome=a)),
             cell(Seat(1, True, opponent=1, started=not a_started, outcome=b))]
    lines = "".join(f"Hráč, Číslo 1600 {c.opponent}; {c.score}\n" for c in cells)
    records = standings(parse(lines))
    assert [r.wins for r in records] == [a.points, b.points]
    unrated_draw = not a.rated and a.points == 0.5  # the one case tsh cannot write as a bye
    assert [r.rated_games for r in records] == [int(a.rated or unrated_draw)] * 2
    if a.rated:
        assert {c.p12 for c in cells} == {1, 2}


@pytest.mark.parametrize(("seat", "written"), [
    (Seat(3, True, outcome=Outcome(1.0, 20, 0.0, 0, False, False, False, End.BYE, "")), 20),
    (Seat(3, False), 0),
])
def test_bye_and_unpaired_round(seat: Seat, written: int) -> None:
    c = cell(seat)
    assert (c.opponent, c.score, c.p12) == (0, written, 0)
