"""The left parts of a rack, built once per generation and shared by every anchor (issue 23.3).

A left part is what a placement lays on the empty squares before its anchor: a path from the
word graph's root spelled with the rack's tiles (a blank any letter it may stand for). Those
squares have no neighbour, so a left part depends on the rack alone, not on the anchor: the
table holds each one once, grouped by length and by the graph node it ends on, and grows only
as deep as some anchor needs. An anchor then looks at each end node once and drops, with all
its left parts, a node whose arcs cannot go on: no letter the anchor square allows (its
cross-check) that the rack can still lay and after which the tiles right of the anchor spell
on (`Family.gate`). Each left part carries the rack it leaves, and the table is split into
families by what that rack can lay (a blank left, or only its own letters), each family with
its own gate. With two blanks most of the ~28 000 left parts of length ≤ 6 end on nodes that
fail their family's test, so the extension is tried for few of them. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.lexicon.graph import ArcTable, WordGraph, arc_table_of

#: a left part: its tiles from the left, (letter, is a blank)
Left = tuple[tuple[str, bool], ...]
#: a left part with the rack it leaves: its own letters (sorted) and its blanks
Part = tuple[Left, str, int]
#: one length's left parts: end node -> the left parts that end there
Level = dict[int, list[Part]]


class Family:
    """The left parts that leave the rack able to lay the same letters after them: the
    table's nodes indexed for the anchor gates. A rack with a blank has two families: left
    parts that leave a blank (any letter can follow) and those that used every blank (only
    the rack's own letters can) — most of a two-blank rack's left parts are of the second,
    and most of their end nodes fail its far narrower gate."""

    def __init__(self, arcs: ArcTable, layable: frozenset[str],
                 walks: dict[tuple[int, str], bool]) -> None:
        self.arcs = arcs
        self.layable = layable
        #: whether the board's tiles `then` can be walked from a node (shared, memoised)
        self.walks = walks
        self.levels: list[Level] = []
        #: the end nodes so far; of them, by letter x: those with an arc x the rack can lay
        #: (`by_arc`), and by two letters x t: those with such an arc x followed by t, each
        #: with the node after both (`by_pair`)
        self.nodes: set[int] = set()
        self.by_arc: dict[str, set[int]] = {}
        self.by_pair: dict[str, dict[int, int]] = {}
        #: the end nodes each anchor gate lets through: (cross-check, tiles after) -> nodes
        self.gates: dict[tuple[frozenset[str] | None, str], set[int]] = {}

    def add(self, level: Level) -> None:
        self.levels.append(level)
        self.gates.clear()  # found among the shorter left parts only
        arcs, layable, by_arc, by_pair = self.arcs, self.layable, self.by_arc, self.by_pair
        for node in level.keys() - self.nodes:
            for letter, nxt in arcs[node].items():
                if letter in layable:
                    by_arc.setdefault(letter, set()).add(node)
                    for then, after in arcs[nxt].items():
                        by_pair.setdefault(letter + then, {})[node] = after
        self.nodes.update(level)

    def gate(self, allowed: frozenset[str] | None, then: str) -> set[int]:
        """The end nodes (of the left parts so far) that can go on through an anchor whose
        square allows `allowed` (None: any letter) and is followed by the board's tiles
        `then`: some arc is a letter the square allows and the rack can lay, and `then`
        follows it. Found by set operations on the indexes, a node tested arc by arc only
        where they do not decide; memoised per (allowed, then)."""
        key = (allowed, then)
        known = self.gates.get(key)
        if known is not None:
            return known
        letters = self.layable if allowed is None else allowed & self.layable
        if not then:
            nodes = set().union(*(self.by_arc.get(x, ()) for x in letters))
        elif len(then) == 1:
            nodes = set().union(*(self.by_pair.get(x + then, ()) for x in letters))
        else:  # the pair's node must go on along the rest of `then`
            nodes, rest = set(), then[1:]
            arcs, walks = self.arcs, self.walks
            for x in letters:
                for node, after in self.by_pair.get(x + then[0], {}).items():
                    if node in nodes:
                        continue
                    step = (after, rest)
                    ok = walks.get(step)
                    if ok is None:
                        walk: int | None = after
                        for ch in rest:
                            walk = arcs[walk].get(ch)
                            if walk is None:
                                break
                        ok = walks[step] = walk is not None
                    if ok:
                        nodes.add(node)
        self.gates[key] = nodes
        return nodes


class LeftParts:
    """The left parts of `rack` (letter -> count) with `blanks` blanks, by length, in their
    families; each left part with the rack it leaves (`Part`)."""

    def __init__(self, graph: WordGraph, rack: Mapping[str, int], blanks: int,
                 blank_letters: frozenset[str]) -> None:
        arcs = arc_table_of(graph)
        self.arcs = arcs
        self.blank_letters = blank_letters
        own = frozenset(letter for letter, n in rack.items() if n)
        walks: dict[tuple[int, str], bool] = {}
        #: every blank used, then some blank left (the rack's families, see `Family`)
        self.families = [Family(arcs, own, walks)]
        if blanks:
            self.families.append(Family(arcs, own | blank_letters, walks))
        rest = "".join(sorted(letter * n for letter, n in rack.items()))
        self._racks: dict[str, dict[str, int]] = {}
        self.families[-1].add({graph.root: [((), rest, blanks)]})
        if blanks:
            self.families[0].add({})

    def upto(self, length: int) -> None:
        """Grow the families' levels to the left parts of `length` tiles (or as far as the
        rack and the graph go)."""
        families = self.families
        while len(families[0].levels) <= length and any(f.levels[-1] for f in families):
            grown = self._longer()
            for family, level in zip(families, grown, strict=True):
                family.add(level)

    def rack(self, rest: str) -> dict[str, int]:
        """The rack a left part leaves, letter -> count: one dict per distinct rest, which
        a generator may change while it extends as long as it puts every tile back."""
        counts = self._racks.get(rest)
        if counts is None:
            counts = self._racks[rest] = {}
            for letter in rest:
                counts[letter] = counts.get(letter, 0) + 1
        return counts

    def _longer(self) -> list[Level]:
        """The left parts one tile longer than the longest so far, by family."""
        spent: Level = {}
        out = [spent, {}] if len(self.families) == 2 else [spent]
        left_over = out[-1]
        blank_letters = self.blank_letters
        for family in self.families:
            for node, parts in family.levels[-1].items():
                arcs = self.arcs[node]
                for left, rest, blanks in parts:
                    into = left_over if blanks else spent
                    previous = ""
                    for letter in rest:  # sorted: each distinct letter once
                        if letter != previous:
                            previous = letter
                            nxt = arcs.get(letter)
                            if nxt is not None:
                                into.setdefault(nxt, []).append(
                                    ((*left, (letter, False)), rest.replace(letter, "", 1),
                                     blanks))
                    if blanks:
                        into = left_over if blanks > 1 else spent
                        for letter, nxt in arcs.items():
                            if letter in blank_letters:
                                into.setdefault(nxt, []).append(
                                    ((*left, (letter, True)), rest, blanks - 1))
        return out
