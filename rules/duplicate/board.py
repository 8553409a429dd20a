"""The 15×15 board: premium squares and the tiles on it (issue 23.1).

Squares are (row, column), both 0–14: row 0 is the top row "1", column 0 the left column "A".
A tile is its lower-case letter; a blank on the board is in `Board.blanks` (it scores 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.duplicate.errors import DuplicateError

SIZE = 15
CENTRE = (7, 7)  # H8: the first move covers it (004 §1: classic Scrabble rules)

#: The standard premium layout (004 §1 "standard board"; SSS B8 17.1: the 112- and 110-tile
#: sets keep the same board). T = triple word, D = double word (the centre too),
#: t = triple letter, d = double letter.
STANDARD_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
_LETTER_FACTOR = {"t": 3, "d": 2}
_WORD_FACTOR = {"T": 3, "D": 2}

#: LETTER_MULT[r][c], WORD_MULT[r][c]: the factors of each square
LETTER_MULT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_LETTER_FACTOR.get(ch, 1) for ch in row) for row in STANDARD_LAYOUT)
WORD_MULT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_WORD_FACTOR.get(ch, 1) for ch in row) for row in STANDARD_LAYOUT)


@dataclass(frozen=True, slots=True)
class Board:
    """`cells[r][c]` is the letter on the square or None; `blanks` the squares holding a blank."""

    cells: tuple[tuple[str | None, ...], ...]
    blanks: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def empty(cls) -> Board:
        return cls(tuple((None,) * SIZE for _ in range(SIZE)))

    @property
    def is_empty(self) -> bool:
        return all(cell is None for row in self.cells for cell in row)

    def transposed(self) -> Board:
        """The board mirrored on its diagonal: a down move becomes an across one."""
        return Board(tuple(zip(*self.cells, strict=True)),
                     frozenset((c, r) for r, c in self.blanks))

    def place(self, tiles: Mapping[tuple[int, int], tuple[str, bool]]) -> Board:
        """A new board with `tiles` ((row, col) -> (letter, is_blank)) added."""
        rows = [list(row) for row in self.cells]
        blanks = set(self.blanks)
        for (r, c), (letter, blank) in tiles.items():
            rows[r][c] = letter
            if blank:
                blanks.add((r, c))
        return Board(tuple(tuple(row) for row in rows), frozenset(blanks))

    def text(self) -> str:
        """The board file's form: '.' empty, upper case a tile, lower case a blank."""
        return "\n".join(
            "".join("." if cell is None else cell if (r, c) in self.blanks else cell.upper()
                    for c, cell in enumerate(row))
            for r, row in enumerate(self.cells)) + "\n"


def parse_board(text: str, letters: frozenset[str], blank_letters: frozenset[str]) -> Board:
    """Read a board file: 15 lines of 15 characters, '.' empty, an upper-case letter a tile of
    the set (`letters`), a lower-case letter a blank standing for one of `blank_letters`."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != SIZE:
        raise DuplicateError("board_rows", f"the board has {len(lines)} lines, not {SIZE}",
                             count=len(lines))
    rows: list[tuple[str | None, ...]] = []
    blanks: set[tuple[int, int]] = set()
    for r, line in enumerate(lines):
        line = line.rstrip("\r")
        if len(line) != SIZE:
            raise DuplicateError("board_columns", f"board line {r + 1} has {len(line)} characters",
                                 row=r + 1, count=len(line))
        row: list[str | None] = []
        for c, ch in enumerate(line):
            if ch == ".":
                row.append(None)
            elif ch.isupper() and ch.lower() in letters:
                row.append(ch.lower())
            elif ch.islower() and ch in blank_letters:
                row.append(ch)
                blanks.add((r, c))
            else:
                raise DuplicateError("board_letter", f"board square {r + 1}{chr(65 + c)}: "
                                     f"unknown letter {ch!r}", square=f"{r + 1}{chr(65 + c)}",
                                     letter=ch)
        rows.append(tuple(row))
    return Board(tuple(rows), frozenset(blanks))
