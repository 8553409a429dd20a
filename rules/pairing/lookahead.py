"""No dead ends a look-ahead avoids: in small fields, pair a round only in a way that leaves the
remaining rounds pairable, whenever such a pairing exists.

Which pairs are legal later depends only on who has met whom, who has had the bye and the start
sequences, never on the results, so whether the event can still be completed is a finite
search. For at most `UP_TO` players:
1. the pairings of this round are taken in objective order (the optimum first, then the
   next-best ones by Lawler's partition: ban an edge of a found pairing, force the ones before
   it), up to `CANDIDATES`; the first whose remaining rounds can be paired is taken;
2. if none of them can, a search over all pairings of this round finds one that can;
3. if none exists at all (or the search budget runs out), the optimum is taken and a later
   round may still raise `PairingError`.
The search assumes nobody withdraws later and that every later game is played; later rounds
are seated as `seat` seats them (the same starts), at most `NODES` steps per question.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from itertools import count

from rules.pairing.matching import Edge, Solved, solve, solve_field
from rules.pairing.players import Player, orient, seat, start_rules
from rules.profile import Profile

UP_TO = 16  # players
CANDIDATES = 48  # pairings of this round tried in objective order
NODES = 60_000  # search steps per question


def completable_pairing(
    players: Sequence[Player], bye_candidates: Sequence[Player], remaining: int,
    profile: Profile,
) -> Solved | None:
    """The best pairing of this round after which `remaining` more rounds can be paired (in
    fields of at most `UP_TO`), else the best pairing; None when the round has none."""
    best = solve(players, bye_candidates)
    if best is None or remaining <= 0 or len(players) > UP_TO:
        return best
    future = _Future(players, profile)
    for tried, candidate in enumerate(_ranked(players, bye_candidates, best)):
        if tried >= CANDIDATES:
            break
        if future.completable(candidate, remaining) is not False:
            return candidate
    return future.witness(bye_candidates, remaining) or best


def _ranked(
    players: Sequence[Player], bye_candidates: Sequence[Player], best: Solved
) -> Iterator[Solved]:
    """Pairings of the round, best first: the bye tier first, then Lawler's k-best."""
    odd = len(players) % 2 == 1
    for bye in bye_candidates if odd else [None]:
        field = [p for p in players if p is not bye]
        first = best if bye is best.bye else solve_field(field, (), ())
        if first is not None:
            yield from _k_best(field, bye, first)


def _k_best(field: list[Player], bye: Player | None, first: Solved) -> Iterator[Solved]:
    index = {id(p): i for i, p in enumerate(field)}
    tie = count()
    heap: list[tuple[int, int, Solved, tuple[Edge, ...], frozenset[Edge]]] = [
        (first.cost, next(tie), first, (), frozenset())
    ]
    while heap:
        _, _, found, force, ban = heapq.heappop(heap)
        yield Solved(found.pairs, bye, found.cost)
        edges = sorted({tuple(sorted((index[id(a)], index[id(b)]))) for a, b in found.pairs})
        free = [e for e in edges if e not in force]
        for k, edge in enumerate(free):
            sub_force = (*force, *free[:k])
            sub_ban = ban | {edge}
            sub = solve_field(field, sub_force, sub_ban)
            if sub is not None:
                heapq.heappush(heap, (sub.cost, next(tie), sub, sub_force, sub_ban))


class _Budget(Exception):
    """The search ran out of steps: the answer is unknown."""


