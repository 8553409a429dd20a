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

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import rustworkx as rx

from rules.pairing.players import Player

SPARSE_ABOVE = 48  # players; up to this the full graph (exact), about a millisecond
NEIGHBOURS = 12  # places below in pairing order, and either side of the Dutch partner
Pairs = list[tuple[Player, Player]]
Edge = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Solved:
    pairs: Pairs  # each pair higher-placed first
    bye: Player | None
    cost: int  # the total of tiers 2–4 (the bye is tier 1: the candidates' order)
    seating: list[tuple[Player, Player]] | None = None  # (starts, second) by table; None: `seat`


@dataclass(frozen=True, slots=True)
class _Units:
    """Weights of the tiers for a field of n players (m pairs) and the largest score gap."""

    clash: int  # one unit of tier 3: more than any tier-4 sum
    gap: int  # one unit of tier 2: more than any tier-3 (and tier-4) sum
    repeat: int  # inside tier 3: one player at the limit outweighs all repeats
    top: int  # more than any single pair's cost: pair weight = top − cost > 0

    @classmethod
    def of(cls, players: Sequence[Player]) -> _Units:
        n = len(players)
        m = n // 2
        halves = [round(p.points * 2) for p in players]
        widest = (max(halves) - min(halves)) if halves else 0
        rank_max = 2 * n  # _dutch_cost of one pair
        repeat = n + 1  # repeats in a round <= n
        clash_max = 2 * repeat + 2  # one pair: two at the limit, two repeats
        clash = m * rank_max + 1
        gap = (m * clash_max + 1) * clash
        top = widest * widest * gap + clash_max * clash + rank_max + 1
        return cls(clash, gap, repeat, top)


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
        field = [p for p in players if p is not candidate]
        renumber = {i: i - (i > index) for i in range(len(players)) if i != index}
        found = solve_field(
            field,
            [(renumber[a], renumber[b]) for a, b in force],
            [(renumber[a], renumber[b]) for a, b in ban if index not in (a, b)],
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
    attempts = [_sparse_rows(weigh.places), None] if n > SPARSE_ABOVE else [None]
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
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        graph.add_edges_from(edges)
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if 2 * len(matching) == n:
            pairs = [tuple(sorted((players[u], players[v]), key=lambda p: p.order))
                     for u, v in matching]
            weight = sum(graph.get_edge_data(u, v) for u, v in matching)
            return Solved(pairs, None, weigh.units.top * (n // 2) - weight)
    return None


class _Weigher:
    """Edge weights of a field: `units.top` − (tiers 2–4 of the pair).

    Per-player numbers are computed once; a pair costs a few integer operations (a 1,000-player
    round weighs tens of thousands of candidate pairs).
    """

    def __init__(self, players: Sequence[Player]) -> None:
        self.units = units = _Units.of(players)
        self.places = [(0, 0)] * len(players)
        sizes: dict[float, int] = {}
        for p in players:
            sizes[p.points] = sizes.get(p.points, 0) + 1
        seen: dict[float, int] = {}
        for i, p in enumerate(players):
            self.places[i] = (seen.get(p.points, 0), sizes[p.points])
            seen[p.points] = seen.get(p.points, 0) + 1
        self.place = [p for p, _ in self.places]
        self.size = [s for _, s in self.places]
        self.halves = [round(p.points * 2) for p in players]
        at = {p.id: k for k, p in enumerate(players)}
        # whom each may not meet, by index in the field (an int set: the hot loop tests it)
        self.blocked = [{at[x] for x in p.blocked if x in at} for p in players]
        never = 4 * units.repeat  # above any legal side cost: marks a forbidden side
        self.never = never
        self.first = [never if c is None else c[0] * units.repeat + c[1]
                      for c in (p.first_cost for p in players)]
        self.second = [never if c is None else c[0] * units.repeat + c[1]
                       for c in (p.second_cost for p in players)]

    def edges(self, rows: Iterable[tuple[int, Iterable[int]]]) -> list[tuple[int, int, int]]:
        """(i, j, weight) for the candidate pairs (each row: i and the js below him) that may
        meet."""
        units = self.units
        top, unit_gap, unit_clash = units.top, units.gap, units.clash
        first, second, never = self.first, self.second, self.never
        place, size, halves, blocked = self.place, self.size, self.halves, self.blocked
        out = []
        append = out.append
        for i, js in rows:
            first_i, second_i, place_i, half_i, blocked_i = (
                first[i], second[i], place[i], halves[i], blocked[i])
            bottom, middle = size[i] - 1 - place_i, size[i] // 2
            # the weight without the pair's side cost and Dutch order, per score gap
            base = top - bottom
            for j in js:
                a = first_i + second[j]
                b = first[j] + second_i
                if b < a:
                    a = b
                if a >= never or j in blocked_i:
                    continue
                gap = half_i - halves[j]
                if gap:  # a floater from the bottom of his group meets the top of the next
                    append((i, j, base - (gap * gap * unit_gap + a * unit_clash + place[j])))
                else:  # Dutch order inside a group: half a group apart (at most 2n)
                    dutch = place_i - place[j]
                    dutch = (-dutch if dutch < 0 else dutch) - middle
                    append((i, j, top - (a * unit_clash + (-dutch if dutch < 0 else dutch))))
        return out


def _sparse_rows(places: list[tuple[int, int]]) -> list[tuple[int, Iterable[int]]]:
    """Near neighbours in pairing order, and the places around each player's Dutch partner."""
    n = len(places)
    rows: list[tuple[int, Iterable[int]]] = []
    for i, (place, size) in enumerate(places):
        near = range(i + 1, min(n, i + NEIGHBOURS + 1))
        if place < size // 2:
            partner = i + size // 2
            far = range(max(near.stop, partner - NEIGHBOURS), min(n, partner + NEIGHBOURS + 1))
            rows.append((i, (*near, *far)))
        else:
            rows.append((i, near))
    return rows
