"""The Swiss pairing is optimal by construction (rules/pairing/matching.py) and avoids the dead
ends a look-ahead can see (rules/pairing/lookahead.py): both checked against brute force on
random small events, with a checker that shares no code with the engine."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.model import Entrant, Pairing, Result
from rules.pairing import PairingError, pair_round

from .test_pairing import (
    SWISS,
    bye,
    check_round,
    facts,
    field,
    played,
    simulate,
    start_sequences,
)

LIMIT, RUN = 2, 2  # the profile's start rules: |starts − seconds| <= 2, never 3 in a row


# --- an independent model of a round ------------------------------------------------------------


def sides(seq: Sequence[bool]) -> set[bool]:
    """Sides (True = starts) a player may take next after the played `seq`."""
    return sides_of(2 * sum(seq) - len(seq), tuple(seq[-RUN:]))


def sides_of(balance: int, last: tuple[bool, ...]) -> set[bool]:
    """The same from starts − seconds and the last RUN sides."""
    return {side for side in (True, False)
            if abs(balance + (1 if side else -1)) <= LIMIT
            and not (len(last) == RUN and set(last) == {side})}


def side_cost(seq: Sequence[bool], side: bool) -> tuple[int, int]:
    """(reaches the start limit, repeats his last side) if he takes `side`."""
    before = 2 * sum(seq) - len(seq)
    after = before + (1 if side else -1)
    return int(abs(after) >= LIMIT > abs(before)), int(bool(seq) and seq[-1] == side)


def pair_cost(seq: dict[str, list[bool]], a: str, b: str) -> tuple[int, int] | None:
    """The better legal orientation's start cost, None if neither is legal."""
    options = []
    for first, second in ((a, b), (b, a)):
        if True in sides(seq[first]) and False in sides(seq[second]):
            x, y = side_cost(seq[first], True), side_cost(seq[second], False)
            options.append((x[0] + y[0], x[1] + y[1]))
    return min(options) if options else None


def perfect_matchings(ids: list[str], ok: set[frozenset[str]]) -> Iterator[list[tuple[str, str]]]:
    if not ids:
        yield []
        return
    a, rest = ids[0], ids[1:]
    for b in rest:
        if frozenset((a, b)) in ok:
            for tail in perfect_matchings([c for c in rest if c != b], ok):
                yield [(a, b), *tail]


def standings(entrants: Sequence[Entrant], results: Iterable[Result]) -> dict[str, float]:
    points = {e.id: 0.0 for e in entrants}
    for r in results:
        for p in r.case.players:
            if p in points:
                points[p] += r.points_of(p)
    return points


# --- 6: optimal by construction --------------------------------------------------------------


def random_round(rng: random.Random, size: int, target: int) -> tuple[
        list[Entrant], list[Result], list[tuple[str, str]]]:
    """Rounds 1..target−1 of a random event (a withdrawal maybe), and pairs to keep apart."""
    present = field(*(round(rng.uniform(1300, 2200)) for _ in range(size)))
    results: list[Result] = []
    for rnd in range(1, target):
        if rng.random() < 0.15 and len(present) > 4:
            present.pop(rng.randrange(len(present)))
        try:
            pairing = pair_round(present, results, rnd, target, SWISS)
        except PairingError:
            break
        results += play(rng, pairing, rnd)
    ids = [e.id for e in present]
    avoid = [tuple(rng.sample(ids, 2)) for _ in range(rng.randrange(3))]
    return present, results, avoid


def play(rng: random.Random, pairing: Sequence[Pairing], rnd: int) -> list[Result]:
    out = []
    for t in pairing:
        x = rng.random()
        out.append(bye(rnd, t.first) if t.second is None else
                   played(rnd, t.first, t.second, 1.0 if x < 0.45 else 0.0 if x < 0.9 else 0.5))
    return out


@settings(max_examples=120)
@given(size=st.integers(min_value=4, max_value=12), target=st.integers(min_value=2, max_value=6),
       seed=st.integers(min_value=0, max_value=10**6))
def test_the_pairing_is_optimal_among_all_legal_pairings(size: int, target: int,
                                                         seed: int) -> None:
    """Bye to the lowest-placed player who can have it, then the least sum of squared score
    gaps, then the fewest players pushed to ±2 starts, then the fewest repeated sides."""
    present, history, avoid = random_round(random.Random(seed), size, target)
    rnd = 1 + max((r.case.round for r in history), default=0)
    met, had_bye = facts(history)
    seq = start_sequences(history)
    points = standings(present, history)
    placed = sorted(present, key=lambda e: (-points[e.id], -e.rating, present.index(e)))
    kept = met | {frozenset(p) for p in avoid}
    ok = {frozenset((a.id, b.id)) for a in present for b in present
          if a.id < b.id and frozenset((a.id, b.id)) not in kept
          and pair_cost(seq, a.id, b.id) is not None}

    def score(pairs: list[tuple[str, str]]) -> tuple[int, int, int]:
        gaps = sum(round(abs(points[a] - points[b]) * 2) ** 2 for a, b in pairs)
        starts = [pair_cost(seq, a, b) for a, b in pairs]
        return gaps, sum(s[0] for s in starts), sum(s[1] for s in starts)

    best: tuple[str | None, tuple[int, int, int]] | None = None
    byes = [e.id for e in reversed(placed) if e.id not in had_bye] if len(present) % 2 else [None]
    for candidate in byes:
        rest = [e.id for e in placed if e.id != candidate]
        scores = [score(m) for m in perfect_matchings(rest, ok)]
        if scores:
            best = (candidate, min(scores))
            break
    try:
        pairing = pair_round(present, history, rnd, rnd, SWISS, avoid=avoid)
    except PairingError:
        assert best is None, "refused a round that has a legal pairing"
        return
    assert best is not None
    check_round(pairing, present, history)
    tables = [(t.first, t.second) for t in pairing if t.second is not None]
    assert all(frozenset(t) in ok for t in tables)
    given_bye = next((t.first for t in pairing if t.second is None), None)
    real_starts = [(side_cost(seq[f], True), side_cost(seq[s], False)) for f, s in tables]
    got = (sum(round(abs(points[a] - points[b]) * 2) ** 2 for a, b in tables),
           sum(x[0] + y[0] for x, y in real_starts), sum(x[1] + y[1] for x, y in real_starts))
    assert (given_bye, got) == best


