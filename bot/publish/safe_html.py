"""Text for the pages, escaped: `html.escape`, after the characters a browser would act on
instead of show — a direction override that turns the rest of a cell around, an ESC — are made
visible as escapes (`rules.free_text.shown`). New input cannot hold them (issue 36.2); a name or
reason stored before that rule still reaches a page, and must not reorder it."""

from __future__ import annotations

import html

from rules.free_text import shown


def escape(text: str, quote: bool = True) -> str:
    return html.escape(shown(text), quote=quote)
