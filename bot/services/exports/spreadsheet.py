"""CSV as Excel on Slovak Windows opens it by a double click (issue 19.3), and its guard
against formula injection.

Slovak Excel reads "CSV UTF-8" only with a byte order mark, splits columns at ";" (the comma
is the decimal separator there) and takes "12,5" — not "12.5" — for a number; it writes CRLF
line ends. A text cell that starts with "=", "+", "-" or "@" (or a tab or CR, which some
spreadsheets skip before those) is read as a formula: such a cell gets a leading apostrophe,
as OWASP's "CSV Injection" advises, so a hostile player name stays text. Numbers are written
as numbers and never neutralised (a negative number in a numeric column is a number).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

BOM = "\ufeff"
SEPARATOR = ";"
LINE_END = "\r\n"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None


def number_text(value: float) -> str:
    """A number with the decimal comma, as short as it is exact: 1, 0,5, 1712,34."""
    if isinstance(value, int):
        return str(value)
    return format(value, ".12g").replace(".", ",")


def excel_cell(value: Cell) -> str:
    """One cell: a number as a number, None as empty, text neutralised."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number_text(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cell_text(cell: str) -> str:
    """A cell as the person who wrote it meant it: `excel_cell`'s guard undone. Excel shows
    "'+421905" as +421905, so an import reads it so; an apostrophe before anything else is
    the text's own."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def excel_csv(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> str:
    """The file's text: BOM, header, rows; ";" between cells, CRLF after each row."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=SEPARATOR, lineterminator=LINE_END)
    writer.writerow([excel_cell(h) for h in header])
    writer.writerows([excel_cell(v) for v in row] for row in rows)
    return BOM + out.getvalue()
