"""Fair, auditable racks (issue 23 item 4): the draw follows 003 r. 11–13 / 004 §5A, §8.2,
replays from the revealed seed by the published contract (re-implemented here from the
docstring, sharing no code), and an arbiter's typed rack is checked against the bag."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.duplicate import (
    SeedError,
    check_rack,
    commit,
    draw_rack,
    duplicate_profile,
    replay,
    verify,
)
from rules.duplicate.profile import DuplicateProfile, RackPhase
from rules.duplicate.racks import redraw_possible

CAS = duplicate_profile("cas-duplicate")
GREEK = duplicate_profile("greek-duplicate")
SEED = "5eed" * 16  # 32 bytes


def with_racks(profile: DuplicateProfile, **changes: object) -> DuplicateProfile:
    return dataclasses.replace(profile, racks=dataclasses.replace(profile.racks, **changes))


# -- the published contract, re-implemented from the module's docstring -----------------------


def reference_attempt(seed: str, round_no: int, attempt: int, kept: list[str],
                      pool: list[str], size: int) -> tuple[str, ...]:
    s = bytes.fromhex(seed)
    words = (int.from_bytes(hashlib.sha256(s + f":{round_no}:{attempt}:{k}".encode()).digest()
                            [i:i + 4], "big") for k in itertools.count() for i in range(0, 32, 4))
    tiles, rack = sorted(pool), list(kept)
    while len(rack) < size and tiles:
        n = len(tiles)
        w = next(w for w in words if w < 2**32 - 2**32 % n)
        rack.append(tiles.pop(w % n))
    return tuple(sorted(rack))


def reference_draw(seed: str, round_no: int, bag: dict[str, int], leave: list[str],
                   ok: Callable[[tuple[str, ...]], bool],
                   ) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Return-all redraws (003 r. 12): attempt 0 keeps the leave, later ones draw 7 from all."""
    pool = list(Counter(bag).elements())
    rejected = []
    for attempt in itertools.count():
        kept, source = (leave, pool) if attempt == 0 else ([], pool + leave)
        rack = reference_attempt(seed, round_no, attempt, kept, source, 7)
        if ok(rack):
            return rack, rejected
        rejected.append(rack)
    raise AssertionError


def two_and_two(rack: tuple[str, ...], vowels: frozenset[str]) -> bool:
    v = sum(t in vowels or t == "?" for t in rack)
    c = sum(t not in vowels or t == "?" for t in rack)
    return v >= 2 and c >= 2


@pytest.mark.parametrize("seed_no", range(40))
def test_a_draw_replays_from_the_published_contract(seed_no, sss_100, vowels):
    seed = hashlib.sha256(str(seed_no).encode()).hexdigest()
    leave = ["Ä", "X", "Ŕ"][: seed_no % 4]
    bag = dict(sss_100)
    for t in leave:
        bag[t] -= 1
    draw = draw_rack(seed, 3, bag, leave, vowels, CAS)
    rack, rejected = reference_draw(seed, 3, bag, leave, lambda r: two_and_two(r, vowels))
    assert (draw.rack, list(draw.rejected)) == (rack, rejected)
    assert draw.outcome == "drawn" and draw.rule == "003 r. 12"


def test_some_seeds_redraw_and_the_redraw_returns_the_leave(sss_100, vowels):
    """003 r. 12 "vrátí všechna písmena": a leave of consonants is not kept by a redraw."""
    leave = ["X", "Ŕ", "Ĺ", "Ň", "Ď", "G"]
    bag = Counter(sss_100)
    bag.subtract(leave)
    redrawn = [d for i in range(60)
               if (d := draw_rack(f"{i:064x}", 1, dict(bag), leave, vowels, CAS)).rejected]
    assert redrawn, "a leave of six consonants needs a second vowel from one tile: often fails"
    assert any(not set(leave) <= set(d.rack) for d in redrawn)
    for i, d in ((i, draw_rack(f"{i:064x}", 1, dict(bag), leave, vowels, CAS)) for i in range(60)):
        assert all(Counter(leave) <= Counter(r) for r in d.rejected[:1])  # attempt 0 kept it
        assert (d.rack, list(d.rejected)) == reference_draw(
            f"{i:064x}", 1, dict(bag), leave, lambda r: two_and_two(r, vowels))


def test_keeping_the_leave_is_a_setting(sss_100, vowels):
    keep = with_racks(CAS, return_leave=False)
    leave = ["X", "Ŕ", "Ĺ", "Ň", "Ď"]
    bag = Counter(sss_100)
    bag.subtract(leave)
    for i in range(30):
        d = draw_rack(f"{i:064x}", 1, dict(bag), leave, vowels, keep)
        assert all(Counter(leave) <= Counter(r) for r in (*d.rejected, d.rack))
        assert two_and_two(d.rack, vowels)


