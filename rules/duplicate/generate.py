"""Every legal placement of a rack (issue 23.3): Appel & Jacobson's generator over a word graph.

Appel & Jacobson, "The world's fastest Scrabble program" (CACM 1988): moves are built only
from anchor squares (empty squares next to a tile; H8 on an empty board), with a left part
on the empty non-anchor squares before the anchor (or the tiles already there) and an
extension to the right, letter by letter along the graph's arcs; each square's cross-check
(the letters whose perpendicular word is admissible) and cross score are computed once per
call. Down moves are across moves on the transposed board. Each placement is found exactly
once per direction (from its leftmost new tile's anchor); a one-tile play that makes a word
both ways is reported once, in the direction `one_tile_across` chooses. Scores are computed
inline: premiums under new tiles only, blanks 0, cross words, the bingo.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.duplicate.board import LETTER_MULT, SIZE, WORD_MULT, Board
from rules.duplicate.move import Move, Tile
from rules.duplicate.tiles import BLANK, TileSet
from rules.lexicon.graph import WordGraph

_LETTER_MULT_T = tuple(zip(*LETTER_MULT, strict=True))
_WORD_MULT_T = tuple(zip(*WORD_MULT, strict=True))


@dataclass(frozen=True, slots=True)
class _Found:
    """A raw placement in the pass's frame: row, first column, new tiles (col, letter,
    blank) and the score."""

    row: int
    start: int
    end: int
    tiles: tuple[tuple[int, str, bool], ...]
    score: int


def generate(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
             one_tile_across: bool = True) -> list[Move]:
    """All legal placements of `rack` (upper-case letters, '?' a blank) on `board`."""
    moves: list[Move] = []
    for across in (True, False):
        frame = board if across else board.transposed()
        found = _Pass(frame, rack, graph, tiles, across, one_tile_across).run()
        moves.extend(_to_move(frame, f, across) for f in found)
    return moves


def _to_move(frame: Board, found: _Found, across: bool) -> Move:
    row, cells = found.row, frame.cells[found.row]
    new = {col: (letter, blank) for col, letter, blank in found.tiles}
    spelled = []
    for col in range(found.start, found.end):
        letter, blank = new.get(col) or (cells[col] or "", (row, col) in frame.blanks)
        spelled.append(letter if blank else letter.upper())
    laid: tuple[Tile, ...] = tuple(
        (row, col, letter, blank) if across else (col, row, letter, blank)
        for col, letter, blank in found.tiles)
    if across:
        return Move(row, found.start, True, "".join(spelled), found.score, laid)
    return Move(found.start, row, False, "".join(spelled), found.score, tuple(sorted(laid)))


class _Pass:
    """One direction's generation (across on `board`, which is transposed for down)."""

    def __init__(self, board: Board, rack: str, graph: WordGraph, tiles: TileSet,
                 across: bool, one_tile_across: bool) -> None:
        self.cells = board.cells
        self.board_blanks = board.blanks
        self.graph = graph
        self.values = tiles.values
        self.blank_letters = tiles.blank_letters
        self.rack_size, self.bingo = tiles.rack_size, tiles.bingo
        self.letter_mult = LETTER_MULT if across else _LETTER_MULT_T
        self.word_mult = WORD_MULT if across else _WORD_MULT_T
        # a one-tile play that also makes a word the other way is left to the other pass
        self.skip_one_tile_crossed = across != one_tile_across
        self.rack: dict[str, int] = {}
        self.blanks = 0
        for ch in rack:
            if ch == BLANK:
                self.blanks += 1
            else:
                self.rack[ch.lower()] = self.rack.get(ch.lower(), 0) + 1
        self.found: list[_Found] = []

    # --- cross-checks ---------------------------------------------------------------------

    def _value(self, r: int, c: int) -> int:
        return 0 if (r, c) in self.board_blanks else self.values.get(self.cells[r][c] or "", 0)

    def _cross(self, r: int, c: int) -> tuple[frozenset[str] | None, int]:
        """The letters allowed on empty (r, c) by the word it makes down (None: no word, any
        letter) and the points of that word's tiles already on the board."""
        cells = self.cells
        top = r
        while top > 0 and cells[top - 1][c] is not None:
            top -= 1
        bottom = r
        while bottom < SIZE - 1 and cells[bottom + 1][c] is not None:
            bottom += 1
        if top == r and bottom == r:
            return None, 0
        points = sum(self._value(k, c) for k in range(top, bottom + 1) if k != r)
        graph = self.graph
        node: int | None = graph.root
        for k in range(top, r):
            node = graph.arcs(node).get(cells[k][c] or "")
            if node is None:
                return frozenset(), points
        suffix = [cells[k][c] or "" for k in range(r + 1, bottom + 1)]
        allowed = []
        for letter, nxt in graph.arcs(node).items():
            walk: int | None = nxt
            for ch in suffix:
                walk = graph.arcs(walk).get(ch)
                if walk is None:
                    break
            if walk is not None and graph.final(walk):
                allowed.append(letter)
        return frozenset(allowed), points

    def _anchors(self) -> list[tuple[int, int]]:
        cells = self.cells
        if all(cell is None for row in cells for cell in row):
            return [(7, 7)]
        anchors = []
        for r in range(SIZE):
            for c in range(SIZE):
                if cells[r][c] is None and any(
                        0 <= nr < SIZE and 0 <= nc < SIZE and cells[nr][nc] is not None
                        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
                    anchors.append((r, c))
        return anchors

    # --- generation -----------------------------------------------------------------------

    def run(self) -> list[_Found]:
        anchors = self._anchors()
        anchor_set = set(anchors)
        self.cross: dict[tuple[int, int], tuple[frozenset[str] | None, int]] = {
            square: self._cross(*square) for square in anchors}
        graph, cells = self.graph, self.cells
        for r, c in anchors:
            row = cells[r]
            if c > 0 and row[c - 1] is not None:
                start = c - 1
                while start > 0 and row[start - 1] is not None:
                    start -= 1
                node: int | None = graph.root
                main = 0
                for k in range(start, c):
                    node = graph.arcs(node).get(row[k] or "")
                    if node is None:
                        break
                    main += self._value(r, k)
                if node is not None:
                    self._extend(r, c, node, c, start, [], main, 1, 0)
                continue
            limit = 0
            while c - limit - 1 >= 0 and row[c - limit - 1] is None and \
                    (r, c - limit - 1) not in anchor_set:
                limit += 1
            self._left(r, c, graph.root, [], limit)
        return self.found

    def _left(self, r: int, anchor: int, node: int, left: list[tuple[str, bool]],
              limit: int) -> None:
        """Every left part (on empty squares with no neighbours) then its extensions."""
        start = anchor - len(left)
        main = 0
        lm = self.letter_mult[r]
        factor = 1
        laid = []
        for i, (letter, blank) in enumerate(left):
            col = start + i
            if not blank:
                main += self.values[letter] * lm[col]
            factor *= self.word_mult[r][col]
            laid.append((col, letter, blank))
        self._extend(r, anchor, node, anchor, start, laid, main, factor, 0)
        if limit == 0:
            return
        for letter, nxt, blank in self._choices(node, None):
            left.append((letter, blank))
            self._left(r, anchor, nxt, left, limit - 1)
            left.pop()
            self._give_back(letter, blank)

    def _choices(self, node: int, allowed: frozenset[str] | None
                 ) -> Iterable[tuple[str, int, bool]]:
        """Each (letter, next node, as a blank) the rack can lay after `node` within
        `allowed`; the tile is taken from the rack (the caller gives it back)."""
        arcs = self.graph.arcs(node)
        rack = self.rack
        if self.blanks == 0:
            for letter in list(rack):
                if rack[letter] and (allowed is None or letter in allowed):
                    nxt = arcs.get(letter)
                    if nxt is not None:
                        rack[letter] -= 1
                        yield letter, nxt, False
            return
        for letter, nxt in list(arcs.items()):
            if allowed is not None and letter not in allowed:
                continue
            if rack.get(letter):
                rack[letter] -= 1
                yield letter, nxt, False
            if self.blanks and letter in self.blank_letters:
                self.blanks -= 1
                yield letter, nxt, True

    def _give_back(self, letter: str, blank: bool) -> None:
        if blank:
            self.blanks += 1
        else:
            self.rack[letter] += 1

    def _extend(self, r: int, anchor: int, node: int, col: int, start: int,
                laid: list[tuple[int, str, bool]], main: int, factor: int, cross: int) -> None:
        row = self.cells[r]
        graph = self.graph
        while col < SIZE and row[col] is not None:  # tiles already there: follow them
            nxt = graph.arcs(node).get(row[col] or "")
            if nxt is None:
                return
            node = nxt
            main += self._value(r, col)
            col += 1
        if col > anchor and laid and col - start >= 2 and graph.final(node):
            self._record(r, start, col, laid, main * factor + cross)
        if col == SIZE:
            return
        allowed, cross_points = self.cross.get((r, col)) or self._cross_at(r, col)
        lm, wm = self.letter_mult[r][col], self.word_mult[r][col]
        for letter, nxt, blank in self._choices(node, allowed):
            points = 0 if blank else self.values[letter] * lm
            extra = (cross_points + points) * wm if allowed is not None else 0
            laid.append((col, letter, blank))
            self._extend(r, anchor, nxt, col + 1, start, laid, main + points, factor * wm,
                         cross + extra)
            laid.pop()
            self._give_back(letter, blank)

    def _cross_at(self, r: int, c: int) -> tuple[frozenset[str] | None, int]:
        found = self.cross[(r, c)] = self._cross(r, c)
        return found

    def _record(self, r: int, start: int, end: int, laid: list[tuple[int, str, bool]],
                score: int) -> None:
        if len(laid) == 1 and self.skip_one_tile_crossed:
            col = laid[0][0]
            if (r > 0 and self.cells[r - 1][col] is not None) or \
                    (r < SIZE - 1 and self.cells[r + 1][col] is not None):
                return
        if len(laid) == self.rack_size:
            score += self.bingo
        self.found.append(_Found(r, start, end, tuple(laid), score))
