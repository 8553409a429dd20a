"""Reading a slip's move (issue 23.2): "8H SLOVO", "H8 SLOVO", "H8 O SLOVO", "H8 K SLOVO".

The word is the whole main word, letters already on the board included (003 r. 38, 004 §4.3).
A blank's letter is lower case or in parentheses ("SL(O)VO", 003 r. 38; 004 §8.4 "circled").
A word typed all in lower case is refused, never read as all blanks (issue 41.3): a player or an
arbiter with caps lock off would lose the round without a word; a word that really is all
blanks is written in parentheses ("(O)(N)"). A blank stands for one letter: "(CH)" is refused
citing the tile set's rule (ČAS SŘ 16.41: a blank is any letter except CH).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.duplicate.coords import DIRECTIONS, parse_coord
from rules.duplicate.errors import DuplicateError


@dataclass(frozen=True, slots=True)
class Slip:
    row: int
    col: int
    across: bool
    #: the main word letter by letter: (lower-case letter, marked as a blank)
    letters: tuple[tuple[str, bool], ...]


def slip_word(word: str) -> str:
    """A main word as a slip writes it: a word all of blanks (all lower case) with each letter
    in parentheses, for all lower case alone is refused (`parse_slip`)."""
    if word.lower() == word and "(" not in word:
        return "".join(f"({ch})" for ch in word)
    return word


def parse_slip(text: str, known_letters: frozenset[str], blank_rule: str = "003 r. 38",
               blanks: int | None = None) -> Slip:
    """Read a move; a letter outside `known_letters`, an unreadable slip, a word all in lower
    case, a blank in parentheses standing for two letters, or more bare lower-case letters than
    the set has blanks (`blanks`, when given: "Přimetán" would be seven) raises
    `DuplicateError` (bad input, not a refused move). `blank_rule`: what a blank may stand for
    (the tile set's rule)."""
    parts = text.split()
    if len(parts) == 3 and parts[1].upper() in DIRECTIONS:
        coord, direction, word = parts
    elif len(parts) == 2:
        (coord, word), direction = parts, None
    else:
        raise DuplicateError("slip_unreadable", f"cannot read the move {text!r}", move=text,
                             rule="003 r. 38, 43")
    row, col, across = parse_coord(coord)
    if direction is not None:
        across = DIRECTIONS[direction.upper()]
    if "(" not in word and word.lower() == word and any(ch.isalpha() for ch in word):
        raise DuplicateError("slip_all_lower", f"the word of {text!r} is all lower case",
                             move=text, upper=word.upper(), rule="003 r. 38")
    # lower-case letters outside parentheses: more of them than the set has blanks is a word
    # typed in the wrong case ("Přimetán"), never a move; blanks in parentheses are written on
    # purpose (a board's earlier blanks too), so they are read as written and judged at close
    bare = sum(1 for ch in re.sub(r"\([^)]*\)", "", word) if ch.isalpha() and ch.islower())
    if blanks is not None and bare > blanks:
        raise DuplicateError("slip_too_many_blanks", f"{bare} lower-case letters in {text!r}",
                             move=text, count=bare, blanks=blanks, upper=word.upper(),
                             rule="003 r. 38")
    return Slip(row, col, across, _letters(word, known_letters, text, blank_rule))


def _letters(word: str, known: frozenset[str], text: str, blank_rule: str
             ) -> tuple[tuple[str, bool], ...]:
    letters: list[tuple[str, bool]] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "(":
            close = word.find(")", i)
            inside = word[i + 1:close]
            if close > i + 2 and inside.isalpha():  # "(CH)": one blank, two letters
                raise DuplicateError("slip_blank_two", f"a blank for {inside!r} in {text!r}",
                                     move=text, letters=inside, rule=blank_rule)
            if close != i + 2:
                raise DuplicateError("slip_unreadable", f"cannot read the move {text!r}",
                                     move=text, rule="003 r. 38, 43")
            letter, blank, i = word[i + 1], True, close + 1
        else:
            letter, blank, i = ch, ch.islower(), i + 1
        if letter.lower() not in known or not letter.isalpha():
            raise DuplicateError("slip_letter", f"unknown letter {letter!r} in the move",
                                 letter=letter, move=text)
        letters.append((letter.lower(), blank))
    return tuple(letters)
