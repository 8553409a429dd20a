"""The Slovak Cup (SP A5 9.1): each player's best results slot by slot, times the slot's
coefficients; the organiser of a written or internet competition is credited his Nth best
live-qualifier result for it."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from rules.season.model import Counted, Ladder, LadderRow, NotCounted, Season
from rules.season.order import by_total, ranks
from rules.season.profile import CupRule, SeasonProfile
from rules.season.results import Result, results, sift, unscored


def cup_ladder(season: Season, profile: SeasonProfile) -> Ladder:
    cup = profile.cup
    assert cup is not None  # the profile's check: a "cup" ladder has its [cup] table
    by_player = results(season, profile.points, profile.kinds)
    slot_of = {k: slot for slot in cup.slots for k in slot.kinds}

    def rejects(r: Result) -> NotCounted | None:
        if r.event.kind not in slot_of:
            return NotCounted(r.event.name, float(r.points), "kind-not-counted", cup.rule)
        return unscored(r, profile.points)

    too_few: dict[str, list[NotCounted]] = defaultdict(list)
    credits = _organizer_credits(season, cup, by_player, too_few)
    candidates, skipped, credited = sift(by_player, credits, rejects, cup.organizer.rule)
    for player, missing in too_few.items():
        skipped[player] += missing

    counted: dict[str, list[Counted]] = {}
    totals: dict[str, Fraction] = {}
    for player in set(by_player) | set(candidates) | set(skipped):
        counted[player] = []
        totals[player] = Fraction(0)
        for slot in cup.slots:
            mine = sorted((r for r in candidates[player] if r.event.kind in slot.kinds),
                          key=lambda r: r.order)
            for r, coefficient in zip(mine, slot.coefficients, strict=False):
                totals[player] += r.points * Fraction(coefficient)
                is_credit = (r.event.name, player) in credited
                counted[player].append(Counted(
                    r.event.name, float(r.points), coefficient, slot.name,
                    cup.organizer.rule if is_credit else slot.rule, organizer=is_credit))
            skipped[player].extend(
                NotCounted(r.event.name, float(r.points), "not-best", slot.rule)
                for r in mine[len(slot.coefficients):])

    blocks = by_total(totals)
    rank = ranks(blocks)
    rows = tuple(
        LadderRow(p, rank[p], float(totals[p]), False, tuple(counted[p]),
                  tuple(sorted(skipped[p], key=lambda n: n.event)))
        for block in blocks for p in block)
    return Ladder(season.name, profile.name, profile.rule, rows, cut=0)


def _organizer_credits(
    season: Season,
    cup: CupRule,
    by_player: dict[str, list[Result]],
    too_few: dict[str, list[NotCounted]],
) -> dict[tuple[str, str], Result]:
    """Each organiser's credit for the event he organised (A5 9.1): his Nth best result at
    the `from_kinds` events, by (event, organiser); without one, "organizer-too-few"."""
    credit = cup.organizer
    credits: dict[tuple[str, str], Result] = {}
    for e in season.events:
        if e.kind not in credit.kinds:
            continue
        for organizer in sorted(e.organizers):
            source = [r.points for r in by_player.get(organizer, [])
                      if r.event.kind in credit.from_kinds]  # best first
            if len(source) >= credit.nth:
                points = source[credit.nth - 1]
            elif source and credit.shortfall == "last":
                points = source[-1]
            else:
                too_few[organizer].append(
                    NotCounted(e.name, 0.0, "organizer-too-few", credit.rule))
                continue
            # the credit stands for the event like a place of his own (place 0: none)
            credits[(e.name, organizer)] = Result(e, organizer, 0, points, False)
    return credits
