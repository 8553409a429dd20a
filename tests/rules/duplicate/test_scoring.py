"""Scoring details worked out by hand (sss-100 values: S 1, L 2, O 1, V 1, A 1, K 2, E 1,
R 1): premiums only under new tiles, cross words, a blank 0, the bingo 50 — each through the
slip check and the generator."""

from __future__ import annotations

import pytest

from rules.duplicate.board import Board
from rules.duplicate.generate import generate
from rules.duplicate.tiles import TileSet
from rules.duplicate.top import TopSettings, top_moves
from rules.duplicate.validate import score_move
from rules.lexicon.graph import TrieGraph

TILES = TileSet.load("sss-100")


def board(*tiles: tuple[str, str]) -> Board:
    """Tiles by square name: ("H8", "A"); lower case a blank."""
    placed = {}
    for name, letter in tiles:
        r, c = int(name[1:]) - 1, ord(name[0]) - ord("A")
        placed[(r, c)] = (letter.lower(), letter.islower())
    return Board.empty().place(placed)


def check(b: Board, rack: str, move: str, words: list[str], expected: int) -> None:
    graph = TrieGraph(words)
    verdict = score_move(b, rack, move, graph, TILES)
    assert verdict.valid, verdict
    assert verdict.score == expected
    generated = {(m.coord, m.word): m.score for m in generate(b, rack, graph, TILES)}
    coord, word = move.split()
    assert generated[(coord, word)] == expected


@pytest.mark.parametrize(("move", "expected"), [
    ("8H SLOVO", (1 + 2 + 1 + 1 + 1 * 2) * 2),  # H8 double word, L8 double letter
    ("H8 SLoVO", (1 + 2 + 0 + 1 + 1 * 2) * 2),  # a blank scores 0
    ("8D SLOVO", (1 * 2 + 2 + 1 + 1 + 1) * 2),  # D8 double letter
    ("8D sLOVO", (0 * 2 + 2 + 1 + 1 + 1) * 2),  # a blank on a premium letter is still 0
])
def test_first_moves(move: str, expected: int) -> None:
    check(Board.empty(), "SLOVO??", move, ["slovo"], expected)


def test_premiums_count_only_under_new_tiles() -> None:
    # SLOVO across on row 8; down through its last O (L8, a double letter, already there)
    b = board(("H8", "S"), ("I8", "L"), ("J8", "O"), ("K8", "V"), ("L8", "O"))
    check(b, "SLOVAA?", "L4 SLOVO", ["slovo"], (1 + 2 + 1 + 1 + 1) * 2)  # L4 double word


def test_cross_words_score_in_full_with_the_new_tiles_premiums() -> None:
    b = board(("H8", "A"), ("I8", "S"))
    words = ["as", "so", "ak", "ko"]
    # KO on row 9: K on H9, O on I9 (double letter); cross words AK and SO
    check(b, "KOEEEEE", "9H KO", words, (2 + 1 * 2) + (1 + 2) + (1 + 1 * 2))
    check(b, "?OEEEEE", "9H kO", words, (0 + 1 * 2) + (1 + 0) + (1 + 1 * 2))


def test_bingo_adds_50() -> None:
    # KOLESOR from H8: K2 O1 L2 E1 S1(L8 double) O1 R1, double word
    check(Board.empty(), "KOLESOR", "8H KOLESOR", ["kolesor"], (2 + 1 + 2 + 1 + 2 + 1 + 1) * 2 + 50)


def test_a_board_blank_scores_0_in_a_new_word() -> None:
    b = board(("H8", "a"), ("I8", "S"))
    check(b, "KOEEEEE", "9H KO", ["as", "so", "ak", "ko"], (2 + 2) + (0 + 2) + (1 + 2))


def test_a_one_tile_play_counts_once_read_as_the_setting_says() -> None:
    # S on I8 makes AS across and SOK down; S on H9 makes SO across and AS down
    b = board(("H8", "A"), ("I9", "O"), ("I10", "K"))
    graph = TrieGraph(["as", "so", "sok"])

    def read(one_tile_main: str) -> list[tuple[str, str, int]]:
        reading = TopSettings(one_tile_main=one_tile_main).one_tile(TILES)
        return sorted((m.coord, m.word, m.score) for m in generate(b, "S", graph, TILES, reading))

    assert read("longer") == [("9H", "SO", 4), ("I8", "SOK", 6)]  # equal length: across
    assert read("horizontal") == [("8H", "AS", 6), ("9H", "SO", 4)]
    assert read("earlier") == [("8H", "AS", 6), ("H8", "AS", 4)]
    assert top_moves(b, "S", graph, TILES).count == 2
