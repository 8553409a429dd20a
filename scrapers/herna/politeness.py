"""Be gentle with herna.net: at most N requests at once and M request starts per second."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager


class Throttle:
    """`max_concurrent` / `per_second` of None (or 0) switch that limit off."""

    def __init__(
        self,
        max_concurrent: int | None,
        per_second: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._slots = asyncio.Semaphore(max_concurrent) if max_concurrent else None
        self._interval = 1.0 / per_second if per_second else 0.0
        self._clock = clock
        self._sleep = sleep
        self._pace = asyncio.Lock()
        self._next_start = 0.0

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if self._slots is not None:
                await stack.enter_async_context(self._slots)
            if self._interval:
                await self._wait_turn()
            yield

    async def _wait_turn(self) -> None:
        # The lock makes waiters take turns, so starts are spaced by the interval.
        async with self._pace:
            wait = self._next_start - self._clock()
            if wait > 0:
                await self._sleep(wait)
            self._next_start = max(self._clock(), self._next_start) + self._interval
