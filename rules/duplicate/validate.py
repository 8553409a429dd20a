"""Checking and scoring one slip (issue 23.2): `score_move`.

A move that can be read is either valid with its score or refused with score 0 and a reason
that names its rule (004 §6): the word or a cross word is not admissible, letters not on the
rack, a wrong coordinate or direction, an unmarked blank (004 §8.4), a move not connected to
the board or a first move not through H8 (004 §1: classic rules). A slip that cannot be read
at all raises `DuplicateError` (`rules.duplicate.slip`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rules.duplicate.board import CENTRE, SIZE, Board
from rules.duplicate.move import Move
from rules.duplicate.scoring import score_placement
from rules.duplicate.slip import Slip, parse_slip
from rules.duplicate.tiles import BLANK, TileSet
from rules.lexicon.graph import WordGraph

#: the rule each refusal rests on
REASON_RULES = {
    "off_board": "004 §6", "not_whole_word": "004 §6", "board_mismatch": "004 §6",
    "no_new_tile": "004 §6", "too_short": "SP B1 10.2", "not_on_rack": "004 §6",
    "blank_not_on_rack": "004 §6", "blank_unmarked": "004 §6, §8.4",
    "not_through_centre": "004 §1", "not_connected": "004 §1",
    "invalid_word": "004 §6", "invalid_cross_word": "004 §6",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    valid: bool
    score: int
    words: tuple[str, ...] = ()
    reason: str | None = None  # a key of REASON_RULES; None when valid
    params: dict[str, object] = field(default_factory=dict)
    move: Move | None = None

    @property
    def rule(self) -> str | None:
        return REASON_RULES[self.reason] if self.reason else None


def _refuse(reason: str, words: tuple[str, ...] = (), **params: object) -> Verdict:
    return Verdict(False, 0, words, reason, {**params, "rule": REASON_RULES[reason]})


def score_move(board: Board, rack: str, move: str | Slip, graph: WordGraph, tiles: TileSet
               ) -> Verdict:
    """Check `move` (slip text or a parsed `Slip`) against `board`, `rack` (upper-case
    letters, '?' a blank) and the lexicon `graph`; score it if valid."""
    slip = move if isinstance(move, Slip) else parse_slip(move, tiles.blank_letters,
                                                          tiles.blank_letter_rule)
    dr, dc = (0, 1) if slip.across else (1, 0)
    end_r, end_c = slip.row + dr * (len(slip.letters) - 1), slip.col + dc * (len(slip.letters) - 1)
    if end_r >= SIZE or end_c >= SIZE:
        return _refuse("off_board")
    before, after = (slip.row - dr, slip.col - dc), (end_r + dr, end_c + dc)
    if any(0 <= r < SIZE and 0 <= c < SIZE and board.cells[r][c] is not None
           for r, c in (before, after)):
        return _refuse("not_whole_word")
    placed: dict[tuple[int, int], tuple[str, bool]] = {}
    for i, (letter, blank) in enumerate(slip.letters):
        r, c = slip.row + dr * i, slip.col + dc * i
        on_board = board.cells[r][c]
        if on_board is None:
            placed[(r, c)] = (letter, blank)
        elif on_board != letter:
            return _refuse("board_mismatch", square=f"{r + 1}{chr(65 + c)}",
                           letter=on_board.upper())
    if not placed:
        return _refuse("no_new_tile")
    if len(slip.letters) < 2:
        return _refuse("too_short")
    refusal = _check_rack(rack, placed) or _check_place(board, placed)
    if refusal:
        return refusal
    score, words = score_placement(board, placed, slip.across, tiles.values, tiles.rack_size,
                                   tiles.bingo)
    if words[0].lower() not in graph:
        return _refuse("invalid_word", tuple(words), word=words[0])
    for word in words[1:]:
        if word.lower() not in graph:
            return _refuse("invalid_cross_word", tuple(words), word=word)
    laid = tuple(sorted((r, c, letter, blank) for (r, c), (letter, blank) in placed.items()))
    return Verdict(True, score, tuple(words),
                   move=Move(slip.row, slip.col, slip.across, words[0], score, laid))


def _check_rack(rack: str, placed: dict[tuple[int, int], tuple[str, bool]]) -> Verdict | None:
    have = Counter(ch if ch == BLANK else ch.lower() for ch in rack)
    marked = sum(1 for _, blank in placed.values() if blank)
    if marked > have[BLANK]:
        return _refuse("blank_not_on_rack")
    need = Counter(letter for letter, blank in placed.values() if not blank)
    missing = sum((need - have).values())
    if missing:
        if missing <= have[BLANK] - marked:
            return _refuse("blank_unmarked")
        return _refuse("not_on_rack")
    return None


def _check_place(board: Board, placed: dict[tuple[int, int], tuple[str, bool]]
                 ) -> Verdict | None:
    if board.is_empty:
        if CENTRE not in placed:
            return _refuse("not_through_centre")
        return None  # two letters at least: the main word's length is checked above
    for r, c in placed:
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < SIZE and 0 <= nc < SIZE and board.cells[nr][nc] is not None:
                return None
    return _refuse("not_connected")
