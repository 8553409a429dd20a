"""The compiled word graph holds exactly its input forms, is minimal, and survives bytes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.lexicon import CompiledGraph, WordGraph, compile_graph

LETTERS = "achdzžáäô"
WORDS = st.sets(st.text(LETTERS, min_size=1, max_size=7), max_size=60)


def _walk(graph: WordGraph, node: int, prefix: str) -> set[str]:
    found = {prefix} if graph.final(node) else set()
    for letter, nxt in graph.arcs(node).items():
        found |= _walk(graph, nxt, prefix + letter)
    return found


def _reference_node_count(words: set[str]) -> int:
    """States of the minimal automaton: one per distinct right language (the set of endings
    that complete a prefix into a form) among the forms' prefixes, the empty prefix included."""
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    languages = {frozenset(w[len(p):] for w in words if w.startswith(p)) for p in prefixes}
    return len(languages)


@given(WORDS)
def test_graph_holds_exactly_its_forms(words: set[str]) -> None:
    graph = compile_graph(sorted(words))
    assert isinstance(graph, WordGraph)
    assert _walk(graph, graph.root, "") == words
    assert set(graph) == words and len(graph) == len(words)
    for word in words:
        assert word in graph
        assert word + "x" not in graph
        assert (word[:-1] in graph) == (word[:-1] in words)


@given(WORDS)
def test_graph_is_minimal(words: set[str]) -> None:
    graph = compile_graph(sorted(words))
    assert graph.node_count == (_reference_node_count(words) if words else 1)


@given(WORDS)
def test_bytes_round_trip(words: set[str]) -> None:
    graph = compile_graph(sorted(words))
    again = CompiledGraph.from_bytes(graph.to_bytes(), graph.letters, graph.node_count,
                                     graph.arc_count, graph.forms)
    assert set(again) == words
    assert again.to_bytes() == graph.to_bytes()


def test_shared_endings_are_one_node() -> None:
    # "chata"/"hata" and "dža"/"ža" share their endings (and "-a" with "chat-"): a trie has
    # 15 nodes, the DAWG 7 (root, c-, ch-/h-, cha-/ha-, chat-/hat-/dž-/ž-, d-, the end)
    graph = compile_graph(sorted(["chata", "hata", "dža", "ža"]))
    assert graph.node_count == _reference_node_count({"chata", "hata", "dža", "ža"}) == 7
    root = graph.arcs(graph.root)
    assert graph.arcs(root["c"])["h"] == root["h"]
    assert graph.arcs(root["d"])["ž"] == root["ž"] == graph.arcs(graph.arcs(root["h"])["a"])["t"]


def test_arcs_is_a_ready_mapping_kept_per_node() -> None:
    graph = compile_graph(["ab", "ac"])
    after_a = graph.step(graph.root, "a")
    assert after_a is not None
    first = graph.arcs(after_a)
    assert set(first) == {"b", "c"} and first["b"] == first["c"]  # one shared end node
    assert graph.arcs(after_a) is first
    assert graph.arcs(first["b"]) == {} and graph.final(first["b"])
    assert graph.step(graph.root, "z") is None and graph.step(graph.root, "ž") is None


@pytest.mark.parametrize("words", [["b", "a"], ["a", "a"], ["", "a"]])
def test_unsorted_duplicate_or_empty_input_is_refused(words: list[str]) -> None:
    with pytest.raises(ValueError, match="sorted and unique"):
        compile_graph(words)


def test_damaged_bytes_are_refused() -> None:
    graph = compile_graph(["ab", "ba"])
    data = bytearray(graph.to_bytes())
    with pytest.raises(ValueError):
        CompiledGraph.from_bytes(bytes(data[:-1]), graph.letters, graph.node_count,
                                 graph.arc_count, graph.forms)
    data[4] = 250  # first[1] points past the arcs
    with pytest.raises(ValueError):
        CompiledGraph.from_bytes(bytes(data), graph.letters, graph.node_count,
                                 graph.arc_count, graph.forms)