def test_rounds_1_to_15_need_two_and_two_later_one_and_one():
    """003 r. 12: "v 1.–15. kole … alespoň dvě samohlásky resp. souhlásky, případně v dalších
    kolech alespoň jedna"."""
    bag, vowels = {"A": 2, "E": 1, "B": 30}, frozenset("AE")
    for i in range(20):
        r15 = draw_rack(f"{i:064x}", 15, bag, [], vowels, CAS)
        assert sum(t in vowels for t in r15.rack) >= 2 and r15.outcome == "drawn"
        assert all(sum(t in vowels for t in r) < 2 for r in r15.rejected)
    r16 = [draw_rack(f"{i:064x}", 16, bag, [], vowels, CAS) for i in range(20)]
    one_vowel = [d for d in r16 if sum(t in vowels for t in d.rack) == 1]
    assert one_vowel and all(sum(t in vowels for t in r) == 0 for d in r16 for r in d.rejected)


def test_a_bag_that_cannot_give_two_vowels_waives_the_rule():
    """003 r. 13: with one vowel left in bag and rack the draw is not repeated."""
    bag = {"A": 1, "B": 5, "C": 5}
    d = draw_rack(SEED, 2, bag, [], frozenset("AEIOU"), CAS)
    assert d.outcome == "waived" and d.rule == "003 r. 13" and not d.rejected
    assert sum(d.bag.values()) == 4 and len(d.rack) == 7


def test_the_blank_counts_as_vowel_and_consonant():
    """003 r. 12: "Žolík je … považován za samohlásku i souhlásku zároveň"."""
    bag = {"?": 2, "B": 4, "C": 4}
    d = draw_rack(SEED, 1, bag, [], frozenset("AEIOU"), CAS)
    assert d.outcome == "drawn" and d.rack.count("?") == 2
    neither = with_racks(CAS, blank_counts_as_both=False)
    assert draw_rack(SEED, 1, bag, [], frozenset("AEIOU"), neither).outcome == "waived"


def test_greek_rules_end_the_game_when_one_kind_is_left():
    """004 §8.2: "Εάν διαθέσιμα υπάρχουν πλέον μόνο φωνήεντα ή μόνο σύμφωνα, το παιχνίδι
    λήγει" — counted over the bag and the rack (all seven go back)."""
    vowels = frozenset("AEIOU")
    d = draw_rack(SEED, 30, {"B": 3, "C": 2}, ["D"], vowels, GREEK)
    assert (d.outcome, d.rack, d.ended, d.rule) == ("one-kind", (), True, "004 §8.2, §5B.3")
    assert draw_rack(SEED, 30, {"B": 3, "C": 2}, ["A"], vowels, GREEK).outcome == "drawn"
    # 003 has no such end: the rack is drawn and the rule waived
    assert draw_rack(SEED, 30, {"B": 3, "C": 2}, ["D"], vowels, CAS).outcome == "waived"


def test_no_tiles_left_ends_the_game():
    d = draw_rack(SEED, 40, {}, [], frozenset("A"), CAS)
    assert d.outcome == "empty" and d.ended


def test_the_last_tiles_make_a_short_rack():
    d = draw_rack(SEED, 38, {"A": 1, "B": 1}, ["C", "E"], frozenset("AE"), CAS)
    assert d.rack == ("A", "B", "C", "E") and d.bag == {} and d.outcome == "drawn"


