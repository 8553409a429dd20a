"""A brute-force move finder for the tests, sharing no code with `rules.duplicate`.

It reads the board as plain text (the board file's form), knows the premium squares by their
published names, and tries every word of a (small) list at every square in both directions
with every choice of which new tiles are blanks; a try is kept when the board's letters match,
the rack holds the new tiles, the move touches the board (or covers H8 on an empty one) and
every word it makes is in the list. Slow and obvious on purpose.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

N = 15
COLS = "ABCDEFGHIJKLMNO"
# the standard board's premium squares, by name
TW = "A1 H1 O1 A8 O8 A15 H15 O15"
DW = ("B2 C3 D4 E5 N2 M3 L4 K5 B14 C13 D12 E11 N14 M13 L12 K11 H8")
TL = "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14"
DL = ("D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15")


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # a square's four neighbours


def _squares(names: str) -> set[tuple[int, int]]:
    return {(int(name[1:]) - 1, COLS.index(name[0])) for name in names.split()}


WORD3, WORD2, LET3, LET2 = _squares(TW), _squares(DW), _squares(TL), _squares(DL)


def read(board_text: str) -> list[list[str]]:
    return [list(line) for line in board_text.splitlines()]


def value_of(ch: str, values: dict[str, int]) -> int:
    """A board character's points: upper case a tile, lower case a blank (0)."""
    return values[ch.lower()] if ch.isupper() else 0


def brute_moves(board_text: str, rack: str, words: list[str], values: dict[str, int],
                one_tile_main: str = "longer") -> dict[frozenset, tuple[int, str, str]]:
    """placement (frozenset of (row, col, letter, blank)) -> (score, word as written, coord).
    A one-tile play read both ways is kept once: across, or ("longer") the longer word."""
    grid = read(board_text)
    lexicon = set(words)
    empty_board = all(ch == "." for row in grid for ch in row)
    rack_counts = Counter(rack)
    # the empty squares next to a tile: a move touches the board iff it covers one of them
    touching = {(r, c) for r in range(N) for c in range(N) if grid[r][c] == "."
                and any(_at(grid, r + a, c + b) != "." for a, b in STEPS)}
    found: dict[frozenset, tuple[int, str, str]] = {}
    for word in set(words):
        if len(word) < 2:
            continue
        for across in (True, False):
            for r in range(N):
                for c in range(N):
                    _try(grid, word, r, c, across, rack_counts, lexicon, values, empty_board,
                         touching, found, one_tile_main)
    return found


def _at(grid: list[list[str]], r: int, c: int) -> str:
    return grid[r][c] if 0 <= r < N and 0 <= c < N else "."


def _try(grid, word, r, c, across, rack_counts, lexicon, values, empty_board, touching,
         found, one_tile_main) -> None:
    dr, dc = (0, 1) if across else (1, 0)
    end_r, end_c = r + dr * (len(word) - 1), c + dc * (len(word) - 1)
    if end_r >= N or end_c >= N:
        return
    if _at(grid, r - dr, c - dc) != "." or _at(grid, end_r + dr, end_c + dc) != ".":
        return
    new = []
    for i, letter in enumerate(word):
        sq = grid[r + dr * i][c + dc * i]
        if sq == ".":
            new.append((r + dr * i, c + dc * i, letter))
        elif sq.lower() != letter:
            return
    if not new:
        return
    squares = {(nr, nc) for nr, nc, _ in new}
    if empty_board:
        if (7, 7) not in squares:
            return
    elif not squares & touching:
        return
    for k in range(0, min(rack_counts["?"], len(new)) + 1):
        for blank_idx in combinations(range(len(new)), k):
            need = Counter(letter for i, (_, _, letter) in enumerate(new) if i not in blank_idx)
            if any(rack_counts[letter.upper()] < n for letter, n in need.items()):
                continue
            tiles = {(nr, nc): (letter, i in blank_idx) for i, (nr, nc, letter) in enumerate(new)}
            result = _score(grid, tiles, r, c, across, lexicon, values)
            if result is None:
                continue
            score, written = result
            key = frozenset((nr, nc, letter, b) for (nr, nc), (letter, b) in tiles.items())
            if len(tiles) == 1 and key in found:  # a one-tile play read both ways
                kept_across = found[key][2][0].isdigit()
                this_wins = len(written) > len(found[key][1]) if one_tile_main == "longer" \
                    else False
                if one_tile_main == "longer" and len(written) == len(found[key][1]):
                    this_wins = across
                if one_tile_main == "horizontal":
                    this_wins = across and not kept_across
                if not this_wins:
                    continue
            coord = f"{r + 1}{COLS[c]}" if across else f"{COLS[c]}{r + 1}"
            if len(tiles) == 7:
                score += 50
            found[key] = (score, written, coord)


def _score(grid, tiles, r, c, across, lexicon, values):
    """The move's score and its main word as written, or None if a word is not admissible."""
    def letter_at(rr, cc):
        if (rr, cc) in tiles:
            letter, blank = tiles[(rr, cc)]
            return letter if blank else letter.upper()
        return _at(grid, rr, cc)

    def word_through(rr, cc, dr, dc):
        while letter_at(rr - dr, cc - dc) != ".":
            rr, cc = rr - dr, cc - dc
        cells = []
        while letter_at(rr, cc) != ".":
            cells.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        return cells

    def points(cells):
        total, mult = 0, 1
        for sq in cells:
            ch = letter_at(*sq)
            if sq in tiles:
                base = value_of(ch, values)
                total += base * (3 if sq in LET3 else 2 if sq in LET2 else 1)
                mult *= 3 if sq in WORD3 else 2 if sq in WORD2 else 1
            else:
                total += value_of(ch, values)
        return total * mult

    dr, dc = (0, 1) if across else (1, 0)
    main = word_through(r, c, dr, dc)
    written = "".join(letter_at(*sq) for sq in main)
    if written.lower() not in lexicon:
        return None
    score = points(main)
    for sq in tiles:
        cross = word_through(sq[0], sq[1], dc, dr)
        if len(cross) > 1:
            if "".join(letter_at(*s) for s in cross).lower() not in lexicon:
                return None
            score += points(cross)
    return score, written
