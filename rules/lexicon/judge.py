"""One word's verdict under an association's rules (issue 22): which list decided, and why.

`judge(word, lexicon, rules)` returns a `WordVerdict` for anything that is a word — letters
only, at most `MAX_QUERY` of them — including words that cannot be played (one letter, a
letter no tile or blank can be, longer than the board): those are NEPLATNÉ with their rule.
A query that is not a word at all (empty, spaces, digits, punctuation, a 10,000-character
paste) raises `LexiconError` with one Slovak sentence: it has no verdict to record.

Order of decision (SSS, SP B1 10.1/10.2; ČAS SŘ 9.4): letters, length, then the exclusive list
for the word's length — the lexicon's own when the build applied one (a built lexicon is the
admissible set), else the profile's list at hand; an unavailable list (B6, B7, BLEX) leaves the
word to the main list and says so. Then the `always` lists (10.1 bod 1, 2, 5, 6, 10.7's
násobné číslovky: the rule that admits the word is named even when the main list has it too),
then the families a rule refuses (`refuse`: 10.2 bod 5, 10.4, 10.8 — named even when the main
list has the form), then the lexicon's forms.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.free_text import shown_inline
from rules.lexicon.admissibility import Admissibility, WordList
from rules.lexicon.graph import WordGraph

#: longer than this, a query is not a word but a paste: refused, not judged
MAX_QUERY = 64


class LexiconError(ValueError):
    """A query or a lexicon that cannot be used; the message is one Slovak sentence."""


@dataclass(frozen=True, slots=True)
class Source:
    """One input of a lexicon: a file's name, its sha256, its lines and the forms it gave."""

    name: str
    sha256: str
    lines: int
    forms: int


@dataclass(frozen=True, slots=True)
class Lexicon:
    """A lexicon: its forms as a walkable graph, its id (recorded with every result it
    decides) and what it was made of.

    `title` is what a verdict names as its source; a stand-in says so in it. `rules` is the
    profile a built lexicon was built under ("" for a plain word list); `exclusive` maps a word
    length to the list the build applied for it, so the graph alone decides those lengths."""

    id: str
    graph: WordGraph
    title: str
    forms: int
    rules: str = ""
    standin: bool = False
    sources: tuple[Source, ...] = ()
    exclusive: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))

    def __contains__(self, word: object) -> bool:
        return word in self.graph


@dataclass(frozen=True, slots=True)
class WordVerdict:
    word: str
    valid: bool
    source: str  # which list decided, Slovak ("B2 (zoznam platných 2-písmenových slov)")
    rule: str  # the citation ("SP B1 10.1 bod 3")
    reason: str  # one Slovak sentence
    lexicon: str = ""  # the lexicon's id

    def as_dict(self) -> dict[str, object]:
        return {"word": self.word, "valid": self.valid, "source": self.source,
                "rule": self.rule, "reason": self.reason, "lexicon": self.lexicon}


def normalize(query: str) -> str:
    """The word a query names: NFC, trimmed, lower case — or LexiconError if it is none."""
    word = unicodedata.normalize("NFC", query).strip().lower()
    if not word:
        raise LexiconError("Prázdne slovo: napíš slovo, ktoré chceš overiť.")
    if len(word) > MAX_QUERY:
        raise LexiconError(f"To nie je slovo: {len(word)} znakov (slovo v hre má najviac "
                           f"15 písmen).")
    bad = next((ch for ch in word if not ch.isalpha()), None)
    if bad is not None:
        # quoted escaped (`\\n`, `\\u200d`): one line, and an invisible character visible
        what = "medzeru" if bad == " " else f"znak „{shown_inline(bad)}“"
        raise LexiconError(f"Slovo „{shown_inline(_short(word))}“ obsahuje {what}: overiť sa "
                           f"dá len jedno slovo z písmen.")
    return word


def judge(word: str, lexicon: Lexicon, rules: Admissibility) -> WordVerdict:
    """The verdict on `word` (see the module's docstring); LexiconError if it is no word."""
    word = normalize(word)

    def verdict(valid: bool, source: str, rule: str, reason: str) -> WordVerdict:
        return WordVerdict(word, valid, source, rule, reason, lexicon.id)

    letters = rules.letters
    stray = [ch for ch in word if ch not in rules.playable]
    if stray:
        return verdict(False, "písmená hry", letters.rule,
                       f"Písmeno „{stray[0]}“ nie je na žiadnom kameni a nemôže ho nahradiť "
                       f"ani žolík ({letters.blank_rule}).")
    size = len(word)  # ch, dz, dž are two tiles, so two letters (SP B1 10.1 bod 4)
    if size < rules.length.min:
        return verdict(False, "pravidlá", rules.length.min_rule,
                       "Jednopísmenové výrazy nie sú povolené.")
    if size > rules.length.max:
        return verdict(False, "pravidlá", rules.length.max_rule,
                       f"Slovo má {size} písmen, na dosku sa zmestí najviac {rules.length.max}.")
    note = _digraph_note(word, rules)
    main_note = ""
    reserved = rules.exclusive_list(size)
    if reserved is not None:
        rule, word_list = reserved
        built = lexicon.exclusive.get(size)
        if built is not None:
            valid = word in lexicon.graph
            return verdict(valid, built, rule.rule, _listed(valid, rule.says) + note)
        if word_list is not None:
            valid = word in word_list.words
            return verdict(valid, word_list.title, rule.rule,
                           _listed(valid, rule.says) + note + _bundled_note(word_list))
        spec = rules.specs[rule.list]
        main_note = (f" Zoznam {spec.id.upper()} tu nie je ({spec.note}), preto rozhoduje "
                     f"tento zoznam.")
    for always in rules.always:  # the rules' own lists first: they name the rule that admits
        word_list = rules.lists.get(always.list)
        if word_list is not None and word in word_list.words:
            return verdict(True, word_list.title, always.rule,
                           f"Slovo je v zozname {word_list.title}: {always.says}."
                           + _bundled_note(word_list))
    refused = rules.refused(word)
    if refused is not None:
        return verdict(False, "pravidlá", refused.rule,
                       f"Slovo nie je povolené: {refused.says}.{note}")
    if word in lexicon.graph:
        return verdict(True, lexicon.title, rules.main.rule,
                       f"Slovo je v zozname „{lexicon.title}“.{main_note}{note}")
    return verdict(False, lexicon.title, rules.main.rule,
                   f"Slovo nie je v zozname „{lexicon.title}“.{main_note}{note}")


def _listed(valid: bool, says: str) -> str:
    where = "je" if valid else "nie je"
    return f"Slovo {where} v zozname ({says})."


def _bundled_note(word_list: WordList) -> str:
    if not word_list.bundled:
        return ""
    # the appendices (B2, B3, B5) by their letter; the lists of 10.1's own text by their title
    name = (word_list.id.upper() if word_list.id[:1] == "b" and word_list.id[1:].isdigit()
            else f"„{word_list.title}“")
    return (f" Zoznam {name} je pribalená kópia zrekonštruovaná z pravidiel "
            f"(súbor spolku ju nahrádza).")


def _digraph_note(word: str, rules: Admissibility) -> str:
    found = [d for d in rules.letters.digraphs if d in word]
    if not found:
        return ""
    listed = ", ".join(found)
    return (f" Dvojzložkové písmeno {listed} sa počíta ako dve písmená (dva kamene; "
            f"{rules.letters.digraph_rule}).")


def _short(word: str) -> str:
    return word if len(word) <= 30 else word[:29] + "…"
