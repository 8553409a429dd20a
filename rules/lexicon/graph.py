"""The word graph's interface: what a move generator walks letter by letter (issue 22/23).

A graph holds exactly the admissible forms of one lexicon: lower-case, one node step per
letter, where a letter is one character (a two-tile digraph such as "ch" or "dž" is two
steps, as it is two tiles). The duplicate move generator (`rules.duplicate`) depends only on
this protocol; the compiled lexicon (`rules.lexicon`) and the small in-memory `TrieGraph`
(tests, short word lists) both provide it. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
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


    def __contains__(self, word: object) -> bool: ...


class _ArcsOnDemand(dict[int, Mapping[str, int]]):
    """`arc_table` for a graph that has only `arcs`: each node's arcs asked once."""

    __slots__ = ("arcs",)

    def __init__(self, arcs: Callable[[int], Mapping[str, int]]) -> None:
        super().__init__()
        self.arcs = arcs

    def __missing__(self, node: int) -> Mapping[str, int]:
        found = self[node] = self.arcs(node)
        return found


class _FinalsOnDemand:
    """`finals` for a graph that has only `final`."""

    __slots__ = ("final",)

    def __init__(self, final: Callable[[int], bool]) -> None:
        self.final = final

    def __getitem__(self, node: int) -> bool:
        return self.final(node)


def arc_table_of(graph: WordGraph) -> ArcTable:
    """`graph.arcs` as a subscription, `table[node]` — the move generator's commonest step. A
    graph may offer its own (`arc_table`, as the compiled DAWG and `TrieGraph` do: one C-level
    look-up); any other `WordGraph` gets one that asks `arcs` once per node."""
    table = getattr(graph, "arc_table", None)
    return table if table is not None else _ArcsOnDemand(graph.arcs)


def finals_of(graph: WordGraph) -> Sequence[int] | _FinalsOnDemand:
    """`graph.final` as a subscription (`finals[node]` truthy for a form): the graph's own
    `finals` where it has one."""
    own = getattr(graph, "finals", None)
    return own if own is not None else _FinalsOnDemand(graph.final)


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
