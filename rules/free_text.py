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
  Czech and English and never need one;
- every other invisible character (issue 43.5): the format characters (Cf: the zero-width
  space, non-joiner and joiner, the byte-order mark, the word joiner, the soft hyphen, the TAG
  characters that smuggle text no reader sees) and the blanks that are letters or symbols by
  category but print as nothing (the Hangul fillers, the combining grapheme joiner, the Braille
  blank). Two emoji sequences keep theirs, because a reader sees one picture there, not a gap:
  a zero-width joiner between two pictographs (a family, a rainbow flag) and the TAG letters of a
  subdivision flag after 🏴.

Whatever is shown back — a refusal that quotes the input, a stored text from a database older
than this rule, a message in a channel, a line on a terminal — goes through `shown`: each
character that a terminal or a reader's client would act on instead of print appears as its
escape, `\\x1b`, `\\u202e`. Pure: `rules.lexicon` quotes a refused word with it too.
"""

from __future__ import annotations

import re
import unicodedata

#: refused whole; the direction controls and marks and every other invisible format
#: character are category Cf, refused but inside an emoji sequence (`_in_emoji`)
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
#: printed as nothing though not format characters: the Hangul fillers (Lo), the combining
#: grapheme joiner (Mn), the Braille blank (So)
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u034f\u2800")
ZWJ = "\u200d"
#: after "@" it is how Discord's own clients (and `discord.utils.escape_mentions`) break a
#: mention that must not ping: the bot's escaping, never what people typed (refused at input)
ZWSP = "\u200b"
BLACK_FLAG = "\U0001f3f4"  # a subdivision flag: 🏴, TAG letters, CANCEL TAG
TAGS = range(0xE0020, 0xE0080)
#: what a multi-line free text may hold of the refused characters
LINE_WHITESPACE = frozenset("\n\t")

# What `shown` escapes by pattern: C0 and C1 controls but the line break and the tab, DEL,
# the line/paragraph separators and lone surrogates (which a UTF-8 stream cannot even write);
# the format characters (the direction controls and marks among them) and the blanks are
# `_invisible`'s. Private-use and unassigned code points print as themselves.
_SHOWN_ESCAPED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def is_refused(char: str, *, lines: bool = False) -> bool:
    """Whether `char` may not stand in a text people type (`lines`: a multi-line text), on its
    own: a zero-width joiner or a TAG character is allowed only inside its emoji sequence
    (`refused_character` sees the text around it)."""
    if lines and char in LINE_WHITESPACE:
        return False
    category = unicodedata.category(char)
    return category in REFUSED_CATEGORIES or category == "Cf" or char in BLANKS


def _pictograph(char: str) -> bool:
    """An emoji's base or one of its marks (a variation selector, a skin tone): what a
    zero-width joiner may stand after or before."""
    return ((unicodedata.category(char) == "So" and char not in BLANKS)
            or "\ufe00" <= char <= "\ufe0f" or "\U0001f3fb" <= char <= "\U0001f3ff")


def _in_emoji(text: str, at: int) -> bool:
    """Whether the joiner or TAG character at `at` is part of an emoji sequence."""
    char = text[at]
    if char == ZWJ:
        return 0 < at < len(text) - 1 and _pictograph(text[at - 1]) and _pictograph(text[at + 1])
    if ord(char) in TAGS:
        start = at
        while start > 0 and ord(text[start - 1]) in TAGS:
            start -= 1
        return start > 0 and text[start - 1] == BLACK_FLAG
    return False


def refused_character(text: str, *, lines: bool = False) -> str | None:
    """The first character of `text` the rule refuses, or None."""
    if text.isascii() and text.isprintable():  # the common case, at C speed
        return None
    return next((c for i, c in enumerate(text)
                 if is_refused(c, lines=lines) and not _in_emoji(text, i)), None)


def lines_of(text: str) -> str:
    """A multi-line text with its line breaks as "\\n": Windows' "\\r\\n" and a lone "\\r"
    (which sends a terminal's cursor back over the line) become one."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def code_point(char: str) -> str:
    """"U+001B": how a refusal names a character."""
    return f"U+{ord(char):04X}"


def _escape_char(char: str) -> str:
    n = ord(char)
    if n < 0x100:
        return f"\\x{n:02x}"
    return f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def _escape(found: re.Match[str]) -> str:
    return _escape_char(found[0])


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shown_inline(text: str) -> str:
    """`text` on one line with nothing hidden (issue 42): every character that is not
    printable — a control, a line break or tab, a format character (ZWJ, a soft hyphen, a
    direction mark), a space other than the plain one — as an escape (`\\n`, `\\u200d`), so
    a quoted word shows exactly what it holds (`shown` keeps line breaks for texts of several
    lines)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _NAMED.get(ch) or _escape_char(ch) for ch in text)


def _invisible(text: str) -> list[int]:
    """Where `text` holds an invisible character `_SHOWN_ESCAPED` does not cover (a zero-width
    space, a soft hyphen, a filler, …): shown escaped, or a reader would see nothing there."""
    if text.isascii():
        return []
    return [i for i, c in enumerate(text)
            if (c in BLANKS or unicodedata.category(c) == "Cf") and not _in_emoji(text, i)
            and not (c == ZWSP and i > 0 and text[i - 1] == "@")]


def shown(text: str) -> str:
    """`text` safe to print or post: the characters a terminal or a client would act on
    (ESC, NUL, a carriage return, a direction override, …) and the invisible ones (a zero-width
    space, a soft hyphen, …; not the joiner inside an emoji) as escapes (`\\x1b`, `\\u202e`,
    `\\u200b`); line breaks and tabs stay."""
    if _SHOWN_ESCAPED.search(text):
        text = _SHOWN_ESCAPED.sub(_escape, text)
    hidden = _invisible(text)
    if not hidden:
        return text
    chars = list(text)
    for i in hidden:
        chars[i] = _escape_char(chars[i])
    return "".join(chars)
