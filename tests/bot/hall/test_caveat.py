"""Which verdicts the hall page marks NÁHRADNÝ inside the answer's box (issue 35): those decided
by a stand-in list (hunspell), and those decided by a list bundled with the rules, reconstructed
from their OCR'd text (B2, B3, B5) — not those the association's own lists decided, nor those
the rules themselves decided (letters, length)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from bs4 import BeautifulSoup

from bot.services.lexicon import files as service
from rules.lexicon import Lexicon, compile_graph, make_lexicon

from .conftest import running, small_lexicon

STANDIN = "NÁHRADNÝ zoznam (nie je to zoznam spolku)"


def caveat(base: str, word: str) -> str | None:
    response = httpx.get(base + "/", params={"slovo": word}, timeout=10)
    box = BeautifulSoup(response.text, "lxml").find("section", class_="answer")
    assert box is not None
    found = box.find(class_="caveat")
    return None if found is None else found.get_text()


def standin() -> Lexicon:
    return make_lexicon(compile_graph(["kamarát", "mesto"]),
                        "NÁHRADNÝ zoznam z hunspell-sk (nie je zoznamom spolku)", standin=True)


@pytest.mark.parametrize(("word", "says"), [
    ("kamarát", STANDIN),  # the stand-in said yes
    ("stolíkom", STANDIN),  # … or no
    ("ou", "NÁHRADNÝ zoznam: B2 zrekonštruovaný z pravidiel, nie súbor spolku"),
    ("øl", None),  # the letters decided (SP B8 17.1), no list
])
def test_a_stand_in_lexicon(word: str, says: str | None) -> None:
    with running(standin()) as base:
        assert caveat(base, word) == says


def test_an_associations_list_judged_on_the_spot() -> None:
    with running(small_lexicon()) as base:
        assert caveat(base, "mesto") is None  # its own list
        assert caveat(base, "kôň") == ("NÁHRADNÝ zoznam: B3 zrekonštruovaný z pravidiel, "
                                       "nie súbor spolku")


def test_a_built_lexicon_marks_only_the_bundled_lists_it_applied(tmp_path: Path) -> None:
    words = tmp_path / "slova.txt"
    words.write_text("# názov: zoznam slov spolku 2026\nmesto\nkamarát\n", encoding="utf-8")
    lists = tmp_path / "zoznamy"
    lists.mkdir()
    (lists / "b2.txt").write_text("ja\nty\n", encoding="utf-8")
    out = tmp_path / "sk.lex"
    service.build(words, "sss", out, [lists])
    with running(service.load(out)) as base:
        assert caveat(base, "ja") is None and caveat(base, "ou") is None  # the association's B2
        assert caveat(base, "mesto") is None and caveat(base, "kamarát") is None
        assert caveat(base, "kôň") == ("NÁHRADNÝ zoznam: B3 zrekonštruovaný z pravidiel, "
                                       "nie súbor spolku")
