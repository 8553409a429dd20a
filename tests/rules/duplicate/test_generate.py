"""The generator against the brute force (tests/rules/duplicate/brute.py, no shared code):
the same placements with the same scores on random positions and small word lists."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.duplicate.board import Board, parse_board
from rules.duplicate.generate import across_reading, best_moves, generate, longer_reading
from rules.duplicate.slip import slip_word
from rules.duplicate.tiles import TileSet
from rules.duplicate.top import tie_key, top_moves
from rules.duplicate.validate import score_move
from rules.lexicon.graph import TrieGraph


def _load_brute():  # type: ignore[no-untyped-def]
    """tests/rules/duplicate/brute.py, loaded by path (it imports nothing of ours)."""
    spec = importlib.util.spec_from_file_location("duplicate_brute",
                                                  Path(__file__).with_name("brute.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


brute_moves = _load_brute().brute_moves

TILES = TileSet.load("sss-100")
VALUES = dict(TILES.values)
LETTERS = "aeoslkvá"


def _words(rng: random.Random) -> list[str]:
    words = {"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 5))) for _ in range(90)}
    words |= {"wa", "owa", "a", "o"}  # a blank-only letter; one-letter forms are never moves
    return sorted(words)


def _rack(rng: random.Random, blanks: int) -> str:
    return "".join(rng.choice(LETTERS.upper()) for _ in range(7 - blanks)) + "?" * blanks


def _position(rng: random.Random, words: list[str], plays: int) -> str:
    """A board reached by `plays` random moves of the generator. (The brute force stays the
    judge of the position each test then asks about; finding the moves on the way here with
    it too cost the suite ~25 s and proved nothing more: a wrong move of the generator on
    the way is a difference the final comparison, or the slip check, would report.)"""
    text = Board.empty().text()
    for _ in range(plays):
        found = _generated(text, _rack(rng, rng.choice((0, 0, 1))), words)
        if not found:
            break
        placement = rng.choice(sorted(found, key=sorted))
        grid = [list(line) for line in text.splitlines()]
        for r, c, letter, blank in placement:
            grid[r][c] = letter if blank else letter.upper()
        text = "\n".join("".join(row) for row in grid) + "\n"
    return text


def _generated(text: str, rack: str, words: list[str], one_tile_main: str = "longer") -> dict:
    board = parse_board(text, frozenset(TILES.letters), TILES.blank_letters)
    reading = across_reading if one_tile_main == "horizontal" else longer_reading
    moves = generate(board, rack, TrieGraph(words), TILES, reading)
    out = {move.placement: (move.score, move.word, move.coord) for move in moves}
    assert len(out) == len(moves), "a placement generated twice"
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 5), blanks=st.integers(0, 2),
       one_tile=st.sampled_from(["longer", "horizontal"]))
def test_generator_finds_exactly_what_brute_force_finds(seed: int, plays: int, blanks: int,
                                                        one_tile: str) -> None:
    rng = random.Random(seed)
    words = _words(rng)
    text = _position(rng, words, plays)
    rack = _rack(rng, blanks)
    expected = brute_moves(text, rack, words, VALUES, one_tile_main=one_tile)
    assert _generated(text, rack, words, one_tile) == expected


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plays=st.integers(1, 5))
def test_every_generated_move_passes_the_slip_check_with_its_score(seed: int, plays: int
                                                                   ) -> None:
    rng = random.Random(seed)
    words = _words(rng)
    text = _position(rng, words, plays)
    rack = _rack(rng, 1)
    board = parse_board(text, frozenset(TILES.letters), TILES.blank_letters)
    graph = TrieGraph(words)
    for move in generate(board, rack, graph, TILES):
        # a word all of blanks is written in parentheses (all lower case is refused)
        verdict = score_move(board, rack, f"{move.coord} {slip_word(move.word)}", graph, TILES)
        assert verdict.valid, (move, verdict)
        assert (verdict.score, verdict.words[0]) == (move.score, move.word)


def test_a_known_midgame_position() -> None:
    words = ["kosa", "osa", "sa", "as", "kos", "oka", "ako", "okolo", "los", "sol"]
    rng = random.Random(7)
    for plays in (1, 3, 5):
        text = _position(rng, words, plays)
        for rack in ("KOSALO?", "AOSLKVE", "??OSAKL"):
            assert _generated(text, rack, words) == brute_moves(text, rack, words, VALUES)


def test_no_move_without_a_word() -> None:
    assert generate(Board.empty(), "KOSALOV", TrieGraph(["xyz"]), TILES) == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plays=st.integers(1, 5), blanks=st.integers(0, 2))
def test_the_top_path_counts_and_keeps_the_same(seed: int, plays: int, blanks: int) -> None:
    rng = random.Random(seed)
    words = _words(rng)
    text = _position(rng, words, plays)
    rack = _rack(rng, blanks)
    board = parse_board(text, frozenset(TILES.letters), TILES.blank_letters)
    every = generate(board, rack, TrieGraph(words), TILES)
    count, best = best_moves(board, rack, TrieGraph(words), TILES)
    assert count == len(every)
    top = max((m.score for m in every), default=None)
    assert sorted(m.placement for m in best) == sorted(
        m.placement for m in every if m.score == top)


def test_a_longer_left_part_after_a_shorter_one_with_the_same_tile_after() -> None:
    # row 8: A on C8 and on J8, both anchors (B8, I8) followed by A; B8 has room for one
    # left tile, I8 for four: the left-part table grows between them, and the second anchor
    # must see the longer left parts (OSLOV·A, SLOV·A)
    grid = [["."] * 15 for _ in range(15)]
    grid[7][2] = grid[7][9] = "A"
    text = "\n".join("".join(row) for row in grid) + "\n"
    words = ["kosa", "slova", "oslova", "sova", "va"]
    for rack in ("KOSLOV?", "OSLOVK?", "??SLOVE"):
        found = _generated(text, rack, words)
        assert found == brute_moves(text, rack, words, VALUES)
        assert any(word.upper() == "OSLOVA" for _, word, _ in found.values()), rack


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 5), blanks=st.integers(0, 2),
       wanted=st.integers(0, 6))
def test_sub_tops_are_the_next_best_of_all_moves_in_tie_order(
        seed: int, plays: int, blanks: int, wanted: int) -> None:
    """issue 24.2: the sub-tops the close announces are the best placements below the top —
    the same as sorting every placement by score, then 003's tie order."""
    rng = random.Random(seed)
    words = _words(rng)
    text = _position(rng, words, plays)
    rack = _rack(rng, blanks)
    board = parse_board(text, frozenset(TILES.letters), TILES.blank_letters)
    graph = TrieGraph(words)
    found = top_moves(board, rack, graph, TILES, sub_tops=wanted)
    key = tie_key(TILES)
    every = sorted(generate(board, rack, graph, TILES), key=lambda m: (-m.score, key(m)))
    below = [m for m in every if m.score < found.score]
    assert found.count == len(every)
    assert [m.as_dict() for m in found.next] == [m.as_dict() for m in below[:wanted]]
    assert found.tops == tuple(m for m in every if m.score == found.score and every)


