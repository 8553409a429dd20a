"""The cogs of the control centre's bot; the runner plugs in `player_cog_factory` and
`admin_cog_factory`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from discord.ext import commands

from bot.discord.client import CogFactory, StrediskoBot
from bot.services.app import App


def player_cog_factory(app: App | Sequence[App], slug: str) -> CogFactory:
    """A factory for `StrediskoBot(cogs=[...])`. `app` may be a one-element holder filled
    after the bot is built (the App's notifier needs the bot): it is read at set-up time."""

    def build(bot: StrediskoBot) -> commands.Cog:
        from bot.discord.cogs.player import PlayerCog

        resolved = app if isinstance(app, App) else app[0]
        return PlayerCog(bot, resolved, slug)

    return build


def admin_cog_factory(*args: Any, **kwargs: Any) -> CogFactory:
    """The head administrator's `/admin` commands (bot.discord.cogs.admin)."""
    from bot.discord.cogs.admin import admin_cog_factory as factory

    return factory(*args, **kwargs)
