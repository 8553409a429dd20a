"""Qualification for the Slovak championship (SP A3 7.1): table points summed over the season's
qualifiers; the reigning champion directly, the rest fill 32 seats, MS-B the next 32. Players
level on points at a line are ordered by A3's criteria; still level, they all advance."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any

from rules.season.cup import cup_ladder
from rules.season.model import Counted, Ladder, LadderRow, NotCounted, Season, Tie
from rules.season.order import Criterion, Resolver, best_results, by_total, ranks
from rules.season.profile import MsrRule, SeasonProfile, season_profile
from rules.season.results import Result, kind_not_counted, placed, results, unscored


def msr_ladder(
    season: Season, profile: SeasonProfile, cup: SeasonProfile | None = None
) -> Ladder:
    """`cup`: the Slovak Cup profile for the "cup-position" criterion; None = the one the
    profile names (msr.cup_profile)."""
    m = profile.msr
    assert m is not None  # the profile's check: an "msr" ladder has its [msr] table
    by_player = results(season, profile.points, m.kinds)
    others = kind_not_counted(season, m.kinds, m.kinds_rule)
    everyone = placed(season) | ({season.champion} if season.champion else set())
    counted: dict[str, list[Counted]] = {}
    skipped: dict[str, list[NotCounted]] = {}
    totals: dict[str, Fraction] = {}
    for p in everyone:
        rs = by_player.get(p, [])
        counted[p], skipped[p] = [], list(others.get(p, []))
        for r in rs:
            why = unscored(r, profile.points)
            if why is None:
                counted[p].append(Counted(r.event.name, float(r.points), 1.0, r.event.kind,
                                          m.rule))
            else:
                skipped[p].append(why)
        skipped[p].sort(key=lambda n: n.event)
        totals[p] = sum((r.points for r in rs), Fraction(0))

    cup = cup or season_profile(m.cup_profile)
    resolver = Resolver(_criteria(season, m, cup, by_player), m.tiebreak_rule)
    champion = season.champion if season.champion not in season.declined else None

    def eligible(p: str, line: str) -> bool:
        """A3 7.1 excludes from MS-B only "hráčov, ktorí sa zúčastňujú hlavného turnaja": one
        who declined M-SR may take an MS-B seat (profile `declined_plays_ms_b`)."""
        if p == champion or not (totals[p] > 0 or m.zero_total_qualifies):
            return False
        return p not in season.declined or (line == "ms-b" and m.declined_plays_ms_b)

    lines = [_Line("ms", m.seats - (1 if champion else 0)), _Line("ms-b", m.ms_b_seats)]
    fill = _Fill(lines, eligible, resolver, m.all_tied_advance_rule)
    for group in by_total(totals):
        fill.place(group, resolvable=True)

    def group_of(p: str) -> str | None:
        if p == champion:
            return "champion"
        if p in season.declined:
            return "declined-ms-b" if fill.assigned.get(p) == "ms-b" else "declined"
        return fill.assigned.get(p)

    rank = ranks(fill.blocks)
    rows = tuple(
        LadderRow(p, rank[p], float(totals[p]), group_of(p) in ("champion", "ms"),
                  tuple(counted[p]), tuple(skipped[p]), group_of(p))
        for block in fill.blocks for p in block)
    notes = ["all-tied-advance"] if any(t.criterion == "all-advance" for t in fill.ties) else []
    if lines[0].filled < lines[0].seats:
        notes.append("seats-unfilled")
    if season.declined:  # which reading of A3 7.1 applied to them
        notes.append("declined-ms-b" if m.declined_plays_ms_b else "declined-not-ms-b")
    return Ladder(season.name, profile.name, m.rule, rows,
                  cut=sum(r.qualified for r in rows), ties=tuple(fill.ties), notes=tuple(notes))


def _criteria(
    season: Season, m: MsrRule, cup: SeasonProfile, by_player: dict[str, list[Result]]
) -> list[Criterion]:
    @cache
    def cup_rank() -> dict[str, int]:
        """The Slovak Cup's ranks: computed only when a tie at a line comes to them."""
        ladder = cup_ladder(replace(season, competition=cup.name), cup)
        return {r.player: r.rank for r in ladder.rows}

    def fields(p: str) -> tuple[int, ...]:
        rs = sorted(by_player.get(p, []), key=lambda r: (-r.points, -r.event.size))
        return tuple(r.event.size for r in rs)

    keys: dict[str, Callable[[str], Any]] = {
        "cup-position": lambda p: -cup_rank().get(p, len(cup_rank()) + 1),
        "best-results": best_results({p: [r.points for r in rs] for p, rs in by_player.items()}),
        "events-played": lambda p: len(by_player.get(p, [])),
        "field-size": fields,
    }
    return [(code, keys[code]) for code in m.tiebreaks]


@dataclass(slots=True)
class _Line:
    group: str
    seats: int
    filled: int = 0


@dataclass(slots=True)
class _Fill:
    """Seats line after line, in ladder order; a group level on points that straddles a line
    is ordered by the criteria, and what is still level there advances whole."""

    lines: list[_Line]
    eligible: Callable[[str, str], bool]  # (player, line's group)
    resolver: Resolver
    all_advance_rule: str
    assigned: dict[str, str] = field(default_factory=dict)
    blocks: list[list[str]] = field(default_factory=list)  # the ladder's order, rank by rank
    ties: list[Tie] = field(default_factory=list)

    def place(self, unit: list[str], resolvable: bool) -> None:
        line = next((ln for ln in self.lines if ln.filled < ln.seats), None)
        seeking = [p for p in unit if line is not None and self.eligible(p, line.group)]
        if line is None or len(seeking) <= line.seats - line.filled:
            if line is not None:
                self._assign(seeking, line)
                self._onward(unit, line)
            self.blocks.append(unit)
        elif resolvable:
            blocks, ties = self.resolver(unit, at_cut=True, line=line.group)
            self.ties += ties
            for block in blocks:
                self.place(block, resolvable=False)
        else:  # SP A3 7.1: "postupujú potom všetci hráči"
            self.ties.append(Tie(tuple(unit), "all-advance", self.all_advance_rule,
                                 at_cut=True, decided=False, line=line.group))
            self._assign(seeking, line)
            self._onward(unit, line)
            self.blocks.append(unit)

    def _onward(self, unit: list[str], line: _Line) -> None:
        """Who may not take `line`'s seats but a later line's (one who declined M-SR, for
        MS-B) takes one there, in ladder order; level players all advance (A3 7.1)."""
        for later in self.lines[self.lines.index(line) + 1:]:
            if later.filled < later.seats:
                self._assign([p for p in unit if p not in self.assigned
                              and self.eligible(p, later.group)], later)

    def _assign(self, seeking: list[str], line: _Line) -> None:
        for p in seeking:
            self.assigned[p] = line.group
        line.filled += len(seeking)
