"""Cells for Slovak Excel (issue 19.3): numbers with a decimal comma, text never a formula
(OWASP "CSV Injection": = + - @ and a leading tab or CR), real numbers never neutralised."""

from __future__ import annotations

import csv
import io

import pytest

from bot.services.exports.spreadsheet import BOM, excel_cell, excel_csv


@pytest.mark.parametrize(("value", "cell"), [
    ("=1+1", "'=1+1"), ("+420", "'+420"), ("-3", "'-3"), ("@A1", "'@A1"),
    ("\t=1+1", "'\t=1+1"), ("\r=1+1", "'\r=1+1"), ("Ján = kráľ", "Ján = kráľ"),
    (-3, "-3"), (-2.5, "-2,5"), (0.5, "0,5"), (1.0, "1"), (1712.34, "1712,34"), (400, "400"),
    (None, ""),
])
def test_a_cell(value: object, cell: str) -> None:
    assert excel_cell(value) == cell  # type: ignore[arg-type]


def test_a_file_reads_back_with_semicolons_and_quotes() -> None:
    text = excel_csv(["meno", "body"], [['Ján "Jano"; st.', 0.5], ["=2", -1]])
    assert text.startswith(BOM) and text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=";"))
    assert rows == [["meno", "body"], ['Ján "Jano"; st.', "0,5"], ["'=2", "-1"]]
