"""The store reports its backlog: jobs queued or running on its owner thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from bot.store import Store


async def test_backlog_counts_the_jobs_queued_or_running(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
    gate = threading.Event()
    try:
        assert store.backlog == 0
        blocked = asyncio.ensure_future(store.call(lambda db: gate.wait(60)))
        queued = [asyncio.ensure_future(store.read(lambda db: 1)) for _ in range(3)]
        await asyncio.sleep(0.05)  # the first job runs (and waits), three wait behind it
        assert store.backlog == 4
        gate.set()
        assert await blocked is True and await asyncio.gather(*queued) == [1, 1, 1]
        assert store.backlog == 0
    finally:
        gate.set()
        await store.close()
