"""The bundled SSS lists B2, B3, B5 (issue 22 item 3): reconstructed from an OCR'd seed.

What is checked: the counts the files and CORRECTIONS.md promise, the letters, no duplicates,
every correction applied, and that the files ship (importlib.resources + the package-data glob).
The lists keep the seed's printed order, so sortedness is not checked.
"""

from __future__ import annotations

import fnmatch
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

DATA = files("rules.lexicon") / "data" / "sss"
REPO = Path(__file__).resolve().parents[3]

SLOVAK = set("aáäbcčdďeéfghiíjklĺľmnňoóôpqrŕsštťuúvwxyýzž")
# SP B8: the blank may also stand for W, Q, Ö, Ü, Ě, Ř "ak sú použité v platných slovách".
BLANK_ONLY = set("wqöüěř")


def forms(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def header(name: str) -> str:
    text = (DATA / name).read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if line.startswith("#"))


def corrections() -> list[dict[str, str]]:
    rows = []
    for line in (DATA / "CORRECTIONS.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| b") and len(cells) == 8:
            keys = ("list", "line", "read", "nth", "written", "kind", "confidence", "why")
            rows.append(dict(zip(keys, cells, strict=True)))
    return rows


@pytest.mark.parametrize(
    ("name", "count", "length"), [("b2.txt", 103, 2), ("b3.txt", 1364, 3), ("b5.txt", 130, None)]
)
def test_counts_lengths_and_no_duplicates(name: str, count: int, length: int | None) -> None:
    words = forms(name)
    assert len(words) == count
    assert len(set(words)) == len(words)
    if length is not None:
        # ch, dz, dž count as two letters (SP B1 10.1 bod 4): plain character length.
        assert {len(w) for w in words} == {length}
    assert f"{count}" in header(name)  # the header says how many forms the file holds


@pytest.mark.parametrize("name", ["b2.txt", "b3.txt", "b5.txt"])
def test_lower_case_letters_of_the_alphabet_only(name: str) -> None:
    for word in forms(name):
        assert word == word.lower() and word.strip() == word
        assert set(word) <= SLOVAK | BLANK_ONLY, word
    assert "RECONSTRUCTED" in header(name) and "REPLACES" in header(name)


def test_blank_only_letters_are_the_ones_documented() -> None:
    odd = sorted(w for n in ("b2.txt", "b3.txt", "b5.txt") for w in forms(n) if set(w) & BLANK_ONLY)
    assert odd == ["fön", "lawrencium", "röntgénium"]


def test_added_words_of_the_headers_are_present() -> None:
    assert {"oč", "ok", "pé"} <= set(forms("b2.txt"))
    added_b3 = ["káp", "oci", "oke", "oky", "pab", "pad", "pax", "pin", "píp", "pít", "pub", "zét"]
    assert set(added_b3) <= set(forms("b3.txt"))


def test_every_correction_is_applied() -> None:
    rows = corrections()
    assert len(rows) == 106
    by_list = {name: forms(f"{name}.txt") for name in ("b2", "b3", "b5")}
    for row in rows:
        words = by_list[row["list"]]
        if row["kind"] == "garbled":  # the OCR spelling is gone, the reading is in (or left out)
            assert row["read"] not in words, row
            assert row["written"] == "—" or row["written"] in words, row
        elif row["kind"] == "duplicate":  # one copy stays, the hidden word is in (or left out)
            assert words.count(row["read"]) == 1, row
            assert row["written"] == "—" or row["written"] in words, row
        else:
            assert row["kind"] == "added" and row["written"] in words, row
    unresolved = [r for r in rows if r["confidence"] == "unresolved"]
    assert [(r["read"], r["written"]) for r in unresolved] == [("hýľ", "—")]
    assert not [r for r in rows if r["confidence"] == "low"]  # a guess is no longer written


def test_unreadable_tokens_are_left_out_and_listed_with_their_seed_line() -> None:
    """B3 is exclusive (SP B1 10.1 bod 4): a guessed reading would make a non-word playable,
    so a token without a confirmed reading is out, listed as "nečitateľné v predlohe"."""
    rows = [r for r in corrections() if r["confidence"] == "nečitateľné"]
    listed = [(r["line"], r["read"]) for r in rows]
    assert listed == [("813", "jáw"), ("824", "ľuf"), ("824", "ľúť"), ("824", "ľýs"),
                      ("833", "nów"), ("845", "riň"), ("859", "trľ")]
    assert all(r["written"] == "—" for r in rows)
    b3 = forms("b3.txt")
    assert not {"jáw", "luf", "lúť", "lýs", "nóv", "ríň", "tŕl"} & set(b3)
    assert b3.count("riň") == 1 and "jáv" in b3
    said = header("b3.txt")
    assert "nečitateľné v predlohe" in said
    for line, token in listed:
        assert f"{line}:" in said and token in said, (line, token)


def test_b3_reads_the_greek_letter_the_rules_name() -> None:
    """SP B1 10.1 bod 2 names the Greek letter "ksí"; the OCR printed "kší" (no word)."""
    b3 = forms("b3.txt")
    assert "ksí" in b3 and "kší" not in b3


def test_known_readings() -> None:
    b2 = forms("b2.txt")
    assert "úž" in b2 and "čí" in b2 and "iď" in b2
    assert b2.count("už") == 1 and "cí" not in b2 and "id'" not in b2
    b5 = forms("b5.txt")
    assert {"dysprózium", "prazeodým", "kálium", "meď", "röntgénium"} <= set(b5)
    assert not {"bórium", "hasium", "meitnerium", "nobelium"} & set(b5)  # "zrušené"


def test_package_data_glob_ships_every_data_file() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["rules"]
    root = REPO / "rules"
    data_files = [p for p in (root / "lexicon" / "data").rglob("*") if p.is_file()]
    assert {p.name for p in data_files} >= {"b2.txt", "b3.txt", "b5.txt", "CORRECTIONS.md"}
    for path in data_files:
        rel = path.relative_to(root).as_posix()
        assert any(fnmatch.fnmatch(rel, g) for g in globs), rel
