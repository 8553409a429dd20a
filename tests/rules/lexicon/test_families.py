"""The families SP B1 10.1–10.8 name by a rule (issue 42): members the rulebook does not print
answer as its printed examples do, and the verdict cites the rule. The members are data
(`data/families.toml`); here they are judged against a main list that holds every one of them,
so the rule decides and not the list's silence (the hunspell-sk stand-in judges them too:
tests/bot/services/test_standin_examples.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.services.lexicon.files import hybrid
from rules.lexicon import admissibility, compile_graph, judge, make_lexicon
from rules.lexicon.admissibility import admissibility_from_dict
from rules.lexicon.declension import greek_forms
from rules.lexicon.families import (
    REFUSALS,
    animal_nouns,
    cardinal,
    interjections,
    multiplicatives,
)
from rules.profile import ProfileError, read_toml

FAMILIES = Path(__file__).with_name("data") / "families.toml"
SSS = admissibility("sss")


def families() -> list[tuple[str, bool, str, int, str]]:
    data = tomllib.loads(FAMILIES.read_text(encoding="utf-8"))
    return [(word, group["valid"], group["rule"], group["line"], group["why"])
            for group in data["family"] for word in group["words"]]


EVERY_WORD = make_lexicon(compile_graph(sorted({w for w, *_ in families()} | {"chata"})),
                          "zoznam, ktorý má každé slovo (test)")
EMPTY = make_lexicon(compile_graph(["chata"]), "zoznam (test)")


@pytest.mark.parametrize(("word", "valid", "rule", "line", "why"), families(),
                         ids=[f"{w}-r{line}" for w, _, _, line, _ in families()])
def test_a_family_member_the_rulebook_does_not_print(
        word: str, valid: bool, rule: str, line: int, why: str) -> None:
    verdict = judge(word, EVERY_WORD, SSS)
    assert verdict.valid is valid, f"r. {line}: {word} ({why}): {verdict}"
    if not valid:  # refused by the rule, which the verdict names, though the list holds it
        assert verdict.rule == rule and verdict.source == "pravidlá", verdict


@pytest.mark.parametrize("word", ["sigmou", "sigmy", "sigmu", "epsilonom", "epsilonu", "zéty",
                                  "zétou", "étou", "thétou", "kapou", "lambdách", "dzetami"])
def test_greek_names_decline_by_rule_without_the_main_list(word: str) -> None:
    verdict = judge(word, EMPTY, SSS)
    assert verdict.valid and verdict.rule == "SP B1 10.1 bod 2", verdict


def test_the_greek_declension_keeps_the_printed_genitive_plural() -> None:
    """No guessed genitive plural (théth is printed, not thét); the indeclinable stay one form."""
    assert greek_forms("théta") == {"théta", "théty", "théte", "thétu", "thétou", "thétam",
                                    "thétach", "thétami"}
    assert greek_forms("ióta") == {"ióta"} and greek_forms("sigiem") == {"sigiem"}
    assert {"théth", "sigiem", "álf"} <= SSS.lists["grecke"].words
    assert "thét" not in SSS.lists["grecke"].words


@pytest.mark.parametrize(("number", "word"), [
    (1, "jeden"), (2, "dva"), (11, "jedenásť"), (21, "dvadsaťjeden"), (35, "tridsaťpäť"),
    (99, "deväťdesiatdeväť"), (102, "stodva"), (205, "dvestopäť"), (1000, "tisíc"),
    (2000, "dvetisíc"), (3005, "tritisícpäť"), (11_000, "jedenásťtisíc")])
def test_cardinal_numerals_as_one_word(number: int, word: str) -> None:
    assert cardinal(number) == word


def test_multiplicatives_are_every_cardinal_with_krat_that_fits_the_board() -> None:
    found = multiplicatives()
    assert {"päťkrát", "tridsaťpäťkrát", "jedenkrát", "dvakrát", "stokrát",
            "tisíckrát"} <= found
    assert all(word.endswith("krát") and len(word) <= 15 for word in found)
    assert "dvestodvadsaťkrát" not in found  # 17 letters: no board holds it
    assert judge("tridsaťpäťkrát", EMPTY, SSS).rule == "SP B1 10.7"


def test_the_reviewed_lists_say_where_they_come_from() -> None:
    data = Path(__file__).parents[3] / "rules" / "lexicon" / "data" / "sss"
    for name in ("zvierata.txt", "citoslovcia.txt"):
        header = data.joinpath(name).read_text(encoding="utf-8").split("\n\n")[0]
        assert "seed 000 r." in header and "reviewed list" in header, name
    assert ("kocúr", "kocúr") in animal_nouns() and ("pes", "ps") not in animal_nouns()
    assert {"ahoj", "hurá"} <= interjections()
    # a word with another part of speech is no interjection only (10.2 bod 9's principle)
    assert not {"beda", "bravo", "haló", "fí", "aj"} & interjections()
    assert not interjections() & SSS.lists["grecke"].words


def test_the_printed_examples_of_the_families_are_refused_by_their_rule() -> None:
    expected = {"kocúri": "SP B1 10.4", "sloni": "SP B1 10.4", "sobi": "SP B1 10.4",
                "neide": "SP B1 10.8", "neidem": "SP B1 10.8", "neidú": "SP B1 10.8",
                "nenenávidieť": "SP B1 10.8", "nenenávidí": "SP B1 10.8",
                "neneleniť": "SP B1 10.8", "nenevraží": "SP B1 10.8",
                "ahoj": "SP B1 10.2 bod 5", "hurá": "SP B1 10.2 bod 5",
                "kappa": "SP B1 10.1 bod 2"}
    lexicon = make_lexicon(compile_graph(sorted(expected)), "zoznam (test)")
    for word, rule in expected.items():
        verdict = judge(word, lexicon, SSS)
        assert not verdict.valid and verdict.rule == rule, verdict


def test_a_built_lexicon_leaves_out_what_the_rules_refuse() -> None:
    """The build applies the same families, so a move generator never plays a refused word."""
    forms, _ = hybrid(["kocúri", "kocúry", "nenenávidí", "nenávidí", "ahojte", "chata"], SSS)
    assert {"kocúry", "nenávidí", "chata", "sigmou", "tridsaťpäťkrát"} <= forms
    assert not {"kocúri", "nenenávidí", "ahojte"} & forms


def test_each_family_is_a_named_setting_an_association_may_drop() -> None:
    data = read_toml(Path(__file__).parents[3] / "rules" / "profiles" / "lexicon" / "sss.toml",
                     "sss", Path(__file__).parents[3] / "rules" / "profiles" / "lexicon",
                     "admissibility profile", "profily")
    assert {rule["family"] for rule in data["refuse"]} == set(REFUSALS)
    data["refuse"] = [rule for rule in data["refuse"] if rule["family"] != "citoslovcia"]
    lenient = admissibility_from_dict(data, "sss.toml")
    assert lenient.refused("ahoj") is None and lenient.refused("kocúri") is not None
    data["refuse"].append({"family": "ine", "rule": "x", "says": "y"})
    with pytest.raises(ProfileError, match=r"refuse\.family"):
        admissibility_from_dict(data, "sss.toml")
