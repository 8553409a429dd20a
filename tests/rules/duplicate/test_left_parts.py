"""The shared left-part table and its anchor gates (rules.duplicate.left_parts) against a
direct enumeration."""

from __future__ import annotations

import itertools

from rules.duplicate.left_parts import LeftParts, Part
from rules.duplicate.tiles import TileSet
from rules.lexicon.graph import TrieGraph

TILES = TileSet.load("sss-100")
WORDS = ["kosa", "kost", "oko", "oslava", "osa", "sova", "slovo", "lesa", "les", "wow"]
GRAPH = TrieGraph(WORDS)


def _node(word: str) -> int | None:
    node: int | None = GRAPH.root
    for letter in word:
        node = GRAPH.arcs(node).get(letter) if node is not None else None
    return node


def _expected(rack: str, length: int) -> set[tuple[tuple[str, bool], ...]]:
    """Every way to spell a prefix of a word with at most `length` of the rack's tiles."""
    out = set()
    prefixes = {w[:k] for w in WORDS for k in range(length + 1)}
    for k in range(length + 1):
        for tiles in itertools.permutations(rack, k):
            for prefix in prefixes:
                if len(prefix) == k and all(t in ("?", p.upper()) for t, p in zip(
                        tiles, prefix, strict=True)):
                    out.add(tuple((p, t == "?") for t, p in zip(tiles, prefix, strict=True)))
    return out


def _table(rack: str) -> LeftParts:
    counts: dict[str, int] = {}
    for ch in rack.replace("?", ""):
        counts[ch.lower()] = counts.get(ch.lower(), 0) + 1
    return LeftParts(GRAPH, counts, rack.count("?"), TILES.blank_letters)


def _parts(table: LeftParts, length: int) -> list[tuple[int, int, Part]]:
    """(length, end node, part) of every left part of at most `length` tiles, all families."""
    table.upto(length)
    return [(k, node, part) for family in table.families
            for k, level in enumerate(family.levels[:length + 1])
            for node, parts in level.items() for part in parts]


def test_every_left_part_once_at_its_end_node_with_the_rack_it_leaves() -> None:
    for rack in ("KOSAVLE", "KOS?A??", "OO?"):
        table = _table(rack)
        got = []
        for length, node, (left, rest, blanks) in _parts(table, 4):
            assert len(left) == length
            assert _node("".join(letter for letter, _ in left)) == node
            own = sorted(rack.replace("?", "").lower())
            for letter, blank in left:
                if not blank:
                    own.remove(letter)
            assert rest == "".join(own)
            assert blanks == rack.count("?") - sum(blank for _, blank in left)
            assert table.rack(rest) == {x: rest.count(x) for x in rest}
            got.append(left)
        assert len(got) == len(set(got))
        assert set(got) == _expected(rack, 4)


def test_the_families_split_the_left_parts_by_whether_a_blank_is_left() -> None:
    for rack, families in (("KOSAVLE", 1), ("KOS?A??", 2), ("OO?", 2)):
        parts = _table(rack)
        assert len(parts.families) == families
        parts.upto(4)
        if families == 2:
            spent, left_over = parts.families
            assert len(spent.levels) == len(left_over.levels)
            assert all(blanks == 0 for level in spent.levels
                       for lefts in level.values() for _, _, blanks in lefts)
            assert all(blanks > 0 for level in left_over.levels
                       for lefts in level.values() for _, _, blanks in lefts)
            assert spent.layable == frozenset(rack.replace("?", "").lower())
            assert "w" in left_over.layable


def test_a_gate_keeps_exactly_the_nodes_that_go_on_and_grows_with_the_table() -> None:
    parts = _table("KOS?AVL")
    cases = [(None, "a", 1), (frozenset("s"), "", 1), (None, "a", 3),
             (frozenset("so"), "a", 3), (None, "va", 3), (frozenset("x"), "", 2),
             (frozenset("w"), "o", 2), (None, "ow", 2)]
    for allowed, then, length in cases:
        parts.upto(length)
        for family in parts.families:  # the gate is built from the levels grown so far
            fits = family.gate(allowed, then)
            nodes = {n for level in family.levels[:length + 1] for n in level}
            expected = {n for n in nodes if any(
                (allowed is None or x in allowed) and x in family.layable
                and _walk(nxt, then) is not None for x, nxt in GRAPH.arcs(n).items())}
            assert fits & nodes == expected, (allowed, then, length, family.layable)


def _walk(node: int | None, letters: str) -> int | None:
    for letter in letters:
        node = GRAPH.arcs(node).get(letter) if node is not None else None
    return node