@pytest.mark.parametrize("seed", range(3))
def test_large_fields_on_the_sparse_graph_keep_every_rule(seed: int) -> None:
    """Above 48 players the matching runs on a sparse graph first: still every rule kept."""
    rng = random.Random(seed)
    entrants = field(*(round(rng.uniform(1300, 2300)) for _ in range(121 + seed)))
    results, pairings = simulate(entrants, 7, rng, withdraw_at=4)
    assert len(pairings) == 7 and len(results) > 7 * 59


# --- 7: no dead ends a look-ahead avoids ------------------------------------------------------


def completable(present: Sequence[Entrant], history: list[Result], rounds: int,
                budget: int = 30_000) -> bool | None:
    """Can `rounds` more rounds be paired (any orientation of every table)? None = the
    search ran out of budget. A player's start state is (starts − seconds, last RUN sides)."""
    met, had_bye = facts(history)
    seqs = start_sequences(history)
    ids = [e.id for e in present]
    state = {i: (2 * sum(seqs.get(i, [])) - len(seqs.get(i, [])), tuple(seqs.get(i, [])[-RUN:]))
             for i in ids}
    steps = count()
    failed: set[tuple] = set()

    def rounds_from(met: frozenset, byes: frozenset, state: dict, left: int) -> bool:
        if left == 0:
            return True
        key = (met, byes, tuple(sorted(state.items())), left)
        if key in failed or any(
                sum(frozenset((i, j)) not in met for j in ids if j != i)
                + (len(ids) % 2 == 1 and i not in byes) < left for i in ids):
            return False
        for out in ([None] if len(ids) % 2 == 0 else [i for i in ids if i not in byes]):
            for tables in oriented([i for i in ids if i != out], met, state):
                if next(steps) > budget:
                    raise TimeoutError
                after = dict(state)
                for f, s in tables:
                    after[f] = (state[f][0] + 1, (*state[f][1], True)[-RUN:])
                    after[s] = (state[s][0] - 1, (*state[s][1], False)[-RUN:])
                new_met = met | {frozenset(t) for t in tables}
                if rounds_from(new_met, byes if out is None else byes | {out}, after, left - 1):
                    return True
        failed.add(key)
        return False

    try:
        return rounds_from(frozenset(met), frozenset(had_bye), state, rounds)
    except TimeoutError:
        return None


def oriented(ids: list[str], met: frozenset, state: dict) -> Iterator[list[tuple[str, str]]]:
    if not ids:
        yield []
        return
    a, rest = ids[0], ids[1:]
    for b in rest:
        if frozenset((a, b)) in met:
            continue
        for f, s in ((a, b), (b, a)):
            if True in sides_of(*state[f]) and False in sides_of(*state[s]):
                for tail in oriented([c for c in rest if c != b], met, state):
                    yield [(f, s), *tail]


# Derandomized (issue 21): random seeds swung this test 13–28 s (a few events reach rounds where
# the look-ahead exhausts its budget); the fixed 60 take ~5 s and still fail with the
# look-ahead off (lookahead.UP_TO = 0: "stuck in round 7 though the event could go on").
@settings(max_examples=60, derandomize=True)
@given(size=st.integers(min_value=9, max_value=16), seed=st.integers(min_value=0, max_value=10**6),
       withdraw_at=st.integers(min_value=2, max_value=6))
def test_small_fields_never_walk_into_a_dead_end(size: int, seed: int, withdraw_at: int) -> None:
    """Once a player has withdrawn, if the rest of the event can still be paired, every
    remaining round is paired (nobody else withdraws). Without the look-ahead, 9 players with
    a withdrawal get stuck in about half of the events."""
    rng = random.Random(seed)
    present = field(*(round(rng.uniform(1300, 2200)) for _ in range(size)))
    results: list[Result] = []
    rounds = 7
    possible: bool | None = True  # with the full field: a Swiss event of >= 9 players can
    for rnd in range(1, rounds + 1):
        if rnd == withdraw_at:
            present.pop(rng.randrange(len(present)))
            possible = completable(present, results, rounds - rnd + 1)
        try:
            pairing = pair_round(present, results, rnd, rounds, SWISS)
        except PairingError:
            assert possible is not True, f"stuck in round {rnd} though the event could go on"
            return
        check_round(pairing, present, results)
        results += play(rng, pairing, rnd)
