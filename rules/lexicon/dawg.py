"""The compiled word graph: a minimal DAWG in flat arrays (issue 22).

Built by the incremental algorithm for sorted input of Daciuk, Mihov, Watson and Watson
("Incremental construction of minimal acyclic finite-state automata", 2000): each word is
added as a chain after the prefix it shares with the previous word, and the part of the
previous word's chain that can no longer change is replaced bottom-up by equivalent nodes
already registered. The result has one node per distinct right language — the minimal graph.

Stored compactly (why not a library: docs/decisions.md): nodes are numbered breadth-first
from the root (0); node n's arcs are positions `first[n]:first[n + 1]` of `labels` (one byte,
an index into `letters`, sorted) and `targets`; `finals` holds one byte per node. A node's
letter -> node dict is built the first time it is asked for and kept (`arc_table`, a dict whose
misses build the entry), so the move generator's inner loop gets a ready mapping by one
subscription; `__contains__` walks the arrays without filling that table. Pure: no I/O.
"""

from __future__ import annotations

import itertools
import sys
from array import array
from collections.abc import Iterable, Mapping
from types import MappingProxyType

_EMPTY: Mapping[str, int] = MappingProxyType({})
MAX_LETTERS = 255  # a label is one byte


class _ArcTable(dict[int, Mapping[str, int]]):
    """node -> its arcs, each built on the first look-up: a hit is one C-level subscription
    (the generator's commonest step), not a method call."""

    __slots__ = ("graph",)

    def __init__(self, graph: CompiledGraph) -> None:
        super().__init__()
        self.graph = graph

    def __missing__(self, node: int) -> Mapping[str, int]:
        if not 0 <= node < len(self.graph.finals):
            raise KeyError(node)
        arcs = self[node] = self.graph._build_arcs(node)
        return arcs


class CompiledGraph:
    """A `WordGraph` over flat arrays; built by `compile_graph` or read by `from_bytes`."""

    __slots__ = ("_codes", "finals", "first", "forms", "labels", "letters", "table", "targets")

    def __init__(self, letters: str, first: array, labels: bytes, targets: array,
                 finals: bytes, forms: int) -> None:
        if len(letters) > MAX_LETTERS or len(first) != len(finals) + 1:
            raise ValueError("inconsistent word graph")
        self.letters = letters
        self.first = first
        self.labels = labels
        self.targets = targets
        self.finals = finals
        self.forms = forms
        self._codes = {letter: i for i, letter in enumerate(letters)}
        self.table = _ArcTable(self)

    @property
    def root(self) -> int:
        return 0

    @property
    def node_count(self) -> int:
        return len(self.finals)

    @property
    def arc_count(self) -> int:
        return len(self.labels)

    @property
    def arc_table(self) -> _ArcTable:
        return self.table

    def arcs(self, node: int) -> Mapping[str, int]:
        return self.table[node]

    def _build_arcs(self, node: int) -> Mapping[str, int]:
        lo, hi = self.first[node], self.first[node + 1]
        if lo == hi:
            return _EMPTY
        letters, labels, targets = self.letters, self.labels, self.targets
        return {letters[labels[i]]: targets[i] for i in range(lo, hi)}

    def final(self, node: int) -> bool:
        return self.finals[node] == 1

    def step(self, node: int, letter: str) -> int | None:
        """The node after `letter` from `node`, or None — without filling the arcs cache."""
        code = self._codes.get(letter)
        if code is None:
            return None
        at = self.labels.find(code, self.first[node], self.first[node + 1])
        return None if at < 0 else self.targets[at]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        codes, first, labels, targets = self._codes, self.first, self.labels, self.targets
        node = 0
        for letter in word:  # `step` inlined: this is the lookup loop
            code = codes.get(letter)
            if code is None:
                return False
            at = labels.find(code, first[node], first[node + 1])
            if at < 0:
                return False
            node = targets[at]
        return self.finals[node] == 1

    def __len__(self) -> int:
        return self.forms

    def __iter__(self):  # type: ignore[no-untyped-def]
        """Every form, in code-point order (depth first)."""
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            node, prefix = stack.pop()
            if self.finals[node]:
                yield prefix
            lo, hi = self.first[node], self.first[node + 1]
            for i in range(hi - 1, lo - 1, -1):
                stack.append((self.targets[i], prefix + self.letters[self.labels[i]]))

    def to_bytes(self) -> bytes:
        """The arrays, little-endian: first, targets (uint32), labels, finals (bytes)."""
        first, targets = _little(self.first), _little(self.targets)
        return first.tobytes() + targets.tobytes() + self.labels + self.finals

    @classmethod
    def from_bytes(cls, data: bytes | memoryview, letters: str, nodes: int, arcs: int,
                   forms: int) -> CompiledGraph:
        """The graph `to_bytes` wrote, given the counts stored beside it."""
        view = memoryview(data)
        if len(view) != 4 * (nodes + 1) + 4 * arcs + arcs + nodes:
            raise ValueError("word graph has the wrong size")
        first = array("I")
        first.frombytes(view[: 4 * (nodes + 1)])
        at = 4 * (nodes + 1)
        targets = array("I")
        targets.frombytes(view[at: at + 4 * arcs])
        at += 4 * arcs
        labels = bytes(view[at: at + arcs])
        finals = bytes(view[at + arcs:])
        if sys.byteorder == "big":
            first.byteswap()
            targets.byteswap()
        graph = cls(letters, first, labels, targets, finals, forms)
        ordered = all(a <= b for a, b in itertools.pairwise(first))
        if not ordered or first[0] != 0 or first[-1] != arcs \
                or (arcs and max(targets) >= nodes) or (labels and max(labels) >= len(letters)):
            raise ValueError("word graph is damaged")
        return graph


