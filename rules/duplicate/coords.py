"""Board coordinates as slips write them (003 r. 44, 004 §4.3).

Rows 1–15 top down, columns A–O. Row first ("8H") means across, column first ("H8") down
(003 r. 44); the Greek form adds the direction: "H8 O" across (οριζόντια), "H8 K" down
(κάθετα) (004 §4.3, §5A). An explicit direction overrides the order.
"""

from __future__ import annotations

import re

from rules.duplicate.board import SIZE
from rules.duplicate.errors import DuplicateError

COLUMNS = "ABCDEFGHIJKLMNO"
_ROW_FIRST = re.compile(r"(\d+)([A-Za-z])")
_COLUMN_FIRST = re.compile(r"([A-Za-z])(\d+)")
#: 004 §4.3: O = οριζόντια (across), K = κάθετα (down); Latin or Greek capitals
DIRECTIONS = {"O": True, "Ο": True, "K": False, "Κ": False}


def parse_coord(text: str) -> tuple[int, int, bool]:
    """"8H" -> (7, 7, across); "H8" -> (7, 7, down). Off the board raises `DuplicateError`."""
    if found := _ROW_FIRST.fullmatch(text):
        number, letter, across = found[1], found[2], True
    elif found := _COLUMN_FIRST.fullmatch(text):
        letter, number, across = found[1], found[2], False
    else:
        raise DuplicateError("coord_unreadable", f"cannot read the coordinate {text!r}",
                             coord=text, rule="003 r. 44")
    row, col = int(number) - 1, COLUMNS.find(letter.upper())
    if not 0 <= row < SIZE or col < 0:
        raise DuplicateError("coord_off_board", f"the coordinate {text!r} is off the board",
                             coord=text, rule="003 r. 44")
    return row, col, across


def format_coord(row: int, col: int, across: bool) -> str:
    """The Czech/Slovak form: row first across ("8H"), column first down ("H8")."""
    return f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"
