"""The rows of an imported CSV file (the players, the online screlo list): columns named by a
header of known names (Slovak or English, diacritics or not) or taken by position, each cell
checked within its bounds (`bot/services/bounds.py`). A bad row refuses the whole file with its
number and the reason; nothing is imported.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.services import bounds
from bot.services.exports.spreadsheet import cell_text
from bot.services.replies import Refusal, Reply
from bot.services.tournament.csv_text import decode_csv, delimiter_of, read_bytes
from bot.services.tournament.propozicie import SetupError

Row = TypeVar("Row")

_ALIASES = {
    "name": ("meno", "name", "hrac", "meno_a_priezvisko"),
    "nick": ("herna", "nick", "prezyvka", "herna_nick", "herna_net"),
    "discord": ("discord", "discord_meno", "discord_name"),
    "discord_id": ("discord_id", "discord_cislo", "discord_ucet"),
    "paid": ("zaplatil", "zaplatene", "paid", "startovne"),
    "member": ("clen", "clen_sss", "member"),
    "screlo": ("screlo", "online_screlo"),
    "games": ("partie", "games", "rated_games", "pocet_partii", "hodnotene_partie"),
    "last_season": ("sezona", "posledna_sezona", "last_season"),
}
_COLUMN_OF = {alias: column for column, names in _ALIASES.items() for alias in names}
PLAYER_COLUMNS = ("name", "nick", "discord", "paid", "member", "screlo", "games", "discord_id")
SCRELO_COLUMNS = ("nick", "screlo", "games")


def _norm(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def read_csv(text: str, positional: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Rows as {column: text} with their row numbers (1 = the first line of the file).

    The delimiter is ";" (Slovak spreadsheets), "," or a tab, as `csv_text.delimiter_of` finds
    it. A first row made only of known column names is the header; otherwise the columns are
    `positional`."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter_of(text))
    try:
        rows = [(n, row) for n, row in enumerate(reader, start=1)
                if any(cell.strip() for cell in row)]
    except csv.Error as exc:  # a cell of over 128 KiB, a stray quote at the end
        raise SetupError(reader.line_num, str(bounds.OutOfBounds(
            "input.csv_broken", reason=str(exc)))) from None
    if not rows:
        return []
    head = [_norm(cell) for cell in rows[0][1]]
    if all(cell in _COLUMN_OF for cell in head):
        columns, rows = [_COLUMN_OF[cell] for cell in head], rows[1:]
    else:
        columns = list(positional)
    out = []
    for n, row in rows:
        if len(row) > len(columns):
            raise SetupError(n, f"riadok má {len(row)} stĺpcov, očakáva sa najviac "
                                f"{len(columns)} ({', '.join(columns)})")
        out.append((n, {c: cell_text(v.strip()) for c, v in zip(columns, row, strict=False)}))
    return out


def number_cell(n: int, value: str, key: str, column: str) -> float | int | None:
    """A number cell within the bounds of `key` (bot/services/bounds.py); "" is None."""
    if value.strip() == "":
        return None
    return _cell(n, bounds.number, value, key, f"stĺpec {column}")


def text_cell(n: int, row: dict[str, str], key: str, column: str,
              check: Callable[[Any, str], str] = bounds.name) -> str:
    """A text cell within its bounds; "" stays "" (the caller says whether it is required)."""
    value = row.get(key, "")
    return _cell(n, check, value, f"stĺpec {column}") if value else ""


def _cell(n: int, check: Callable[..., Any], *args: Any) -> Any:
    try:
        return check(*args)
    except bounds.OutOfBounds as exc:
        raise SetupError(n, str(exc)) from None


def file_rows(path: str | Path, parse: Callable[[str], list[Row]]) -> list[Row] | Reply:
    """A CSV file's rows, or the refusal naming the file and the bad row (nothing imported)."""
    try:
        return parse(decode_csv(read_bytes(path), str(path)))
    except Refusal as refusal:
        return refusal.reply
    except SetupError as exc:
        return Refusal("setup.csv_invalid", file=str(path), row=exc.line,
                       reason=exc.reason).reply
