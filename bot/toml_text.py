"""Reading TOML that people write (propozície, season files, rehearsal scenarios and games,
config.toml) with one guard: nesting deeper than `MAX_DEPTH` arrays or inline tables is refused
before `tomllib` reads it. `tomllib` descends recursively, so a 1.2 kB file of `a=[[[[…` ends
in a RecursionError traceback; here it is a `TOMLDecodeError` naming the line, which every
reader already turns into its one Slovak line."""

from __future__ import annotations

import tomllib
from typing import Any

#: far beyond any real file (the deepest, a season's lots, is 3) and far below the recursion
#: limit of Python whatever the caller's own stack
MAX_DEPTH = 100


class TooDeep(tomllib.TOMLDecodeError):
    """Nested deeper than `MAX_DEPTH`."""


def check_depth(text: str) -> None:
    """Refuse nesting deeper than `MAX_DEPTH` ([ and { outside strings and comments), in one
    linear pass."""
    depth, line = 0, 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "\"'":
            i, line = _skip_string(text, i, line)
            continue
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise TooDeep(f"vnorenie hlbšie ako {MAX_DEPTH} úrovní polí alebo tabuliek "
                              f"(riadok {line})")
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1


def _skip_string(text: str, i: int, line: int) -> tuple[int, int]:
    """Past the string starting at `i` (basic or literal, one line or multi-line); an
    unterminated one runs to the end (tomllib then says so)."""
    quote = text[i]
    triple = text.startswith(quote * 3, i)
    close = quote * 3 if triple else quote
    j = i + len(close)
    while j < len(text):
        c = text[j]
        if c == "\\" and quote == '"':
            j += 2
            continue
        if text.startswith(close, j):
            end = j + len(close)
            return end, line + text.count("\n", i, end)
        if c == "\n" and not triple:
            break  # tomllib refuses the line
        j += 1
    return j, line + text.count("\n", i, j)


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads` behind the depth guard."""
    check_depth(text)
    return tomllib.loads(text)