def test_commitment_and_seed_errors():
    assert commit(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert verify(SEED, commit(SEED).upper()) and not verify("00" * 16, commit(SEED))
    for bad in ("xyz", "00" * 15):
        with pytest.raises(SeedError):
            commit(bad)


def test_replay_reproduces_a_whole_game(sss_100, vowels):
    """The top determines which tiles leave the rack; the replay gets every rack back."""
    bag, leave, played, racks = dict(sss_100), (), [], []
    for round_no in range(1, 60):
        d = draw_rack(SEED, round_no, bag, leave, vowels, CAS)
        racks.append(d.rack)
        if d.ended:
            break
        top = d.rack[round_no % 3: round_no % 3 + 2 + round_no % 4]  # some tiles
        played.append(top)
        leave = tuple((Counter(d.rack) - Counter(top)).elements())
        bag = d.bag
    draws = replay(SEED, sss_100, vowels, CAS, played)
    assert [d.rack for d in draws] == racks and draws[-1].outcome == "empty"
    with pytest.raises(ValueError):
        replay(SEED, sss_100, vowels, CAS, [("Q",)])


def test_replay_takes_the_arbiters_racks(sss_100, vowels):
    draws = replay(SEED, sss_100, vowels, CAS, [("A", "B")], typed={1: "ABKOS?E"})
    assert draws[0].rack == ("?", "A", "B", "E", "K", "O", "S")
    assert Counter(draws[1].rack) >= Counter("?EKOS")
    with pytest.raises(ValueError):
        replay(SEED, sss_100, vowels, CAS, [("A",)], typed={1: "BBBCCDD"})


# -- the arbiter's rack --------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "codes"), [
    ("ABKOSTE", ()),
    ("abkoste", ()),                               # typed in lower case
    ("AB KO STE", ()),                             # spaces are no tiles
    ("ABKOSTEE", ("too-long",)),
    ("ABKOS", ("too-short",)),
    ("ABKOSTW", ("unknown-letter",)),              # no W tile: a blank may stand for it
    ("XXKOSTE", ("not-in-bag",)),                  # one X in the set
    ("BCDFGHA", ("rule-broken",)),                 # 003 r. 12: one vowel while 2 are there
])
def test_an_arbiters_rack_is_checked(typed, codes, sss_100, vowels):
    check = check_rack(typed, sss_100, sss_100, (), vowels, CAS, 1)
    assert tuple(p.code for p in check.problems) == codes
    assert all(p.rule for p in check.problems)
    if not codes:
        assert sum(check.bag.values()) == 93 and check.ok


def test_an_arbiters_rack_counts_the_leave_as_available(vowels):
    bag = {"A": 1, "B": 10}
    assert check_rack("AABBBBB", {"A": 9, "B": 9}, bag, ["A"], vowels, CAS, 20).ok
    check = check_rack("AAABBBB", {"A": 9, "B": 9}, bag, ["A"], vowels, CAS, 20)
    assert [(p.code, p.params["left"]) for p in check.problems] == [("not-in-bag", 2)]
    kept = with_racks(CAS, return_leave=False)
    check = check_rack("BBBBBBB", {"A": 9, "B": 9}, bag, ["A"], vowels, kept, 20)
    assert "leave-missing" in [p.code for p in check.problems]


def test_a_typed_rack_keeps_the_leave_unless_a_redraw_could_happen(sss_100, vowels):
    """Issue 35: the leave goes back to the bag only with a redraw (003 r. 12), and a redraw
    happens only when the rack fails the rule while the bag allows one (r. 13). A leave that
    already holds 2 vowels and 2 consonants meets r. 12 whatever is drawn: a rack without it
    is a typing slip, refused naming the missing letters."""
    leave = ["A", "E", "K", "L"]
    bag = Counter(sss_100)
    bag.subtract([*leave, "T", "O", "V"])
    check = check_rack("ABDEKMN", sss_100, dict(bag), leave, vowels, CAS, 2)
    assert [(p.code, p.params["missing"], p.rule) for p in check.problems] == [
        ("leave-dropped", "L", "003 r. 11–13")]
    check = check_rack("BDIMNOR", sss_100, dict(bag), leave, vowels, CAS, 2)
    assert [(p.code, p.params["missing"]) for p in check.problems] == [("leave-dropped",
                                                                         "AEKL")]
    assert check_rack("AEKLMNO", sss_100, dict(bag), leave, vowels, CAS, 2).ok
    # a leave of consonants may fail r. 12 (two more consonants drawn): a redraw could
    # return it, so a rack without it stands (if it meets the rule itself)
    consonants = ["K", "L", "M", "N", "S"]
    bag = Counter(sss_100)
    bag.subtract([*consonants, "T", "O"])
    assert check_rack("ABDEIRT", sss_100, dict(bag), consonants, vowels, CAS, 2).ok
    # the same leave when the bag holds no vowel but one blank: no redraw can meet r. 12
    # (r. 13: "nové losování neprovádí"), so the rack must hold the leave
    bare = {"?": 1, "B": 3, "D": 3}
    check = check_rack("BBDDD?K", sss_100, bare, consonants, vowels, CAS, 2)
    assert [(p.code, p.params["missing"]) for p in check.problems] == [("leave-dropped",
                                                                         "LMNS")]


# -- properties ----------------------------------------------------------------------------

LETTERS = "AEBCD?"
SMALL_VOWELS = frozenset("AE")


def brute_can_meet(kept: list[str], pool: list[str], size: int, phase: RackPhase,
                   blank_both: bool) -> bool:
    """Every way to draw from the pool, by brute force."""
    k = min(size - len(kept), len(pool))
    for chosen in itertools.combinations(pool, k):
        rack = [*kept, *chosen]
        b = rack.count("?") if blank_both else 0
        v = sum(t in SMALL_VOWELS for t in rack) + b
        c = sum(t not in SMALL_VOWELS and t != "?" for t in rack) + b
        if v >= phase.vowels and c >= phase.consonants:
            return True
    return False


