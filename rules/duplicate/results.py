"""Results of duplicate games (issue 23 item 6): each player's points and percentage of the
top, per round and in total ("800 – 80 %", 004 §7); several games summed (003 r. 46–47);
standings by the total, then the sum of per-round percentages (003 r. 48), then a shoot-out
whose result is an input (r. 49); corrections after the game change scores and ranks, never
the board — the tops stay (004 §5D); the approved and rejected words of each round (r. 26).

Percentages are exact fractions (a tie on them is a true tie); `percent_text` rounds them for
people. Nothing is capped: a player above the top (possible only when a correction admits a
word the lexicon lacked, so the computer could not play it) shows above 100 % and is flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from rules.duplicate.players import Correction, RoundScore, Slip, rejected_words, score_round
from rules.duplicate.profile import DuplicateProfile

#: what decided a place (catalogue: duplicate.results.<code>)
DECIDERS = ("points", "percent-sum", "shoot-out", "tied", "tied-after-shoot-out")


@dataclass(frozen=True, slots=True)
class Game:
    """One game as played: the top's score of each round (tops[0] is round 1's), every slip
    handed in (in the order handed in), who left when, the corrections after it."""

    name: str
    players: tuple[str, ...]
    tops: tuple[int, ...]
    slips: tuple[Slip, ...] = ()
    left: Mapping[str, int] = field(default_factory=dict)  # player → first round not played
    corrections: tuple[Correction, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    top: int
    scores: Mapping[str, RoundScore]

    def percent(self, player: str) -> Fraction:
        """The player's points in this round as a percentage of the top (003 r. 48)."""
        return percent(self.scores[player].points, self.top)


@dataclass(frozen=True, slots=True)
class WordRuling:
    """003 r. 26: a word written in a round, approved or not, and who wrote it."""

    round: int
    word: str
    approved: bool
    players: tuple[str, ...]
    corrected: Correction | None = None  # the correction that settled it, if one


@dataclass(frozen=True, slots=True)
class Total:
    player: str
    points: int
    top: int  # the tops' sum over the rounds counted
    percent: Fraction  # points / top (0 when the tops sum to 0)
    percent_sum: Fraction  # Σ over rounds of points / top in the round (rounds with a top)
    above_top: tuple[tuple[str, int], ...] = ()  # (game, round) where he beat the top


@dataclass(frozen=True, slots=True)
class GameResult:
    game: Game
    rounds: tuple[RoundResult, ...]
    totals: Mapping[str, Total]
    words: tuple[WordRuling, ...]


@dataclass(frozen=True, slots=True)
class ShootOut:
    """003 r. 49's result for one player: his word's score and how long he took (seconds;
    "za jak dlouho slovo vytvořili"); the move as written, if the arbiter gave it."""

    score: int
    seconds: float
    word: str | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int  # equal ranks only for players no criterion could separate
    player: str
    points: int
    top: int
    percent: Fraction
    percent_sum: Fraction
    decided_by: str  # DECIDERS: what placed him below the one above ("points" for the first)
    rule: str
    shoot_out: ShootOut | None = None  # his r. 49 result, when it counted for his place
    above_top: tuple[tuple[str, int], ...] = ()


def percent(points: int, top: int) -> Fraction:
    """points / top as a percentage (exact); 0 for a round without a scoring top."""
    return Fraction(100 * points, top) if top > 0 else Fraction(0)


def percent_text(value: Fraction, places: int = 0) -> str:
    """A percentage rounded half up for people: "80", "83.3"; the catalogue adds "%" and the
    decimal comma."""
    q = Decimal(1).scaleb(-places)
    return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        q, rounding=ROUND_HALF_UP))


def score_game(game: Game, profile: DuplicateProfile) -> GameResult:
    """Every round's scores, each player's total and percentages, and the word list."""
    if any(t < 0 for t in game.tops) or len(set(game.players)) != len(game.players):
        raise ValueError("tops are 0 or more; each player once")
    if any(not 1 <= s.round <= len(game.tops) for s in game.slips):
        raise ValueError("a slip of a round the game did not have")
    rounds = tuple(
        RoundResult(no, top, score_round(no, game.players, game.slips, profile,
                                         left=game.left, corrections=game.corrections))
        for no, top in enumerate(game.tops, start=1))
    return game_result(game, rounds)


def game_result(game: Game, rounds: Sequence[RoundResult]) -> GameResult:
    """A game's totals and word list from round scores already decided — `score_game`'s, or
    the ones a store kept (the results page reads those rather than judging slips again)."""
    if [r.round for r in rounds] != list(range(1, len(rounds) + 1)) or any(
            set(r.scores) != set(game.players) for r in rounds):
        raise ValueError("rounds 1, 2 … each with a score of every player")
    totals = {p: _total(p, game.name, rounds) for p in game.players}
    return GameResult(game, tuple(rounds), totals, _words(game, rounds))


