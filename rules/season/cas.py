"""The ČAS duplicate cup (ČAS PoS 2002, seed 003): four ladders — internet tournaments, the
correspondence competition, the online tournament, live tournaments — fill the cup's seats in
that order; a seat freed by a player qualified twice or declining goes to the live ladder.
A lot is never drawn here: Season.lots gives it, or the players share the rank (and a seat
the lot decides stays open, note "lot-pending")."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rules.season.model import (
    Counted,
    Ladder,
    LadderRow,
    NotCounted,
    Season,
    SeasonError,
    SeasonEvent,
    Tie,
)
from rules.season.order import Criterion, Resolver, best_results, by_total, ranks
from rules.season.profile import CasLadder, CasRule, SeasonProfile
from rules.season.results import Result, results, sift, unscored


@dataclass(slots=True)
class _Part:
    """One ladder before its seats are given: everyone's total, results and order."""

    spec: CasLadder
    totals: dict[str, Fraction] = field(default_factory=dict)
    counted: dict[str, list[Counted]] = field(default_factory=lambda: defaultdict(list))
    skipped: dict[str, list[NotCounted]] = field(default_factory=lambda: defaultdict(list))
    blocks: list[list[str]] = field(default_factory=list)  # everyone, rank by rank
    eligible: set[str] = field(default_factory=set)  # may take a seat
    ties: list[Tie] = field(default_factory=list)
    # each player's results (counted or not) best first: "nejlepší výsledek, pak druhý …"
    points: dict[str, list[Fraction]] = field(default_factory=dict)


def cas_ladder(season: Season, profile: SeasonProfile) -> Ladder:
    cas = profile.cas
    assert cas is not None  # the profile's check: a "cas" ladder has its [cas] table
    parts = [
        _order_part(season, profile, spec) if spec.mode == "order"
        else _best_part(season, profile, cas, spec)
        for spec in cas.ladders
    ]
    for part in parts:
        _rank(part, season)
    seats = _Seats(season.declined)
    for part in parts:
        seats.fill(part, fill=part.spec.name == cas.fill_from)

    for part in parts:
        part.ties = [replace(t, at_cut=seats.straddles(t, part)) for t in part.ties]
    sub = tuple(_ladder(season, profile, part, seats) for part in parts)
    rows = _main_rows(parts, seats, cas.fill_from)
    ties = tuple(t for part in parts for t in part.ties)
    notes = []
    if any(t.criterion == "lot" and not t.decided for t in ties):
        notes.append("lot-pending")
    if len(seats.qualified) + seats.reserved < sum(s.seats for s in cas.ladders):
        notes.append("seats-unfilled")
    return Ladder(season.name, profile.name, cas.rule, rows, cut=len(seats.qualified),
                  ties=ties, notes=tuple(notes), parts=sub)


def _order_part(season: Season, profile: SeasonProfile, spec: CasLadder) -> _Part:
    """A ladder that is one event's final order (the correspondence competition at 31.10.,
    THE qualifying online tournament): no points, equal places are decided by lot."""
    part = _Part(spec)
    events = [e for e in season.events if e.kind in spec.kinds]
    if len(events) > 1:
        raise SeasonError(
            f"{spec.name}: only one event of kind {'/'.join(spec.kinds)} counts, got "
            f"{', '.join(e.name for e in events)}", "one-event-only",
            ladder=spec.name, events=", ".join(e.name for e in events))
    for e in events:
        for i, p in enumerate(e.places):
            if p in e.out:
                part.skipped[p].append(NotCounted(e.name, 0.0, "out", profile.points.out_rule))
                part.totals[p] = Fraction(-len(e.places) - 1)  # after everyone placed
                continue
            part.totals[p] = Fraction(-e.place(i))  # the order; reported total is 0
            part.counted[p].append(Counted(e.name, 0.0, 1.0, spec.name, spec.rule,
                                           place=e.place(i)))
            part.eligible.add(p)
    return part


def _best_part(season: Season, profile: SeasonProfile, cas: CasRule, spec: CasLadder) -> _Part:
    """A ladder of the best N results' table points, the organisers credited."""
    part = _Part(spec)
    by_player = results(season, profile.points, spec.kinds)
    credits = _organizer_credits(season, cas, spec, by_player, part.skipped)
    candidates, skipped, credited = sift(
        by_player, credits, lambda r: unscored(r, profile.points), cas.organizer_rule)
    for p, why in skipped.items():
        part.skipped[p] += why
    for p in set(by_player) | set(candidates) | set(part.skipped):
        mine = sorted(candidates[p], key=lambda r: r.order)
        for r in mine[: spec.best]:
            is_credit = (r.event.name, p) in credited
            part.counted[p].append(Counted(
                r.event.name, float(r.points), 1.0, spec.name,
                cas.organizer_rule if is_credit else spec.rule, organizer=is_credit))
        part.skipped[p].extend(NotCounted(r.event.name, float(r.points), "not-best", spec.rule)
                               for r in mine[spec.best:])
        part.totals[p] = sum((r.points for r in mine[: spec.best]), Fraction(0))
        if part.totals[p] > 0:
            part.eligible.add(p)
    part.points = {p: [r.points for r in rs] for p, rs in candidates.items()}
    return part


