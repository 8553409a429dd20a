"""The rules of SP B1 10.1–10.8 a hunspell stand-in is filtered and extended by (issue 35): pure.

hunspell-sk is a spelling dictionary, not the association's list: it holds proper nouns in
lower case, abbreviations without their dot, parts of multi-word and hyphenated expressions,
negated verbal nouns and the forms a dictionary restricts, and it lacks forms the rules allow.
What its own data can tell is decided here by rule:
- `proper_twins`: a lower-case entry without flags that merely repeats a capitalised noun
  entry (amerika beside Amerika/zZ po:noun) — a proper noun (10.2 bod 1);
- `negated_verbal_nouns`: ne- + a verbal noun (nerobenie: "okrem slovesného podstatného mena",
  10.8 r. 600), unless the negated noun is an entry of its own with flags (nedorozumenie/V: a
  dictionary word), or the form is also a negated participle (nerobení beside nerobený);
- `active_participle_forms`: an active participle hunspell knows in its base form only
  (robiaci beside the transgressive robiac) in every form of vzor cudzí (10.8 r. 596), and
  negated where the negated transgressive is there (nerobiac);
- `animal_plurals`: the plural 10.4 allows an animal noun (kocúry) hunspell-sk declines like a
  person (kocúr/C gives kocúri, which the rule refuses, and no kocúry);
- `symbols`: a lower-case entry without flags and without a syllable (kg, km, pc, fp) — a
  unit mark or an abbreviation kept without its dot (10.2 bod 3, 4), in hunspell-sk and -cs;
what it cannot tell, the seed's named cases, is data (`data/sss/standin.toml`, `Ruling`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rules.lexicon.declension import DECLENSIONS, cudzi
from rules.lexicon.families import animal_nouns, animal_plurals_allowed, soft_plural
from rules.profile import ProfileError
from rules.profile import _build as build

DATA_DIR = Path(__file__).with_name("data")
#: the verbal noun's case endings (vzor vysvedčenie, 10.8 r. 598), after its -n- or -t-
VERBAL_NOUN_ENDINGS = ("iami", "iach", "iam", "ie", "ia", "iu", "í")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a hunspell .dic: the word, its affix flags, its morphological fields."""

    word: str
    flags: str
    morph: str

    @classmethod
    def parse(cls, line: str) -> Entry:
        head, *rest = line.strip().split(None, 1)  # a space or a tab before the fields
        word, _, flags = head.partition("/")
        return cls(word, flags, rest[0].strip() if rest else "")


@dataclass(frozen=True, slots=True)
class Ruling:
    """One of the seed's named cases (see data/sss/standin.toml for the fields)."""

    rule: str
    line: int
    lemma: str = ""
    keep: list[str] = field(default_factory=list)
    refuse: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)
    decline: str = ""
    negate: bool = False

    def added(self) -> set[str]:
        """The forms this ruling admits: `add`, declined and negated as it says."""
        forms = set(self.add)
        if self.decline:
            forms = set().union(*(DECLENSIONS[self.decline](word) for word in forms))
        if self.negate:
            forms |= {"ne" + form for form in forms}
        return forms


@dataclass(frozen=True, slots=True)
class _RulingsFile:
    ruling: list[Ruling]


