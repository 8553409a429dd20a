"""Tile sets (issue 23.1): counts, values, vowels, blank letters and the tie key's alphabet.

A tile set is a TOML profile `rules/profiles/duplicate/tiles/NAME.toml` (`sss-100`, `sss-110`,
`cas-100`). Every letter cites the source of its count and value; values the sources disagree
on are flagged "TO BE CONFIRMED" in the file. Letters are lower-case single characters (a
two-tile digraph such as "ch" is two tiles). Reading the bundled file is the only I/O, as in
`rules.profile`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rules.profile import ProfileError, read_toml

TILES_DIR = Path(__file__).resolve().parent.parent / "profiles" / "duplicate" / "tiles"
BLANK = "?"


@dataclass(frozen=True, slots=True)
class Letter:
    count: int
    value: int
    source: str


@dataclass(frozen=True, slots=True)
class TileSet:
    name: str
    rule: str
    letters: Mapping[str, Letter]
    blanks: int
    blank_rule: str
    blank_extra: frozenset[str]
    vowels: frozenset[str]
    vowel_rule: str
    alphabet: tuple[str, ...]
    digraphs: tuple[str, ...]
    digraph_collation: bool
    collation_rule: str
    bingo: int = 50
    bingo_rule: str = "004 §1"
    rack_size: int = 7
    #: what one blank may stand for, cited when a slip's "(CH)" asks one blank for two letters
    blank_letter_rule: str = "003 r. 38"

    @property
    def values(self) -> Mapping[str, int]:
        """letter -> points of its tile (a blank scores 0 whatever it stands for)."""
        return {letter: tile.value for letter, tile in self.letters.items()}

    @property
    def bag(self) -> Mapping[str, int]:
        """The full bag as plain data for the rack draw, letters as a rack writes them (upper
        case): letter -> count, `BLANK` -> blanks."""
        bag = {letter.upper(): tile.count for letter, tile in self.letters.items()}
        bag[BLANK] = self.blanks
        return bag

    @property
    def rack_vowels(self) -> frozenset[str]:
        """The vowels among the bag's letters, upper case as in `bag` (the rack rule's)."""
        return frozenset(v.upper() for v in self.vowels if v in self.letters)

    @property
    def blank_letters(self) -> frozenset[str]:
        """Every letter a blank may stand for: the set's letters and the blank-only ones."""
        return frozenset(self.letters) | self.blank_extra

    @classmethod
    def load(cls, name_or_path: str | Path) -> TileSet:
        """A bundled tile set by name ("sss-100") or any tile-set file by path."""
        path = Path(name_or_path)
        if path.suffix != ".toml":
            path = TILES_DIR / f"{name_or_path}.toml"
        data = read_toml(path, str(name_or_path), TILES_DIR, "tile set", "sady kameňov")
        return from_dict(data, path.name)


def from_dict(data: dict[str, Any], where: str = "<dict>") -> TileSet:
    """Build and check a tile set; a bad one raises `ProfileError` naming the field."""
    try:
        letters = {
            str(letter): Letter(int(v["count"]), int(v["value"]), str(v["source"]))
            for letter, v in data["letters"].items()
        }
        blank, vowels, collation = data["blank"], data["vowels"], data["collation"]
        tiles = TileSet(
            name=str(data["name"]), rule=str(data["rule"]),
            letters=MappingProxyType(letters),
            blanks=int(blank["count"]), blank_rule=str(blank["rule"]),
            blank_extra=frozenset(map(str, blank["extra"])),
            vowels=frozenset(map(str, vowels["letters"])), vowel_rule=str(vowels["rule"]),
            alphabet=tuple(map(str, collation["alphabet"])),
            digraphs=tuple(map(str, collation["digraphs"])),
            digraph_collation=bool(collation["digraph_collation"]),
            collation_rule=str(collation["rule"]),
            bingo=int(data["bingo"]), bingo_rule=str(data["bingo_rule"]),
            rack_size=int(data["rack_size"]),
            blank_letter_rule=str(blank.get("one_letter_rule", "003 r. 38")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ProfileError(f"{where}: missing or malformed field {exc}") from None
    for letter in letters:
        if len(letter) != 1 or letter != letter.lower():
            raise ProfileError(f"{where}: letters: {letter!r} is not one lower-case letter")
    declared = int(data.get("tiles", 0))
    total = sum(tile.count for tile in letters.values()) + tiles.blanks
    if declared != total:
        raise ProfileError(f"{where}: tiles = {declared} but the letters and blanks make {total}")
    unsorted = tiles.blank_letters - set(tiles.alphabet)
    if unsorted:
        raise ProfileError(f"{where}: collation.alphabet lacks {''.join(sorted(unsorted))}")
    return tiles
