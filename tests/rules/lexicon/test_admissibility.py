"""The admissibility profiles load strictly and say what the seeds say (SP B1, ČAS SŘ 9.4)."""

import tomllib

import pytest

from rules.lexicon import WordList, admissibility, compile_graph, judge, make_lexicon
from rules.lexicon.admissibility import (
    LEXICON_PROFILE_DIR,
    admissibility_from_dict,
    admissibility_names,
    parse_word_list,
)
from rules.profile import ProfileError


def _sss_table() -> dict:
    return tomllib.loads((LEXICON_PROFILE_DIR / "sss.toml").read_text(encoding="utf-8"))


def test_bundled_profiles() -> None:
    assert admissibility_names() == ["cas", "sss"]
    sss = admissibility("sss")
    assert {n: r.list for n, r in sss.exclusive.items()} == {2: "b2", 3: "b3", 4: "b6", 5: "b7"}
    assert [r.rule for r in sss.exclusive.values()] == ["SP B1 10.1 bod 3"] + 3 * [
        "SP B1 10.1 bod 4"]
    assert set(sss.letters.blank_extra) == set("wqöüěř")  # SP B8 17.1
    assert sss.letters.digraphs == ["ch", "dz", "dž"]
    assert "b6" not in sss.lists and "b7" not in sss.lists  # not in the seeds
    assert len(sss.letters.tiles) == 41
    cas = admissibility("cas")
    assert {r.list for r in cas.exclusive.values()} == {"blex"} and max(cas.exclusive) == 5


def test_slovak_collation_puts_ch_after_h() -> None:
    sss = admissibility("sss")
    words = ["chata", "ihla", "hrad", "cesta", "dzvon", "dub", "čaj"]
    assert sorted(words, key=sss.sort_key) == ["cesta", "čaj", "dub", "dzvon", "hrad",
                                               "chata", "ihla"]


@pytest.mark.parametrize(("change", "names"), [
    (lambda t: t.update(colour="red"), "colour"),
    (lambda t: t["length"].pop("max"), "length.max"),
    (lambda t: t["exclusive"][0].update(list="b9"), "unknown list"),
    (lambda t: t["exclusive"][1].update(length=2), "each length once"),
    (lambda t: t["letters"].update(tiles=["a", "Bb"]), "letters.tiles"),
    (lambda t: t["letters"]["blank_extra"].append("a"), "blank_extra"),
    (lambda t: t["lists"][0].update(declension="latin"), "lists.declension"),
])
def test_a_broken_profile_names_its_field(change, names: str) -> None:
    table = _sss_table()
    change(table)
    with pytest.raises(ProfileError, match=names.replace(".", r"\.")):
        admissibility_from_dict(table, "sss.toml")


def test_lists_come_from_the_data_folder_and_can_be_replaced(tmp_path) -> None:
    (tmp_path / "sss").mkdir()
    (tmp_path / "sss" / "b2.txt").write_text("# B2 test\nja\nTY\n\n", encoding="utf-8")
    sss = admissibility_from_dict(_sss_table(), "sss.toml", tmp_path)
    assert sss.lists["b2"].words == {"ja", "ty"} and "b3" not in sss.lists
    assert sss.lists["b2"].bundled
    verdict = judge("ty", make_lexicon(compile_graph(["xy"]), "zoznam"), sss)
    assert verdict.valid and verdict.source == sss.lists["b2"].title
    assert "pribalená kópia zrekonštruovaná z pravidiel" in verdict.reason
    own = sss.with_lists([WordList("b3", "B3 spolku", frozenset({"kôň"}))])
    assert own.lists["b3"].words == {"kôň"} and own.lists["b2"] is sss.lists["b2"]
    verdict = judge("kôň", make_lexicon(compile_graph(["xy"]), "zoznam"), own)
    assert verdict.valid and "pribalená" not in verdict.reason  # the association's own
    with pytest.raises(ProfileError, match="unknown list"):
        sss.with_lists([WordList("b9", "?", frozenset())])


def test_parse_word_list_skips_comments_and_blanks() -> None:
    assert parse_word_list("# hlavička\n\nMy\n  ty \n") == {"my", "ty"}
