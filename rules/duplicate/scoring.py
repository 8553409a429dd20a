"""Scoring one placement the way the rules say it (004 §1: classic Scrabble scoring).

Premium squares count only under tiles laid in this move; a blank scores 0 wherever it lies;
every cross word a new tile makes scores in full; all seven tiles earn the bingo (50). The
move generator scores inline for speed; this is the readable version the slip check uses and
the tests compare it with.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.duplicate.board import LETTER_MULT, SIZE, WORD_MULT, Board

#: (row, col) -> (letter, is_blank) for the tiles a move lays
Placed = Mapping[tuple[int, int], tuple[str, bool]]


def word_span(board: Board, placed: Placed, square: tuple[int, int], across: bool
              ) -> list[tuple[int, int]]:
    """The squares of the whole word through `square` in one direction (old and new tiles)."""
    dr, dc = (0, 1) if across else (1, 0)

    def filled(r: int, c: int) -> bool:
        return 0 <= r < SIZE and 0 <= c < SIZE and (
            (r, c) in placed or board.cells[r][c] is not None)

    r, c = square
    while filled(r - dr, c - dc):
        r, c = r - dr, c - dc
    span = []
    while filled(r, c):
        span.append((r, c))
        r, c = r + dr, c + dc
    return span


def spell(board: Board, placed: Placed, span: list[tuple[int, int]]) -> str:
    """The word as slips write it: tiles upper case, blanks lower case."""
    out = []
    for square in span:
        if square in placed:
            letter, blank = placed[square]
        else:
            r, c = square
            letter, blank = board.cells[r][c] or "", square in board.blanks
        out.append(letter if blank else letter.upper())
    return "".join(out)


def score_span(board: Board, placed: Placed, span: list[tuple[int, int]],
               values: Mapping[str, int]) -> int:
    total, factor = 0, 1
    for square in span:
        r, c = square
        if square in placed:
            letter, blank = placed[square]
            total += 0 if blank else values[letter] * LETTER_MULT[r][c]
            factor *= WORD_MULT[r][c]
        elif square not in board.blanks:
            total += values[board.cells[r][c] or ""]
    return total * factor


def score_placement(board: Board, placed: Placed, across: bool, values: Mapping[str, int],
                    rack_size: int = 7, bingo: int = 50) -> tuple[int, list[str]]:
    """The move's score and its words (main word first, then each cross word)."""
    first = min(placed)
    main = word_span(board, placed, first, across)
    words, score = [spell(board, placed, main)], score_span(board, placed, main, values)
    for square in sorted(placed):
        cross = word_span(board, placed, square, not across)
        if len(cross) > 1:
            words.append(spell(board, placed, cross))
            score += score_span(board, placed, cross, values)
    if len(placed) == rack_size:
        score += bingo
    return score, words
