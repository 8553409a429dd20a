"""The exact pairing: a maximum-weight perfect matching (networkx, Edmonds' blossoms).

Used when the fast bracket walk cannot complete a round, and as the judge of whether any legal
pairing exists. Only legal pairs are edges, so the result never breaks a rule; the weights
rank legal pairings lexicographically:
1. the bye goes to the lowest-placed player who may have it (a "bye" node, see below);
2. the smallest sum of squared score gaps (players on equal points meet where possible);
3. the fewest start-wish clashes;
4. Dutch-like distance inside a bracket (S1[i] – S2[i]).
networkx's matching is O(n³) in pure Python, so a sparse graph of near neighbours in pairing
order is tried first for large fields and the full graph only when that has no perfect matching.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from rules.pairing.players import Player, clash, legal

BYE = -1  # the node that stands for "no opponent"
SPARSE_ABOVE = 150  # players; below this the full graph is cheap enough
NEIGHBOURS = 40  # places either side in pairing order for the sparse graph


def pair_exact(
    players: Sequence[Player], bye_candidates: Sequence[Player]
) -> tuple[list[tuple[Player, Player]], Player | None] | None:
    """A perfect legal pairing (plus a bye from `bye_candidates` when the count is odd), or
    None when none exists."""
    attempts = [NEIGHBOURS, None] if len(players) > SPARSE_ABOVE else [None]
    for reach in attempts:
        found = _solve(players, bye_candidates, reach)
        if found is not None:
            return found
    return None


def _solve(
    players: Sequence[Player], bye_candidates: Sequence[Player], reach: int | None
) -> tuple[list[tuple[Player, Player]], Player | None] | None:
    n = len(players)
    odd = n % 2 == 1
    bracket = _bracket_places(players)
    top = max((p.points for p in players), default=0.0)
    low = min((p.points for p in players), default=0.0)
    worst_gap = round((top - low) * 2) + 1
    unit_rank = n * n + 1  # a clash outweighs any sum of rank distances
    unit_clash = (n + 1) * unit_rank  # a score gap outweighs any sum of clashes
    ceiling = (worst_gap**2 + 1) * unit_clash
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for i, a in enumerate(players):
        stop = n if reach is None else min(n, i + reach + 1)
        for j in range(i + 1, stop):
            b = players[j]
            if not legal(a, b):
                continue
            gap = round(abs(a.points - b.points) * 2)
            cost = gap * gap * unit_clash + clash(a, b) * unit_rank + _rank_cost(a, b, bracket)
            graph.add_edge(i, j, weight=ceiling - cost)
    if odd:
        # any perfect matching uses one bye edge; its weight dominates all pair weights, so the
        # lowest-placed candidate for whom a perfect matching exists gets the bye
        unit_bye = (n // 2 + 1) * ceiling
        index = {id(p): i for i, p in enumerate(players)}
        for candidate in bye_candidates:
            i = index[id(candidate)]
            graph.add_edge(i, BYE, weight=unit_bye * (i + 1))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n + odd:
        return None
    pairs: list[tuple[Player, Player]] = []
    bye: Player | None = None
    for u, v in matching:
        if BYE in (u, v):
            bye = players[u if v == BYE else v]
        else:
            a, b = sorted((players[u], players[v]), key=lambda p: p.order)
            pairs.append((a, b))
    return pairs, bye


def _bracket_places(players: Sequence[Player]) -> dict[int, tuple[int, int]]:
    """id(player) -> (place inside his score bracket, bracket size)."""
    sizes: dict[float, int] = {}
    for p in players:
        sizes[p.points] = sizes.get(p.points, 0) + 1
    seen: dict[float, int] = {}
    places: dict[int, tuple[int, int]] = {}
    for p in players:
        places[id(p)] = (seen.get(p.points, 0), sizes[p.points])
        seen[p.points] = seen.get(p.points, 0) + 1
    return places


def _rank_cost(a: Player, b: Player, places: dict[int, tuple[int, int]]) -> int:
    """Distance from the Dutch ideal: half a bracket apart, or a floater meets the top."""
    (pa, size), (pb, _) = places[id(a)], places[id(b)]
    if a.points == b.points:
        return abs(abs(pa - pb) - size // 2)
    return pb if a.points > b.points else pa
