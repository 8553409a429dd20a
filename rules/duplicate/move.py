"""A placement on the board: where its main word starts, which way, the tiles it lays."""

from __future__ import annotations

from dataclasses import dataclass

from rules.duplicate.coords import format_coord

#: one newly laid tile: (row, column, letter, is_blank)
Tile = tuple[int, int, str, bool]


@dataclass(frozen=True, slots=True)
class Move:
    """`word` is the whole main word as a slip writes it: tiles upper case, blanks (new or
    already on the board) lower case. `row`/`col` is the main word's first square."""

    row: int
    col: int
    across: bool
    word: str
    score: int
    tiles: tuple[Tile, ...]

    @property
    def coord(self) -> str:
        return format_coord(self.row, self.col, self.across)

    @property
    def placement(self) -> frozenset[Tile]:
        """What distinguishes two placements: the tiles laid (a one-tile play read across or
        down is one placement)."""
        return frozenset(self.tiles)

    @property
    def blanks(self) -> int:
        return sum(1 for *_, blank in self.tiles if blank)

    def as_dict(self) -> dict[str, object]:
        return {"word": self.word, "coord": self.coord, "score": self.score}
