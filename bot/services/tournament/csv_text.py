"""The text of an imported file, as Excel on Slovak Windows writes it (issue 11, point 4).

Excel saves "CSV UTF-8" (with a BOM) or plain "CSV" in the Windows code page, cp1250 on a
Slovak system, and separates columns with ";" there (a decimal comma is the reason). The rule
is strict and simple, so nothing is guessed silently:
1. UTF-8, with or without the BOM;
2. else cp1250, decoded strictly, and only when the result is plausible text: no control
   characters but tab and line breaks (UTF-16, a binary file or another code page fails here);
3. else the file is refused with "ulož ako UTF-8".
A statistical detector (charset-normalizer) would accept more files but could also read a
Latin-2 or Latin-1 file "successfully" with wrong letters in a name; we prefer a refusal.
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path

from bot.os_errors import input_reason
from bot.services.replies import Refusal

WINDOWS_SLOVAK = "cp1250"
DELIMITERS = ";,\t"
_SAMPLE = 4096  # Sniffer's regular expressions are quadratic on odd input
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def _refuse(file: str) -> Refusal:
    return Refusal("input.not_utf8", file=file)


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def decode_utf8(data: bytes, file: str) -> str:
    """UTF-8 text (a TOML file must be), a BOM dropped; anything else is refused."""
    text = _utf8(data)
    if text is None:
        raise Refusal("input.utf8_only", file=file)
    return text


def plausible(text: str) -> bool:
    """Text a person wrote: no control characters (NUL, …) but tab and line breaks."""
    return not any(unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS
                   for c in text)


def decode_csv(data: bytes, file: str) -> str:
    """A CSV file's text: UTF-8 (BOM or not), else plausible cp1250, else refused."""
    text = _utf8(data)
    if text is not None:
        return text
    try:
        text = data.decode(WINDOWS_SLOVAK)  # strict: 5 bytes have no cp1250 character
    except UnicodeDecodeError:
        raise _refuse(file) from None
    if not plausible(text):
        raise _refuse(file)
    return text


def delimiter_of(text: str) -> str:
    """";" (Excel on Slovak Windows), "," or a tab: what `csv.Sniffer` finds consistent over
    the first lines, else the one the first line holds most of (a one-column file: ",")."""
    sample = text[:_SAMPLE]
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        first = sample.lstrip("\r\n").split("\n", 1)[0]
        return max(DELIMITERS, key=lambda d: (first.count(d), d == ","))


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise Refusal("setup.unreadable", file=str(path), reason=input_reason(exc, path)) from None
