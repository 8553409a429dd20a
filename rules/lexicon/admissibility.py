"""Admissibility profiles: which list decides which word, the letters, the digraphs (issue 22).

A profile is a TOML file (`rules/profiles/lexicon/NAME.toml`, names `sss`, `cas`) loaded as
strictly as the tournament profiles (`rules.profile`). Each rule carries its citation:
- `exclusive`: a word of this length is judged only by that list (SSS: 2 letters B2, 3 B3,
  4 B6, 5 B7 — SP B1 10.1 body 3, 4; ČAS: up to 5 letters BLEX — SŘ 9.4.1);
- `always`: a list whose forms are admissible whatever the main list says (SSS: 10.1 bod 1
  solmisation and tones, bod 2 Greek letters, bod 5 B5 elements, bod 6 Slovak letters);
- a list's `declension` names the rule (`rules.lexicon.declension`) that declines its base
  forms (B5 and the Slovak letter names "možno skloňovať"); `generate` names a rule that makes
  the list's forms itself (10.7's násobné číslovky, `rules.lexicon.families`);
- `refuse`: a family of forms a rule refuses whatever the main list says (SSS: 10.2 bod 5
  interjections, 10.4 animal nouns' -i, 10.8's ne- exceptions; `rules.lexicon.families`);
- `letters`: the tiles, the letters a blank may also stand for, the digraphs that have no tile
  (ch, dz, dž are two tiles, so a word's length is simply its number of characters).
A list is `WordList` data: bundled files under `rules/lexicon/data/` (read like the profile
files beside this package) or the association's own, given by `with_lists`. A list with no
file (SSS B6/B7, ČAS BLEX: not in the seeds) is unavailable and the main list decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType

from rules.lexicon.declension import DECLENSIONS, declined
from rules.lexicon.families import GENERATORS, REFUSALS
from rules.profile import PROFILE_DIR, ProfileError, bundled_names, read_toml
from rules.profile import _build as build  # the one strict loader all profiles share

LEXICON_PROFILE_DIR = PROFILE_DIR / "lexicon"
LEXICON_KIND = "profily prípustnosti slov"  # in the line for a broken installation
DATA_DIR = Path(__file__).with_name("data")


@dataclass(frozen=True, slots=True)
class WordList:
    """One explicit list: its id (`b2`), title as players read it, forms, and where it came
    from (`note`: "rekonštruované z OCR…" for a bundled one, the file for the association's)."""

    id: str
    title: str
    words: frozenset[str]
    note: str = ""
    bundled: bool = False  # the copy shipped with the rules (reconstructed), not the association's


@dataclass(frozen=True, slots=True)
class MainRule:
    rule: str
    title: str


@dataclass(frozen=True, slots=True)
class LettersRule:
    rule: str
    tiles: list[str]
    blank_rule: str
    blank_extra: list[str]
    digraph_rule: str
    digraphs: list[str]
    collation: list[str]


@dataclass(frozen=True, slots=True)
class LengthRule:
    min: int
    min_rule: str
    max: int
    max_rule: str


@dataclass(frozen=True, slots=True)
class ExclusiveRule:
    length: int
    list: str
    rule: str
    says: str  # the rule in a few Slovak words, for the verdict


@dataclass(frozen=True, slots=True)
class AlwaysRule:
    list: str
    rule: str
    says: str


@dataclass(frozen=True, slots=True)
class RefuseRule:
    """A family of forms a rule refuses (a name in rules.lexicon.families.REFUSALS)."""

    family: str
    rule: str
    says: str

    def refuses(self, word: str) -> bool:
        return REFUSALS[self.family](word)


@dataclass(frozen=True, slots=True)
class ListSpec:
    id: str
    title: str
    file: str  # relative to rules/lexicon/data; "" = not published with the rules
    note: str
    declension: str = ""  # a name in rules.lexicon.declension.DECLENSIONS; "" = as listed
    generate: str = ""  # a name in rules.lexicon.families.GENERATORS: made by rule, no file


@dataclass(frozen=True, slots=True)
class _ProfileFile:
    name: str
    title: str
    main: MainRule
    letters: LettersRule
    length: LengthRule
    exclusive: list[ExclusiveRule]
    lists: list[ListSpec]
    always: list[AlwaysRule] = field(default_factory=list)
    refuse: list[RefuseRule] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Admissibility:
    """One association's rules of admissibility, with the explicit lists it has."""

    name: str
    title: str
    main: MainRule
    letters: LettersRule
    length: LengthRule
    exclusive: Mapping[int, ExclusiveRule]
    always: tuple[AlwaysRule, ...]
    specs: Mapping[str, ListSpec]
    lists: Mapping[str, WordList]  # the lists at hand, by id (a missing one is unavailable)
    refuse: tuple[RefuseRule, ...] = ()
    #: every letter a word may hold: the tiles' and those only a blank can stand for
    playable: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        letters = frozenset(self.letters.tiles) | frozenset(self.letters.blank_extra)
        object.__setattr__(self, "playable", letters)

    def exclusive_list(self, length: int) -> tuple[ExclusiveRule, WordList | None] | None:
        """The rule that reserves words of `length` to one list, and that list if at hand."""
        rule = self.exclusive.get(length)
        return None if rule is None else (rule, self.lists.get(rule.list))

    def refused(self, word: str) -> RefuseRule | None:
        """The first refusing family `word` belongs to, if any."""
        return next((rule for rule in self.refuse if rule.refuses(word)), None)

    def with_lists(self, lists: Iterable[WordList]) -> Admissibility:
        """The same rules with the association's own lists in place of the bundled ones."""
        merged = dict(self.lists)
        for word_list in lists:
            if word_list.id not in self.specs:
                known = ", ".join(sorted(self.specs))
                raise ProfileError(f"{self.name}: unknown list {word_list.id!r} ({known})")
            spec = self.specs[word_list.id]
            merged[word_list.id] = replace(word_list,
                                           words=declined(word_list.words, spec.declension))
        return replace(self, lists=MappingProxyType(merged))

    def sort_key(self, word: str) -> tuple[int, ...]:
        """The association's alphabetical order (ch after h in Slovak), digraphs first."""
        order = {unit: i for i, unit in enumerate(self.letters.collation)}
        key: list[int] = []
        i = 0
        while i < len(word):
            pair = word[i: i + 2]
            if pair in order and pair in self.letters.digraphs:
                key.append(order[pair])
                i += 2
            else:
                key.append(order.get(word[i], len(order) + ord(word[i])))
                i += 1
        return tuple(key)


def parse_word_list(text: str) -> frozenset[str]:
    """The forms of a bundled list: one a line, `#` comment lines and blank lines skipped."""
    return frozenset(line.strip().lower() for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith("#"))


@cache
def admissibility(name: str) -> Admissibility:
    """A bundled profile by name ("sss", "cas") with the bundled lists that exist."""
    path = LEXICON_PROFILE_DIR / f"{name}.toml"
    data = read_toml(path, name, LEXICON_PROFILE_DIR, "admissibility profile", LEXICON_KIND)
    return admissibility_from_dict(data, path.name, DATA_DIR)


def admissibility_names() -> list[str]:
    return bundled_names(LEXICON_PROFILE_DIR, LEXICON_KIND)


def admissibility_from_dict(data: dict, source: str = "<dict>",
                            data_dir: Path | None = None) -> Admissibility:
    """A profile from its table; its lists are read from `data_dir` when given and there."""
    raw: _ProfileFile = build(_ProfileFile, data, source)
    specs = {spec.id: spec for spec in raw.lists}
    _check(raw, specs, source)
    lists: dict[str, WordList] = {}
    for spec in raw.lists:
        if data_dir is not None and spec.file and (data_dir / spec.file).is_file():
            words = parse_word_list((data_dir / spec.file).read_text(encoding="utf-8"))
            words = declined(words, spec.declension)
            lists[spec.id] = WordList(spec.id, spec.title, words, spec.note, bundled=True)
        elif spec.generate:  # made by the rule itself: nothing reconstructed to flag
            lists[spec.id] = WordList(spec.id, spec.title, GENERATORS[spec.generate](),
                                      spec.note)
    return Admissibility(
        name=raw.name, title=raw.title, main=raw.main, letters=raw.letters, length=raw.length,
        exclusive=MappingProxyType({rule.length: rule for rule in raw.exclusive}),
        always=tuple(raw.always), specs=MappingProxyType(specs),
        lists=MappingProxyType(lists), refuse=tuple(raw.refuse),
    )


def _check(p: _ProfileFile, specs: Mapping[str, ListSpec], where: str) -> None:
    def fail(field_name: str, why: str) -> None:
        raise ProfileError(f"{where}: {field_name}: {why}")

    if len(specs) != len(p.lists):
        fail("lists", "each list id once")
    for rule in [*p.exclusive, *p.always]:
        if rule.list not in specs:
            fail("exclusive/always", f"names an unknown list {rule.list!r}")
    for spec in p.lists:
        if spec.declension and spec.declension not in DECLENSIONS:
            fail("lists.declension", f"unknown {spec.declension!r} ({', '.join(DECLENSIONS)})")
        if spec.generate and (spec.generate not in GENERATORS or spec.file):
            fail("lists.generate", f"{spec.generate!r}: one of {', '.join(GENERATORS)}, no file")
    for refuse in p.refuse:
        if refuse.family not in REFUSALS:
            fail("refuse.family", f"unknown {refuse.family!r} ({', '.join(REFUSALS)})")
    lengths = [rule.length for rule in p.exclusive]
    if len(set(lengths)) != len(lengths):
        fail("exclusive", "each length once")
    if not 1 <= p.length.min <= p.length.max:
        fail("length", "needs 1 <= min <= max")
    if any(not p.length.min <= n <= p.length.max for n in lengths):
        fail("exclusive", "a length outside length.min..max")
    for key in ("tiles", "blank_extra"):
        letters = getattr(p.letters, key)
        if any(len(x) != 1 or not x.isalpha() or x != x.lower() for x in letters):
            fail(f"letters.{key}", "one lower-case letter each")
    if set(p.letters.tiles) & set(p.letters.blank_extra):
        fail("letters.blank_extra", "must not repeat a tile's letter")
    if any(len(d) != 2 for d in p.letters.digraphs):
        fail("letters.digraphs", "two letters each")
