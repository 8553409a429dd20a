"""Background loops of the bot process (the outbox sender, the round poll, the login retry):
do a pass, then wait — but never past a stop request (SIGTERM must not wait out a pause)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Wait `seconds`, or less if `stop` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


async def every(stop: asyncio.Event, seconds: float, tick: Callable[[], Awaitable[object]],
                log: logging.Logger, what: str) -> None:
    """`tick`, then a `pause`, until `stop` is set. A failing tick is logged (as `what`) and
    tried again next time: a herna.net outage or a broken notifier must never end the loop."""
    while not stop.is_set():
        try:
            await tick()
        except Exception:
            log.exception("%s failed; trying again in %g s", what, seconds)
        await pause(stop, seconds)
