"""How the head admin's buttons, select and modals are answered: checked (e-SP 2.5), deferred
only when the work is slow, done by the loaded admin cog's App; on success the message they
sat on is replaced by the outcome, a refusal comes ephemerally."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

import discord

from bot.discord.client import mark_saved, report_error, require_head_admin
from bot.discord.cogs.admin.queries import may_run
from bot.discord.cogs.admin.texts import render
from bot.discord.cogs.player import replace, send
from bot.discord.current_event import tag_id
from bot.services.app import App
from bot.services.policy import RULINGS_RULE, Actor
from bot.services.replies import Reply

COG_NAME = "AdminCog"
DEFER_AFTER_S = 1.5  # a click answered by editing its message: defer only if work is slow


@runtime_checkable
class AdminHost(Protocol):
    """What the controls need of the loaded admin cog (found by name: the cog's module
    imports this one, not the other way round)."""

    app: App
    slug: str

    async def scope(self, interaction: discord.Interaction, *, acts: bool | None = None,
                    event_id: int | None = None) -> Any: ...

    async def show_checkin(self, interaction: discord.Interaction) -> None: ...


def actor(interaction: discord.Interaction) -> Actor:
    """Who clicks or types, for the services' admin policy: always his Discord account (the
    role let him this far; the tournament's admin list decides)."""
    return Actor.discord(interaction.user.id)


def admin_cog(interaction: discord.Interaction) -> AdminHost:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if not isinstance(cog, AdminHost):
        raise RuntimeError("the admin cog is not loaded")
    return cog


def event_id() -> int | None:
    """The id of the interaction's event, for the buttons and forms it sends (issue 37: they
    reach the shared admin channel, where no channel names the event)."""
    return tag_id()


async def enter_event(interaction: discord.Interaction, event: int | None) -> AdminHost:
    """The admin cog, with the click's event entered (the one its custom_id or form carries;
    an older button without one: its channel's), then the head admin's role checked."""
    cog = admin_cog(interaction)
    await cog.scope(interaction, acts=False, event_id=event)
    require_head_admin(interaction)
    return cog


async def on_click(interaction: discord.Interaction,
                   work: Callable[[AdminHost], Awaitable[Reply]],
                   view: discord.ui.View | None = None, *, event: int | None = None
                   ) -> Reply | None:
    """A button or select of the head admin: checked, deferred, done; on success the message
    it sat on is replaced by the outcome (its buttons gone), a refusal comes ephemerally.
    Returns the reply (None when the click was refused before the work or failed)."""
    async def checked_work() -> Reply:
        # the event's store read and the check run inside the timed task: a busy store costs
        # a deferral, never Discord's 3 s
        return await work(await enter_event(interaction, event))

    try:
        task = asyncio.ensure_future(checked_work())
        finished, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_S)
        if not finished:  # slow: acknowledge now (Discord's 3 s), edit the message later
            await interaction.response.defer()
        reply = await task
        pieces = render(reply, interaction.locale)
        if reply.ok:
            mark_saved(interaction, reply)
            await replace(interaction, pieces)
        else:
            await send(interaction, pieces, view=view)
        return reply
    except Exception as error:  # dynamic items have no on_error: answer like commands
        await report_error(interaction, error)
        return None


async def open_modal(interaction: discord.Interaction,
                     build: Callable[[], discord.ui.Modal], *, event: int | None = None) -> None:
    """A click that first asks (a modal), checked like every click of the head admin — the
    role and the admin policy — before the form opens."""
    try:
        # The role is only the first filter: a role holder the tournament does not name as
        # head admin gets the policy's refusal, never the form (issue 20.9).
        cog = await enter_event(interaction, event)
        allowed = await cog.app.run(may_run, cog.slug, actor(interaction), RULINGS_RULE)
        if isinstance(allowed, Reply):
            await send(interaction, render(allowed, interaction.locale))
            return
        await interaction.response.send_modal(build())
    except Exception as error:  # dynamic items have no on_error: answer like commands
        await report_error(interaction, error)


