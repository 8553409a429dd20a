"""The Swiss pairing of one round: one maximum-weight perfect matching (rustworkx, Rust).

The nodes are the players; the edges are the legal pairs only (never met, not kept apart, one
can start while the other goes second), so whatever the matching returns keeps every rule.
The objective is lexicographic and encoded in integer weights:
1. the bye (odd field) goes to the lowest-placed player who has not had one and without whom
   the rest can be paired — candidates are tried lowest first, each a whole solve;
2. the smallest sum of squared score gaps (in half points): equals meet where possible;
3. the fewest players pushed to the start limit (±2), then the fewest repeating their side;
4. the Dutch order: S1[i] against S2[i] inside a score group, a floater against the top of
   the group below and from the bottom of his own.
Each tier's unit exceeds the largest possible sum of every tier below it over a whole round
(bounds from the field size and the largest score gap: `_Units`), so a tier never trades
against a lower one and the sums stay exact integers (Rust i128 at most; far below).

Every perfect matching has the same number of edges, so the maximum weight over maximum
cardinality (`max_cardinality=True`) is the pairing of least total cost: optimal by
construction. Large fields use a sparse graph first (near neighbours in pairing order and near
each player's Dutch partner); if that has no perfect matching, the full graph decides.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

import rustworkx as rx

from rules.pairing.players import Player

SPARSE_ABOVE = 48  # players; up to this the full graph (exact), about a millisecond
NEIGHBOURS = 12  # places below in pairing order, and either side of the Dutch partner
Pairs = list[tuple[Player, Player]]
Edge = tuple[int, int]
Cost = tuple[int, int] | None  # a side's (reaches the start limit, repeats his side); None: barred


@dataclass(frozen=True, slots=True)
class Solved:
    pairs: Pairs  # each pair higher-placed first
    bye: Player | None
    cost: int  # the total of tiers 2–4 (the bye is tier 1: the candidates' order)
    seating: list[tuple[Player, Player]] | None = None  # (starts, second) by table; None: `seat`


@dataclass(frozen=True, slots=True)
class _Units:
    """Weights of the tiers for a field of n players (m pairs) and the largest score gap."""

    widest: int  # the largest score gap in the field, in half points
    clash: int  # one unit of tier 3: more than any tier-4 sum
    gap: int  # one unit of tier 2: more than any tier-3 (and tier-4) sum
    repeat: int  # inside tier 3: one player at the limit outweighs all repeats
    top: int  # more than any single pair's cost: pair weight = top − cost > 0

    @classmethod
    def of(cls, n: int, halves: Sequence[int]) -> _Units:
        m = n // 2
        widest = (max(halves) - min(halves)) if halves else 0
        rank_max = 2 * n  # _dutch_cost of one pair
        repeat = n + 1  # repeats in a round <= n
        clash_max = 2 * repeat + 2  # one pair: two at the limit, two repeats
        clash = m * rank_max + 1
        gap = (m * clash_max + 1) * clash
        top = widest * widest * gap + clash_max * clash + rank_max + 1
        return cls(widest, clash, gap, repeat, top)


def solve(
    players: Sequence[Player],
    bye_candidates: Sequence[Player],
    *,
    force: Collection[Edge] = (),
    ban: Collection[Edge] = (),
) -> Solved | None:
    """The optimal legal pairing of `players` (pairing order), or None when none exists.

    `bye_candidates`: who may get the bye, lowest-placed first. `force` / `ban`: pairs (by
    index in `players`, lower first) that must / must not be in the pairing (the look-ahead's
    search for the next-best pairing).
    """
    if len(players) % 2 == 0:
        return solve_field(players, force, ban)
    for candidate in bye_candidates:
        index = players.index(candidate)
        if any(index in edge for edge in force):
            continue
        field = [*players[:index], *players[index + 1:]]
        found = solve_field(  # the pairs renumbered without the candidate
            field,
            [(a - (a > index), b - (b > index)) for a, b in force],
            [(a - (a > index), b - (b > index)) for a, b in ban if index not in (a, b)],
        )
        if found is not None:
            return Solved(found.pairs, candidate, found.cost)
    return None


def solve_field(
    players: Sequence[Player], force: Collection[Edge], ban: Collection[Edge]
) -> Solved | None:
    """The optimal perfect legal matching of an even field, or None when none exists."""
    n = len(players)
    if n == 0:
        return Solved([], None, 0)
    weigh = _Weigher(players)
    fixed = {i for edge in force for i in edge}
    banned = set(ban)
    attempts = [_sparse_rows(weigh.place, weigh.size), None] if n > SPARSE_ABOVE else [None]
    for rows in attempts:
        if rows is None:
            rows = [(i, range(i + 1, n)) for i in range(n)]
        if fixed or banned:
            rows = [
                (i, [j for j in js if (i, j) in force
                     or not ((i, j) in banned or i in fixed or j in fixed)])
                for i, js in rows
            ]
        edges = weigh.edges(rows)
        # no duplicate edges by construction: a multigraph skips the check on each insert (the
        # same nodes and edges in the same order, so the same matching)
        graph = rx.PyGraph(multigraph=True, node_count_hint=n, edge_count_hint=len(edges))
        graph.add_nodes_from(range(n))
        graph.extend_from_weighted_edge_list(edges)
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=operator.index)
        if 2 * len(matching) == n:
            pairs = []
            weight = 0
            for u, v in matching:
                a, b = players[u], players[v]
                pairs.append((a, b) if a.order < b.order else (b, a))
                weight += graph.get_edge_data(u, v)
            return Solved(pairs, None, weigh.units.top * (n // 2) - weight)
    return None


class _Weigher:
    """Edge weights of a field: `units.top` − (tiers 2–4 of the pair).

    Per-player numbers are computed once; a pair costs a few integer operations (a 1,000-player
    round weighs tens of thousands of candidate pairs).
    """

    def __init__(self, players: Sequence[Player]) -> None:
        n = len(players)
        self.halves = halves = [round(p.points * 2) for p in players]
        self.units = units = _Units.of(n, halves)
        # place in the score group and the group's size; the field is in pairing order (as
        # `solve` always gets it), so a score group is a run of equal points
        place: list[int] = []
        size: list[int] = []
        self.place, self.size = place, size
        for _, run in groupby([p.points for p in players]):
            count = len(list(run))
            place += range(count)
            size += [count] * count
        at = {p.id: k for k, p in enumerate(players)}
        # whom each may not meet, by index in the field (an int set: the hot loop tests it; None
        # stands for those not in the field)
        self.blocked = [set(map(at.get, p.blocked)) for p in players]
        # the start clash of a pair depends only on both players' side costs: players with the
        # same costs share a kind, and a table by kind holds top − the pair's tier-3 weight
        # (None: neither orientation is legal)
        never = 4 * units.repeat  # above any legal side cost: marks a forbidden side
        kinds: dict[tuple[Cost, Cost], int] = {}
        self.kind = [kinds.setdefault((p.first_cost, p.second_cost), len(kinds)) for p in players]
        sides = [(_side(first, units), _side(second, units)) for first, second in kinds]
        top = units.top
        by_kind: list[list[int | None]] = [[None] * len(kinds) for _ in kinds]
        for a, (first_a, second_a) in enumerate(sides):
            for b, (first_b, second_b) in enumerate(sides):
                cost = min(first_a + second_b, first_b + second_a)
                by_kind[a][b] = None if cost >= never else top - cost * units.clash
        # by kind, over the field: top − the pair's tier-3 weight (None: no legal orientation),
        # so a candidate costs one lookup (a field has a handful of kinds); one C call per kind
        # (`solve_field` weighs even fields of 2 or more: itemgetter returns a tuple)
        over_field = operator.itemgetter(*self.kind)
        self.tops: list[tuple[int | None, ...]] = [over_field(row) for row in by_kind]
        # tier 2 of a pair by its score gap in half points
        self.gap_cost = [gap * gap * units.gap for gap in range(units.widest + 1)]

    def edges(self, rows: Iterable[tuple[int, Sequence[int]]]) -> list[tuple[int, int, int]]:
        """(i, j, weight) for the candidate pairs (each row: i and the js below him) that may
        meet."""
        gap_cost, tops = self.gap_cost, self.tops
        place, size, halves = self.place, self.size, self.halves
        kind, blocked = self.kind, self.blocked
        out: list[tuple[int, int, int]] = []
        append = out.append  # plain loops: faster here than comprehensions with cells
        for i, js in rows:
            tops_i, blocked_i, place_i, size_i = tops[kind[i]], blocked[i], place[i], size[i]
            # js ascend and score groups are runs in pairing order: his group's players first
            split = bisect_left(js, i - place_i + size_i)
            # inside a score group, Dutch order: best half the group apart (at most 2n; j comes
            # after i, so his place is higher); places in a group are consecutive indices, so
            # the distance from his Dutch partner is that of the indices
            partner = i + size_i // 2
            for j in js[:split]:
                t = tops_i[j]
                if t is None or j in blocked_i:
                    continue
                dutch = j - partner
                append((i, j, t - (dutch if dutch >= 0 else -dutch)))
            if split == len(js):
                continue
            # a floater from the bottom of his group meets the top of the next; the score gap
            # (in half points) costs its square
            half_i = halves[i]
            rise = size_i - 1 - place_i
            for j in js[split:]:
                t = tops_i[j]
                if t is None or j in blocked_i:
                    continue
                append((i, j, t - (rise + gap_cost[half_i - halves[j]] + place[j])))
        return out


def _side(cost: Cost, units: _Units) -> int:
    """A side's cost as one number (reaching the limit outweighs every repeat); a forbidden
    side costs more than any two legal ones."""
    return 4 * units.repeat if cost is None else cost[0] * units.repeat + cost[1]


def _sparse_rows(place: list[int], size: list[int]) -> list[tuple[int, range]]:
    """Near neighbours in pairing order, and the places around each player's Dutch partner
    (one row when they touch, else two for the same player, near first)."""
    n = len(place)
    rows: list[tuple[int, range]] = []
    append = rows.append  # bounds by comparisons, not min()/max() calls: this runs per player
    for i in range(n):
        stop = i + NEIGHBOURS + 1
        half = size[i] // 2
        if place[i] < half:
            far = i + half + NEIGHBOURS + 1  # past the places around his Dutch partner
            start = far - 2 * NEIGHBOURS - 1
            if start > stop:  # then stop < start < n
                append((i, range(i + 1, stop)))
                append((i, range(start, far if far < n else n)))
                continue
            if far > stop:
                stop = far
        append((i, range(i + 1, stop if stop < n else n)))
    return rows
