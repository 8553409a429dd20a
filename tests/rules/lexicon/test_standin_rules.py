"""The pure rules the hunspell stand-in is filtered and extended by (issue 35)."""

from __future__ import annotations

import pytest

from rules.lexicon.standin import (
    Entry,
    active_participle_forms,
    negated_verbal_nouns,
    parse_rulings,
    proper_twins,
    rulings,
)
from rules.profile import ProfileError


def test_an_entry_line_splits_into_word_flags_and_morphology() -> None:
    assert Entry.parse("abája/U po:noun is:feminine") == Entry("abája", "U", "po:noun is:feminine")
    assert Entry.parse("cunami") == Entry("cunami", "", "")


def test_proper_twins_are_unflagged_copies_of_capitalised_nouns() -> None:
    entries = [Entry.parse(line) for line in (
        "Amerika/zZ po:noun is:feminine", "amerika", "Najsmiešnejšia", "najsmiešnejšia",
        "Perla/zZ po:noun is:feminine", "perla/zZ po:noun is:feminine")]
    # perla/zZ has flags of its own: hunspell's data cannot tell it from a proper noun's copy
    assert proper_twins(entries) == {"amerika"}


def test_negated_verbal_nouns() -> None:
    forms = {"robenie", "robenia", "robeniu", "nerobenie", "nerobenia", "nerobeniu",
             "nerobený", "nerobení", "dorozumenie", "dorozumenia", "dorozumeniu",
             "nedorozumenie", "utonie", "neutonie"}
    found = negated_verbal_nouns(forms, {"nedorozumenie"})
    assert found == {"nerobenie", "nerobenia", "nerobeniu"}


def test_active_participles_decline_by_vzor_cudzi() -> None:
    forms = {"robiac", "robiaci", "nerobiac", "tepúc", "tepúci", "vec", "veci"}
    found = active_participle_forms(forms)
    assert {"robiaca", "robiacimi", "nerobiacu", "tepúca", "tepúcich"} <= found
    assert "netepúca" not in found  # no negated transgressive in the list
    assert not {f for f in found if f.startswith("vec")}  # veci is no participle


def test_the_bundled_rulings_cite_their_rule_and_seed_line() -> None:
    ruled = rulings("sss")
    assert ruled and rulings("cas") == ()
    for ruling in ruled:
        assert ruling.rule.startswith("SP B1 10."), ruling
        assert 432 <= ruling.line <= 752, ruling  # SP B1 10.1–10.8 in seed 000
    by_lemma = {r.lemma: r for r in ruled if r.lemma}
    assert by_lemma["ego"].keep == ["ego", "ega", "egu", "egom", "egá"]
    assert {"tsunami", "tabula", "trma", "vrma"} <= set(by_lemma)


@pytest.mark.parametrize(("text", "says"), [
    ("[[ruling]]\nrule = 'x'\nline = 1\n", "names no lemma"),
    ("[[ruling]]\nrule = 'x'\nline = 1\nadd = ['a']\ndecline = 'latin'\n", "unknown decline"),
    ("[[ruling]]\nrule = 'x'\nline = 1\nlemma = 'a'\ncolour = 1\n", "colour"),
    ("[[ruling]\n", "not valid TOML"),
])
def test_a_broken_rulings_file_names_its_fault(text: str, says: str) -> None:
    with pytest.raises(ProfileError, match=says):
        parse_rulings(text, "standin.toml")


def test_participles_decline_with_the_ending_length_of_their_base() -> None:
    from rules.lexicon.declension import cudzi, pekny
    assert {"zasmievšia", "zasmievšími"} <= cudzi("zasmievší")  # as the seed writes it
    assert {"robiaca", "robiacimi"} <= cudzi("robiaci") and "robiacia" not in cudzi("robiaci")
    assert {"fikaná", "fikanými"} <= pekny("fikaný") and {"krásna", "krásnych"} <= pekny("krásny")
