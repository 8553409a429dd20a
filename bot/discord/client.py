"""The Discord bot skeleton the cogs plug into: command tree, refusals, announcements, DMs.

No token handling and no run logic here: the CLI owns start-up. Everything that reaches Discord
goes through `discord.py` (tests drive it offline with tests/bot/discord/harness).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.current_event import current
from bot.discord.i18n import CatalogueTranslator, t
from bot.discord.markdown import literal_params
from bot.discord.persistent import event_suffix
from bot.discord.ratelimit import RateLimiter, whole_seconds
from bot.discord.render import render_reply
from bot.services.replies import Reply

log = logging.getLogger("stredisko.discord")

# Rules cited by the chat layer itself.
HEAD_ADMIN_RULE = "e-SP 2.5"  # the head administrator and his competences
CONTROL_CENTRE_RULE = "e-SP 2.6"  # the control centre is the official source of information


@dataclass(frozen=True)
class GuildConfig:
    """Where the tournament lives on Discord (ids come from the tournament's settings)."""

    guild_id: int
    control_channel_id: int
    head_admin_role_id: int


class Refusal(app_commands.CheckFailure):
    """A request the bot turns down: the reason is a catalogue message citing its rule.

    Raise it from a check, a command, a view or a modal; the bot answers the user ephemerally,
    in his language.
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(t(key, **params))

    def render(self, locale: discord.Locale | str | None) -> str:
        return t(self.key, locale, **literal_params(self.params))  # shown as typed


def refuse_if_too_fast(limiter: RateLimiter, user_id: int) -> None:
    """A user sending commands too fast is refused, told how long to wait."""
    wait = limiter.hit(user_id)
    if wait is not None:
        raise Refusal("discord.rate_limited", seconds=whole_seconds(wait))


async def reply_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """An ephemeral answer whether or not the interaction was already answered or deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


SAVED = "stredisko.saved"  # Interaction.extras key: the reply of a use case that committed


def mark_saved(interaction: discord.Interaction, reply: Reply) -> None:
    """The use case has committed: from here on, a failure is only a failure to answer, and
    the player must never be told that his action failed (he would repeat it)."""
    interaction.extras[SAVED] = reply


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one error path of commands, views and modals: refusals are answered, bugs logged.
    After a save (`mark_saved`) a failure to answer is answered with the saved reply instead."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, Refusal):
        await reply_ephemeral(interaction, error.render(interaction.locale))
        return
    saved = interaction.extras.get(SAVED)
    if isinstance(saved, Reply):
        log.warning("interaction %s: saved, but answering failed: %s", interaction.id, error)
        await answer_saved(interaction, saved)
        return
    log.error(
        "interaction %s of user %s failed",
        interaction.id,
        interaction.user.id if interaction.user else None,
        exc_info=error,
    )
    try:
        await reply_ephemeral(interaction, t("error.internal", interaction.locale))
    except discord.HTTPException:
        log.exception("could not tell user %s about the failure", interaction.user.id)


async def answer_saved(interaction: discord.Interaction, reply: Reply) -> None:
    """Tell the user what was saved after answering failed once: the interaction again, else
    a DM. If Discord refuses both, the log says so — the change itself stands."""
    note = t("discord.saved_after_error", interaction.locale)
    pieces = render_reply(reply, interaction.locale)
    try:
        await reply_ephemeral(interaction, note)
        for piece in pieces:
            await interaction.followup.send(**piece.kwargs(), ephemeral=True)
        return
    except discord.HTTPException as exc:
        log.warning("interaction %s: answer failed again (%s); trying a DM", interaction.id, exc)
    try:
        await interaction.user.send(note)
        for piece in pieces:
            await interaction.user.send(**piece.kwargs())
    except discord.HTTPException as exc:
        log.warning("user %s: the saved answer could not be delivered: %s",
                    interaction.user.id, exc)


def is_head_admin(interaction: discord.Interaction) -> bool:
    bot = interaction.client
    config = getattr(bot, "config", None)
    if config is None or not isinstance(interaction.user, discord.Member):
        return False
    # an event with a role of its own is ruled by that role's holders only (issue 37.4)
    event = current()
    role = event.admin_role_id if event is not None and event.admin_role_id else None
    return interaction.user.get_role(role or config.head_admin_role_id) is not None


def require_head_admin(interaction: discord.Interaction) -> bool:
    """Check for commands, views and modals: head admin only, else a refusal citing e-SP 2.5."""
    if not is_head_admin(interaction):
        raise Refusal("refusal.head_admin_only", rule=HEAD_ADMIN_RULE)
    return True


def head_admin_only() -> Callable[[Any], Any]:
    """Decorator for app commands only the head administrator may use."""
    return app_commands.check(require_head_admin)


class StrediskoTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class StrediskoView(discord.ui.View):
    """Base view: refusals and failures answered like those of commands."""

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await report_error(interaction, error)


#: how long an opened form waits for its submit before the bot forgets it (each opening is
#: kept under an id of its own, so a form closed unsent must not stay in memory for ever)
MODAL_TIMEOUT_S = 3600.0


class StrediskoModal(discord.ui.Modal):
    """Base modal: refusals and failures answered like those of commands.

    Every opening gets a custom_id of its own — `custom_id` as given, the event it was opened
    for (`:u<id>`) and a random tail: discord.py 2.7 keeps open modals keyed by custom_id
    alone (`ViewStore._modals`), so a fixed id let the newest form replace one still open for
    another user (his submit then ran the other's form, with the other's event, and the other's
    submit was discarded — issue 44.5)."""

    def __init__(self, *, custom_id: str, title: str = discord.utils.MISSING,
                 timeout: float | None = MODAL_TIMEOUT_S) -> None:
        event = current()
        tail = f"{event_suffix(event.id if event is not None else None)}:{secrets.token_hex(6)}"
        super().__init__(title=title, custom_id=custom_id[:100 - len(tail)] + tail,
                         timeout=timeout)

    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:
        await report_error(interaction, error)


CogFactory = Callable[["StrediskoBot"], commands.Cog]


class StrediskoBot(commands.Bot):
    """The control centre's bot: slash commands only, Slovak names with English localizations."""

    def __init__(
        self,
        config: GuildConfig | None = None,
        *,
        cogs: Sequence[CogFactory] = (),
        **options: Any,
    ) -> None:
        # Slash commands need no message-content or member intents; guilds give the cache of
        # roles and channels that checks and announcements use.
        intents = discord.Intents.none()
        intents.guilds = True
        # No voice: discord.Client warns once per process that PyNaCl and davey (voice
        # libraries) are missing — two English lines at every start a Slovak admin cannot act
        # on. The flags are discord.py's own switch for those warnings (client.py, 2.7).
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=StrediskoTree,
            intents=intents,
            **options,
        )
        self.config = config
        self._cog_factories = tuple(cogs)
        #: which event an interaction acts on (`bot.discord.routing.EventRouter`, set by the
        #: runner's `build_bot`); None: each cog serves the event it was built for
        self.events: object | None = None

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        for factory in self._cog_factories:
            await self.add_cog(factory(self))

    def control_channel(self) -> discord.TextChannel:
        if self.config is None:
            raise RuntimeError("the bot has no GuildConfig: control channel unknown")
        channel = self.get_channel(self.config.control_channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"control channel {self.config.control_channel_id} not in cache")
        return channel

    async def announce(self, content: str | None = None, **kwargs: Any) -> discord.Message:
        """An official post in the control centre (e-SP 2.6)."""
        return await self.control_channel().send(content, **kwargs)

    async def direct_message(
        self, user: discord.abc.User, content: str | None = None, **kwargs: Any
    ) -> bool:
        """A DM to a player; when his DMs are closed, say so in the control centre.

        The notice never repeats the message (it may be private); it points to the channel,
        which is the official source anyway. Returns whether the DM was delivered.
        """
        try:
            await user.send(content, **kwargs)
        except discord.Forbidden:
            log.info("DMs closed for user %s", user.id)
            await self.announce(
                t("dm.failed_notice", player=user.mention, rule=CONTROL_CENTRE_RULE),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return False
        return True
