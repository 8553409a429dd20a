"""Board coordinates as slips write them (003 r. 44, 004 §4.3).

Rows 1–15 top down, columns A–O. 003 r. 38 asks for the row, the column and the direction; a
slip without the direction is read by the order (r. 44): row first ("8H") across, column first
("H8") down. The direction as players write it, after the coordinate or glued to it ("8H V",
"H8Z"): Slovak V (vodorovne) / Z (zvisle), Czech V (vodorovně) / S (svisle), Greek O
(οριζόντια) / K (κάθετα) (004 §4.3, §5A). A written direction overrides the order.
"""

from __future__ import annotations

import re

from rules.duplicate.board import SIZE
from rules.duplicate.errors import DuplicateError

COLUMNS = "ABCDEFGHIJKLMNO"
#: the direction letter → across: V vodorovne / vodorovně, Z zvisle, S svisle (003 r. 38, 44
#: as Slovak and Czech players write them); 004 §4.3: O = οριζόντια, K = κάθετα (Latin or
#: Greek capitals)
DIRECTIONS = {"V": True, "Z": False, "S": False, "O": True, "Ο": True, "K": False, "Κ": False}
_DIRECTION = "([" + "".join(DIRECTIONS) + "".join(DIRECTIONS).lower() + "])?"
_ROW_FIRST = re.compile(r"(\d+)([A-Za-z])" + _DIRECTION)
_COLUMN_FIRST = re.compile(r"([A-Za-z])(\d+)" + _DIRECTION)


def parse_coord(text: str) -> tuple[int, int, bool]:
    """"8H" -> (7, 7, across); "H8" -> (7, 7, down); "H8V" -> (7, 7, across). Off the board
    raises `DuplicateError`."""
    if found := _ROW_FIRST.fullmatch(text):
        number, letter, across = found[1], found[2], True
    elif found := _COLUMN_FIRST.fullmatch(text):
        letter, number, across = found[1], found[2], False
    else:
        raise DuplicateError("coord_unreadable", f"cannot read the coordinate {text!r}",
                             coord=text, rule="003 r. 44")
    if found[3]:  # the direction written (003 r. 38) decides; r. 44 only reads the order
        across = DIRECTIONS[found[3].upper()]
    row, col = int(number) - 1, COLUMNS.find(letter.upper())
    if not 0 <= row < SIZE or col < 0:
        raise DuplicateError("coord_off_board", f"the coordinate {text!r} is off the board",
                             coord=text, rule="003 r. 44")
    return row, col, across


def format_coord(row: int, col: int, across: bool) -> str:
    """The Czech/Slovak form: row first across ("8H"), column first down ("H8")."""
    return f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"