def _little(values: array) -> array:
    if sys.byteorder == "little":
        return values
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped


def compile_graph(words: Iterable[str]) -> CompiledGraph:
    """The minimal graph of `words`: non-empty, strictly increasing in code-point order
    (sorted, no duplicates) — a ValueError names the first word that is not."""
    children: list[dict[str, int]] = [{}]
    final: list[bool] = [False]
    free: list[int] = []  # ids of nodes replaced by a registered twin, reused
    register: dict[tuple[bool, tuple[tuple[str, int], ...]], int] = {}
    path = [0]  # path[i]: the node after the previous word's first i letters
    prev = ""
    forms = 0

    def minimize(down_to: int) -> None:
        # the previous word's nodes below `down_to` letters are final: register or merge them
        for depth in range(len(path) - 1, down_to, -1):
            child = path[depth]
            signature = (final[child], tuple(children[child].items()))
            twin = register.get(signature)
            if twin is None:
                register[signature] = child
            else:
                children[path[depth - 1]][prev[depth - 1]] = twin
                children[child] = {}
                final[child] = False
                free.append(child)
        del path[down_to + 1:]

    for word in words:
        if not word or word <= prev:
            raise ValueError(f"words must be non-empty, sorted and unique: {word[:40]!r}")
        common = 0
        limit = min(len(word), len(prev))
        while common < limit and word[common] == prev[common]:
            common += 1
        minimize(common)
        node = path[common]
        for letter in word[common:]:
            if free:
                new = free.pop()
            else:
                new = len(children)
                children.append({})
                final.append(False)
            children[node][letter] = new
            path.append(new)
            node = new
        final[node] = True
        prev = word
        forms += 1
    minimize(0)
    return _flatten(children, final, forms)


def _flatten(children: list[dict[str, int]], final: list[bool], forms: int) -> CompiledGraph:
    """Number the reachable nodes breadth-first from the root and lay them out in arrays."""
    letters = "".join(sorted({letter for arcs in children for letter in arcs}))
    if len(letters) > MAX_LETTERS:
        raise ValueError(f"more than {MAX_LETTERS} distinct letters")
    codes = {letter: i for i, letter in enumerate(letters)}
    number = {0: 0}
    order = [0]
    for old in order:  # grows while it is walked: breadth first
        for target in children[old].values():
            if target not in number:
                number[target] = len(order)
                order.append(target)
    first = array("I", [0])
    labels = bytearray()
    targets = array("I")
    for old in order:
        for letter, target in children[old].items():  # already in code-point order
            labels.append(codes[letter])
            targets.append(number[target])
        first.append(len(labels))
    finals = bytes(1 if final[old] else 0 for old in order)
    return CompiledGraph(letters, first, bytes(labels), targets, finals, forms)
