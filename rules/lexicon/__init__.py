"""Lexicons and word admissibility (issue 22): pure. See `rules.lexicon.graph`."""

from rules.lexicon.graph import TrieGraph, WordGraph

__all__ = ["TrieGraph", "WordGraph"]
