"""Every SP B1 rule the data can decide, with its citation in the verdict (issue 22):
short-word exclusivity (B2, B3; B6/B7 absent), digraphs count as two letters, the letters a
blank may stand for, one-letter words, the always-valid B5, and queries that are no word."""

import pytest

from rules.lexicon import (
    LexiconError,
    WordList,
    admissibility,
    compile_graph,
    judge,
    make_lexicon,
)
from rules.lexicon.artifact import from_bytes, to_bytes

# the association's main list says "xy" and "ťuk" are words; B2/B3 say otherwise
MAIN = ["chata", "ja", "kôň", "mama", "ťuk", "xy", "zlato", "wolfram", "vodíkom"]
B2 = WordList("b2", "B2 (test)", frozenset({"ja", "ty", "ch"}))
B3 = WordList("b3", "B3 (test)", frozenset({"kôň", "chy", "cín"}))
B5 = WordList("b5", "B5 (test)", frozenset({"vodík", "cín", "argón"}))
SSS = admissibility("sss").with_lists([B2, B3, B5])
LEXICON = make_lexicon(compile_graph(sorted(MAIN)), "zoznam spolku (test)")


def _judge(word: str):
    return judge(word, LEXICON, SSS)


def test_two_letter_words_only_from_b2_whatever_the_file_says() -> None:
    assert _judge("ja").valid and _judge("ty").valid  # "ty" is not in the main list
    verdict = _judge("xy")  # in the main list, not in B2
    assert not verdict.valid
    assert (verdict.source, verdict.rule) == ("B2 (test)", "SP B1 10.1 bod 3")
    assert "B2" in verdict.reason and verdict.lexicon == LEXICON.id


def test_three_letter_words_only_from_b3() -> None:
    assert _judge("kôň").valid
    verdict = _judge("ťuk")
    assert not verdict.valid and (verdict.source, verdict.rule) == ("B3 (test)",
                                                                     "SP B1 10.1 bod 4")


def test_digraphs_count_as_two_letters() -> None:
    ch = _judge("ch")  # two tiles, so a two-letter word: B2 decides (SP B1 10.1 bod 4)
    assert ch.valid and ch.source == "B2 (test)" and "dve písmená" in ch.reason
    chy = _judge("chy")  # three letters, B3
    assert chy.valid and chy.source == "B3 (test)"
    assert judge("chata", LEXICON, SSS).valid  # five letters: B7 absent, the main list


def test_b6_b7_absent_leave_the_word_to_the_main_list_and_say_so() -> None:
    verdict = _judge("mama")
    assert verdict.valid and verdict.source == LEXICON.title and verdict.rule == "SP B1 10.1"
    assert "B6 tu nie je" in verdict.reason
    assert not _judge("mamy").valid


def test_blank_letters_are_playable_others_are_not() -> None:
    assert _judge("wolfram").valid  # W only on a blank (SP 2.7; SP B8 17.1)
    verdict = _judge("straße")
    assert not verdict.valid and verdict.rule == "SP B8 17.1" and "„ß“" in verdict.reason
    assert "ř" in SSS.playable and "ř" not in SSS.letters.tiles


def test_one_letter_and_too_long() -> None:
    one = _judge("a")
    assert not one.valid and one.rule == "SP B1 10.2 bod 2"
    long = _judge("a" * 16)
    assert not long.valid and long.rule == "SP B8 17.1"


def test_always_valid_b5_but_not_over_an_exclusive_list() -> None:
    vodik = _judge("vodík")  # five letters, B7 absent, not in the main list: B5 admits it
    assert vodik.valid and vodik.source == "B5 (test)" and vodik.rule == "SP B1 10.1 bod 5"
    assert _judge("argón").valid
    assert _judge("cín").source == "B3 (test)"  # three letters: B3 alone decides
    assert _judge("vodíkom").valid  # a declined form comes from the main list


def test_a_built_lexicon_decides_its_exclusive_lengths_itself() -> None:
    built = make_lexicon(compile_graph(["my", "zlato"]), "zostavený", "sss",
                         exclusive={2: "B2 (spolku)"})
    again = from_bytes(to_bytes(built))
    assert again.id == built.id and again.exclusive == {2: "B2 (spolku)"}
    verdict = judge("my", again, SSS)  # the profile's B2 lacks "my"; the build's had it
    assert verdict.valid and verdict.source == "B2 (spolku)" and verdict.rule == "SP B1 10.1 bod 3"
    assert not judge("ja", again, SSS).valid


def test_case_and_normal_form_do_not_matter() -> None:
    decomposed = "ko\u0302n\u030c"  # kôň with combining marks
    assert _judge("KÔŇ").valid and _judge(decomposed).valid and _judge(" ja ").word == "ja"


@pytest.mark.parametrize(("query", "says"), [
    ("", "Prázdne"), ("   ", "Prázdne"), ("dva slova", "medzeru"), ("abc1", "„1“"),
    ("x-y", "„-“"), ("a" * 10_000, "10000 znakov"),
])
def test_a_query_that_is_no_word_is_one_slovak_line(query: str, says: str) -> None:
    with pytest.raises(LexiconError) as raised:
        _judge(query)
    assert says in str(raised.value) and "\n" not in str(raised.value)
    assert len(str(raised.value)) < 200


def test_cas_short_words_go_to_blex_which_the_seeds_lack() -> None:
    cas = admissibility("cas")
    lexicon = make_lexicon(compile_graph(["kůň", "pes"]), "NOVEX (test)")
    verdict = judge("kůň", lexicon, cas)
    assert verdict.valid and verdict.rule == "ČAS SŘ 9.4.4" and "BLEX tu nie je" in verdict.reason
    assert not judge("kôň", lexicon, cas).valid  # ô is no Czech tile
    assert judge("kôň", lexicon, cas).rule.startswith("ČAS")


def test_cas_blank_stands_for_any_letter_but_ch() -> None:
    """ČAS SŘ 16.41: the blank may be any letter except CH, so Q and W (no tile) are playable."""
    cas = admissibility("cas")
    lexicon = make_lexicon(compile_graph(["chata", "quiz", "whisky"]), "NOVEX (test)")
    for word in ("quiz", "whisky"):
        verdict = judge(word, lexicon, cas)
        assert verdict.valid, verdict
    assert {"q", "w"} <= cas.playable and cas.letters.blank_rule == "ČAS SŘ 16.41"
    assert "ch" in cas.letters.digraphs  # CH stays two tiles: no blank stands for it
    refused = judge("łaska", lexicon, cas)  # ł is no letter of the Czech alphabet
    assert not refused.valid and "ČAS SŘ 16.41" in refused.reason
