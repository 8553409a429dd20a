"""Reading a slip's move (issue 23.2): "8H SLOVO", "H8 SLOVO", "H8 O SLOVO", "H8 K SLOVO".

The word is the whole main word, letters already on the board included (003 r. 38, 004 §4.3).
A blank's letter is lower case or in parentheses ("SL(O)VO", 003 r. 38; 004 §8.4 "circled").
"""

from __future__ import annotations

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


def parse_slip(text: str, known_letters: frozenset[str]) -> Slip:
    """Read a move; a letter outside `known_letters` or an unreadable slip raises
    `DuplicateError` (bad input, not a refused move)."""
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
    return Slip(row, col, across, _letters(word, known_letters, text))


def _letters(word: str, known: frozenset[str], text: str) -> tuple[tuple[str, bool], ...]:
    letters: list[tuple[str, bool]] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "(":
            close = word.find(")", i)
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
