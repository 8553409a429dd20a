"""The closed lists of SP B1 10.1 (issue 35): bod 1 solmisation and tones, bod 2 Greek letter
names with exactly the forms the text names, bod 5 B5 declined, bod 6 Slovak letter names
declined by vzor mesto (ypsilon vzor dub) — always admissible, whatever the main list says."""

from __future__ import annotations

import pytest

from rules.lexicon import admissibility, compile_graph, judge, make_lexicon
from rules.lexicon.declension import declined, element_forms, letter_forms, long_syllable

SSS = admissibility("sss")
#: a main list that knows none of these words: only the closed lists can admit them
EMPTY = make_lexicon(compile_graph(["chata"]), "zoznam (test)")

SLOVAK_LETTERS = ["áčko", "béčko", "céčko", "déčko", "éčko", "efko", "géčko", "háčko", "cháčko",
                  "íčko", "jéčko", "káčko", "elko", "emko", "enko", "óčko", "péčko", "erko",
                  "esko", "téčko", "účko", "véčko", "iksko", "ixko", "ypsilon", "zetko"]
GREEK = ["alfa", "beta", "gama", "delta", "epsilon", "zéta", "dzeta", "zeta", "éta", "théta",
         "ióta", "kapa", "lambda", "mí", "ní", "ksí", "omikron", "pí", "ró", "sigma", "tau",
         "ypsilon", "fí", "chí", "psí", "omega"]
GREEK_GENITIVE_PLURALS = ["álf", "biet", "gám", "delt", "zét", "dziet", "ét", "káp", "sigiem",
                          "omeg"]


@pytest.mark.parametrize("word", SLOVAK_LETTERS)
def test_every_slovak_letter_name_is_admissible(word: str) -> None:
    verdict = judge(word, EMPTY, SSS)
    named = {"SP B1 10.1 bod 6"} | ({"SP B1 10.1 bod 2"} if word == "ypsilon" else set())
    assert verdict.valid and verdict.rule in named, verdict


@pytest.mark.parametrize("word", GREEK + GREEK_GENITIVE_PLURALS)
def test_every_greek_letter_name_and_named_form_is_admissible(word: str) -> None:
    verdict = judge(word, EMPTY, SSS)
    # 2 and 3 letters: B2/B3 decide (10.1 bod 3, 4), and they hold every one of them
    assert verdict.valid, verdict
    assert verdict.rule in {"SP B1 10.1 bod 2", "SP B1 10.1 bod 3", "SP B1 10.1 bod 4"}


def test_greek_names_get_no_form_the_text_does_not_name() -> None:
    """"Sú nesklonné okrem …" and "len takéto slová": no case of ióta or omikron (théth and
    lámdb are named, so they are in: see the list's header); the declinable ones decline by
    rule (issue 42), whatever the main list holds."""
    for word in ("ióty", "iótou", "omikronu", "tauy"):
        assert not judge(word, EMPTY, SSS).valid, word
    assert judge("alfou", EMPTY, SSS).rule == "SP B1 10.1 bod 2"


@pytest.mark.parametrize("word", ["do", "re", "sol", "si", "ces", "his", "as", "ais"])
def test_solmisation_and_tone_names(word: str) -> None:
    assert judge(word, EMPTY, SSS).valid
    assert word in SSS.lists["solmizacia"].words


def test_closed_lists_agree_with_b2_and_b3() -> None:
    """Words of 2 and 3 letters are judged by B2/B3 only (10.1 bod 3, 4); the bundled copies
    hold every short form the closed lists name (ksí since B3 reads it as bod 2 names it)."""
    for rule in SSS.always:
        for form in SSS.lists[rule.list].words:
            if len(form) in (2, 3):
                assert form in SSS.lists["b2" if len(form) == 2 else "b3"].words, form


