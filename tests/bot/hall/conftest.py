"""The hall page served for real on 127.0.0.1 (its own event loop in a thread, so a blocking
Chromium or HTTP client can talk to it) over a small lexicon under the SSS rules."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from bot.hall.server import bound_port, make_app, start
from rules.lexicon import Lexicon, admissibility, compile_graph, make_lexicon

MAIN = ["kamarát", "mesto", "stolík", "stolíky"]


def small_lexicon() -> Lexicon:
    return make_lexicon(compile_graph(sorted(MAIN)), "testovací zoznam")


@pytest.fixture
def hall() -> Iterator[str]:
    """The page's base URL."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port: list[int] = []

    def serve() -> None:
        asyncio.set_event_loop(loop)
        app = make_app(small_lexicon(), admissibility("sss"))
        runner = loop.run_until_complete(start(app, "127.0.0.1", 0))
        port.append(bound_port(runner))
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10), "the page did not start"
    try:
        yield f"http://127.0.0.1:{port[0]}"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