class _PlainGraph:
    """A `WordGraph` with only the protocol's four members (no `arc_table`, no `finals`): what
    someone else's graph may offer."""

    def __init__(self, words: list[str]) -> None:
        self._trie = TrieGraph(words)
        self.root = self._trie.root

    def arcs(self, node: int):  # type: ignore[no-untyped-def]
        return self._trie.arcs(node)

    def final(self, node: int) -> bool:
        return self._trie.final(node)

    def __contains__(self, word: object) -> bool:
        return word in self._trie


def test_a_graph_with_only_the_protocol_gives_the_same_moves() -> None:
    words = ["kosa", "osa", "sa", "as", "kos", "oka", "ako", "okolo", "los", "sol", "wa"]
    plain = _PlainGraph(words)
    assert not hasattr(plain, "arc_table")
    rng = random.Random(11)
    for plays in (0, 2, 4):
        text = _position(rng, words, plays)
        board = parse_board(text, frozenset(TILES.letters), TILES.blank_letters)
        for rack in ("KOSALO?", "??OSAKL"):
            got = generate(board, rack, plain, TILES)  # type: ignore[arg-type]
            assert got == generate(board, rack, TrieGraph(words), TILES)
            assert {m.placement: m.score for m in got} == {
                p: s for p, (s, _, _) in brute_moves(text, rack, words, VALUES).items()}
