"""What `stredisko run` checks before it serves, each fault one Slovak line (exit code 2).

Offline, before Discord is contacted (`check_local`): the guild id and the tournament are
configured, the database exists (the bot never creates one: the tournament comes first,
`stredisko create`) and holds the tournament, and the head admin's messages have somewhere to
go — the admin channel, or else DMs to the tournament's head administrators (`admins = [...]`
in the propozície, `stredisko admins SLUG --add ID`). A bot that cannot reach its head admin
would only log "reached nobody" in the middle of a round.

Against Discord, once connected (`check_guild`): the bot is on the guild, the control channel
exists and the bot may post there, the head admin role exists, and the admin channel is
postable or at least one named head admin is on the guild (a bot can DM only people it shares
a server with).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord

from bot.config import DiscordConfig
from bot.discord.client import GuildConfig
from bot.discord.i18n import SLOVAK, t
from bot.discord.notifier import admin_channel_of
from bot.store import Tournament

log = logging.getLogger("stredisko.startup")

#: what the bot needs in a channel it posts to: see it, post, and post embeds (the review
#: queue, standings and pairings are embeds)
POSTING = ("view_channel", "send_messages", "embed_links")


class StartupError(Exception):
    """Something the operator must fix before the bot can start; the message says what."""

    @classmethod
    def of(cls, message: str, **params: Any) -> StartupError:
        """The error with the Slovak catalogue message `run.<message>`."""
        return cls(t(f"run.{message}", SLOVAK, **params))


# -- offline ------------------------------------------------------------------------------


def check_configured(config: DiscordConfig) -> str:
    """The slug of the one event the bot serves, or "" — every unfinished event of its
    database (issue 37); the guild id must be set."""
    if not config.guild_id:
        raise StartupError.of("no_guild_id")
    return config.tournament.strip()


def check_database(path: str | Path, slug: str) -> None:
    """The database must exist: `stredisko run` never creates one (it would hold no
    tournament, and a mistyped path would leave a stray file behind)."""
    if not Path(path).is_file():
        if not slug:  # a bot serving every event of the database (issue 37)
            raise StartupError.of("no_database_any", path=path)
        raise StartupError.of("no_database", path=path, slug=slug)


def check_admin_recipients(config: DiscordConfig, tournament: Tournament) -> None:
    """The head admin's messages need an admin channel or named head administrators."""
    if admin_channel_of(tournament, config.admin_channel_id or None) is None \
            and not tournament.admin_ids:
        raise StartupError.of("no_admin_recipients", slug=tournament.slug)


# -- against Discord -------------------------------------------------------------------------


def resolve_guild_config(
    guild: discord.Guild, tournament: Tournament | None, config: DiscordConfig
) -> GuildConfig:
    """Where the tournament lives: ids from the tournament row, else found by the configured
    names (channel `riadiace-stredisko`, role `Hlavný administrátor`)."""
    channel_id = tournament.channel_id if tournament else None
    if channel_id is None:
        channel = discord.utils.get(guild.text_channels, name=config.channel)
        if channel is None:
            raise StartupError.of("no_channel", guild=guild.name, channel=config.channel)
        channel_id = channel.id
    elif not isinstance(guild.get_channel(channel_id), discord.TextChannel):
        raise StartupError.of("no_channel_id", guild=guild.name, channel_id=channel_id)
    role_id = tournament.admin_role_id if tournament else None
    if role_id is None:
        role = discord.utils.get(guild.roles, name=config.admin_role)
        if role is None:
            raise StartupError.of("no_role", guild=guild.name, role=config.admin_role)
        role_id = role.id
    elif guild.get_role(role_id) is None:
        raise StartupError.of("no_role_id", guild=guild.name, role_id=role_id)
    return GuildConfig(guild.id, channel_id, role_id)


async def check_guild(
    client: discord.Client, config: DiscordConfig, tournament: Tournament | None
) -> GuildConfig:
    """The whole check against Discord's view of the guild (the bot's cache once connected,
    plus member look-ups); the first fault found is raised. `tournament` None: the guild's
    own control channel, role and admin channel (a bot serving several events checks each
    event after it)."""
    guild = client.get_guild(config.guild_id)
    if guild is None:
        raise StartupError.of("guild_unreachable", guild_id=config.guild_id)
    found = resolve_guild_config(guild, tournament, config)
    me = guild.me or await _member(guild, client.user.id if client.user else 0)
    if me is None:  # cannot happen on a guild the bot is in; said plainly if it does
        raise StartupError.of("guild_unreachable", guild_id=config.guild_id)
    _check_posting(guild.get_channel(found.control_channel_id), me, "channel_permissions")
    admin_channel_id = admin_channel_of(tournament, config.admin_channel_id or None)
    if admin_channel_id is not None:
        admin_channel = guild.get_channel(admin_channel_id)
        if admin_channel is None:
            raise StartupError.of("no_admin_channel", guild=guild.name,
                                  channel_id=admin_channel_id)
        _check_posting(admin_channel, me, "admin_channel_permissions")
    elif tournament is not None:
        await _check_admins(guild, tournament)
    return found


def _check_posting(channel: Any, me: discord.Member, message: str) -> None:
    granted = channel.permissions_for(me)
    missing = [name for name in POSTING if not getattr(granted, name)]
    if missing:
        raise StartupError.of(message, channel=channel.name, permissions=", ".join(
            t(f"run.permission.{name}", SLOVAK) for name in missing))


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """A member from the cache or, as the bot has no member intent, asked of Discord."""
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except (discord.NotFound, discord.Forbidden):
        return None


async def _check_admins(guild: discord.Guild, tournament: Tournament) -> None:
    """Without an admin channel, the head admins' DMs: at least one must be on the guild;
    the others are named in a warning (the bot still starts: one absent admin of three must
    not stop a tournament)."""
    absent = [admin for admin in tournament.admin_ids if await _absent(guild, admin)]
    ids = ", ".join(str(admin) for admin in absent)
    if len(absent) == len(tournament.admin_ids):
        raise StartupError.of("admins_unreachable", guild=guild.name, ids=ids,
                              slug=tournament.slug)
    if absent:
        log.warning("%s", t("run.some_admins_unreachable", SLOVAK, guild=guild.name, ids=ids))


async def _absent(guild: discord.Guild, admin: int) -> bool:
    """Whether Discord says the admin is not on the guild. A failed question (Discord's 5xx)
    is no fault of the configuration: he counts as present, with a warning."""
    try:
        return await _member(guild, admin) is None
    except discord.HTTPException as exc:
        log.warning("%s", t("run.admin_not_checked", SLOVAK, admin=admin, error=exc))
        return False
