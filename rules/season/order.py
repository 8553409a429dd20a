"""Ordering players level on total: tie-break criteria one after another, a drawn lot, ranks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Any

from rules.season.model import Tie

#: a criterion's code and its key: the larger key is the better player
Criterion = tuple[str, Callable[[str], Any]]


def by_total(totals: dict[str, Fraction]) -> list[list[str]]:
    """Players grouped by total, the highest first; a group's players by id (for stable output)."""
    ordered = sorted(totals, key=lambda p: (-totals[p], p))
    return [list(g) for _, g in groupby(ordered, key=lambda p: totals[p])]


@dataclass(frozen=True, slots=True)
class Resolver:
    """Applies `criteria` in order to a group level on total; "lot" is a criterion too."""

    criteria: Sequence[Criterion]
    rule: str
    lots: tuple[tuple[str, ...], ...] = ()

    def __call__(
        self, group: list[str], at_cut: bool = False, line: str | None = None
    ) -> tuple[list[list[str]], list[Tie]]:
        ties: list[Tie] = []

        def tie(players: Iterable[str], criterion: str, decided: bool = True) -> Tie:
            return Tie(tuple(players), criterion, self.rule, at_cut, decided, line)

        def split(players: list[str], i: int) -> list[list[str]]:
            if len(players) == 1 or i == len(self.criteria):
                return [players]
            code, key = self.criteria[i]
            if code == "lot":
                drawn = self._drawn(players)
                if drawn is None:
                    ties.append(tie(players, "lot", decided=False))
                    return [players]
                ties.append(tie(drawn, "lot"))
                return [[p] for p in drawn]
            ranked = sorted(players, key=key, reverse=True)  # stable: ids order the equal
            subs = [list(g) for _, g in groupby(ranked, key=key)]
            if len(subs) == 1:
                return split(players, i + 1)
            at = len(ties)
            blocks = [b for s in subs for b in split(s, i + 1)]
            ties.insert(at, tie((p for b in blocks for p in b), code))
            return blocks

        return split(group, 0), ties

    def _drawn(self, players: list[str]) -> list[str] | None:
        for lot in self.lots:
            if set(players) <= set(lot):
                return sorted(players, key=lot.index)
        return None


def ranks(blocks: Iterable[list[str]]) -> dict[str, int]:
    """1 + the players ahead; the players of one block share the rank."""
    rank: dict[str, int] = {}
    ahead = 0
    for block in blocks:
        for p in block:
            rank[p] = ahead + 1
        ahead += len(block)
    return rank


def best_results(points: dict[str, list[Fraction]]) -> Callable[[str], tuple[Fraction, ...]]:
    """Best result, then second best … (6+3 beats 6+2+1; 8+1 beats 5+4); results of 0 skipped
    so that a longer list of equal results never wins by its zeros."""
    keys = {p: tuple(sorted((x for x in xs if x > 0), reverse=True)) for p, xs in points.items()}
    return lambda p: keys.get(p, ())