def parse_rulings(text: str, source: str = "<rulings>") -> tuple[Ruling, ...]:
    """The rulings of a TOML text, checked as strictly as the profiles."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML: {exc}") from None
    for table in data.get("ruling", []):  # the strict loader takes plain defaults only
        if isinstance(table, dict):
            for key in ("keep", "refuse", "add"):
                table.setdefault(key, [])
    rulings = tuple(build(_RulingsFile, data, source).ruling)
    for ruling in rulings:
        if ruling.decline and ruling.decline not in DECLENSIONS:
            raise ProfileError(f"{source}: {ruling.rule}: unknown decline {ruling.decline!r}")
        if not (ruling.lemma or ruling.refuse or ruling.add):
            raise ProfileError(f"{source}: {ruling.rule}: names no lemma, refuse or add")
    return rulings


@cache
def rulings(profile: str) -> tuple[Ruling, ...]:
    """The bundled rulings for a profile ("sss"); none for a profile without the file."""
    path = DATA_DIR / profile / "standin.toml"
    if not path.is_file():
        return ()
    return parse_rulings(path.read_text(encoding="utf-8"), path.name)


def proper_twins(entries: Iterable[Entry]) -> set[str]:
    """Lower-case entries without flags whose capitalised twin is a noun entry."""
    entries = list(entries)
    capital_nouns = {e.word for e in entries
                     if e.word[:1].isupper() and "po:noun" in e.morph}
    return {e.word for e in entries
            if e.word[:1].islower() and not e.flags
            and e.word[:1].upper() + e.word[1:] in capital_nouns}


def negated_verbal_nouns(forms: set[str] | frozenset[str], flagged: Mapping[str, str] | set[str]
                         ) -> set[str]:
    """The forms ne- + a verbal noun's form (see the module's docstring). `flagged` holds the
    .dic words that carry affix flags (a negated noun listed so is a dictionary word)."""
    found = set()
    for form in forms:
        if not form.startswith("ne") or form[-1] not in "eaíiu":
            continue
        plain = form[2:]
        for ending in VERBAL_NOUN_ENDINGS:
            if not plain.endswith(ending) or len(plain) <= len(ending) + 1:
                continue
            stem = plain[: -len(ending)]
            if stem[-1] not in "nt":
                continue
            nominative = stem + "ie"
            # a verbal noun declines (robenie, robenia, robeniu); a verb's -nie (utonie) does not
            if not {nominative, stem + "ia", stem + "iu"} <= forms:
                continue
            if "ne" + nominative in flagged:
                continue
            if ending == "í" and "ne" + stem + "ý" in forms:  # nerobení: the participle too
                continue
            found.add(form)
            break
    return found


def active_participle_forms(forms: set[str] | frozenset[str]) -> set[str]:
    """Every form of each active participle in `forms` (see the module's docstring)."""
    found: set[str] = set()
    for form in forms:
        if form.endswith(("úci", "uci", "aci")) and form[:-1] in forms:
            declined = cudzi(form)
            found |= declined
            if "ne" + form[:-1] in forms:
                found |= {"ne" + each for each in declined}
    return found


def kept_of_lemmas(ruled: Iterable[Ruling]) -> dict[str, set[str]]:
    """For each ruled lemma, the forms of its entries that stay."""
    kept: dict[str, set[str]] = {}
    for ruling in ruled:
        if ruling.lemma:
            kept.setdefault(ruling.lemma, set()).update(ruling.keep)
    return kept


def refused(ruled: Iterable[Ruling]) -> set[str]:
    return {form for ruling in ruled for form in ruling.refuse}


def added(ruled: Iterable[Ruling]) -> set[str]:
    return set().union(*(ruling.added() for ruling in ruled))


#: the vowels of Czech and Slovak words; a syllable without one has a syllabic r, l (ŕ, ĺ)
SYLLABLE_VOWELS = frozenset("aáäeéěiíoóôöuúůüyýŕĺ")


def _has_syllable(word: str) -> bool:
    """Whether `word` has a syllable: a vowel, or r/l between two consonants (vlk, smrt)."""
    if SYLLABLE_VOWELS.intersection(word):
        return True
    return any(word[i] in "rl" and 0 < i < len(word) - 1 for i in range(len(word)))


def symbols(entries: Iterable[Entry]) -> set[str]:
    """Lower-case entries without flags and without a syllable: unit marks and abbreviations
    kept without their dot (kg, km, cm, mg, ml, hl, pc, fp, dkg) — "značky (km, hl)" and
    "skratky" are no words (SP B1 10.2 bod 3, 4; seed 002's principle for ČAS, whose own rules
    are not in the seeds). A word always has a syllable; an interjection without one (pst,
    hm) goes with them."""
    return {e.word for e in entries
            if not e.flags and e.word.islower() and e.word.isalpha()
            and not _has_syllable(e.word)}


def animal_plurals(forms: set[str] | frozenset[str]) -> set[str]:
    """The plural 10.4 allows an animal noun (kocúry) where hunspell-sk declines the noun like
    a person (kocúr/C: kocúri, no kocúry): added when the -i form is there and it is not."""
    allowed = animal_plurals_allowed()
    return {allowed[noun] for noun, stem in animal_nouns()
            if soft_plural(stem) in forms and allowed[noun] not in forms}
