"""The lease checked at the last moment a request can leave (issue 43.4).

The notifier confirms the lease before each piece it posts (`Holding.confirm`), but discord.py
may send a request again on its own: after a 429's wait, after a dropped connection. A bot
frozen inside that wait (a laptop asleep, a paused VM) and taken over meanwhile would post the
piece once more when it wakes — minutes later, outside Discord's nonce window. aiohttp calls a
session's `on_request_start` hooks right before every attempt it sends, retries included, so
the check hooked there is the last one there can be: a lost lease raises `LeaseLost` and the
request never leaves."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import aiohttp


def lease_trace(confirm: Callable[[], Awaitable[None]]) -> aiohttp.TraceConfig:
    """A trace for the bot's HTTP session: `confirm()` (raising `LeaseLost` when the lease was
    taken over) is awaited before each request attempt leaves."""
    trace = aiohttp.TraceConfig()

    async def before_sending(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestStartParams) -> None:
        await confirm()

    trace.on_request_start.append(before_sending)
    return trace
