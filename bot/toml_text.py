"""Reading TOML that people write (propozície, season files, rehearsal scenarios and games,
config.toml) with one guard: nesting deeper than `MAX_DEPTH` arrays or inline tables is refused
before `tomllib` reads it. `tomllib` descends recursively, so a 1.2 kB file of `a=[[[[…` ends
in a RecursionError traceback; here it is a `TOMLDecodeError` naming the line, which every
reader already turns into its one Slovak line."""

from __future__ import annotations

import re
import tomllib
from typing import Any

#: far beyond any real file (the deepest, a season's lots, is 3) and far below the recursion
#: limit of Python whatever the caller's own stack
MAX_DEPTH = 100


class TooDeep(tomllib.TOMLDecodeError):
    """Nested deeper than `MAX_DEPTH`."""


#: what the depth count skips (strings, comments) and what it counts (brackets, braces)
_TOKENS = re.compile(r'''"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"'''
                     r"|'[^'\n]*'|#[^\n]*|[\[\]{}]", re.S)


def check_depth(text: str) -> None:
    """Refuse nesting deeper than `MAX_DEPTH` ([ and { outside strings and comments), in one
    pass of a regular expression; a file with fewer brackets than that is not even scanned."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for token in _TOKENS.finditer(text):
        c = token.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, token.start()) + 1
                raise TooDeep(f"vnorenie hlbšie ako {MAX_DEPTH} úrovní polí alebo tabuliek "
                              f"(riadok {line})")
        elif c in "]}":
            depth = max(0, depth - 1)


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads` behind the depth guard."""
    check_depth(text)
    return tomllib.loads(text)
