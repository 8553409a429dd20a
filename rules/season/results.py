"""A season's events checked against its profile, and each player's results there."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.season.model import PAIRS_KIND, NotCounted, Season, SeasonError, SeasonEvent
from rules.season.profile import PointsTable, SeasonProfile


@dataclass(frozen=True, slots=True)
class Result:
    """A player's place at one event and the table's points for it (0 when out)."""

    event: SeasonEvent
    player: str
    place: int
    points: Fraction
    out: bool

    @property
    def order(self) -> tuple:
        """Best first; equal points: the earlier event (so reordering the input changes nothing)."""
        return (-self.points, self.event.date, self.event.name)


def validate(season: Season, profile: SeasonProfile) -> None:
    names: set[str] = set()
    for e in season.events:
        if e.kind not in profile.kinds:
            raise SeasonError(
                f"{e.name}: kind {e.kind!r} is not one of {', '.join(profile.kinds)}",
                "unknown-kind", event=e.name, kind=e.kind, kinds=", ".join(profile.kinds))
        if e.name in names:
            raise SeasonError(f"{e.name}: two events of that name", "duplicate-event",
                              event=e.name)
        names.add(e.name)
        seen: set[str] = set()
        for player in e.places:
            if player in seen:
                raise SeasonError(f"{e.name}: {player} placed twice", "duplicate-player",
                                  event=e.name, player=player)
            seen.add(player)
        if not e.out <= seen:
            stray = sorted(e.out - seen)[0]
            raise SeasonError(f"{e.name}: {stray} is out but not placed", "out-not-placed",
                              event=e.name, player=stray)
        if e.ranks is not None and not ranks_fit(e.ranks, len(e.places), e.kind):
            raise SeasonError(f"{e.name}: ranks must start at 1, not decrease and not skip "
                              "ahead of the list", "bad-ranks", event=e.name)
        if e.field is not None and e.field < len(e.places):
            raise SeasonError(f"{e.name}: field {e.field} is smaller than the places listed",
                              "bad-field", event=e.name, field=e.field)


def ranks_fit(ranks: Sequence[int], n: int, kind: str) -> bool:
    """One place per listed player. Each is his position (1, 2, 3 …) or the one before it,
    shared (1, 1, 3). At a pairs event (PAIRS_KIND, SP 1.3 "za hráča … sa považuje dvojica")
    a pair is one competitor: places count pairs, so 1, 1, 2, 2 — each place is the one before
    it or a later one, never beyond the player's position."""
    if len(ranks) != n or (n and ranks[0] != 1):
        return False
    if kind == PAIRS_KIND:
        return all(ranks[i - 1] <= r <= i + 1 for i, r in enumerate(ranks) if i)
    return all(r == i + 1 or (i > 0 and r == ranks[i - 1]) for i, r in enumerate(ranks))


def results(season: Season, table: PointsTable, kinds: list[str]) -> dict[str, list[Result]]:
    """Each player's results at the season's events of these kinds, best first."""
    by_player: dict[str, list[Result]] = defaultdict(list)
    for e in season.events:
        if e.kind not in kinds:
            continue
        for i, player in enumerate(e.places):
            place = e.place(i)
            out = player in e.out
            points = Fraction(0) if out else Fraction(table.points(place))
            by_player[player].append(Result(e, player, place, points, out))
    for rs in by_player.values():
        rs.sort(key=lambda r: r.order)
    return by_player


def unscored(result: Result, table: PointsTable) -> NotCounted | None:
    """Why a result earns nothing (out, or placed beyond the table), or None if it scores."""
    if result.out:
        return NotCounted(result.event.name, 0.0, "out", table.out_rule)
    if result.points == 0:
        return NotCounted(result.event.name, 0.0, "beyond-places", table.rule)
    return None


def kind_not_counted(season: Season, kinds: list[str], rule: str) -> dict[str, list[NotCounted]]:
    """The results at events of kinds this ladder does not count."""
    by_player: dict[str, list[NotCounted]] = defaultdict(list)
    for e in season.events:
        if e.kind not in kinds:
            for player in e.places:
                by_player[player].append(NotCounted(e.name, 0.0, "kind-not-counted", rule))
    return by_player


def placed(season: Season) -> set[str]:
    """Everyone placed at any event of the season."""
    return {p for e in season.events for p in e.places}


def sift(
    by_player: dict[str, list[Result]],
    credits: dict[tuple[str, str], Result],
    rejects: Callable[[Result], NotCounted | None],
    organizer_rule: str,
) -> tuple[dict[str, list[Result]], dict[str, list[NotCounted]], set[tuple[str, str]]]:
    """Splits results into the candidates for a slot and those that cannot count.

    `credits`: an organiser's credit for an event he organised, by (event, organiser). Should
    he also have a place there, the better of the two stands for the event and the other is
    "organizer" (so that no event counts twice and no added event lowers a total). Returns the
    candidates, the results that cannot count, and the (event, organiser) pairs credited."""
    candidates: dict[str, list[Result]] = defaultdict(list)
    skipped: dict[str, list[NotCounted]] = defaultdict(list)
    credited: set[tuple[str, str]] = set()
    own = {(r.event.name, p): r for p, rs in by_player.items() for r in rs}
    for (event, organizer), credit in sorted(credits.items()):
        mine = own.get((event, organizer))
        if mine is not None and rejects(mine) is None and mine.points > credit.points:
            skipped[organizer].append(
                NotCounted(event, float(credit.points), "organizer", organizer_rule))
        else:
            credited.add((event, organizer))
            candidates[organizer].append(credit)
    for p, rs in by_player.items():
        for r in rs:
            if (r.event.name, p) in credited:
                skipped[p].append(
                    NotCounted(r.event.name, float(r.points), "organizer", organizer_rule))
            elif (why := rejects(r)) is not None:
                skipped[p].append(why)
            else:
                candidates[p].append(r)
    return candidates, skipped, credited
