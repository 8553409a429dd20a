"""Every refusal of the slip check (004 §6) with score 0 and its rule."""

from __future__ import annotations

import pytest

from rules.duplicate.board import Board
from rules.duplicate.tiles import TileSet
from rules.duplicate.validate import REASON_RULES, score_move
from rules.lexicon.graph import TrieGraph

TILES = TileSet.load("sss-100")
GRAPH = TrieGraph(["slovo", "so", "os", "ko", "kos", "osa", "sa", "vo", "ov", "lo"])
# SLOVO across on row 8, H–L
MIDGAME = Board.empty().place({(7, 7 + i): (ch, False) for i, ch in enumerate("slovo")})


@pytest.mark.parametrize(("board", "rack", "move", "reason"), [
    (MIDGAME, "SLOVOAK", "8L SLOVO", "off_board"),
    (MIDGAME, "SLOVOAK", "8G OS", "not_whole_word"),
    (MIDGAME, "SLOVOAK", "8H SOOVO", "board_mismatch"),
    (MIDGAME, "SLOVOAK", "8H SLOVO", "no_new_tile"),
    (MIDGAME, "SLOVOAK", "9H K", "too_short"),
    (MIDGAME, "AAAAAAA", "H8 SO", "not_on_rack"),
    (MIDGAME, "OOOOOOO", "H8 So", "blank_not_on_rack"),
    (MIDGAME, "AAAAAA?", "H8 SO", "blank_unmarked"),
    (Board.empty(), "SLOVOAK", "8A SLOVO", "not_through_centre"),
    (MIDGAME, "SLOVOAK", "1A SO", "not_connected"),
    (MIDGAME, "SLOVOAK", "H8 SK", "invalid_word"),
    (MIDGAME, "SLOVOAK", "9H OS", "invalid_cross_word"),  # S under L: "LS"
])
def test_refusals(board: Board, rack: str, move: str, reason: str) -> None:
    verdict = score_move(board, rack, move, GRAPH, TILES)
    assert (verdict.valid, verdict.score, verdict.reason) == (False, 0, reason)
    assert verdict.rule == REASON_RULES[reason] == verdict.params["rule"]


def test_a_valid_move_names_all_its_words() -> None:
    verdict = score_move(MIDGAME, "SKOAAAA", "9G KO", GRAPH, TILES)
    # K on G9 (double letter), O under S (H9): KO across, SO down
    assert verdict.valid and verdict.reason is None
    assert verdict.words == ("KO", "SO")
    assert verdict.score == (2 * 2 + 1) + (1 + 1)


def test_a_blank_already_on_the_board_need_not_be_marked() -> None:
    board = Board.empty().place({(7, 7): ("s", True), (7, 8): ("o", False)})
    verdict = score_move(board, "KAAAAAA", "8G KSO", TrieGraph(["kso"]), TILES)
    assert verdict.valid and verdict.words == ("KsO",) and verdict.score == 2 + 0 + 1
