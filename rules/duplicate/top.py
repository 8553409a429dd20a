"""The computer's top move and its tie order (003 r. 5–9; issue 23.3).

Equal scores are ordered by: the word earlier in the alphabet (r. 6); the same word starting
on a row nearer the top (r. 7); then a column nearer the left (r. 8); then across before down
(r. 9). 004 §5E.6 ("the first Quackle gives") is not reproducible, so 003's key serves both.
What the texts leave open is a setting of `TopSettings` with a cited default; the duplicate
game profile's `[tops]` table fills it (`TopSettings.from_dict`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.duplicate.board import Board
from rules.duplicate.generate import best_moves
from rules.duplicate.move import Move
from rules.duplicate.tiles import TileSet
from rules.lexicon.graph import WordGraph


@dataclass(frozen=True, slots=True)
class TopSettings:
    rule: str = "003 r. 5–9"
    #: None: the tile set's `collation.digraph_collation` (ch one letter after h)
    digraph_collation: bool | None = None
    digraph_rule: str = ("Interpretation of 003 r. 6 ('v abecedě'): the alphabet of the "
                         "tile set's collation, ch a letter after h as in the alphabet")
    #: the main word of a one-tile play that makes a word both ways
    one_tile_across: bool = True
    one_tile_rule: str = ("Interpretation (DUPLICATE.md §2, open in 003/004): a one-tile "
                          "play counts once and is read across when it makes an across word, "
                          "by analogy with 003 r. 9 (across before down)")
    #: placements equal in word, square and direction (they differ in which tile is the
    #: blank): fewer blanks first, then, letter by letter, the tile before the blank
    fewer_blanks_first: bool = True
    blank_rule: str = ("Interpretation (DUPLICATE.md §2 'preferring a top without a blank'): "
                       "003 r. 5–9 do not decide it; the top keeps the blank when it can")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TopSettings:
        """From a profile's `[tops]` table; unknown keys are an error, not ignored."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"tops: unknown setting {unknown[0]!r}")
        return cls(**dict(data))


def collation_key(tiles: TileSet, digraphs: bool) -> Callable[[str], tuple[int, ...]]:
    """A function giving a word's sort key in the tile set's alphabet (case ignored)."""
    rank = {letter: i for i, letter in enumerate(tiles.alphabet)}
    merged = {d: rank[d] for d in tiles.digraphs if d in rank} if digraphs else {}
    unknown = len(rank)

    def key(word: str) -> tuple[int, ...]:
        word = word.lower()
        out, i = [], 0
        while i < len(word):
            pair = word[i:i + 2]
            if pair in merged:
                out.append(merged[pair])
                i += 2
                continue
            out.append(rank.get(word[i], unknown + ord(word[i])))
            i += 1
        return tuple(out)

    return key


def tie_key(tiles: TileSet, settings: TopSettings = TopSettings()
            ) -> Callable[[Move], tuple[Any, ...]]:
    """The sort key of 003 r. 6–9 among moves of equal score, then the blank setting."""
    digraphs = tiles.digraph_collation if settings.digraph_collation is None \
        else settings.digraph_collation
    word_key = collation_key(tiles, digraphs)

    def key(move: Move) -> tuple[Any, ...]:
        blanks: tuple[Any, ...] = ()
        if settings.fewer_blanks_first:
            blanks = (move.blanks, tuple(ch.islower() for ch in move.word))
        return (word_key(move.word), move.row, move.col, not move.across, *blanks)

    return key


@dataclass(frozen=True, slots=True)
class Tops:
    count: int  # distinct legal placements
    score: int  # the top score (0 without a legal move)
    tops: tuple[Move, ...]  # every placement scoring `score`, in tie order

    def as_dict(self) -> dict[str, object]:
        return {"count": self.count, "top_score": self.score,
                "tops": [move.as_dict() for move in self.tops]}


def top_moves(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
              settings: TopSettings = TopSettings()) -> Tops:
    """Every legal placement counted, and the best ones in 003's tie order (the first is
    the move that goes on the board)."""
    count, best = best_moves(board, rack, graph, tiles, settings.one_tile_across)
    return rank_tops(best, tiles, settings, count)


def rank_tops(moves: list[Move], tiles: TileSet, settings: TopSettings = TopSettings(),
              count: int | None = None) -> Tops:
    """The best of `moves` in tie order; `count` is the number of legal placements (by
    default: `moves` are all of them)."""
    total = len(moves) if count is None else count
    if not moves:
        return Tops(total, 0, ())
    best = max(move.score for move in moves)
    tops = sorted((m for m in moves if m.score == best), key=tie_key(tiles, settings))
    return Tops(total, best, tuple(tops))
