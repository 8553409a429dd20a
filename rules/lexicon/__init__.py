"""Lexicons and word admissibility (issue 22): pure.

- `graph`: the `WordGraph` protocol a move generator walks letter by letter, and `TrieGraph`;
- `dawg`: `compile_graph`, the minimal word graph (DAWG) in flat arrays;
- `admissibility`: the association's rules (`admissibility("sss" | "cas")`) and lists;
- `judge`: `Lexicon`, `WordVerdict`, `judge(word, lexicon, rules)`, `LexiconError`;
- `artifact`: a built lexicon as bytes (`to_bytes`, `from_bytes`, `make_lexicon`).
"""

from rules.lexicon.admissibility import Admissibility, WordList, admissibility
from rules.lexicon.artifact import make_lexicon
from rules.lexicon.dawg import CompiledGraph, compile_graph
from rules.lexicon.graph import TrieGraph, WordGraph
from rules.lexicon.judge import Lexicon, LexiconError, Source, WordVerdict, judge

__all__ = [
    "Admissibility", "CompiledGraph", "Lexicon", "LexiconError", "Source", "TrieGraph",
    "WordGraph", "WordList", "WordVerdict", "admissibility", "compile_graph", "judge",
    "make_lexicon",
]
