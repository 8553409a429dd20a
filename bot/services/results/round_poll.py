"""The round poll: while a round has tables without a counting game and its game time limit
(plus `POLL_MARGIN`) has not passed, a pass over it every `config.sync.poll_minutes` — for one
event (`poll_round`, `RoundPoller`) or for every running event with one herna.net login
(`poll_current_rounds`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from datetime import timedelta

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.results import sync  # sync.sync_round: bench/rehearse.py times it there
from bot.services.results.fetch import Herna
from bot.services.results.plan import SyncSummary, round_window, run_or_refuse
from bot.services.results.records import has_counting_game
from bot.store import list_rounds

#: one logger for the whole result sync, whichever of its modules speaks
log = logging.getLogger("bot.services.results.sync")


#: A round is polled until its game time limit plus this margin: records of games that ended
#: just before the limit appear on herna.net a little later.
POLL_MARGIN = timedelta(minutes=15)


async def poll_round(
    app: App, slug: str, round_no: int, client: Herna, *, margin: timedelta = POLL_MARGIN
) -> SyncSummary | None:
    """One poll for the scheduler (every `config.sync.poll_minutes`): a pass while the round
    has tables without a counting game and its limit + `margin` has not passed; None when
    there is nothing left to poll for."""
    if not await run_or_refuse(app, _worth_polling, slug, round_no, margin):
        return None
    return await sync.sync_round(app, slug, round_no, client)


async def poll_current_round(
    app: App, slug: str, open_client: Callable[[], AbstractAsyncContextManager[Herna]],
    *, margin: timedelta = POLL_MARGIN,
) -> SyncSummary | None:
    """One tick of the bot's round poll (every `config.sync.poll_minutes`): sync the
    tournament's current round while some table still lacks a counting game before its limit
    + `margin`. herna.net is logged into only when there is something to look for."""
    round_no = await run_or_refuse(app, _current_round_no, slug)
    if round_no is None or not await run_or_refuse(app, _worth_polling, slug, round_no, margin):
        return None
    async with open_client() as client:
        return await sync.sync_round(app, slug, round_no, client)


async def poll_current_rounds(
    app: App, slugs: Iterable[str],
    open_client: Callable[[], AbstractAsyncContextManager[Herna]], *,
    margin: timedelta = POLL_MARGIN,
) -> list[SyncSummary]:
    """One tick of the bot's round poll over several events: `poll_current_round` for each,
    with ONE herna.net client (one login) shared by every event that has something to look
    for, opened at the first of them. One event's trouble is logged and never stops the
    others' poll."""
    summaries: list[SyncSummary] = []
    async with AsyncExitStack() as stack:
        client: Herna | None = None
        for slug in slugs:
            try:
                round_no = await run_or_refuse(app, _current_round_no, slug)
                if round_no is None or not await run_or_refuse(app, _worth_polling, slug, round_no,
                                                               margin):
                    continue
                if client is None:
                    client = await stack.enter_async_context(open_client())
                summaries.append(await sync.sync_round(app, slug, round_no, client))
            except Exception:
                log.exception("round poll of %s failed", slug)
    return summaries


def _current_round_no(tx: Tx, slug: str) -> int | None:
    rnd = lookup.current_round(tx, lookup.tournament(tx, slug))
    return None if rnd is None or rnd.closed_at is not None else rnd.number


@dataclass(slots=True)
class RoundPoller:
    """Repeats `poll_round` every `every` until it says there is nothing left to poll for."""

    app: App
    slug: str
    round_no: int
    client: Herna
    every: timedelta
    margin: timedelta = POLL_MARGIN
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def run(self) -> list[SyncSummary]:
        passes = []
        while True:
            summary = await poll_round(self.app, self.slug, self.round_no, self.client,
                                       margin=self.margin)
            if summary is None:
                return passes
            passes.append(summary)
            await self.sleep(self.every.total_seconds())


def _worth_polling(tx: Tx, slug: str, round_no: int, margin: timedelta) -> bool:
    t = lookup.tournament(tx, slug)
    rnd = next((r for r in list_rounds(tx.db, t.id) if r.number == round_no), None)
    if rnd is None or tx.now >= rnd.limit_at + margin:
        return False
    w = round_window(tx, t, rnd)
    return any(not has_counting_game(tx, w, table) for table in w.tables)
