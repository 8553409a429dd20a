"""The fast Swiss pairing: score brackets top-down, Dutch halves, augmenting matchings.

Each bracket (players on equal points, after the players who floated down into it) is paired
like the Dutch system pairs it: first the floaters against the highest residents they may
meet, then the upper half S1 against the lower half S2 (S1[i] – S2[i], then the nearest
transpositions; candidates whose start wishes collide come last). Both steps are maximum
bipartite matchings (augmenting paths), so a bracket pairs as many players as its legal pairs
allow; whoever is left floats down. Every pair it makes is legal by construction; when the
last bracket cannot be completed it returns None and the caller falls back to the exact
matching (`exact.py`), which also decides whether a pairing exists at all.

Cost: each bracket of m players costs about (m/2)² candidate checks, so 1,000 players in a
handful of brackets pair in a fraction of a second (bench/pairing.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from rules.pairing.players import IMBALANCE, Player, clash, legal

Pairs = list[tuple[Player, Player]]


def pair_brackets(players: Sequence[Player]) -> Pairs | None:
    """Pair everyone (an even number, in pairing order), or None if the greedy walk fails."""
    pairs: Pairs = []
    floaters: list[Player] = []
    for _, group in groupby(players, key=lambda p: p.points):
        made, floaters = _bracket(floaters, list(group))
        pairs += made
    return None if floaters else pairs


def _bracket(floaters: list[Player], residents: list[Player]) -> tuple[Pairs, list[Player]]:
    """Pairs made in one bracket and the players who float on, in pairing order."""
    pairs: Pairs = []
    taken = _match(floaters, residents, lambda i, j: j)  # the highest residents first
    pairs += [(floaters[i], residents[j]) for i, j in taken.items()]
    used = set(taken.values())
    rest = [p for j, p in enumerate(residents) if j not in used]
    half = len(rest) // 2
    s1, s2 = rest[:half], rest[half:]
    taken = _match(s1, s2, lambda i, j: abs(j - i) * 2 + (j < i))  # S1[i]–S2[i], then nearest
    pairs += [(s1[i], s2[j]) for i, j in taken.items()]
    paired = {id(p) for pair in pairs for p in pair}
    left = sorted(
        (p for p in (*floaters, *rest) if id(p) not in paired), key=lambda p: p.order
    )
    more, left = _greedy(left)
    return pairs + more, left


def _match(
    left: Sequence[Player], right: Sequence[Player], distance: Callable[[int, int], int]
) -> dict[int, int]:
    """Maximum bipartite matching left -> right over legal pairs (Kuhn's augmenting paths).

    Each left player's candidates are ordered by start clash, then `distance`. A first pass
    matches only over pairs that would not push either player to a start difference of 2
    (IMBALANCE clash); a second pass augments over all legal pairs, so the matching is
    maximum and pairs that unbalance starts are used only where they add a pair.
    """
    candidates = [
        sorted(
            (j for j, b in enumerate(right) if legal(a, b)),
            key=lambda j, a=a, i=i: (clash(a, right[j]), distance(i, j)),
        )
        for i, a in enumerate(left)
    ]
    gentle = [
        [j for j in c if clash(left[i], right[j]) < IMBALANCE] for i, c in enumerate(candidates)
    ]
    owner = [-1] * len(right)
    mate: dict[int, int] = {}
    for tier in (gentle, candidates):
        for i, cands in enumerate(tier):
            if i in mate:
                continue
            free = next((j for j in cands if owner[j] < 0), None)
            if free is not None:
                owner[free], mate[i] = i, free
            else:
                _augment(i, tier, owner, mate)
    return mate


def _augment(
    root: int, candidates: list[list[int]], owner: list[int], mate: dict[int, int]
) -> bool:
    """Search an augmenting path from `root` (iterative: brackets can be hundreds deep)."""
    seen: set[int] = set()
    stack = [(root, iter(candidates[root]))]
    path: list[tuple[int, int]] = []  # the edge into each stack frame after the root
    while stack:
        i, cands = stack[-1]
        for j in cands:
            if j in seen:
                continue
            seen.add(j)
            path.append((i, j))
            if owner[j] < 0:
                for pi, pj in path:
                    owner[pj], mate[pi] = pi, pj
                return True
            stack.append((owner[j], iter(candidates[owner[j]])))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return False


def _greedy(left: list[Player]) -> tuple[Pairs, list[Player]]:
    """Pair what is left of a bracket among itself, top-down, compatible starts first."""
    pairs: Pairs = []
    floated: list[Player] = []
    free = list(left)
    while free:
        a = free.pop(0)
        options = [b for b in free if legal(a, b)]
        if not options:
            floated.append(a)
            continue
        b = min(options, key=lambda b: clash(a, b))
        free.remove(b)
        pairs.append((a, b))
    return pairs, floated