def _organizer_credits(
    season: Season,
    cas: CasRule,
    spec: CasLadder,
    by_player: dict[str, list[Result]],
    skipped: dict[str, list[NotCounted]],
) -> dict[tuple[str, str], Result]:
    """Each organiser's credit, once: the average of his points at the events of this ladder
    he played and did not organise, if there are at least `organizer_min_events` of them; it
    goes to his first organised event (by date, then name). By (event, organiser)."""
    credits: dict[tuple[str, str], Result] = {}
    if not spec.organizer_credit:
        return credits
    organised: dict[str, list[SeasonEvent]] = defaultdict(list)
    for e in sorted(season.events, key=lambda e: (e.date, e.name)):
        if e.kind in spec.kinds:
            for organizer in e.organizers:
                organised[organizer].append(e)
    for organizer, events in organised.items():
        mine = {e.name for e in events}
        played = [r.points for r in by_player.get(organizer, []) if r.event.name not in mine]
        if len(played) < spec.organizer_min_events:
            skipped[organizer].extend(
                NotCounted(e.name, 0.0, "organizer-too-few", cas.organizer_rule)
                for e in events)
            continue
        average = sum(played, Fraction(0)) / len(played)
        first, *others = events
        credits[(first.name, organizer)] = Result(first, organizer, 0, average, False)
        skipped[organizer].extend(
            NotCounted(e.name, float(average), "organizer-credit-once", cas.organizer_rule)
            for e in others)
    return credits


def _rank(part: _Part, season: Season) -> None:
    """Orders every group level on total by the ladder's criteria (the lot: Season.lots)."""
    criteria: list[Criterion] = [
        ("best-results", best_results(part.points)) if code == "best-results"
        else ("lot", lambda p: 0)
        for code in part.spec.tiebreaks
    ]
    resolver = Resolver(criteria, part.spec.rule, season.lots)
    for group in by_total(part.totals):  # at_cut is known once the seats are given
        blocks, ties = resolver(group, line=part.spec.name)
        part.blocks += blocks
        part.ties += ties


@dataclass(slots=True)
class _Seats:
    declined: frozenset[str]
    qualified: dict[str, str] = field(default_factory=dict)  # player -> the ladder he took
    pending: set[str] = field(default_factory=set)  # contest a seat only a lot can give
    reserved: int = 0  # seats held for a lot not yet drawn
    freed: int = 0  # seats of players qualified twice or declining: they go to `fill`

    def fill(self, part: _Part, fill: bool) -> None:
        """The ladder's top `seats` places; the fill ladder skips those already seated or
        declining and takes every seat freed before it ("doplněni … z živých turnajů")."""
        seats = part.spec.seats + (self.freed if fill else 0)
        taken = 0
        for block in part.blocks:
            if taken >= seats:
                return
            if fill:
                block = [p for p in block if p not in self.qualified and p not in self.declined]
            block = [p for p in block if p in part.eligible]
            if taken + len(block) > seats:  # only a lot can split it
                contest = seats - taken
                self.pending |= {p for p in block if p not in self.qualified}
                self.reserved += contest
                return
            for p in block:
                if p in self.qualified or p in self.declined:
                    self.freed += 1
                else:
                    self.qualified[p] = part.spec.name
            taken += len(block)

    def straddles(self, tie: Tie, part: _Part) -> bool:
        """Whether the ladder's line runs through the tie: some of its players took a seat
        through this ladder and some did not, or a lot not drawn holds one."""
        here = part.spec.name
        states = {
            "pending" if p in self.pending else self.qualified.get(p) == here
            for p in tie.players
            if self.qualified.get(p, here) == here  # seated through another ladder: not here
        }
        return "pending" in states or len(states) > 1

    def group(self, player: str) -> str | None:
        if player in self.declined:
            return "declined"
        if player in self.qualified:
            return self.qualified[player]
        return "lot-pending" if player in self.pending else None


def _row(part: _Part, player: str, rank: int, seats: _Seats) -> LadderRow:
    total = 0.0 if part.spec.mode == "order" else float(part.totals.get(player, 0))
    return LadderRow(player, rank, total, seats.qualified.get(player) == part.spec.name,
                     tuple(part.counted.get(player, ())),
                     tuple(sorted(part.skipped.get(player, ()), key=lambda n: n.event)),
                     seats.group(player))


def _ladder(season: Season, profile: SeasonProfile, part: _Part, seats: _Seats) -> Ladder:
    rank = ranks(part.blocks)
    rows = tuple(_row(part, p, rank[p], seats) for block in part.blocks for p in block)
    return Ladder(season.name, profile.name, part.spec.rule, rows,
                  cut=sum(r.qualified for r in rows), ties=tuple(part.ties))


def _main_rows(parts: list[_Part], seats: _Seats, fill_from: str) -> tuple[LadderRow, ...]:
    """The seated players in seat order (ladder by ladder), then those a lot may seat, then
    everyone else in the fill ladder's order, then the rest by the first ladder listing them."""
    blocks: list[list[str]] = []
    home: dict[str, _Part] = {}
    for part in parts:
        for block in part.blocks:  # a lot not drawn keeps its players level here too
            seated = [p for p in block if seats.qualified.get(p) == part.spec.name]
            if seated:
                blocks.append(seated)
                home.update((p, part) for p in seated)
    pending = sorted(seats.pending - set(home))
    if pending:
        blocks.append(pending)
    rest_parts = sorted(parts, key=lambda part: part.spec.name != fill_from)  # stable
    for part in rest_parts:
        for block in part.blocks:
            block = [p for p in block if p not in home and p not in pending]
            if block:
                blocks.append(block)
                home.update((p, part) for p in block)
    for p in pending:
        home[p] = next(part for part in rest_parts if p in part.totals)
    rank = ranks(blocks)
    return tuple(_row(home[p], p, rank[p], seats) for block in blocks for p in block)