class _Future:
    """Can the rest of the event be paired? State: met pairs, byes, start sequences."""

    def __init__(self, players: Sequence[Player], profile: Profile) -> None:
        self.players = list(players)
        self.profile = profile
        self.n = len(players)
        at = {p.id: i for i, p in enumerate(players)}
        self.met = [sum(1 << at[q] for q in p.met if q in at) for p in players]
        self.blocked = [sum(1 << at[q] for q in p.blocked if q in at) for p in players]
        self.byes = sum(1 << i for i, p in enumerate(players) if p.byes)
        self.starts = [tuple(p.starts) for p in players]
        self.at = at
        self.failed: set[tuple] = set()
        self.steps = 0
        self._seated: dict[tuple[int, tuple[bool, ...]], Player] = {}

    def completable(self, pairing: Solved, remaining: int) -> bool | None:
        """After `pairing` (this round), can `remaining` rounds be paired? None = unknown."""
        self.steps = 0
        met, byes, starts = self._after(pairing, self.met, self.byes, self.starts)
        try:
            return self._search(met, byes, starts, remaining)
        except _Budget:
            return None

    def witness(self, bye_candidates: Sequence[Player], remaining: int) -> Solved | None:
        """Any pairing of this round after which the rest can be paired (None: none found)."""
        self.steps = 0
        byes = [self.at[p.id] for p in bye_candidates] if self.n % 2 else [None]
        try:
            for bye in byes:
                rest = [i for i in range(self.n) if i != bye]
                for pairs in self._matchings(rest, self.blocked):
                    pairing = Solved(
                        [(self.players[a], self.players[b]) for a, b in pairs],
                        None if bye is None else self.players[bye], 0,
                    )
                    met, byes_after, starts = self._after(
                        pairing, self.met, self.byes, self.starts
                    )
                    if self._search(met, byes_after, starts, remaining):
                        return pairing
        except _Budget:
            return None
        return None

    def _after(
        self, pairing: Solved, met: list[int], byes: int, starts: list[tuple[bool, ...]]
    ) -> tuple[list[int], int, list[tuple[bool, ...]]]:
        met, starts = list(met), list(starts)
        for first, second in seat(pairing.pairs, self.profile):
            a, b = self.at[first.id], self.at[second.id]
            met[a] |= 1 << b
            met[b] |= 1 << a
            starts[a] += (True,)
            starts[b] += (False,)
        if pairing.bye is not None:
            byes |= 1 << self.at[pairing.bye.id]
        return met, byes, starts

    def _search(
        self, met: list[int], byes: int, starts: list[tuple[bool, ...]], remaining: int
    ) -> bool:
        if remaining == 0:
            return True
        key = (remaining, tuple(met), byes, tuple(starts))
        if key in self.failed:
            return False
        odd = self.n % 2 == 1
        everyone = (1 << self.n) - 1
        # each player needs an opponent he has not met in every round left (one may be a bye)
        for i in range(self.n):
            fresh = bin(everyone & ~met[i] & ~(1 << i)).count("1")
            if fresh + (odd and not byes >> i & 1) < remaining:
                self.failed.add(key)
                return False
        candidates = [i for i in reversed(range(self.n)) if not byes >> i & 1] if odd else [None]
        for bye in candidates:
            rest = [i for i in range(self.n) if i != bye]
            for pairs in self._matchings(rest, met, starts):
                new_met, new_starts = list(met), list(starts)
                for first, second in pairs:
                    new_met[first] |= 1 << second
                    new_met[second] |= 1 << first
                    new_starts[first] += (True,)
                    new_starts[second] += (False,)
                new_byes = byes if bye is None else byes | 1 << bye
                if self._search(new_met, new_byes, new_starts, remaining - 1):
                    return True
        self.failed.add(key)
        return False

    def _matchings(
        self, rest: list[int], blocked: list[int], starts: list[tuple[bool, ...]] | None = None
    ) -> Iterator[list[Edge]]:
        """Every legal pairing of `rest` ((starts, second) pairs when `starts` is given, else
        (higher, lower) pairs of this round, seated later)."""
        self.steps += 1
        if self.steps > NODES:
            raise _Budget
        if not rest:
            yield []
            return
        i, others = rest[0], rest[1:]
        for j in others:
            if blocked[i] >> j & 1:
                continue
            pair = self._pair(i, j, starts)
            if pair is None:
                continue
            left = [k for k in others if k != j]
            for tail in self._matchings(left, blocked, starts):
                yield [pair, *tail]

    def _pair(self, i: int, j: int, starts: list[tuple[bool, ...]] | None) -> Edge | None:
        """The pair as it would be seated, or None when the start rules forbid it."""
        if starts is None:
            a, b = self.players[i], self.players[j]
            ok = (a.can_first and b.can_second) or (a.can_second and b.can_first)
            return (i, j) if ok else None
        a, b = self._player(i, starts[i]), self._player(j, starts[j])
        if not ((a.can_first and b.can_second) or (a.can_second and b.can_first)):
            return None
        first, _ = orient(a, b, 1, self.profile)  # table parity only matters in round 1
        return (i, j) if first is a else (j, i)

    def _player(self, i: int, starts: tuple[bool, ...]) -> Player:
        """Player i with a hypothetical start sequence (cached: only the starts matter)."""
        key = (i, starts)
        player = self._seated.get(key)
        if player is None:
            base = self.players[i]
            player = Player(base.id, base.seed, starts=list(starts), order=base.order)
            start_rules(player, self.profile)
            self._seated[key] = player
        return player