@st.composite
def situations(draw: st.DrawFn):
    bag = draw(st.dictionaries(st.sampled_from(LETTERS), st.integers(0, 4), max_size=6))
    leave = draw(st.lists(st.sampled_from(LETTERS), max_size=6))
    profile = with_racks(draw(st.sampled_from([CAS, GREEK])),
                         blank_counts_as_both=draw(st.booleans()),
                         return_leave=draw(st.booleans()),
                         counts_returned=draw(st.booleans()))
    return bag, leave, profile, draw(st.integers(1, 30)), draw(st.binary(min_size=16,
                                                                           max_size=16)).hex()


@given(situations())
def test_every_accepted_rack_meets_the_rule_when_the_bag_could(situation):
    bag, leave, profile, round_no, seed = situation
    d = draw_rack(seed, round_no, bag, leave, SMALL_VOWELS, profile)
    assert d == draw_rack(seed, round_no, bag, leave, SMALL_VOWELS, profile)  # determinism
    before = Counter(bag) + Counter(leave)
    if d.ended:
        assert d.rack == () and d.bag == {k: n for k, n in bag.items() if n}
        return
    assert Counter(d.rack) + Counter(d.bag) == before  # no tile created or lost
    assert len(d.rack) == min(7, sum(before.values()))
    rule, phase = profile.racks, profile.phase(round_no)
    if rule.counts_returned:  # an arbiter typing in the drawn rack would be accepted
        check = check_rack(d.rack, dict.fromkeys(LETTERS, 4), bag, leave, SMALL_VOWELS,
                           profile, round_no)
        assert check.ok and check.bag == d.bag
    if d.outcome == "waived":
        kept = [] if rule.return_leave else list(leave)
        pool = list((before - Counter(kept)).elements())
        if rule.counts_returned:  # "whenever the bag could": no redraw could have met it
            assert not brute_can_meet(kept, pool, 7, phase, rule.blank_counts_as_both)
    else:
        assert d.outcome == "drawn"
        assert brute_can_meet(list(d.rack), [], 7, phase, rule.blank_counts_as_both)


def test_many_game_draws_keep_the_rule(sss_100, vowels):
    """A plain loop over whole seeded games (the million-draw run is bench/duplicate_racks)."""
    draws = 0
    for game in range(60):
        seed = hashlib.sha256(b"game%d" % game).hexdigest()
        bag, leave = dict(sss_100), ()
        for round_no in itertools.count(1):
            d = draw_rack(seed, round_no, bag, leave, vowels, CAS)
            draws += 1
            if d.ended:
                break
            assert Counter(d.rack) + Counter(d.bag) == Counter(bag) + Counter(leave)
            phase = CAS.phase(round_no)
            v = sum(t in vowels or t == "?" for t in d.rack)
            c = sum(t not in vowels or t == "?" for t in d.rack)
            assert (v >= phase.vowels and c >= phase.consonants) or d.outcome == "waived"
            played = d.rack[: 1 + game % 7]
            leave, bag = tuple(d.rack[1 + game % 7:]), d.bag
            assert played
    assert draws > 60 * 14


@given(situations())
def test_a_redraw_is_possible_exactly_when_some_first_draw_would_redraw(situation):
    """`redraw_possible` (counting kinds) against every first draw by brute force, each judged
    as `draw_rack` judges it: it fails the rule and the bag still allows a redraw."""
    bag, leave, profile, round_no, _ = situation
    rule, phase = profile.racks, profile.phase(round_no)
    pool = list(Counter(bag).elements())
    k = min(7 - len(leave), len(pool))

    def kinds_ok(tiles: list[str], need_v: int, need_c: int) -> bool:
        b = tiles.count("?") if rule.blank_counts_as_both else 0
        return (sum(t in SMALL_VOWELS for t in tiles) + b >= need_v
                and sum(t not in SMALL_VOWELS and t != "?" for t in tiles) + b >= need_c)

    def redraws(drawn: tuple[str, ...]) -> bool:
        rack = [*leave, *drawn]
        if kinds_ok(rack, phase.vowels, phase.consonants):
            return False
        kept = [] if rule.return_leave else list(leave)
        left = list((Counter(pool) - Counter(drawn)).elements())
        again = left + (rack if rule.return_leave else list(drawn))
        judged = again if rule.counts_returned else left
        return (kinds_ok(kept + judged, phase.vowels, phase.consonants)
                and brute_can_meet(kept, again, 7, phase, rule.blank_counts_as_both))

    expected = any(redraws(d) for d in itertools.combinations(pool, k))
    assert redraw_possible(leave, bag, phase, SMALL_VOWELS, rule) == expected
