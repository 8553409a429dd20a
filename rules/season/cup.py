"""The Slovak Cup (SP A5 9.1): each player's best results slot by slot, times the slot's
coefficients; the organiser of a written or internet competition is credited his Nth best
live-qualifier result for it."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from rules.season.model import Counted, Ladder, LadderRow, NotCounted, Season
from rules.season.order import by_total, ranks
from rules.season.profile import CupRule, SeasonProfile
from rules.season.results import Result, results, unscored


def cup_ladder(season: Season, profile: SeasonProfile) -> Ladder:
    cup = profile.cup
    assert cup is not None  # the profile's check: a "cup" ladder has its [cup] table
    by_player = results(season, profile.points, profile.kinds)
    candidates: dict[str, list[Result]] = defaultdict(list)
    skipped: dict[str, list[NotCounted]] = defaultdict(list)
    credited = _organizer_credits(season, cup, by_player, candidates, skipped)
    slot_of = {k: slot for slot in cup.slots for k in slot.kinds}
    for player, rs in by_player.items():
        for r in rs:
            if (r.event.name, player) in credited:
                skipped[player].append(
                    NotCounted(r.event.name, float(r.points), "organizer", cup.organizer.rule))
            elif r.event.kind not in slot_of:
                skipped[player].append(
                    NotCounted(r.event.name, float(r.points), "kind-not-counted", cup.rule))
            elif (why := unscored(r, profile.points)) is not None:
                skipped[player].append(why)
            else:
                candidates[player].append(r)

    counted: dict[str, list[Counted]] = {}
    totals: dict[str, Fraction] = {}
    for player in set(by_player) | set(candidates) | set(skipped):
        counted[player] = []
        for slot in cup.slots:
            mine = sorted((r for r in candidates[player] if r.event.kind in slot.kinds),
                          key=lambda r: r.order)
            for r, coefficient in zip(mine, slot.coefficients, strict=False):
                is_credit = (r.event.name, player) in credited
                counted[player].append(Counted(
                    r.event.name, float(r.points), coefficient, slot.name,
                    cup.organizer.rule if is_credit else slot.rule, organizer=is_credit))
            skipped[player].extend(
                NotCounted(r.event.name, float(r.points), "not-best", slot.rule)
                for r in mine[len(slot.coefficients):])
        totals[player] = sum(
            (Fraction(c.points) * Fraction(c.coefficient) for c in counted[player]), Fraction(0))

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
    candidates: dict[str, list[Result]],
    skipped: dict[str, list[NotCounted]],
) -> set[tuple[str, str]]:
    """Adds each organiser's credit for the event he organised (A5 9.1); returns the
    (event, organiser) pairs credited, whose own places there (if any) give way to the credit.
    Without a credit ("organizer-too-few") his own place, if any, counts as anyone's."""
    credit = cup.organizer
    credited: set[tuple[str, str]] = set()
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
                skipped[organizer].append(
                    NotCounted(e.name, 0.0, "organizer-too-few", credit.rule))
                continue
            credited.add((e.name, organizer))
            # the credit stands in the event's slot like a result of his own (place 0: none)
            candidates[organizer].append(Result(e, organizer, 0, points, False))
    return credited
