"""How wide a word is in the hall page's bold type, in em, so that the page can scale the
word's font to fit its box on one line (issue 35: a 15-letter word broken mid-way at 390 px
could be misread by an arbiter). The page runs no script (its CSP forbids it), so the width is
measured here, with DejaVu Sans Bold — the widest of the fonts the page names (system-ui is
Segoe UI, San Francisco or Cantarell elsewhere, all narrower) — and a margin on top; the CSS
then sets `font-size: min(1em, 100cqi / width)`."""

from __future__ import annotations

from functools import lru_cache

from bot.publish.board_image import font

MARGIN = 1.04  # kerning and rounding of another renderer
SIZE = 200  # px the width is measured at


@lru_cache(maxsize=4096)
def width_em(word: str) -> float:
    """`word`'s advance width in bold type, in em, with the margin."""
    return round(font(SIZE).getlength(word) / SIZE * MARGIN, 3)
