"""The hall page served for real on 127.0.0.1 (its own event loop in a thread, so a blocking
Chromium or HTTP client can talk to it) over a small lexicon under the SSS rules."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator

import pytest
from aiohttp import web

from bot.hall.server import make_app, serve
from rules.lexicon import Lexicon, admissibility, compile_graph, make_lexicon

MAIN = ["kamarát", "mesto", "stolík", "stolíky"]


def small_lexicon() -> Lexicon:
    return make_lexicon(compile_graph(sorted(MAIN)), "testovací zoznam")


@contextlib.contextmanager
def serving(make: Callable[[], web.Application]) -> Iterator[str]:
    """The application `make` builds, served on 127.0.0.1 in its own event loop's thread while
    inside; yields its URL ("http://127.0.0.1:PORT/")."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    url: list[str] = []
    stop = asyncio.Event()

    async def run() -> None:
        async with serve(make(), "127.0.0.1", 0) as at:
            url.append(at)
            ready.set()
            await stop.wait()

    thread = threading.Thread(target=lambda: loop.run_until_complete(run()), daemon=True)
    thread.start()
    assert ready.wait(10), "the page did not start"
    try:
        yield url[0]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        loop.close()


@contextlib.contextmanager
def running(lexicon: Lexicon, rules: str = "sss") -> Iterator[str]:
    """The page over `lexicon` served on 127.0.0.1 while inside; yields its base URL."""
    with serving(lambda: make_app(lexicon, admissibility(rules))) as url:
        yield url.rstrip("/")


@pytest.fixture
def hall() -> Iterator[str]:
    """The page's base URL."""
    with running(small_lexicon()) as url:
        yield url
