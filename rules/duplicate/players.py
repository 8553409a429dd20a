"""Scoring a player's slip for a round (issue 23 item 5): late → 0 (003 r. 19, 004 §5C);
declared higher than real → 0, lower → the declared value (003 r. 45; a profile without a
declared score ignores it, 004 §8.1); an invalid move → 0 with its reason (004 §6); one slip
per round (the last before the limit, or none at all when several, 003 r. 41–42) — an entry the
arbiter typed again to correct his own typing (`Slip.superseded`) is not a slip handed in; a
player who left gets 0 for every remaining round (004 §7).

The move engine judges a slip's move; this module takes what it found as plain data
(`Slip.score`, `Slip.words`, `Slip.rejected`, `Slip.fault`) and decides what the player gets.
Corrections after the game (004 §5D) re-judge words: `score_slips` takes them too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rules.duplicate.profile import DuplicateProfile

#: a round's outcome for a player (catalogue: duplicate.slip.<code>)
OUTCOMES = ("scored", "declared-lower", "declared-higher", "invalid", "word-rejected", "late",
            "no-slip", "several-slips", "incomplete", "left")


@dataclass(frozen=True, slots=True)
class Slip:
    """One slip a player handed in, with the move engine's findings about its move.

    `score`: the points the placement makes (the bingo included), whether or not its words are
    in the lexicon — a correction may admit them later; 0 when it cannot be placed.
    `words`: every word it forms, the main word first; `rejected`: those the lexicon refused;
    `fault`: the engine's reason code when the move is void for anything but a word (letters
    not on the rack, a wrong coordinate or direction, an unmarked blank …), else None.
    `declared`: the score written on the slip (None: not written). `late`: handed in after the
    limit (the caller's clock decides). `superseded`: the arbiter mistyped this paper slip and
    typed it again as a correction — the player handed in one slip, the correction is it
    (003 r. 42 counts slips handed in, not the arbiter's typing)."""

    player: str
    round: int
    move: str  # as written, e.g. "8H SLOVO"
    score: int
    words: tuple[str, ...] = ()
    rejected: frozenset[str] = frozenset()
    fault: str | None = None
    declared: int | None = None
    late: bool = False
    superseded: bool = False


@dataclass(frozen=True, slots=True)
class Correction:
    """After the game, a word ruled on again (003 r. 27–29; 004 §5D): `accepted` True — it was
    wrongly rejected and now counts; False — wrongly accepted, its moves now score 0. `round`
    None: in every round of the game. The board never changes."""

    word: str
    accepted: bool
    reason: str  # the referee's words, shown with the change
    round: int | None = None
    rule: str = "004 §5D"


@dataclass(frozen=True, slots=True)
class RoundScore:
    player: str
    round: int
    points: int
    outcome: str  # OUTCOMES
    rule: str  # the rule the outcome rests on
    slip: Slip | None = None  # the slip that counted (or was judged)
    reason: str | None = None  # the engine's fault code, or the first rejected word
    corrected: tuple[Correction, ...] = ()  # corrections that changed this round's score


def rejected_words(slip: Slip, corrections: Sequence[Correction]) -> tuple[set[str],
                                                                           list[Correction]]:
    """The slip's words rejected after the corrections, and the corrections that apply."""
    rejected = set(slip.rejected)
    applied = []
    for c in corrections:
        if c.word in slip.words and c.round in (None, slip.round):
            if c.accepted and c.word in rejected:
                rejected.discard(c.word)
                applied.append(c)
            elif not c.accepted and c.word not in rejected:
                rejected.add(c.word)
                applied.append(c)
    return rejected, applied


def score_slip(player: str, round_no: int, slips: Sequence[Slip], profile: DuplicateProfile,
               *, left: bool = False, corrections: Sequence[Correction] = ()) -> RoundScore:
    """What `player` gets in `round_no` from the slips he handed in that round (in the order
    they were handed in). `left`: he had left the game before this round (004 §7)."""
    rule = profile.slips
    # what he handed in: an entry the arbiter corrected is his typing, not a slip (003 r. 42)
    mine = [s for s in slips if s.player == player and s.round == round_no and not s.superseded]

    def zero(outcome: str, cites: str, slip: Slip | None = None,
             reason: str | None = None) -> RoundScore:
        return RoundScore(player, round_no, 0, outcome, cites, slip, reason)

    if left:
        return zero("left", rule.left_rule)
    on_time = [s for s in mine if not s.late]
    if not on_time:
        return zero("late", rule.late_rule, mine[-1]) if mine else zero("no-slip",
                                                                         rule.missing_rule)
    if len(on_time) > 1 and rule.several == "none":
        return zero("several-slips", rule.several_rule, on_time[-1])
    slip = on_time[-1]
    declared = slip.declared if rule.declared == "required" else None
    if rule.declared == "required" and (declared is None or declared < 0):
        return zero("incomplete", rule.incomplete_rule, slip)
    if slip.fault is not None:
        return zero("invalid", rule.invalid_rule, slip, slip.fault)
    rejected, applied = rejected_words(slip, corrections)
    fixed = tuple(applied)
    if rejected:
        first = next(w for w in slip.words if w in rejected)
        return RoundScore(player, round_no, 0, "word-rejected", rule.invalid_rule, slip, first,
                          fixed)
    if declared is not None and declared > slip.score:
        return RoundScore(player, round_no, 0, "declared-higher", rule.declared_rule, slip,
                          corrected=fixed)
    if declared is not None and declared < slip.score:
        return RoundScore(player, round_no, declared, "declared-lower", rule.declared_rule,
                          slip, corrected=fixed)
    # the real score: matching the declared one (003 r. 45), or the referee's (004 §8.1)
    return RoundScore(player, round_no, slip.score, "scored", rule.declared_rule, slip,
                      corrected=fixed)


def score_round(round_no: int, players: Collection[str], slips: Sequence[Slip],
                profile: DuplicateProfile, *, left: Mapping[str, int] | None = None,
                corrections: Sequence[Correction] = ()) -> dict[str, RoundScore]:
    """Every player's score in one round. `left`: player → the first round he no longer
    played (he left before it)."""
    gone = left or {}
    unknown = sorted({s.player for s in slips if s.round == round_no} - set(players))
    if unknown:
        raise ValueError(f"slips of players not in the game: {', '.join(unknown)}")
    return {p: score_slip(p, round_no, slips, profile, corrections=corrections,
                          left=p in gone and round_no >= gone[p]) for p in players}
