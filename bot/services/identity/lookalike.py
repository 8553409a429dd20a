"""Names that look alike though they are other characters (issue 36.3; Unicode TR39 §4).

A name in the registry — a recorded Discord name, a herna.net nick — is compared exactly (after
NFC: `identity.handle`, `store.players.nick_key`). A name written with look-alike characters
("bоris" with a Cyrillic о, "ｂｏｒｉｓ" in full-width letters) is therefore another name: it
would never be linked to the account of the registry's "boris", but two players whose names
read the same would confuse the head admin and the players. So a new registry name whose
*skeleton* equals an existing name's is refused (`collides`).

The skeleton is TR39's: the text decomposed, each character replaced by the prototype of its
class of confusables, NFD again; format characters (zero-width spaces, joiners: TR39's default
ignorables are nearly all of them) are dropped. It decomposes with NFKD where TR39 says NFD:
TR39 expects identifiers already in NFKC, so confusables.txt leaves out some compatibility
forms (the full-width ｂ and ｒ of "ｂｏｒｉｓ"), which NFKD turns into the letters they show.
The classes come from Unicode's own confusables.txt as the `confusable-homoglyphs` package
ships it (its `confusables_data` keeps each line of the file both ways: source → prototype and
prototype → source), not from a table of ours. A class is a prototype and its sources: the
prototype is the one member linked to more than one other; of a class of two, the sequence of
several characters ("rn" for "m") is the prototype, else the lower code point (which one does
not change which names collide).

Two names in plain ASCII are never refused as look-alikes: "jan1" and "janl", "rn" and "m" are
different accounts that herna.net and Discord both allow, and the organiser's file names them
by what their owners chose; the look-alikes that impersonate come from other scripts and forms.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

#: how the package's data wraps right-to-left characters (from the comments of the file)
_LRM = "\u200e"


@cache
def _prototypes() -> dict[str, str]:
    """Each source character of confusables.txt → its prototype (one or more characters)."""
    linked: dict[str, set[str]] = defaultdict(set)
    for char, glyphs in confusables_data.items():
        for glyph in glyphs:
            one, other = char.replace(_LRM, ""), glyph["c"].replace(_LRM, "")
            if one and other and one != other:
                linked[one].add(other)
                linked[other].add(one)
    out: dict[str, str] = {}
    for char, others in linked.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a sequence, or a prototype (its sources all link to it)
        [other] = others
        if len(linked[other]) > 1 or len(other) > 1 or other < char:
            out[char] = other
    return out


def skeleton(text: str) -> str:
    """TR39's skeleton of `text` (see the module's docstring)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFKD", text)
                     if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFD", mapped)


def collides(name: str, other: str) -> bool:
    """Whether `name` and `other` are two names that look alike: different, the same
    skeleton, and not both plain ASCII."""
    if name.isascii() and other.isascii():
        return False
    if unicodedata.normalize("NFC", name) == unicodedata.normalize("NFC", other):
        return False  # the same name (its accents typed apart)
    return skeleton(name) == skeleton(other)
