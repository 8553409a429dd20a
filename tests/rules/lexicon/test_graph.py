"""The reference word graph holds exactly the forms it was given."""

from hypothesis import given
from hypothesis import strategies as st

from rules.lexicon import TrieGraph, WordGraph

LETTERS = "acdhzžáä"


def _walk(graph: WordGraph, node: int, prefix: str) -> set[str]:
    found = {prefix} if graph.final(node) else set()
    for letter, nxt in graph.arcs(node).items():
        found |= _walk(graph, nxt, prefix + letter)
    return found


@given(st.sets(st.text(LETTERS, min_size=1, max_size=6), max_size=40))
def test_trie_holds_exactly_its_forms(words: set[str]) -> None:
    graph = TrieGraph(words)
    assert isinstance(graph, WordGraph)
    assert _walk(graph, graph.root, "") == words
    for word in words:
        assert word in graph
        assert word + "x" not in graph


def test_digraph_is_two_steps_and_empty_is_no_word() -> None:
    graph = TrieGraph(["chata", "dža"])
    assert "c" in graph.arcs(graph.root)
    assert "h" in graph.arcs(graph.arcs(graph.root)["c"])
    assert "" not in graph
    assert "cha" not in graph
