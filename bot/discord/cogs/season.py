"""The season's ladder in the chat (issue 14): `/rebricek` shows the asking player his own row
and the cut line, ephemerally; after `/admin ukonci` the head admin is offered the ladder as it
stands now (the finished tournament's players' rows). The files come from config.toml
(`[season] file`, one or several: each counts, issue 44.8); the service reads and computes them
(`bot.services.season.ladder`) on every call, so an edited file counts at once."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import CogFactory, StrediskoBot, refuse_if_too_fast
from bot.discord.cogs.player import send
from bot.discord.i18n import app_str
from bot.discord.ratelimit import RateLimiter
from bot.discord.render import Outgoing, render_reply, text_messages
from bot.services.app import App
from bot.services.replies import Reply
from bot.services.season import ladder as season

COG_NAME = "SeasonCog"


def _pieces(result: list[str] | Reply, locale: discord.Locale) -> list[Outgoing]:
    if isinstance(result, Reply):
        return render_reply(result, locale)
    return text_messages("\n".join(result))


class SeasonCog(commands.Cog, name=COG_NAME):
    def __init__(self, bot: commands.Bot, app: App, season_files: str | Sequence[str], *,
                 limiter: RateLimiter | None = None) -> None:
        self.bot = bot
        self.app = app
        self.files = tuple(f for f in ((season_files,) if isinstance(season_files, str)
                                       else season_files) if f)
        self.limiter = limiter or RateLimiter()

    @app_commands.command(name=app_str("app.rebricek.name"),
                          description=app_str("app.rebricek.description"))
    async def rebricek(self, interaction: discord.Interaction) -> None:
        # the whole file is read for each call
        refuse_if_too_fast(self.limiter, interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await season.my_row(self.app, self.files, interaction.user.id,
                                     interaction.locale)
        await send(interaction, _pieces(result, interaction.locale))

    async def offer(self, interaction: discord.Interaction, slug: str) -> None:
        """The ladder after the tournament `slug` finished, as a follow-up to the head
        admin's answer; nothing when no season file is configured."""
        if not self.files:
            return
        result = await season.after_finish(self.app, self.files, slug, interaction.locale)
        await send(interaction, _pieces(result, interaction.locale))


async def offer_ladder(interaction: discord.Interaction, slug: str) -> None:
    """Offer the updated ladder when the season cog is loaded (the runner loads it)."""
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if isinstance(cog, SeasonCog):
        await cog.offer(interaction, slug)


def season_cog_factory(app: App | Sequence[App], season_files: str | Sequence[str]
                       ) -> CogFactory:
    """For `StrediskoBot(cogs=[...])`; `app` may be the runner's one-element holder, read at
    set-up time."""

    def build(bot: StrediskoBot) -> commands.Cog:
        return SeasonCog(bot, app if isinstance(app, App) else app[0], season_files)

    return build
