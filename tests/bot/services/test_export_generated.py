"""Generated tournaments (hypothesis): every case the sss-online rules allow, scored by
`rules.score`, some players withdrawn after a round; the TSH file read by tsh's rules and the
TRF file read by py4swiss's TrfParser must give every player stredisko's standings."""

from __future__ import annotations

import random
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from py4swiss.trf import TrfParser

from bot.services.exports.games import Line, Seat, seat_of
from bot.services.exports.trf import player_line
from bot.services.exports.tsh import tsh_line
from rules import Case, End, Profile, Result, score, standings

from ...rules.test_rules_properties import a_game
from .tsh_rules import parse
from .tsh_rules import standings as tsh_standings

PROFILE = Profile.load("sss-online")
Table = tuple[int, str, str | None, Result]


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[str], int, list[Table], dict[str, int]]:
    players = [str(n) for n in range(1, draw(st.integers(2, 9)) + 1)]
    rounds = draw(st.integers(1, 5))
    leaves = {p: draw(st.integers(2, rounds + 1))
              for p in draw(st.lists(st.sampled_from(players), unique=True, max_size=2))}
    rng = random.Random(draw(st.integers(0, 2**32)))
    tables: list[Table] = []
    for rnd in range(1, rounds + 1):
        order = [p for p in players if leaves.get(p, rounds + 1) > rnd]
        rng.shuffle(order)
        if len(order) % 2:
            bye = order.pop()
            tables.append((rnd, bye, None, score(Case(End.BYE, bye, None, round=rnd), PROFILE)))
        for k in range(0, len(order), 2):
            a, b = order[k], order[k + 1]
            case = draw(a_game(PROFILE.name, a, b, rnd))
            tables.append((rnd, a, b, score(case, PROFILE)))
    return players, rounds, tables, leaves


def _lines(players: list[str], rounds: int, tables: list[Table],
           leaves: dict[str, int]) -> list[Line]:
    number = {p: int(p) for p in players}
    seats = {}
    for rnd, a, b, result in tables:
        for me, other in ((a, b), (b, a)):
            if me is not None:
                seats[(rnd, me)] = seat_of(rnd, me, other, a, result, number)
    out = {p: "e-SP 3.6: odstúpil" for p in leaves}
    ranked = {s.player: s for s in standings(players, [t[3] for t in tables], PROFILE, out=out)}
    return [Line(number[p], f"Hráč Číslo{p}", 1600, False, ranked[p], p in out,
                 tuple(seats.get((r, p), Seat(r, table=False)) for r in range(1, rounds + 1)))
            for p in players]


def _rated_by_tsh(line: Line) -> int:
    """Stredisko's rated games, and the unrated draws tsh cannot help rating (export_tsh 2)."""
    return sum(1 for s in line.seats if s.outcome and s.opponent
               and (s.outcome.rated or s.outcome.points == s.outcome.opponent_points == 0.5))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_tsh_and_trf_give_stredisko_standings(
    t: tuple[list[str], int, list[Table], dict[str, int]],
) -> None:
    lines = _lines(*t)
    records = tsh_standings(parse("".join(tsh_line(line) + "\n" for line in lines)))
    assert [(r.wins, r.full_wins, r.rated_games) for r in records] == [
        (line.standing.points, line.standing.wins, _rated_by_tsh(line)) for line in lines]
    with TemporaryDirectory() as folder:
        path = Path(folder) / "t.trf"
        path.write_text("".join(player_line(line) + "\n" for line in lines) + f"XXR {t[1]}\n",
                        encoding="utf-8")
        parsed = TrfParser.parse(path, strict=True)  # checks points against the results too
    assert [p.points_times_ten for p in parsed.player_sections] == [
        round(line.standing.points * 10) for line in lines]
