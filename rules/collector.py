"""Pausing Python's cyclic garbage collector around one call of a hot, allocation-heavy
computation (the pairing of a round, the duplicate move generator).

Such a call allocates many short-lived objects (tuples, small lists, edges, moves) and no
reference cycle, so the collector can free nothing among them, yet their count alone sets it
off again and again — and now and then a pass over the whole process lands inside the call
(measured: a third of a two-blank rack's generation; 10–50 ms inside a 200-player round).
Reference counting frees them as usual; a pass that is due runs at the caller's next
allocation. A concurrent call may find the collector paused: harmless, for the same reason.
This is process state, not I/O: `rules` stays pure in what it computes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def collector_paused(fn: Callable[P, T]) -> Callable[P, T]:
    """`fn` with the collector paused for its call and restored as it was afterwards."""

    @wraps(fn)
    def paused(*args: P.args, **kwargs: P.kwargs) -> T:
        # plain calls, no context manager: its objects, allocated before the pause, could set
        # the collector off
        enabled = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused
