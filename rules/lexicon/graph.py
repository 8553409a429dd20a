"""The word graph's interface: what a move generator walks letter by letter (issue 22/23).

A graph holds exactly the admissible forms of one lexicon: lower-case, one node step per
letter, where a letter is one character (a two-tile digraph such as "ch" or "dž" is two
steps, as it is two tiles). The duplicate move generator (`rules.duplicate`) depends only on
this protocol; the compiled lexicon (`rules.lexicon`) and the small in-memory `TrieGraph`
(tests, short word lists) both provide it. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable


class ArcTable(Protocol):
    """node -> its arcs (letter -> next node) by subscription."""

    def __getitem__(self, node: int, /) -> Mapping[str, int]: ...


@runtime_checkable
class WordGraph(Protocol):
    """Nodes are ints; `root` is the empty prefix."""

    @property
    def root(self) -> int: ...

    def arcs(self, node: int) -> Mapping[str, int]:
        """letter -> next node, for every letter some form continues with after `node`'s
        prefix (an empty mapping at a dead end). Called in the generator's inner loop: an
        implementation should hand back a ready mapping, not build one per call."""
        ...

    def final(self, node: int) -> bool:
        """True when the prefix that leads to `node` is itself a form."""
        ...

    @property
    def arc_table(self) -> ArcTable:
        """`arcs` as a subscription, `arc_table[node]`: the generator's inner loop."""
        ...

    @property
    def finals(self) -> Sequence[int]:
        """`final` as a subscription: `finals[node]` is truthy when `final(node)`."""
        ...

    def __contains__(self, word: object) -> bool: ...


class TrieGraph:
    """A plain trie over a handful of forms: the reference implementation of `WordGraph` for
    tests and small lists (not minimal, not compact; the compiled lexicon is both)."""

    def __init__(self, words: Iterable[str]) -> None:
        self._arcs: list[dict[str, int]] = [{}]
        self._final: list[bool] = [False]
        for word in words:
            node = 0
            for letter in word:
                nxt = self._arcs[node].get(letter)
                if nxt is None:
                    nxt = len(self._arcs)
                    self._arcs.append({})
                    self._final.append(False)
                    self._arcs[node][letter] = nxt
                node = nxt
            if word:
                self._final[node] = True

    @property
    def root(self) -> int:
        return 0

    def arcs(self, node: int) -> Mapping[str, int]:
        return self._arcs[node]

    def final(self, node: int) -> bool:
        return self._final[node]

    @property
    def arc_table(self) -> list[dict[str, int]]:
        return self._arcs

    @property
    def finals(self) -> list[bool]:
        return self._final

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        node = 0
        for letter in word:
            nxt = self._arcs[node].get(letter)
            if nxt is None:
                return False
            node = nxt
        return self._final[node]
