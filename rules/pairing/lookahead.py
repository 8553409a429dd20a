"""No dead ends a look-ahead avoids: in small fields, pair a round only in a way that leaves the
remaining rounds pairable, whenever such a pairing exists.

Which pairs are legal later depends only on who has met whom, who has had the bye and the start
sequences, never on the results, so whether the event can still be completed is a finite
search. For at most `UP_TO` players:
1. the pairings of this round are taken in objective order (the optimum first, then the
   next-best ones by Lawler's partition: ban an edge of a found pairing, force the ones before
   it), up to `CANDIDATES`; the first whose remaining rounds can be paired is taken;
2. if none of them can, a search over all pairings of this round finds one that can;
3. if none exists at all, the optimum is taken and a later round may raise `PairingError`.
   A question the search cannot answer within `NODES` steps counts as "no" at first (it is
   most often a dead end that takes long to exhaust); the first such candidate is taken only
   when nothing is proven completable.
The search assumes nobody withdraws later and that every later game is played. A table's
starts are part of the search (the usual orientation first, then the other legal one), so the
round is returned with the seating that keeps the event completable; at most `NODES` steps per
question.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import count

from rules.pairing.matching import Edge, Solved, solve, solve_field
from rules.pairing.players import Player, orient, seat, start_rules
from rules.profile import Profile

UP_TO = 16  # players
CANDIDATES = 48  # pairings of this round tried in objective order
NODES = 20_000  # search steps per question


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
    unknown: Solved | None = None
    for tried, candidate in enumerate(_ranked(players, bye_candidates, best)):
        if tried >= CANDIDATES:
            break
        seating = future.completable(candidate, remaining)
        if isinstance(seating, list):
            return replace(candidate, seating=seating)
        if seating is None and unknown is None:
            unknown = candidate  # a search that runs out of steps is most often a dead end
    return future.witness(bye_candidates, remaining) or unknown or best


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


Starts = tuple[int, tuple[bool, ...]]  # (starts − seconds, the last sides): all the rules see
Table = tuple[int, int]  # (starts, goes second) by index


class _Future:
    """Can the rest of the event be paired? State: met pairs, byes, each player's starts."""

    def __init__(self, players: Sequence[Player], profile: Profile) -> None:
        self.players = list(players)
        self.profile = profile
        self.run = max(1, profile.pairing.max_same_in_a_row)
        self.n = len(players)
        self.at = at = {p.id: i for i, p in enumerate(players)}
        self.met = [sum(1 << at[q] for q in p.met if q in at) for p in players]
        self.blocked = [sum(1 << at[q] for q in p.blocked if q in at) for p in players]
        self.byes = sum(1 << i for i, p in enumerate(players) if p.byes)
        self.starts = [(p.balance, tuple(p.starts[-self.run:])) for p in players]
        self.failed: set[tuple] = set()
        self.steps = 0
        self._seated: dict[tuple[int, Starts], Player] = {}

    def completable(
        self, pairing: Solved, remaining: int
    ) -> list[tuple[Player, Player]] | bool | None:
        """After `pairing` (this round), can `remaining` rounds be paired? The seating that
        allows it, False, or None when the budget ran out (unknown)."""
        self.steps = 0
        tables = [(self.at[a.id], self.at[b.id]) for a, b in seat(pairing.pairs, self.profile)]
        bye = None if pairing.bye is None else self.at[pairing.bye.id]
        try:
            for seating in self._orientations(tables, self.starts):
                if self._search(*self._after(seating, bye, self.met, self.byes, self.starts),
                                remaining):
                    return [(self.players[a], self.players[b]) for a, b in seating]
        except _Budget:
            return None
        return False

    def witness(self, bye_candidates: Sequence[Player], remaining: int) -> Solved | None:
        """Any pairing of this round after which the rest can be paired (None: none found)."""
        self.steps = 0
        byes = [self.at[p.id] for p in bye_candidates] if self.n % 2 else [None]
        try:
            for bye in byes:
                rest = [i for i in range(self.n) if i != bye]
                for seating in self._matchings(rest, self.blocked, self.starts):
                    after = self._after(seating, bye, self.met, self.byes, self.starts)
                    if self._search(*after, remaining):
                        tables = [(self.players[a], self.players[b]) for a, b in seating]
                        tables.sort(key=lambda t: min(t[0].order, t[1].order))
                        return Solved(
                            [tuple(sorted(t, key=lambda p: p.order)) for t in tables],
                            None if bye is None else self.players[bye], 0, tables,
                        )
        except _Budget:
            return None
        return None

    def _after(
        self, seating: list[Table], bye: int | None, met: list[int], byes: int,
        starts: list[Starts],
    ) -> tuple[list[int], int, list[Starts]]:
        met, starts = list(met), list(starts)
        for a, b in seating:
            met[a] |= 1 << b
            met[b] |= 1 << a
            starts[a] = self._play(starts[a], True)
            starts[b] = self._play(starts[b], False)
        return met, byes if bye is None else byes | 1 << bye, starts

    def _play(self, state: Starts, first: bool) -> Starts:
        balance, last = state
        return balance + (1 if first else -1), (*last, first)[-self.run:]

    def _search(self, met: list[int], byes: int, starts: list[Starts], remaining: int) -> bool:
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
            for seating in self._matchings(rest, met, starts):
                if self._search(*self._after(seating, bye, met, byes, starts), remaining - 1):
                    return True
        self.failed.add(key)
        return False

    def _matchings(
        self, rest: list[int], blocked: list[int], starts: list[Starts]
    ) -> Iterator[list[Table]]:
        """Every legal seating of `rest`: partners, then each table's legal orientations."""
        self._step()
        if not rest:
            yield []
            return
        i, others = rest[0], rest[1:]
        for j in others:
            if blocked[i] >> j & 1:
                continue
            left = [k for k in others if k != j]
            for table in self._tables(i, j, starts):
                for tail in self._matchings(left, blocked, starts):
                    yield [table, *tail]

    def _orientations(self, tables: list[Table], starts: list[Starts]) -> Iterator[list[Table]]:
        """The given tables, the usual seating first, then the other legal orientations."""
        self._step()
        if not tables:
            yield []
            return
        (a, b), rest = tables[0], tables[1:]
        for table in sorted(self._tables(a, b, starts), key=lambda t: t != (a, b)):
            for tail in self._orientations(rest, starts):
                yield [table, *tail]

    def _tables(self, i: int, j: int, starts: list[Starts]) -> list[Table]:
        """The legal orientations of i against j, the one `orient` would pick first."""
        a, b = self._player(i, starts[i]), self._player(j, starts[j])
        legal = [(x, y) for x, y, p, q in ((i, j, a, b), (j, i, b, a))
                 if p.can_first and q.can_second]
        if len(legal) == 2:
            first, _ = orient(a, b, 1, self.profile)
            legal.sort(key=lambda t: t[0] != self.at[first.id])
        return legal

    def _step(self) -> None:
        self.steps += 1
        if self.steps > NODES:
            raise _Budget

    def _player(self, i: int, state: Starts) -> Player:
        """Player i with the given starts (cached): a made-up history with that balance and
        those last sides is all the start rules look at."""
        key = (i, state)
        player = self._seated.get(key)
        if player is None:
            balance, last = state
            rest = balance - (2 * sum(last) - len(last))
            history = [rest > 0] * abs(rest) + list(last)
            base = self.players[i]
            player = Player(base.id, base.seed, starts=history, order=base.order)
            start_rules(player, self.profile)
            self._seated[key] = player
        return player
