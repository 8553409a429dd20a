"""Pairing (e-SP 2.4, SP 1.3; RULES.md section 1): seeding, round 1 starts, Swiss brackets,
byes, avoided pairs, start balance, round robin, impossible requests — and property tests over
random 7-round events checked by an independent checker."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.model import Case, End, Entrant, Pairing, Result
from rules.pairing import PairingError, is_round_robin, pair_round
from rules.pairing.matching import NEIGHBOURS, _sparse_rows
from rules.pairing.round_robin import berger_round
from rules.profile import Profile

# SP 1.3's size rule, so the round-robin tests below still get round robins; an online event
# itself is Swiss unless its propozície say otherwise (e-SP 2.4; tests/rules/test_event_format.py)
_SSS_ONLINE = Profile.load("sss-online")
ONLINE = replace(_SSS_ONLINE, pairing=replace(_SSS_ONLINE.pairing, format="by-size"))
# tiny fields would be round robins (SP 1.3); this profile pairs them by the Swiss rules
SWISS = replace(ONLINE, pairing=replace(ONLINE.pairing, round_robin_extra=-1))

# --- builders -------------------------------------------------------------------------------


def played(rnd: int, first: str, second: str, first_points: float = 1.0) -> Result:
    """A finished game of round `rnd`: `first` started and scored `first_points`."""
    case = Case(End.FINISHED, first, second, 400, 380, round=rnd, moved=frozenset({first, second}))
    return Result(case, first_points, 1 - first_points, 400, 380, frozenset(), True, "e-SP 3.5")


def bye(rnd: int, player: str) -> Result:
    case = Case(End.BYE, player, None, round=rnd)
    return Result(case, 1.0, 0.0, 20, 0, frozenset(), False, "e-SP 4.9")


def no_show(rnd: int, first: str, second: str) -> Result:
    """`second` did not come: forfeited 0:1 (0:100) against him; no game was started."""
    case = Case(End.NO_SHOW, first, second, loser=second, round=rnd)
    return Result(case, 1.0, 0.0, 100, 0, frozenset({second}), False, "e-SP 4.3, 4.9")


def field(*ratings: float) -> list[Entrant]:
    return [Entrant(f"p{i + 1}", r) for i, r in enumerate(ratings)]


def simulate(
    entrants: list[Entrant], rounds: int, rng: random.Random, withdraw_at: int = 0
) -> tuple[list[Result], list[list[Pairing]]]:
    """Play an event with random outcomes; one player withdraws before round `withdraw_at`.

    A round robin that lost a player keeps its table: whoever the table pairs with the
    withdrawn player has a free round too, and the starts can drift by one more
    (docs/decisions.md), so those events get the looser checks.
    """
    loose = False
    results: list[Result] = []
    pairings: list[list[Pairing]] = []
    present = list(entrants)
    for rnd in range(1, rounds + 1):
        if rnd == withdraw_at and len(present) > 2:
            present.pop(rng.randrange(len(present)))
            loose = is_round_robin(len(entrants), rounds, ONLINE)
        pairing = pair_round(present, results, rnd, rounds, ONLINE)
        check_round(pairing, present, results, strict=not loose)
        pairings.append(pairing)
        for table in pairing:
            if table.second is None:
                results.append(bye(rnd, table.first))
            else:
                x = rng.random()
                points = 1.0 if x < 0.45 else 0.0 if x < 0.9 else 0.5
                results.append(played(rnd, table.first, table.second, points))
    check_starts(results, slack=int(loose))
    return results, pairings


# --- an independent checker ------------------------------------------------------------------


def check_round(pairing: Sequence[Pairing], present: Sequence[Entrant],
                history: Iterable[Result], *, strict: bool = True) -> None:
    """Everyone seated once, tables 1..n, no rematch; strict: one bye exactly when the field
    is odd, never a second one to the same player."""
    ids = [e.id for e in present]
    seated = [p for t in pairing for p in (t.first, t.second) if p is not None]
    assert sorted(seated) == sorted(ids)
    assert [t.table for t in pairing] == list(range(1, len(pairing) + 1))
    assert sum(t.second is None for t in pairing) == len(ids) % 2 or not strict
    met, had_bye = facts(history)
    for t in pairing:
        if t.second is None:
            assert t.first not in had_bye or not strict, f"{t.first} gets a second bye"
        else:
            assert frozenset((t.first, t.second)) not in met, f"rematch {t.first}–{t.second}"


def facts(history: Iterable[Result]) -> tuple[set[frozenset[str]], set[str]]:
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    for r in history:
        if r.case.second is None:
            had_bye.add(r.case.first)
        else:
            met.add(frozenset(r.case.players))
    return met, had_bye


def start_sequences(history: Iterable[Result]) -> dict[str, list[bool]]:
    seq: dict[str, list[bool]] = defaultdict(list)
    for r in sorted(history, key=lambda r: r.case.round):
        if r.case.second is not None and r.case.end not in (End.NO_SHOW, End.BOTH_NO_SHOW):
            seq[r.case.first].append(True)
            seq[r.case.second].append(False)
    return seq


def check_starts(history: Iterable[Result], slack: int = 0) -> None:
    """Over the event: starts − seconds within ±2 and never three the same in a row (`slack`
    loosens both by one)."""
    for player, starts in start_sequences(history).items():
        for k in range(1, len(starts) + 1):
            prefix = starts[:k]
            assert abs(2 * sum(prefix) - k) <= 2 + slack, f"{player}: {prefix}"
            run = 3 + slack
            assert len(set(prefix[-run:])) == 2 or k < run, f"{player}: {prefix}"


def some_legal_pairing_exists(present: Sequence[Entrant], history: list[Result],
                              avoid: Iterable[tuple[str, str]] = ()) -> bool:
    """Brute force: is there any complete pairing with no rematch, no avoided pair, balanced
    starts and a bye (odd field) for someone who has not had one?"""
    met, had_bye = facts(history)
    met |= {frozenset(p) for p in avoid}
    seq = start_sequences(history)

    def sides(p: str) -> set[bool]:
        s = seq.get(p, [])
        ok = set()
        for side in (True, False):
            after = [*s, side]
            if abs(2 * sum(after) - len(after)) <= 2 and not (
                len(after) >= 3 and len(set(after[-3:])) == 1
            ):
                ok.add(side)
        return ok

    allowed = {e.id: sides(e.id) for e in present}

    def can(a: str, b: str) -> bool:
        return frozenset((a, b)) not in met and any(
            x in allowed[a] and (not x) in allowed[b] for x in (True, False)
        )

    def complete(free: list[str]) -> bool:
        if not free:
            return True
        a, rest = free[0], free[1:]
        return any(can(a, b) and complete([c for c in rest if c != b]) for b in rest)

    ids = [e.id for e in present]
    if len(ids) % 2 == 0:
        return complete(ids)
    return any(complete([i for i in ids if i != b]) for b in ids if b not in had_bye)


# --- seeding and round 1 (e-SP 2.4; SP 2.1) -------------------------------------------------


def test_round_one_top_half_meets_bottom_half_and_the_top_seed_does_not_start() -> None:
    entrants = field(1900, 2100, 1700, 1800, 2000, 1650, 1750, 1850, 1950, 1600)
    pairing = pair_round(entrants, [], 1, 7, ONLINE)
    # seeds: p2 2100, p5 2000, p9 1950, p1 1900, p8 1850 | p4 1800, p7 1750, p3 1700, p6, p10
    assert pairing == [
        Pairing(1, "p4", "p2"),  # odd table: the lower seed starts
        Pairing(2, "p5", "p7"),  # even table: the higher seed starts
        Pairing(3, "p3", "p9"),
        Pairing(4, "p1", "p6"),
        Pairing(5, "p10", "p8"),
    ]


def test_top_seed_starts_when_a_profile_says_so() -> None:
    profile = replace(ONLINE, pairing=replace(ONLINE.pairing, top_seed_starts=True))
    pairing = pair_round(field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100),
                         [], 1, 7, profile)
    assert pairing[0] == Pairing(1, "p1", "p6")
    assert pairing[1] == Pairing(2, "p7", "p2")


def test_equal_ratings_keep_registration_order_and_newcomers_are_1600() -> None:
    entrants = [Entrant("late", 1700), Entrant("new", math.nan), Entrant("early", 1700),
                Entrant("a", 1650), Entrant("b", 1601), Entrant("c", 1599), Entrant("d", 1500),
                Entrant("e", 1400), Entrant("f", 1300), Entrant("g", 1200)]
    pairing = pair_round(entrants, [], 1, 7, ONLINE)
    # seeds: late, early, a, b, new (1600) | c, d, e, f, g
    assert [(t.first, t.second) for t in pairing] == [
        ("c", "late"), ("early", "d"), ("e", "a"), ("b", "f"), ("g", "new")]


def test_odd_field_round_one_bye_to_the_lowest_seed() -> None:
    pairing = pair_round(field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200), [], 1, 7,
                         ONLINE)
    assert pairing[-1] == Pairing(5, "p9", None)
    assert pairing[0] == Pairing(1, "p5", "p1")


def test_same_input_same_pairing_whatever_the_order_of_results() -> None:
    rng = random.Random(7)
    entrants = field(*(rng.uniform(1400, 2100) for _ in range(14)))
    results, _ = simulate(entrants, 4, rng)
    again = pair_round(entrants, list(reversed(results)), 5, 7, ONLINE)
    assert pair_round(entrants, results, 5, 7, ONLINE) == again


# --- Swiss rounds ------------------------------------------------------------------------------


def test_round_two_winners_meet_winners() -> None:
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100)
    r1 = pair_round(entrants, [], 1, 7, ONLINE)
    # the higher seed wins everywhere: p1..p5 on 1 point, p6..p10 on 0
    results = [played(1, t.first, t.second, 1.0 if int(t.first[1:]) < int(t.second[1:]) else 0.0)
               for t in r1]
    pairing = pair_round(entrants, results, 2, 7, ONLINE)
    tops = {"p1", "p2", "p3", "p4", "p5"}
    mixed = [t for t in pairing if ({t.first, t.second} & tops) and not {t.first, t.second} <= tops]
    assert len(mixed) == 1  # five winners: one of them floats down
    assert pairing[0].first in {"p1", "p3"} or pairing[0].second in {"p1", "p3"}
    check_round(pairing, entrants, results)
    check_starts(results + [played(2, t.first, t.second) for t in pairing if t.second])


def test_a_player_who_started_twice_goes_second() -> None:
    # p1 started in rounds 1 and 2 (against players who have since withdrawn)
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100)
    history = [played(1, "p1", "x1"), played(2, "p1", "x2")]
    history += [played(1, f"p{i}", f"p{i + 1}") for i in (2, 4, 6, 8)]
    history += [played(2, f"p{i + 1}", f"p{i}") for i in (2, 4, 6, 8)]
    for table in pair_round(entrants, history, 3, 7, ONLINE):
        if "p1" in (table.first, table.second):
            assert table.second == "p1"


def test_a_no_show_forfeit_is_not_a_start_but_is_a_meeting() -> None:
    # p1 "started" two no-show games: no game was played, so he may start again; but he may
    # not meet those opponents again
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100)
    history = [no_show(1, "p1", "p2"), no_show(2, "p1", "p3")]
    history += [played(1, "p3", "p4", 0.0), played(2, "p2", "p4", 0.0)]
    history += [played(r, f"p{i}", f"p{i + 1}") for r in (1, 2) for i in (5, 7, 9) if i + 1 <= 10]
    history = [h for h in history if "p11" not in h.case.players]
    pairing = pair_round(entrants, history, 3, 7, ONLINE)
    check_round(pairing, entrants, history)
    table = next(t for t in pairing if "p1" in (t.first, t.second))
    assert {table.first, table.second} & {"p2", "p3"} == set()


def test_a_bracket_by_bracket_dead_end_is_avoided() -> None:
    # A 2 points, B and C 1, D 0; C has met D. Bracket by bracket, A takes B and C is left
    # with D (a rematch); the complete pairing is A–C, B–D.
    entrants = [Entrant("A", 2000), Entrant("B", 1900), Entrant("C", 1800), Entrant("D", 1700)]
    history = [played(1, "A", "x"), played(1, "C", "D"), played(2, "y", "A", 0.0),
               played(2, "B", "z")]
    pairing = pair_round(entrants, history, 3, 9, SWISS)
    assert {frozenset((t.first, t.second)) for t in pairing} == {
        frozenset("AC"), frozenset("BD")}


# --- byes (e-SP 4.9) ---------------------------------------------------------------------------


def test_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200)
    history = [bye(1, "p9")]
    history += [played(1, f"p{i}", f"p{i + 4}", 1.0) for i in (1, 2, 3, 4)]
    pairing = pair_round(entrants, history, 2, 7, ONLINE)
    # on 0 points: p5..p8 (p8 lowest seed); p9 already had the bye
    assert pairing[-1] == Pairing(5, "p8", None)


def test_a_missed_round_is_not_a_bye() -> None:
    """ČAS 14.4: a late entrant's missed round is 0 points and no game, not a bye — it does
    not stop him from getting the bye later (e-SP 4.9 / the bye rule counts byes only)."""
    entrants = field(2000, 1900, 1800)
    history = [bye(1, "p1"), bye(2, "p2"),
               Result(Case(End.MISSED_ROUND, "p3", None, round=3), 0.0, 0.0, 0, 0,
                      frozenset(), False, "ČAS 14.4")]
    assert pair_round(entrants, history, 4, 9, SWISS)[-1] == Pairing(2, "p3", None)


def test_everyone_had_a_bye_is_a_pairing_error() -> None:
    entrants = field(2000, 1900, 1800)
    history = [bye(1, "p1"), bye(2, "p2"), bye(3, "p3")]
    with pytest.raises(PairingError, match="voľno"):
        pair_round(entrants, history, 4, 9, SWISS)


# --- avoided pairs and impossible requests -------------------------------------------------------


def test_avoided_pair_does_not_meet() -> None:
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100)
    plain = pair_round(entrants, [], 1, 7, ONLINE)
    assert (plain[0].first, plain[0].second) == ("p6", "p1")
    kept = pair_round(entrants, [], 1, 7, ONLINE, avoid=[("p1", "p6")])
    assert all({t.first, t.second} != {"p1", "p6"} for t in kept)
    check_round(kept, entrants, [])


def test_rematch_only_option_raises_and_names_the_player() -> None:
    entrants = [Entrant("A", 2000), Entrant("B", 1900)]
    with pytest.raises(PairingError, match="hráč A nemá súpera – s 1 už hral"):
        pair_round(entrants, [played(1, "A", "B")], 2, 9, SWISS)


def test_avoided_only_option_raises() -> None:
    entrants = [Entrant("A", 2000), Entrant("B", 1900), Entrant("C", 1800), Entrant("D", 1700)]
    history = [played(1, "A", "C"), played(1, "B", "D"), played(2, "D", "A"), played(2, "C", "B")]
    with pytest.raises(PairingError, match="oddelené dvojice"):
        pair_round(entrants, history, 3, 9, SWISS, avoid=[("A", "B")])


def test_start_rule_conflict_raises() -> None:
    # A and B have both started twice in a row and may only go second: they cannot meet
    entrants = [Entrant("A", 2000), Entrant("B", 1900)]
    history = [played(1, "A", "x"), played(2, "A", "y"), played(1, "B", "z"), played(2, "B", "w")]
    with pytest.raises(PairingError, match="striedanie začínania"):
        pair_round(entrants, history, 3, 9, SWISS)


# --- bad input ---------------------------------------------------------------------------------


def test_bad_input_gets_a_clear_message() -> None:
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100)
    with pytest.raises(ValueError, match="viackrát"):
        pair_round([*entrants, Entrant("p1", 1500)], [], 1, 7, ONLINE)
    with pytest.raises(ValueError, match="kolo 8 nie je medzi 1 a 7"):
        pair_round(entrants, [], 8, 7, ONLINE)
    with pytest.raises(ValueError, match="má kolo 2"):
        pair_round(entrants, [played(2, "p1", "p2")], 2, 7, ONLINE)
    with pytest.raises(ValueError, match="viac výsledkov"):
        pair_round(entrants, [played(1, "p1", "p2"), played(1, "p1", "p3")], 2, 7, ONLINE)


def test_results_are_checked_round_by_round() -> None:
    """The checks run where each round begins and inside it: a round 0 or a later round is
    named whatever comes before it, two byes in one round are no repeat, a player twice is named
    in either seat or against himself."""
    entrants = field(2000, 1900, 1800, 1700, 1600, 1500)
    one = [played(1, "p1", "p2"), played(1, "p3", "p4"), bye(1, "p5"), bye(1, "p6")]
    assert len(pair_round(entrants, one, 2, 7, SWISS)) == 3  # two byes: no "viac výsledkov"
    with pytest.raises(ValueError, match="p1 – p2 má kolo 0"):
        pair_round(entrants, [*one, played(0, "p1", "p2")], 2, 7, SWISS)
    with pytest.raises(ValueError, match="p5 – p6 má kolo 3"):
        pair_round(entrants, [*one, played(2, "p1", "p3"), played(3, "p5", "p6")], 3, 7, SWISS)
    with pytest.raises(ValueError, match=r"'p2' má v 1\. kole viac výsledkov"):
        pair_round(entrants, [*one, played(1, "gone", "p2")], 2, 7, SWISS)
    with pytest.raises(ValueError, match=r"'p6' má v 1\. kole viac výsledkov"):
        pair_round(entrants, [*one[:3], played(1, "p6", "p6")], 2, 7, SWISS)


# --- round robin (SP 1.3) ------------------------------------------------------------------------


def test_is_round_robin_at_most_rounds_plus_one() -> None:
    assert is_round_robin(8, 7, ONLINE)
    assert not is_round_robin(9, 7, ONLINE)


@pytest.mark.parametrize("size", range(4, 26, 2))
def test_berger_table_meets_every_pair_once_with_balanced_starts(size: int) -> None:
    met: set[frozenset[int]] = set()
    seq: dict[int, list[bool]] = defaultdict(list)
    for rnd in range(1, size):
        for white, black in berger_round(size, rnd):
            met.add(frozenset((white, black)))
            seq[black].append(True)  # flipped: "black" starts
            seq[white].append(False)
    assert len(met) == size * (size - 1) // 2
    for starts in seq.values():
        assert abs(2 * sum(starts) - len(starts)) <= 1
        assert all(len(set(starts[k:k + 3])) == 2 for k in range(len(starts) - 2))


@pytest.mark.parametrize("size", [4, 5, 7, 8])
def test_round_robin_event_pairs_every_pair_once(size: int) -> None:
    rounds = 7
    entrants = field(*(2000 - 37 * i for i in range(size)))
    schedule_rounds = size - 1 if size % 2 == 0 else size
    rng = random.Random(size)
    results, pairings = simulate(entrants, min(rounds, schedule_rounds), rng)
    games = [frozenset(r.case.players) for r in results if r.case.second is not None]
    assert len(games) == len(set(games)) == size * (size - 1) // 2
    assert pairings[0][0] == Pairing(1, f"p{size if size % 2 == 0 else 2}", "p1") or (
        size % 2 == 1 and pairings[0][-1] == Pairing(len(pairings[0]), "p1", None))
    if size % 2:
        assert sorted(r.case.first for r in results if r.case.second is None) == sorted(
            e.id for e in entrants)


def test_round_robin_has_no_round_beyond_its_table() -> None:
    entrants = field(2000, 1900, 1800, 1700)
    results, _ = simulate(entrants, 3, random.Random(1))
    with pytest.raises(PairingError, match="len 3 kôl"):
        pair_round(entrants, results, 4, 7, ONLINE)


@pytest.mark.parametrize("seed", range(6))
def test_round_robin_continues_its_table_after_a_withdrawal(seed: int) -> None:
    rng = random.Random(seed)
    entrants = field(*(rng.uniform(1500, 2100) for _ in range(8)))
    results, _ = simulate(entrants, 7, rng, withdraw_at=2 + seed % 4)
    games = [frozenset(r.case.players) for r in results if r.case.second is not None]
    assert len(games) == len(set(games))
    stayed = {p for g in results if g.case.round == 7 for p in g.case.players}
    assert all(frozenset(pair) in games for pair in combinations(sorted(stayed), 2))


def test_round_robin_refuses_an_avoided_scheduled_pair() -> None:
    entrants = field(2000, 1900, 1800, 1700)
    with pytest.raises(PairingError, match="nesmú stretnúť"):
        pair_round(entrants, [], 1, 3, ONLINE, avoid=[("p1", "p4")])


# --- properties over random events ---------------------------------------------------------------


def play_event(size: int, seed: int, withdraw_at: int, newcomers: bool = False) -> None:
    """A random 7-round event; every round is checked, and a refused round must be one that
    no legal pairing exists for (brute force; such dead ends only occur in tiny fields)."""
    rng = random.Random(seed)
    present = field(*(1600.0 if newcomers and rng.random() < 0.3 else
                      round(rng.uniform(1300, 2200)) for _ in range(size)))
    results: list[Result] = []
    for rnd in range(1, 8):
        if rnd == withdraw_at:
            present.pop(rng.randrange(len(present)))
        try:
            pairing = pair_round(present, results, rnd, 7, ONLINE)
        except PairingError:
            assert len(present) <= 12, "a large field must always be pairable"
            assert not some_legal_pairing_exists(present, results)
            return
        check_round(pairing, present, results)
        for t in pairing:
            x = rng.random()
            results.append(bye(rnd, t.first) if t.second is None else
                           played(rnd, t.first, t.second, 1.0 if x < 0.45 else
                                  0.0 if x < 0.9 else 0.5))
    check_starts(results)


@settings(max_examples=60)
@given(
    size=st.integers(min_value=9, max_value=40),
    seed=st.integers(min_value=0, max_value=10**6),
    withdraw_at=st.sampled_from([0, 2, 3, 4, 5, 6, 7]),
    newcomers=st.booleans(),
)
def test_swiss_events_keep_every_rule(size: int, seed: int, withdraw_at: int,
                                      newcomers: bool) -> None:
    play_event(size, seed, withdraw_at, newcomers)


# Bounded and fixed (issue 21): an 8-player round whose look-ahead candidates each exhaust
# their search budget (lookahead.CANDIDATES × NODES steps) takes 3–16 s, and random seeds hit
# one such round in a few per cent of events, so the test swung from 1 s to 28 s. Derandomized,
# the same 40 events run every time; the slow rounds are bench/pairing.py's business.
@settings(max_examples=40, derandomize=True, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), withdraw_at=st.sampled_from([2, 3, 4]))
def test_tight_small_swiss_refuses_only_impossible_rounds(seed: int, withdraw_at: int) -> None:
    # 9 players, one withdraws: the last rounds are tight and may become impossible
    play_event(9, seed, withdraw_at)


@settings(max_examples=25)
@given(size=st.integers(min_value=3, max_value=8), seed=st.integers(min_value=0, max_value=10**6),
       withdraw_at=st.sampled_from([0, 2, 3, 4, 5]))
def test_round_robin_events_keep_every_rule(size: int, seed: int, withdraw_at: int) -> None:
    rng = random.Random(seed)
    entrants = field(*(round(rng.uniform(1300, 2200)) for _ in range(size)))
    rounds = min(7, size - 1 if size % 2 == 0 else size)
    results, _ = simulate(entrants, rounds, rng, withdraw_at if withdraw_at <= rounds else 0)
    games = [frozenset(r.case.players) for r in results if r.case.second is not None]
    assert len(games) == len(set(games))


@settings(max_examples=40, deadline=None)
@given(groups=st.lists(st.integers(min_value=1, max_value=80), min_size=1, max_size=8))
def test_sparse_rows_name_each_near_and_dutch_candidate_once(groups: list[int]) -> None:
    """The sparse graph of a large field: each player against the next NEIGHBOURS in pairing
    order and, in the top half of his score group, the NEIGHBOURS either side of his Dutch
    partner — every such pair once (the graph is a multigraph: a pair named twice would be two
    edges) and each player's candidates ascending."""
    place = [k for size in groups for k in range(size)]
    size = [size for size in groups for _ in range(size)]
    n = len(place)
    named: dict[int, list[int]] = defaultdict(list)
    for i, js in _sparse_rows(place, size):
        if js:
            named[i] += js
    expected: dict[int, list[int]] = {}
    for i in range(n):
        near = set(range(i + 1, min(n, i + NEIGHBOURS + 1)))
        if place[i] < size[i] // 2:
            partner = i + size[i] // 2
            near |= set(range(max(i + 1, partner - NEIGHBOURS), min(n, partner + NEIGHBOURS + 1)))
        if near:
            expected[i] = sorted(near)
    assert dict(named) == expected
