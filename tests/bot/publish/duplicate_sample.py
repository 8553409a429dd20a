"""A small duplicate event for the page tests, scored by `rules.duplicate` (never by hand):
four players, three rounds, every kind of evaluation the page must explain — the top, a lower
score, a late slip, an invalid move, a rejected word, a declared score too high, no slip, a
word admitted by a correction after the game — and a tie on points that the sum of the
rounds' percentages decides (003 r. 48)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.publish.duplicate_report import (
    DuplicateGameReport,
    DuplicateReport,
    DuplicateRound,
    TopMove,
    placed_squares,
)
from bot.publish.report import Player
from rules.duplicate import Correction, Game, Slip, commit, duplicate_profile, score_game, standings

XSS_NAME = '<script>alert("x")</script> & "Ľubo"'
SEED = "5eed" * 8
EMPTY = ("." * 15 + "\n") * 15


def _board(*words: tuple[int, int, bool, str]) -> str:
    """A board text with `words` laid: (row, column, across, letters; lower case a blank)."""
    rows = [list("." * 15) for _ in range(15)]
    for r, c, across, letters in words:
        for i, ch in enumerate(letters):
            rows[r if across else r + i][c + i if across else c] = ch
    return "".join("".join(row) + "\n" for row in rows)


SLOVO = (7, 3, True, "SLOVO")  # 8D SLOVO
KOLO = (4, 7, False, "KOLO")  # H5 KOLO, through SLOVO's last O
MAKY = (4, 5, True, "MaK")  # 5F MaK… (a blank for A), through KOLO's K
BOARDS = (_board(SLOVO), _board(SLOVO, KOLO), _board(SLOVO, KOLO, MAKY))


def sample_duplicate(final: bool = True) -> DuplicateReport:
    """The event with its final results, or (`final` False) its preliminary ones."""
    profile = duplicate_profile("cas-duplicate")
    players = ("anna", "boris", "cyril", "dana")
    slips = (
        Slip("anna", 1, "8D SLOVO", 24, ("SLOVO",), declared=24),
        Slip("boris", 1, "8E LOVO", 12, ("LOVO",), declared=12),
        Slip("cyril", 1, "8D SLOVO", 24, ("SLOVO",), declared=24, late=True),
        Slip("dana", 1, "8D SLOVO", 24, ("SLOVO",), declared=30),
        Slip("anna", 2, "H5 KOLO", 30, ("KOLO",), declared=30),
        Slip("boris", 2, "H6 OLO", 22, ("OLO",), declared=22),
        Slip("cyril", 2, "H5 KOLOS", 0, fault="not_on_rack", declared=35),
        Slip("dana", 2, "8I ZZZ", 18, ("SLOVOZZZ",), frozenset({"SLOVOZZZ"}), declared=18),
        Slip("anna", 3, "9G VOZ", 20, ("VOZ",), declared=20),
        Slip("boris", 3, "5F MaK", 40, ("MAK",), declared=40),
        Slip("cyril", 3, "6G KVAK", 30, ("KVAK",), frozenset({"KVAK"}), declared=30),
    )
    fix = Correction("KVAK", accepted=True, reason="je v KSSJ", round=3)
    game = Game("1", players, (24, 30, 40), slips, corrections=(fix,))
    result = score_game(game, profile)
    rounds = (
        DuplicateRound(1, "LOOSVAK", (TopMove("8D", "SLOVO", 24), TopMove("8E", "LOVO", 12)),
                       BOARDS[0], placed_squares(EMPTY, BOARDS[0])),
        DuplicateRound(2, "AKLOEI?", (TopMove("H5", "KOLO", 30),), BOARDS[1],
                       placed_squares(BOARDS[0], BOARDS[1])),
        DuplicateRound(3, "MK?YAIE", (TopMove("5F", "MaK", 40),), BOARDS[2],
                       placed_squares(BOARDS[1], BOARDS[2]), part=2),
    )
    names = {"anna": Player("anna", "Anna Nováková-Šťastná", "anka"),
             "boris": Player("boris", "Boris Kováč"), "cyril": Player("cyril", "Cyril Ďurica"),
             "dana": Player("dana", XSS_NAME, '"><img src=x onerror=alert(1)>')}
    res = profile.results
    return DuplicateReport(
        name="Pohár ČAS v duplikátnom scrabble — online 1",
        profile_title=profile.title,
        generated_at=datetime(2026, 11, 26, 19, 5, tzinfo=UTC),
        status="final" if final else "preliminary",
        players=names,
        games=(DuplicateGameReport(1, result, rounds, commit(SEED), SEED if final else None),),
        standings=tuple(standings([result], profile)),
        standings_rule=f"{res.totals_rule}, {res.percent_sum_rule}, {res.shoot_out_rule}",
        status_rule="003 r. 29" if final else "003 r. 25, 27",
        words_rule=res.words_rule,
    )