def _total(player: str, game: str, rounds: Sequence[RoundResult]) -> Total:
    points = sum(r.scores[player].points for r in rounds)
    top = sum(r.top for r in rounds)
    return Total(player, points, top, percent(points, top),
                 sum((r.percent(player) for r in rounds), Fraction(0)),
                 tuple((game, r.round) for r in rounds if r.scores[player].points > r.top))


def _words(game: Game, rounds: Sequence[RoundResult]) -> tuple[WordRuling, ...]:
    """Each round's words from the slips that were judged on their words (003 r. 26)."""
    found: dict[tuple[int, str], tuple[bool, list[str], Correction | None]] = {}
    for r in rounds:
        for player, score in r.scores.items():
            slip = score.slip
            if slip is None or score.outcome in ("late", "several-slips", "left"):
                continue
            rejected, applied = rejected_words(slip, game.corrections)
            for word in slip.words:
                fix = next((c for c in applied if c.word == word), None)
                approved, who, was = found.get((r.round, word), (word not in rejected, [], fix))
                who.append(player)
                found[(r.round, word)] = (approved, who, was or fix)
    return tuple(WordRuling(rnd, word, ok, tuple(sorted(who)), fix)
                 for (rnd, word), (ok, who, fix) in sorted(found.items()))


def standings(results: Sequence[GameResult], profile: DuplicateProfile,
              shoot_out: Mapping[str, ShootOut] | None = None) -> list[Standing]:
    """The tournament's order over its games (003 r. 46–47): the total points, then the
    profile's tie-breaks — the sum of per-round percentages (r. 48), the shoot-out (r. 49:
    the higher score, then the shorter time). A shoot-out counts only for a group level on
    everything before it (`shoot_out_groups`) and only once every one of the group has a
    result; players still level share the rank ("tied", or "tied-after-shoot-out" when the
    shoot-out was played and did not separate them). `Standing.shoot_out` is set only for the
    players whose shoot-out counted."""
    res = profile.results
    rows = _totals(results)
    given = shoot_out or {}
    shots = {p: given[p] for group in shoot_out_groups(results, profile)
             if all(q in given for q in group) for p in group}

    def value(name: str, p: str) -> object:
        if name == "points":
            return -rows[p].points
        if name == "percent-sum":
            return -rows[p].percent_sum
        s = shots.get(p)
        return (-s.score, s.seconds) if s else None

    rules = {"points": res.totals_rule, "percent-sum": res.percent_sum_rule,
             "shoot-out": res.shoot_out_rule, "tied": res.shoot_out_rule,
             "tied-after-shoot-out": res.shoot_out_rule}
    out: list[Standing] = []
    for group, decided in _groups(sorted(rows), ["points", *res.tiebreaks], value, "points"):
        rank = len(out) + 1
        for i, p in enumerate(group):
            how = decided if i == 0 else "tied-after-shoot-out" if p in shots else "tied"
            t = rows[p]
            out.append(Standing(rank, p, t.points, t.top, t.percent, t.percent_sum, how,
                                rules[how], shots.get(p), t.above_top))
    return out


def shoot_out_groups(results: Sequence[GameResult], profile: DuplicateProfile
                     ) -> list[tuple[str, ...]]:
    """The groups of two or more players level on every criterion the profile puts before
    the shoot-out (003 r. 47–48: the points, then the sum of round percentages), best first:
    the players a shoot-out (r. 49) is for. None when the profile has no shoot-out."""
    levels = ["points", *profile.results.tiebreaks]
    if "shoot-out" not in levels:
        return []
    rows = _totals(results)

    def value(name: str, p: str) -> object:
        return -rows[p].points if name == "points" else -rows[p].percent_sum

    before = levels[:levels.index("shoot-out")]
    return [tuple(group) for group, _ in _groups(sorted(rows), before, value, "points")
            if len(group) > 1]


def _groups(players: list[str], levels: Sequence[str], value: Callable[[str, str], Any],
            decided: str) -> list[tuple[list[str], str]]:
    """The players in groups no criterion separates, best first, each with the criterion
    that separated it from the group above."""
    if len(players) > 1 and levels:
        values = {p: value(levels[0], p) for p in players}
        if None not in values.values():
            out: list[tuple[list[str], str]] = []
            for i, v in enumerate(sorted(set(values.values()))):
                group = [p for p in players if values[p] == v]
                out += _groups(group, levels[1:], value, decided if i == 0 else levels[0])
            return out
    return [(players, decided)]


def _totals(results: Sequence[GameResult]) -> dict[str, Total]:
    return {p: _sum(p, results) for p in {p for r in results for p in r.game.players}}


def _sum(player: str, results: Sequence[GameResult]) -> Total:
    """A player's totals over the games he played (003 r. 46)."""
    mine = [r.totals[player] for r in results if player in r.totals]
    points = sum(t.points for t in mine)
    top = sum(t.top for t in mine)
    return Total(player, points, top, percent(points, top),
                 sum((t.percent_sum for t in mine), Fraction(0)),
                 tuple(x for t in mine for x in t.above_top))
