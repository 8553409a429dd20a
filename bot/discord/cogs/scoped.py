"""What every event-bound cog shares (issue 37.1): its event is the interaction's, not the
cog's. `slug` reads the event `EventRouter.resolve` made current for this interaction; a cog
built for one event (`[discord] tournament`, the tests) falls back to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord.routing import EventRouter, acts_of, current_slug
from bot.services.app import App
from bot.services.tournament.events import SLUG_MAX, Event

T = TypeVar("T")

#: how long finding the event may take before the interaction is acknowledged ("thinking…"):
#: a store busy with a long transaction must not cost Discord's 3-second window
SCOPE_DEFER_S = 1.5

#: the `udalost` option of every event-bound command: a slug, bounded like any typed text
Udalost = app_commands.Range[str, 1, SLUG_MAX] | None


class EventScoped:
    """Mix into a cog with `bot`, `app` and `pinned` (the event it was built for, "" = any).
    `LOOKS`: the callbacks that only look (allowed on a finished event)."""

    bot: Any
    app: App
    pinned: str
    LOOKS: frozenset[str] = frozenset()

    @property
    def slug(self) -> str:
        return current_slug(self.pinned)

    @property
    def router(self) -> EventRouter:
        router = getattr(self.bot, "events", None)
        if isinstance(router, EventRouter):
            return router
        return EventRouter(self.app.store.read, self.pinned)

    async def scope(self, interaction: discord.Interaction, *, acts: bool | None = None,
                    event_id: int | None = None) -> Event:
        """Find and enter the interaction's event; `acts` defaults to "the command is not one
        of `LOOKS`"."""
        if acts is None:
            acts = acts_of(interaction, self.LOOKS)
        return await self.router.resolve(interaction, acts=acts, event_id=event_id)

    async def scope_in_time(self, interaction: discord.Interaction, *, acts: bool | None = None,
                            wait: float = SCOPE_DEFER_S) -> Event:
        """`scope` for a command that answers ephemerally: when the store keeps it longer than
        `wait`, "thinking…" first (the command's own deferral then does nothing)."""
        event = await within(interaction, self.scope(interaction, acts=acts), wait)
        self.router.adopt(event)  # found in a task: entered here, in the interaction's own
        return event


async def within(interaction: discord.Interaction, work: Awaitable[T], wait: float) -> T:
    """`work`'s result; when it takes longer than `wait`, an ephemeral "thinking…" first, so
    Discord keeps waiting (its 3 s), then the result. `work` runs in a task of its own."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), wait)
    except TimeoutError:
        await defer_once(interaction)
        return await task


async def defer_once(interaction: discord.Interaction) -> None:
    """An ephemeral "thinking…", unless the interaction was already acknowledged."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
