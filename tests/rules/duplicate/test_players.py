"""Scoring a player's slip (issue 23 item 5), row by row of 003 r. 19, 41–45 and 004 §5C, §6,
§7, §8.1; the Slovak words of every outcome code."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.duplicate import OUTCOMES, Correction, Slip, duplicate_profile, score_round, score_slip

CAS = duplicate_profile("cas-duplicate")
GREEK = duplicate_profile("greek-duplicate")
CAS_HALL = CAS.for_mode("hall")  # paper slips: 003 r. 42 as written
CAS_ONLINE = CAS.for_mode("online")  # a slip sent again is r. 41's replacement (Interpretation)


def slip(score: int = 30, declared: int | None = 30, **more: object) -> Slip:
    return Slip("p1", 1, "8H SLOVO", score, ("SLOVO",), declared=declared, **more)


@pytest.mark.parametrize(("profile", "slips", "points", "outcome", "rule"), [
    (CAS, [slip()], 30, "scored", "003 r. 45"),
    (CAS, [slip(declared=25)], 25, "declared-lower", "003 r. 45"),
    (CAS, [slip(declared=31)], 0, "declared-higher", "003 r. 45"),
    (CAS, [slip(declared=0)], 0, "declared-lower", "003 r. 45"),
    (CAS, [slip(declared=None)], 0, "incomplete", "003 r. 43"),
    (CAS, [slip(declared=-5)], 0, "incomplete", "003 r. 43"),
    (CAS, [slip(late=True)], 0, "late", "003 r. 19"),
    (CAS, [], 0, "no-slip", "003 r. 19"),
    (CAS, [slip(fault="not-on-rack")], 0, "invalid", "003 r. 1, 43"),
    (CAS, [slip(rejected=frozenset({"SLOVO"}))], 0, "word-rejected", "003 r. 1, 43"),
    # one slip per round: online the last before the limit (a replacement slip, r. 41) …
    (CAS_ONLINE, [slip(declared=12), slip(declared=30)], 30, "scored", "003 r. 45"),
    (CAS_ONLINE, [slip(declared=12), slip(declared=30, late=True)], 12, "declared-lower",
     "003 r. 45"),
    # … in a hall r. 42 as written: "V opačném případě jeho tahy nejsou započítány" (issue
    # 35), citing the setting that applied
    (CAS_HALL, [slip(), slip()], 0, "several-slips", "003 r. 42; slips.several = none"),
    (CAS, [slip(), slip()], 0, "several-slips", "003 r. 42"),  # the profile's default
    (CAS_HALL, [slip(), slip(late=True)], 30, "scored", "003 r. 45"),
    # 004 §8.1: no score written — one written anyway changes nothing
    (GREEK, [slip(declared=None)], 30, "scored", "004 §8.1"),
    (GREEK, [slip(declared=99)], 30, "scored", "004 §8.1"),
    (GREEK, [slip(late=True)], 0, "late", "004 §5C"),
    (GREEK, [slip(fault="blank-not-marked")], 0, "invalid", "004 §6"),
])
def test_a_slip_scores_by_the_rules(profile, slips, points, outcome, rule):
    got = score_slip("p1", 1, slips, profile)
    assert (got.points, got.outcome, got.rule) == (points, outcome, rule)
    assert got.outcome in OUTCOMES


def test_an_entry_the_arbiter_corrected_is_not_a_slip_handed_in():
    """003 r. 42 counts the slips a player hands in: the arbiter's mistyped entry, superseded
    by his correction, is not one — the correction counts; a real second slip still voids."""
    wrong = slip(score=12, declared=12, superseded=True)
    fixed = slip(score=30, declared=30)
    got = score_slip("p1", 1, [wrong, fixed], CAS_HALL)
    assert (got.points, got.outcome, got.slip) == (30, "scored", fixed)
    assert score_slip("p1", 1, [wrong, fixed, slip()], CAS_HALL).outcome == "several-slips"
    assert score_slip("p1", 1, [wrong], CAS_HALL).outcome == "no-slip"


def test_an_invalid_move_carries_the_engines_reason_and_the_word():
    assert score_slip("p1", 1, [slip(fault="bad-coordinate")], CAS).reason == "bad-coordinate"
    s = Slip("p1", 1, "8H SLOVO", 40, ("SLOVO", "XY", "ZW"), frozenset({"ZW", "XY"}),
             declared=40)
    assert score_slip("p1", 1, [s], CAS).reason == "XY"  # the first in the move's order


def test_a_leaver_gets_zero_for_the_remaining_rounds():
    """004 §7: "λαμβάνει βαθμολογία 0 (μηδέν) για τους υπολειπόμενους γύρους"."""
    slips = [Slip("p1", r, "8H SLOVO", 20, ("SLOVO",)) for r in (1, 2, 3)]
    scores = [score_round(r, ["p1"], slips, GREEK, left={"p1": 2})["p1"] for r in (1, 2, 3)]
    assert [(s.points, s.outcome, s.rule) for s in scores] == [
        (20, "scored", "004 §8.1"), (0, "left", "004 §7"), (0, "left", "004 §7")]


def test_slips_of_strangers_are_refused():
    with pytest.raises(ValueError, match="p9"):
        score_round(1, ["p1"], [dataclasses.replace(slip(), player="p9")], CAS)


@pytest.mark.parametrize(("rejected", "correction", "points", "outcome"), [
    # 004 §5D: a word wrongly rejected gains its points …
    (frozenset({"SLOVO"}), Correction("SLOVO", True, "je v PSP"), 30, "scored"),
    # … a word wrongly accepted loses them
    (frozenset(), Correction("SLOVO", False, "nie je v PSP"), 0, "word-rejected"),
    # a correction of another round or another word changes nothing
    (frozenset(), Correction("SLOVO", False, "x", round=2), 30, "scored"),
    (frozenset({"SLOVO"}), Correction("SLOV", True, "x"), 0, "word-rejected"),
])
def test_corrections_after_the_game(rejected, correction, points, outcome):
    got = score_slip("p1", 1, [slip(rejected=rejected)], CAS, corrections=[correction])
    assert (got.points, got.outcome) == (points, outcome)
    changed = (correction.word == "SLOVO" and correction.round in (None, 1))
    assert got.corrected == ((correction,) if changed else ())


def test_a_correction_does_not_mend_what_was_wrong_anyway():
    """A word admitted later does not save a slip declared too high (003 r. 45)."""
    got = score_slip("p1", 1, [slip(declared=50, rejected=frozenset({"SLOVO"}))], CAS,
                     corrections=[Correction("SLOVO", True, "je v KSSJ")])
    assert (got.points, got.outcome) == (0, "declared-higher")


@pytest.mark.parametrize("language", ["sk", "en"])
def test_every_code_has_words(language):
    import rules.duplicate as dup
    from rules.duplicate.racks import OUTCOMES as DRAWS

    path = Path(__file__).parents[3] / "bot" / "locales" / language / "duplicate_game.toml"
    words = tomllib.loads(path.read_text(encoding="utf-8"))["duplicate"]
    for table, codes in (("slip", dup.OUTCOMES), ("racks", dup.RACK_PROBLEMS),
                         ("draw", DRAWS), ("results", dup.DECIDERS)):
        assert sorted(words[table]) == sorted(codes), table


@given(st.lists(st.builds(
    Slip, st.just("p1"), st.just(1), st.just("8H SLOVO"), st.integers(0, 120),
    st.just(("SLOVO", "OS")), st.sets(st.sampled_from(["SLOVO", "OS"])).map(frozenset),
    st.sampled_from([None, "not-on-rack"]), st.one_of(st.none(), st.integers(-3, 130)),
    st.booleans()), max_size=3), st.sampled_from([CAS_ONLINE, GREEK, CAS_HALL]), st.booleans())
def test_a_round_never_gives_more_than_the_move_made(slips, profile, left):
    got = score_slip("p1", 1, slips, profile, left=left)
    assert got.outcome in OUTCOMES and got.rule
    assert 0 <= got.points <= max((s.score for s in slips), default=0)
    if got.points:
        assert got.slip is not None and not got.slip.late and got.slip.fault is None
        assert got.points in (got.slip.score, got.slip.declared) and not got.slip.rejected
    assert (got.outcome == "left") == left