def test_slovak_letter_names_decline_by_vzor_mesto() -> None:
    assert letter_forms("áčko") == {"áčko", "áčka", "áčku", "áčkom", "áčkam", "áčkach",
                                    "áčkami", "áčok"}  # rhythmic law after á: -a, -am, -ach
    assert letter_forms("efko") == {"efko", "efka", "efku", "efkom", "efká", "efkám", "efkách",
                                    "efkami", "efiek"}
    assert "cháčok" in letter_forms("cháčko") and "ixiek" in letter_forms("ixko")
    assert letter_forms("ypsilon") == {"ypsilon", "ypsilonu", "ypsilone", "ypsilonom",
                                       "ypsilony", "ypsilonov", "ypsilonoch", "ypsilonmi"}
    for form in ("áčkom", "zetkami", "cháčok", "ypsilonmi", "efkách"):
        verdict = judge(form, EMPTY, SSS)
        assert verdict.valid and verdict.rule == "SP B1 10.1 bod 6", form
    with pytest.raises(ValueError):
        letter_forms("alfa")


def test_element_names_decline_by_their_ending() -> None:
    assert element_forms("vodík") >= {"vodíka", "vodíku", "vodíkom", "vodíky", "vodíkmi"}
    assert element_forms("argón") >= {"argónu", "argóne", "argónom", "argónov", "argónmi"}
    assert element_forms("aktínium") >= {"aktínia", "aktíniu", "aktíniom", "aktínií"}
    assert element_forms("meď") >= {"medi", "meďou", "medí", "meďami"}
    assert element_forms("platina") >= {"platiny", "platinou", "platín", "platinách"}
    assert element_forms("síra") >= {"síry", "sír", "síram", "sírach"}  # rhythmic law
    assert element_forms("zinok") >= {"zinku", "zinkom"} and "zinoku" not in element_forms("zinok")
    assert element_forms("neodým") >= {"neodýmu", "neodýmami"}  # -m: -ami (10.4 r. 557)
    # left out rather than guessed: no sure genitive plural of olovo, no instrumental plural of
    # kobalt (a sonorant + an obstruent: 10.4 r. 557 is silent)
    assert not {f for f in element_forms("kobalt") if f.endswith("mi")}
    assert element_forms("olovo") == {"olovo", "olova", "olovu", "olove", "olovom", "olová",
                                      "olovám", "olovách", "olovami"}
    for form in ("vodíkom", "argónu", "aktínia", "meďou", "zinku", "fluóru"):
        verdict = judge(form, EMPTY, SSS)
        assert verdict.valid and verdict.rule == "SP B1 10.1 bod 5", form


def test_the_associations_own_b5_is_declined_too() -> None:
    from rules.lexicon import WordList
    own = SSS.with_lists([WordList("b5", "B5 spolku", frozenset({"kyslík"}))])
    assert own.lists["b5"].words >= {"kyslík", "kyslíka", "kyslíkom"}
    assert declined(["x"], "") == {"x"}


def test_long_syllable() -> None:
    assert long_syllable("áčk") and long_syllable("striebr") and long_syllable("sír")
    assert not long_syllable("efk") and not long_syllable("aktíni") and not long_syllable("")


def test_a_closed_list_names_its_rule_even_when_the_main_list_has_the_word() -> None:
    main = make_lexicon(compile_graph(["vodíkom", "áčkom"]), "zoznam (test)")
    verdict = judge("áčkom", main, SSS)
    assert verdict.valid and verdict.rule == "SP B1 10.1 bod 6"
    assert "SP B1 10.1 bod 6 (názvy písmen slovenskej abecedy)" in verdict.reason
    assert judge("vodíkom", main, SSS).rule == "SP B1 10.1 bod 5"


def test_a_closed_list_is_named_by_its_title_in_the_bundled_note() -> None:
    verdict = judge("áčkom", EMPTY, SSS)
    assert "Zoznam „SP B1 10.1 bod 6 (názvy písmen slovenskej abecedy)“ je pribalená" in \
        verdict.reason and "PISMENA" not in verdict.reason
    assert "Zoznam B5 je pribalená" in judge("vodíkom", EMPTY, SSS).reason
