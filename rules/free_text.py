"""The one rule for the characters of what people type, and how text is shown back (issue 36.2).

Every free text that comes in — a chat command's option, a modal, a CLI argument, a file's
cell — is checked by `refused_character` (through `bot.services.bounds`): a text holding one
of these characters is refused with one line naming its code point, never stripped (stripping
would change silently what someone wrote, and he would not know):
- control characters (category Cc: NUL, ESC — a terminal runs "ESC [2J" — …), except the
  line break and the tab of a multi-line text (a carriage return becomes a line break first:
  `lines_of`);
- the Unicode line and paragraph separators (Zl, Zp), surrogates, private-use and unassigned
  code points (Cs, Co, Cn);
- the explicit bidirectional controls of UAX #9 — embeddings, overrides and isolates,
  U+202A–202E and U+2066–2069 — which make the rest of a line read backwards in someone else's
  message or terminal ("Trojan Source", CVE-2021-42574);
- the implicit direction marks U+200E, U+200F and U+061C: they reorder little, but they are
  invisible, so a name with one looks like a name without; the association's texts are Slovak,
  Czech and English and never need one.
Other format characters (Cf) stay: the zero-width joiner belongs to many emoji.

Whatever is shown back — a refusal that quotes the input, a stored text from a database older
than this rule, a message in a channel, a line on a terminal — goes through `shown`: each
character that a terminal or a reader's client would act on instead of print appears as its
escape, `\\x1b`, `\\u202e`. Pure: `rules.lexicon` quotes a refused word with it too.
"""

from __future__ import annotations

import re
import unicodedata

REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
DIRECTION_MARKS = frozenset("\u200e\u200f\u061c")
#: what a multi-line free text may hold of the refused characters
LINE_WHITESPACE = frozenset("\n\t")

# What `shown` escapes: C0 and C1 controls but the line break and the tab, DEL, the direction
# controls and marks, the line/paragraph separators and lone surrogates (which a UTF-8 stream
# cannot even write). Private-use and unassigned code points print as themselves.
_SHOWN_ESCAPED = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]")


def is_refused(char: str, *, lines: bool = False) -> bool:
    """Whether `char` may not stand in a text people type (`lines`: a multi-line text)."""
    if lines and char in LINE_WHITESPACE:
        return False
    return (char in BIDI_CONTROLS or char in DIRECTION_MARKS
            or unicodedata.category(char) in REFUSED_CATEGORIES)


def refused_character(text: str, *, lines: bool = False) -> str | None:
    """The first character of `text` the rule refuses, or None."""
    return next((c for c in text if is_refused(c, lines=lines)), None)


def lines_of(text: str) -> str:
    """A multi-line text with its line breaks as "\\n": Windows' "\\r\\n" and a lone "\\r"
    (which sends a terminal's cursor back over the line) become one."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def code_point(char: str) -> str:
    """"U+001B": how a refusal names a character."""
    return f"U+{ord(char):04X}"


def _escape(found: re.Match[str]) -> str:
    n = ord(found[0])
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def shown(text: str) -> str:
    """`text` safe to print or post: the characters a terminal or a client would act on
    (ESC, NUL, a carriage return, a direction override, …) as escapes (`\\x1b`, `\\u202e`);
    line breaks and tabs stay."""
    return _SHOWN_ESCAPED.sub(_escape, text) if _SHOWN_ESCAPED.search(text) else text
