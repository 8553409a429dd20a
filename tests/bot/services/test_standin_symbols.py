"""The stand-ins leave unit marks and abbreviations out (issue 42): hunspell-cs and -sk list
kg, km, pc, fp … as lower-case entries without flags, and the engine's top in a hall game
formed FP and MG. Read from Debian's own dictionaries (installed when missing, tests/bot/apt.py);
the rule itself is `rules.lexicon.standin.symbols`."""

from __future__ import annotations

from pathlib import Path

from bot.services.lexicon.standin import DICT_DIRS, DICTIONARIES
from rules.lexicon.standin import Entry, animal_plurals, symbols

from ..apt import ensure_packages


def _dic(language: str) -> Path:
    base = DICTIONARIES[language].base

    def found() -> str | None:
        return next((str(folder / f"{base}.dic") for folder in DICT_DIRS
                     if (folder / f"{base}.dic").is_file()), None)

    return Path(ensure_packages(found, [DICTIONARIES[language].package],
                                DICTIONARIES[language].package))


def _entries(path: Path) -> list[Entry]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[1:]
    return [Entry.parse(line) for line in lines if line.strip()]


def test_the_czech_dictionary_loses_its_unit_marks_and_keeps_its_words() -> None:
    marks = symbols(_entries(_dic("cs")))
    assert {"kg", "km", "cm", "mg", "mm", "ml", "hl", "pc", "fp", "dkg", "dm"} <= marks
    # words without a vowel have a syllabic r or l; a mark with a vowel (ha, min) is not told
    # from a word by the data and stays
    assert not {"vlk", "krk", "prst", "smrt", "čtvrt", "skrz", "plsť", "min", "ha"} & marks


def test_the_slovak_dictionary_loses_its_unit_marks_too() -> None:
    marks = symbols(_entries(_dic("sk")))
    assert {"kg", "km", "cm", "mg", "ml", "hl", "html", "smtp"} <= marks
    assert not {"vlk", "krk", "prst", "smrť", "štvrť", "gösch"} & marks


def test_an_animal_declined_like_a_person_gets_the_plural_the_rule_allows() -> None:
    """hunspell-sk: kocúr/C (like chlap) gives kocúri (refused, 10.4) and no kocúry."""
    assert animal_plurals({"kocúri", "kocúra", "sobi", "soby"}) == {"kocúry"}
