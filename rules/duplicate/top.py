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
from rules.duplicate.generate import OneTile, across_reading, best_and_next, longer_reading
from rules.duplicate.move import Move
from rules.duplicate.tiles import TileSet
from rules.lexicon.graph import WordGraph

#: the tie keys of 003 r. 6–9 (the game profile may order them)
TOP_KEYS = ("word", "row", "column", "horizontal")
ONE_TILE_MAIN = ("longer", "horizontal", "earlier")
BLANK_ON = ("earlier", "later")


@dataclass(frozen=True, slots=True)
class TopSettings:
    """The defaults are those of the duplicate game profiles (`rules/profiles/duplicate`,
    `[tops]`); `from_rule` reads such a table."""

    rule: str = "003 r. 5–9"
    keys: tuple[str, ...] = TOP_KEYS
    #: None: the tile set's `collation.digraph_collation` (ch one letter after h)
    digraph_collation: bool | None = None
    digraph_rule: str = ("Interpretation of 003 r. 6 ('v abecedě'): the alphabet of the "
                         "tile set's collation, ch a letter after h as in the alphabet")
    #: the main word of a one-tile play that makes a word both ways: "longer" (equal: the
    #: horizontal one), "horizontal" or "earlier" (in the alphabet)
    one_tile_main: str = "longer"
    one_tile_rule: str = "003 r. 6 (Interpretation)"
    #: tops differing only in which of two identical letters the blank stands for: the one
    #: with the blank on the "later" (or "earlier") of them first
    blank_on: str = "later"
    blank_rule: str = "003 r. 6 (Interpretation)"
    #: a top holding no blank before the tie keys (003 does not say so: False)
    prefer_no_blank: bool = False
    prefer_no_blank_rule: str = "003 r. 5–9"

    def __post_init__(self) -> None:
        if sorted(self.keys) != sorted(TOP_KEYS):
            raise ValueError(f"tops.keys: must order exactly {', '.join(TOP_KEYS)}")
        if self.one_tile_main not in ONE_TILE_MAIN:
            raise ValueError(f"tops.one_tile_main: one of {', '.join(ONE_TILE_MAIN)}")
        if self.blank_on not in BLANK_ON:
            raise ValueError(f"tops.blank_on: one of {', '.join(BLANK_ON)}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TopSettings:
        """From a `[tops]` table; unknown keys are an error, not ignored."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known - {"collation"})
        if unknown:
            raise ValueError(f"tops: unknown setting {unknown[0]!r}")
        values = {k: v for k, v in data.items() if k != "collation"}
        if "keys" in values:
            values["keys"] = tuple(values["keys"])
        return cls(**values)

    @classmethod
    def from_rule(cls, tops: Any) -> TopSettings:
        """From the duplicate game profile's `tops` rule (`rules.duplicate.profile`)."""
        return cls(rule=tops.rule, keys=tuple(tops.keys), one_tile_main=tops.one_tile_main,
                   one_tile_rule=tops.one_tile_rule, blank_on=tops.blank_on,
                   blank_rule=tops.blank_rule, prefer_no_blank=tops.prefer_no_blank,
                   prefer_no_blank_rule=tops.prefer_no_blank_rule)

    def digraphs(self, tiles: TileSet) -> bool:
        return tiles.digraph_collation if self.digraph_collation is None \
            else self.digraph_collation

    def one_tile(self, tiles: TileSet) -> OneTile:
        """How a one-tile play read both ways is reported."""
        if self.one_tile_main == "horizontal":
            return across_reading
        if self.one_tile_main == "longer":
            return longer_reading
        key = collation_key(tiles, self.digraphs(tiles))
        return lambda across, down: down if key(down.word) < key(across.word) else across


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
    """The sort key of 003 r. 6–9 among moves of equal score (in the settings' key order),
    before it a top without a blank if the settings say so, after it where the blank is."""
    word_key = collation_key(tiles, settings.digraphs(tiles))
    parts: dict[str, Callable[[Move], Any]] = {
        "word": lambda m: word_key(m.word), "row": lambda m: m.row,
        "column": lambda m: m.col, "horizontal": lambda m: not m.across}
    order = [parts[name] for name in settings.keys]
    later = settings.blank_on == "later"

    def key(move: Move) -> tuple[Any, ...]:
        first = (move.blanks > 0,) if settings.prefer_no_blank else ()
        blank_at = tuple(ch.islower() == later for ch in move.word)
        return (*first, *(part(move) for part in order), blank_at)

    return key


@dataclass(frozen=True, slots=True)
class Tops:
    count: int  # distinct legal placements
    score: int  # the top score (0 without a legal move)
    tops: tuple[Move, ...]  # every placement scoring `score`, in tie order
    #: sub-tops: the best placements scoring less than the top, by score, then in tie order
    #: (as many as `top_moves` was asked for; the round's close announces them)
    next: tuple[Move, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"count": self.count, "top_score": self.score,
                "tops": [move.as_dict() for move in self.tops]}


def top_moves(board: Board, rack: str, graph: WordGraph, tiles: TileSet,
              settings: TopSettings = TopSettings(), sub_tops: int = 0) -> Tops:
    """Every legal placement counted, and the best ones in 003's tie order (the first is
    the move that goes on the board); with `sub_tops`, that many of the best below them."""
    count, best, below = best_and_next(board, rack, graph, tiles, settings.one_tile(tiles),
                                       sub_tops)
    tops = rank_tops(best, tiles, settings, count)
    key = tie_key(tiles, settings)
    ranked = sorted(below, key=lambda move: (-move.score, key(move)))
    return Tops(tops.count, tops.score, tops.tops, tuple(ranked[:sub_tops]))


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
