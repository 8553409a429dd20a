"""`collector_paused`: the cyclic collector is off during the call and as it was afterwards —
after an exception too, and left off when it was off."""

from __future__ import annotations

import gc
from collections.abc import Callable

import pytest

from rules.collector import collector_paused
from rules.duplicate.board import Board
from rules.duplicate.generate import generate
from rules.duplicate.tiles import TileSet
from rules.lexicon.graph import TrieGraph
from rules.model import Entrant
from rules.pairing import _pair_round, pair_round
from rules.profile import Profile

TILES = TileSet.load("sss-100")


@collector_paused
def _state(fail: bool = False) -> bool:
    if fail:
        raise ValueError("refused")
    return gc.isenabled()


def test_paused_inside_and_restored_after() -> None:
    assert gc.isenabled()
    assert _state() is False
    assert gc.isenabled()
    with pytest.raises(ValueError, match="refused"):
        _state(fail=True)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        assert _state() is False
        assert not gc.isenabled()
    finally:
        gc.enable()


def _collections_during(call: Callable[[], object]) -> int:
    """How many collections start during `call` with the collector set to run at every
    allocation (it would run hundreds of times in either call unpaused)."""
    started: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    threshold = gc.get_threshold()
    gc.callbacks.append(seen)
    gc.set_threshold(1, 1, 1)
    try:
        call()
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(seen)
    return len(started)


def test_the_pairing_and_the_generator_run_with_it_paused() -> None:
    """At most the call's own arguments set it off (before the pause); unpaused, the same call
    sets it off hundreds of times."""
    profile = Profile.load("sss-online")
    field = [Entrant(f"p{i}", 1500 + i) for i in range(40)]
    graph = TrieGraph(["kosa", "osa", "sa", "as", "kos", "oka", "ako", "okolo", "los", "sol"])
    board = Board.empty()
    calls = [
        (lambda: pair_round(field, [], 1, 7, profile),
         lambda: _pair_round.__wrapped__(field, [], 1, 7, profile, (), None)),
        (lambda: generate(board, "KOSALO?", graph, TILES),
         lambda: generate.__wrapped__(board, "KOSALO?", graph, TILES)),
    ]
    for paused, unpaused in calls:
        assert _collections_during(paused) <= 2 < 100 < _collections_during(unpaused)
