"""A small built-in example tournament, scored by `rules`, for `stredisko demo`.

Nine players, three rounds, and most rows of RULES.md section 2: a normal finish, an agreed
draw (420:300 -> 300:300), a disconnection (a 20-point lead raised to 50), no-shows that get a
player excluded (e-SP 3.6 a), byes, a time loss, a resignation, a failed save with an agreed
winner, a draw and a game over the time limit. Pure: builds text, prints nothing.
"""

from __future__ import annotations

from rules import Case, End, Profile, Result, Standing, exclusions, score, standings
from rules.scoring import END_NAMES_SK

#: Seed order (by online screlo, e-SP 2.4).
PLAYERS = ["Ľubica", "Šimon", "Žofia", "Ján", "Mária", "Peter", "Zuzana", "Tomáš", "Igor"]


def _case(
    end: End,
    rnd: int,
    first: str,
    second: str | None,
    first_score: int = 0,
    second_score: int = 0,
    *,
    loser: str | None = None,
    winner: str | None = None,
    moved: tuple[str, ...] | None = None,  # None: both players made a move
) -> Case:
    if moved is None:
        moved = (first,) if second is None else (first, second)
    return Case(
        end,
        first,
        second,
        first_score,
        second_score,
        loser=loser,
        winner=winner,
        moved=frozenset(moved),
        round=rnd,
    )


CASES = [
    # 1. kolo — Igor does not come; Tomáš has the bye
    _case(End.FINISHED, 1, "Šimon", "Ľubica", 412, 368),
    _case(End.AGREED_DRAW, 1, "Žofia", "Ján", 420, 300),
    _case(End.DISCONNECTED, 1, "Mária", "Peter", 380, 400, loser="Peter"),
    _case(End.NO_SHOW, 1, "Zuzana", "Igor", loser="Igor", moved=()),
    _case(End.BYE, 1, "Tomáš", None, moved=()),
    # 2. kolo — Igor's second no-show excludes him (e-SP 3.6 a)
    _case(End.FINISHED, 2, "Zuzana", "Šimon", 355, 402),
    _case(End.TIME_LOSS, 2, "Ľubica", "Mária", 390, 350, loser="Ľubica"),
    _case(End.RESIGNED, 2, "Ján", "Tomáš", 280, 190, loser="Tomáš"),
    _case(End.NO_SHOW, 2, "Igor", "Žofia", loser="Igor", moved=()),
    _case(End.BYE, 2, "Peter", None, moved=()),
    # 3. kolo — eight players
    _case(End.FINISHED, 3, "Šimon", "Mária", 433, 401),
    _case(End.SAVE_FAILED, 3, "Žofia", "Zuzana", winner="Zuzana"),
    _case(End.FINISHED, 3, "Peter", "Ján", 377, 377),
    _case(End.OVER_LIMIT, 3, "Tomáš", "Ľubica", 210, 260),
]


def demo_results(profile: Profile) -> list[Result]:
    return [score(case, profile) for case in CASES]


def render(profile: Profile) -> str:
    """The example tournament as text: games with their rules, exclusions, standings."""
    results = demo_results(profile)
    out = exclusions(results, profile)
    lines = [f"Ukážkový turnaj — {profile.title}", "", "Partie"]
    for rnd in sorted({r.case.round for r in results}):
        lines.append(f"  {rnd}. kolo")
        lines += [f"    {_game(r)}" for r in results if r.case.round == rnd]
    lines += ["", "Vylúčení"]
    lines += [f"  {player}: {reason}" for player, reason in out.items()] or ["  nikto"]
    lines += ["", "Poradie", _HEADER]
    lines += [_row(s) for s in standings(PLAYERS, results, profile, out=out)]
    lines += ["", "  = zhoda vo všetkých kritériách, rozhodlo nasadenie; ✗ = vylúčený (bez bodov)"]
    return "\n".join(lines)


def _points(value: float) -> str:
    return f"{value:g}".replace(".", ",")  # Slovak decimal comma


def _game(r: Result) -> str:
    what = END_NAMES_SK[r.case.end]
    if r.second is None:
        pairing, result = r.first, f"{_points(r.first_points)}"
    else:
        pairing = f"{r.first} – {r.second}"
        result = f"{_points(r.first_points)}:{_points(r.second_points)}"
    forfeit = f", kontumácia v neprospech: {', '.join(sorted(r.forfeited))}" if r.forfeited else ""
    return (
        f"{pairing:<18} {r.first_score:>3}:{r.second_score:<3}  {result:<7} "
        f"{r.rule}  ({what}{forfeit})"
    )


_HEADER = (
    f"  {'Por.':>4}  {'Hráč':<8} {'Body':>4} {'Výhry':>5} {'M-Buchholz':>10} "
    f"{'Buchholz':>8} {'Skóre':>5} {'Kval. body':>10}"
)


def _row(s: Standing) -> str:
    mark = "✗" if s.out else "=" if s.tied else " "
    return (
        f"  {s.rank:>3}.{mark} {s.player:<8} {_points(s.points):>4} {s.wins:>5} "
        f"{_points(s.median_buchholz):>10} {_points(s.buchholz):>8} {s.score:>5} "
        f"{s.qualification_points:>10}"
    )
