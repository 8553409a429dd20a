"""Every legal placement of a rack (issue 23.3): Appel & Jacobson's generator over a word graph.

Appel & Jacobson, "The world's fastest Scrabble program" (CACM 1988): moves are built only
from anchor squares (empty squares next to a tile; H8 on an empty board), with a left part
on the empty non-anchor squares before the anchor (or the tiles already there) and an
extension to the right, letter by letter along the graph's arcs; each square's cross-check
(the letters whose perpendicular word is admissible) and cross score are computed once per
call. The left parts come from one table per call (`rules.duplicate.left_parts`), and an
anchor tries only those ending on a node that can go on through it. Down moves are across
moves on the transposed board. Each placement is found exactly once per direction (from its
leftmost new tile's anchor); a one-tile play that makes a word both ways is found by both
passes and reported once, read the way `one_tile` chooses. Scores are computed inline:
premiums under new tiles only, blanks 0, cross words, the bingo.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.collector import collector_paused
from rules.duplicate.board import LETTER_MULT, SIZE, WORD_MULT, Board
from rules.duplicate.left_parts import LeftParts
from rules.duplicate.move import Move, Tile
from rules.duplicate.tiles import BLANK, TileSet
from rules.lexicon.graph import WordGraph, arc_table_of, finals_of

_LETTER_MULT_T = tuple(zip(*LETTER_MULT, strict=True))
_WORD_MULT_T = tuple(zip(*WORD_MULT, strict=True))

#: a placement as the generator finds it: in its pass's frame (row, first column, end column),
#: then its new tiles as a `Move` lists them (board coordinates) and its score
Raw = tuple[int, int, int, tuple[Tile, ...], int]


#: of the two readings of a one-tile play that makes a word both ways (across, down): the one
#: reported
OneTile = Callable[[Move, Move], Move]


def longer_reading(across: Move, down: Move) -> Move:
    """The longer of the two words; equal: the across one (a `TopSettings` default)."""
    return down if len(down.word) > len(across.word) else across


def across_reading(across: Move, down: Move) -> Move:
    return across


@collector_paused  # ~10^5 short-lived tuples, no cycle (rules/collector.py)
def generate(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
             one_tile: OneTile = longer_reading) -> list[Move]:
    """All legal placements of `rack` (upper-case letters, '?' a blank) on `board`."""
    return _one_reading(_every_move(board, rack, graph, tiles), one_tile)


def _every_move(board: Board, rack: str, graph: WordGraph, tiles: TileSet) -> list[Move]:
    """`generate`'s moves, a one-tile play read both ways twice. Its own function so the
    left-part table and the passes are freed before the collector runs again (it would
    otherwise look at all of them once more)."""
    moves: list[Move] = []
    parts = _left_parts(rack, graph, tiles)
    for across in (True, False):
        frame = board if across else board.transposed()
        found = _Pass(frame, rack, graph, tiles, across, None, parts)
        shown = _Shown(frame)
        moves.extend(shown.move(raw, across) for raw in found.run())
    return moves


def best_moves(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
               one_tile: OneTile = longer_reading) -> tuple[int, list[Move]]:
    """The number of legal placements and those with the highest score (unordered): what
    the top needs, without building a `Move` for every placement."""
    count, best, _ = best_and_next(board, rack, graph, tiles, one_tile)
    return count, best


@collector_paused  # as `generate`
def best_and_next(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
                  one_tile: OneTile = longer_reading, levels: int = 0
                  ) -> tuple[int, list[Move], list[Move]]:
    """`best_moves`, and every placement of the `levels` highest scores below the top
    (unordered; the sub-tops a round's close announces). Whole score levels are kept, so the
    caller's tie order decides among equal scores, never the order generation found them."""
    return _best_and_next(board, rack, graph, tiles, one_tile, levels)


def _best_and_next(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
                   one_tile: OneTile, levels: int) -> tuple[int, list[Move], list[Move]]:
    count, best = 0, -1
    shown: dict[bool, _Shown] = {}
    kept: list[tuple[Raw, bool]] = []
    parts = _left_parts(rack, graph, tiles)
    for across in (True, False):
        frame = board if across else board.transposed()
        shown[across] = _Shown(frame)
        found = _Pass(frame, rack, graph, tiles, across, best, parts, levels)
        raws = found.run()
        # a one-tile play read both ways was counted by the across pass already
        count += found.count - (0 if across else found.doubles)
        best = max(best, found.best)
        kept.extend((raw, across) for raw in raws)
        kept.extend((raw, across) for level in found.below.values() for raw in level)
    # a `Move` only for what is returned: the top and the `levels` best scores below it
    below = set(sorted({raw[4] for raw, _ in kept if raw[4] < best}, reverse=True)[:levels])
    moves = _one_reading([shown[across].move(raw, across) for raw, across in kept
                          if raw[4] == best or raw[4] in below], one_tile)
    return count, [m for m in moves if m.score == best], [m for m in moves if m.score < best]


def _rack_counts(rack: str) -> tuple[dict[str, int], int]:
    """The rack's letters (lower case) -> count, and its number of blanks."""
    counts: dict[str, int] = {}
    for ch in rack:
        if ch != BLANK:
            counts[ch.lower()] = counts.get(ch.lower(), 0) + 1
    return counts, rack.count(BLANK)


def _left_parts(rack: str, graph: WordGraph, tiles: TileSet) -> LeftParts:
    """The left-part table both directions share (the rack is the same)."""
    counts, blanks = _rack_counts(rack)
    return LeftParts(graph, counts, blanks, tiles.blank_letters)


def _one_reading(moves: list[Move], one_tile: OneTile) -> list[Move]:
    """`moves` (across ones first) with each one-tile play once, read as `one_tile` says."""
    seen: dict[frozenset[Tile], int] = {}
    out: list[Move] = []
    for move in moves:
        if len(move.tiles) == 1:
            at = seen.get(move.placement)
            if at is not None:
                out[at] = one_tile(out[at], move)
                continue
            seen[move.placement] = len(out)
        out.append(move)
    return out


class _Shown:
    """A frame's squares as a slip writes them (tiles upper case, blanks lower case, '' an
    empty square), once per pass: turning a raw placement into a `Move` is then a splice."""

    __slots__ = ("rows",)

    def __init__(self, frame: Board) -> None:
        blanks = frame.blanks
        self.rows = [["" if cell is None else cell if (r, c) in blanks else cell.upper()
                      for c, cell in enumerate(row)] for r, row in enumerate(frame.cells)]

    def move(self, raw: Raw, across: bool) -> Move:
        row, start, end, laid, score = raw
        spelled = self.rows[row][start:end]
        at = 1 if across else 0  # a tile's column in the frame
        for tile in laid:
            spelled[tile[at] - start] = tile[2] if tile[3] else tile[2].upper()
        if across:
            return Move(row, start, True, "".join(spelled), score, laid)
        return Move(start, row, False, "".join(spelled), score, laid)


class _Pass:
    """One direction's generation (across on `board`, which is transposed for down).
    `floor` None keeps every placement; a number keeps only the best ones scoring at least
    that (`count` counts them all either way)."""

    def __init__(self, board: Board, rack: str, graph: WordGraph, tiles: TileSet,
                 across: bool, floor: int | None, parts: LeftParts, levels: int = 0) -> None:
        self.cells = board.cells
        self.across = across
        self.graph = graph
        self.arcs = arc_table_of(graph)
        self.finals = finals_of(graph)
        self.values = tiles.values
        self.blank_letters = tiles.blank_letters
        self.rack_size, self.bingo = tiles.rack_size, tiles.bingo
        self.letter_mult = LETTER_MULT if across else _LETTER_MULT_T
        self.word_mult = WORD_MULT if across else _WORD_MULT_T
        #: the points of the tile on each square (0: a blank or no tile)
        self.points = [[0 if cell is None or (r, c) in board.blanks else self.values[cell]
                        for c, cell in enumerate(row)] for r, row in enumerate(self.cells)]
        self.doubles = 0  # one-tile plays that make a word the other way too
        self.rack, self.blanks = _rack_counts(rack)
        self.parts = parts
        self.tiles_in_rack = len(rack)
        self.tiles_left = len(rack)  # in the rack, as the left part and `laid` leave it
        #: the left part being extended: its points, word factor and tiles (`_left_part`)
        self.prefix: tuple[int, int, tuple[Tile, ...]] | None = None
        self.full = (self.rack, self.blanks, self.tiles_left)
        self.keep_all = floor is None
        self.best = -1 if floor is None else floor
        self.count = 0
        self.found: list[Raw] = []
        #: with a floor: the placements of the `levels` best scores below `best`, by score
        self.levels = levels
        self.below: dict[int, list[Raw]] = {}

    # --- cross-checks ---------------------------------------------------------------------

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
        points = sum(self.points[k][c] for k in range(top, bottom + 1))
        node: int | None = self.graph.root
        for k in range(top, r):
            node = self.arcs[node].get(cells[k][c] or "")
            if node is None:
                return frozenset(), points
        suffix = [cells[k][c] or "" for k in range(r + 1, bottom + 1)]
        allowed = []
        for letter, nxt in self.arcs[node].items():
            walk: int | None = nxt
            for ch in suffix:
                walk = self.arcs[walk].get(ch)
                if walk is None:
                    break
            if walk is not None and self.finals[walk]:
                allowed.append(letter)
        return frozenset(allowed), points

    def _after(self, r: int) -> list[tuple[str, int, int]]:
        """For each square of row `r`: the board's tiles right after it (up to the next
        empty square), their points, and that empty square's column (SIZE: the edge)."""
        row, points = self.cells[r], self.points[r]
        out: list[tuple[str, int, int]] = [("", 0, SIZE)] * SIZE
        for c in range(SIZE - 2, -1, -1):
            nxt = row[c + 1]
            if nxt is None:
                out[c] = ("", 0, c + 1)
            else:
                then, got, end = out[c + 1]
                out[c] = (nxt + then, points[c + 1] + got, end)
        return out

    def _anchors(self) -> list[tuple[int, int]]:
        cells = self.cells
        if all(cell is None for row in cells for cell in row):
            return [(7, 7)]
        return [(r, c) for r in range(SIZE) for c in range(SIZE)
                if cells[r][c] is None and any(
                    0 <= nr < SIZE and 0 <= nc < SIZE and cells[nr][nc] is not None
                    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))]

    # --- generation -----------------------------------------------------------------------

    def run(self) -> list[Raw]:
        anchors = self._anchors()
        anchor_set = set(anchors)
        none: tuple[None, int] = (None, 0)
        self.cross = [[none] * SIZE for _ in range(SIZE)]
        self.after = [self._after(r) for r in range(SIZE)]
        for r, c in anchors:
            self.cross[r][c] = self._cross(r, c)
        cells = self.cells
        for r, c in anchors:
            allowed = self.cross[r][c][0]
            if allowed is not None and not allowed:
                continue  # no letter fits the anchor square: no placement covers it
            row = cells[r]
            if c > 0 and row[c - 1] is not None:  # the left part is the tiles there
                start = c - 1
                while start > 0 and row[start - 1] is not None:
                    start -= 1
                node: int | None = self.graph.root
                for k in range(start, c):
                    node = self.arcs[node].get(row[k] or "")
                    if node is None:
                        break
                if node is not None:
                    self._extend(r, c, node, c, start, (), [],
                                 sum(self.points[r][start:c]), 1, 0)
                continue
            limit = 0
            while c - limit - 1 >= 0 and row[c - limit - 1] is None and \
                    (r, c - limit - 1) not in anchor_set:
                limit += 1
            self._from_anchor(r, c, allowed, min(limit, self.tiles_in_rack - 1))
        return self.found

    def _from_anchor(self, r: int, anchor: int, allowed: frozenset[str] | None,
                     limit: int) -> None:
        """Every left part of at most `limit` tiles on the empty squares before the anchor
        (they have no neighbour, so no cross-check), each followed by its extensions through
        the anchor; the left parts come from the shared table, and those ending on a node the
        anchor's gate refuses are skipped. A left part is scored only when a placement is
        recorded (most lead to none)."""
        row = self.cells[r]
        end = anchor + 1
        while end < SIZE and row[end] is not None:
            end += 1
        then = "".join(row[anchor + 1:end])  # type: ignore[arg-type]
        self.parts.upto(limit)
        rack_of = self.parts.rack
        for family in self.parts.families:
            fits = family.gate(allowed, then)
            for length, level in enumerate(family.levels[:limit + 1]):
                start = anchor - length
                for node in level.keys() & fits:
                    for left, rest, blanks in level[node]:
                        self.prefix = None
                        self.rack, self.blanks = rack_of(rest), blanks
                        self.tiles_left = len(rest) + blanks
                        self._extend(r, anchor, node, anchor, start, left, [], 0, 1, 0)
        self.rack, self.blanks, self.tiles_left = self.full

    def _extend(self, r: int, anchor: int, node: int, col: int, start: int,
                left: Sequence[tuple[str, bool]], laid: list[Tile],
                main: int, factor: int, cross: int) -> None:
        """Lay each tile the rack can on the empty square `col` and follow the board's
        tiles right after it; record the word that ends there, and go on to the next empty
        square only when a tile is left for it. `left` is the new left part (from `start`),
        `laid` the new tiles from the anchor on; `main`, `factor` and `cross` score what lies
        before `col` from the anchor on (and the board's tiles before it). Recording in the
        caller, not on entry, spares a call for every word's last tile."""
        allowed, cross_points = self.cross[r][col]
        if allowed is not None and not allowed:
            return
        crossed = allowed is not None
        arcs, finals, rack, blanks = self.arcs, self.finals, self.rack, self.blanks
        lm, wm = self.letter_mult[r][col], self.word_mult[r][col]
        factor *= wm
        then, then_points, end = self.after[r][col]
        more = self.tiles_left > 1 and end < SIZE
        self.tiles_left -= 1
        node_arcs = arcs[node]
        values, blank_letters, across = self.values, self.blank_letters, self.across
        # with a blank: every arc; without: the rack's letters (fewer, near the root)
        for letter, nxt in node_arcs.items() if blanks else rack.items():
            if not blanks:  # `nxt` is the letter's count: no comprehension, no call
                nxt = node_arcs.get(letter) if nxt else None  # type: ignore[assignment]
                if nxt is None:
                    continue
            if crossed and letter not in allowed:  # type: ignore[operator]
                continue
            for ch in then:
                nxt = arcs[nxt].get(ch)  # type: ignore[assignment]
                if nxt is None:
                    break
            if nxt is None:
                continue
            n = rack.get(letter, 0)
            for blank in (False, True):
                if blank:
                    if not blanks or letter not in blank_letters:
                        break
                    points = 0
                    self.blanks = blanks - 1
                else:
                    if not n:
                        continue
                    points = values[letter] * lm
                    rack[letter] = n - 1
                laid.append((r, col, letter, blank) if across else (col, r, letter, blank))
                gained = main + points + then_points
                crosses = cross + (cross_points + points) * wm if crossed else cross
                if finals[nxt] and end - start >= 2:
                    self._record(r, start, end, left, laid, gained, factor, crosses)
                if more:  # and a tile left in the rack continues the word
                    go_on = arcs[nxt]
                    if go_on and not self.blanks:
                        for x, k in rack.items():
                            if k and x in go_on:
                                break
                        else:
                            go_on = None  # type: ignore[assignment]
                    if go_on:
                        self._extend(r, anchor, nxt, end, start, left, laid, gained, factor,
                                     crosses)
                laid.pop()
                if blank:
                    self.blanks = blanks
                else:
                    rack[letter] = n
        self.tiles_left += 1

    def _record(self, r: int, start: int, end: int, left: Sequence[tuple[str, bool]],
                laid: list[Tile], main: int, factor: int, cross: int) -> None:
        tiles = len(left) + len(laid)
        if tiles == 1 and self.cross[r][laid[0][1 if self.across else 0]][0] is not None:
            self.doubles += 1
        self.count += 1
        placed: tuple[Tile, ...] = ()
        if left:  # what the left part adds, once per left part and anchor
            prefix = self.prefix
            if prefix is None:
                prefix = self.prefix = self._left_part(r, start, left)
            main += prefix[0]
            factor *= prefix[1]
            placed = prefix[2]
        score = main * factor + cross + (self.bingo if tiles == self.rack_size else 0)
        if self.keep_all or score >= self.best:
            if score > self.best and not self.keep_all:
                if self.found and self.levels:
                    self._keep_below(self.best, self.found)
                self.best = score
                self.found = []
            self.found.append((r, start, end, placed + tuple(laid), score))
        elif self.levels and (len(self.below) < self.levels or score >= min(self.below)):
            self._keep_below(score, [(r, start, end, placed + tuple(laid), score)])

    def _left_part(self, r: int, start: int, left: Sequence[tuple[str, bool]]
                   ) -> tuple[int, int, tuple[Tile, ...]]:
        """A left part laid from (r, start): its letters' points, its word factor, and its
        tiles as a placement lists them."""
        lm, wm, values = self.letter_mult[r], self.word_mult[r], self.values
        main, factor, placed = 0, 1, []
        for col, (letter, blank) in enumerate(left, start):
            if not blank:
                main += values[letter] * lm[col]
            factor *= wm[col]
            placed.append((r, col, letter, blank) if self.across else (col, r, letter, blank))
        return main, factor, tuple(placed)

    def _keep_below(self, score: int, raws: list[Raw]) -> None:
        """Keep `raws` (all scoring `score`, below the best) among the best `levels` scores."""
        self.below.setdefault(score, []).extend(raws)
        if len(self.below) > self.levels:
            del self.below[min(self.below)]
