"""The player commands: register, check in, status, absence, arrival, draw, result, dispute,
withdrawal, pairings, standings.

Every command calls one use case of `bot.services.tournament.play` /
`bot.services.tournament.views` and renders its `Reply` in the player's language; refusals come back
from the service with the rule they cite. Answers only the player needs are ephemeral. A slow store
never costs the 3-second answer window: after `defer_after` seconds the interaction is deferred and
the answer follows. The two buttons that matter beyond one sitting — the opponent's draw
confirmation and the withdrawal confirmation — are `DynamicItem`s with fixed custom_ids, so they
keep working after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import Refusal, mark_saved, refuse_if_too_fast, report_error
from bot.discord.cogs.scoped import EventScoped, Udalost
from bot.discord.current_event import current, tag_id
from bot.discord.i18n import SLOVAK, CatalogueError, app_str, t
from bot.discord.markdown import literal, mention
from bot.discord.persistent import EVENT_SUFFIX, RebuiltFromCustomId, event_suffix
from bot.discord.ratelimit import RateLimiter
from bot.discord.render import Outgoing, render_reply
from bot.discord.routing import give_event_option
from bot.services import bounds, lookup
from bot.services.app import App, Tx
from bot.services.replies import Refusal as ServiceRefusal
from bot.services.replies import Reply
from bot.services.tournament import play, views

T = TypeVar("T")
log = logging.getLogger("stredisko.discord.player")

DEFER_AFTER_S = 1.5  # Discord allows 3 s for the first answer; leave room for the network
# Service calls already under way (this cog's, or transactions queued at the store) from which
# an answer is deferred at once instead of waiting behind them: when a whole round reports at
# the same moment, each player gets "thinking…" within milliseconds, then the answer. A lone
# command (the usual case) is answered directly, without the extra request.
DEFER_BACKLOG = 2
DRAW_RULE = play.DRAW_RULE
COG_NAME = "PlayerCog"
ARRIVAL_BUSY = "stredisko.busy"  # Interaction.extras: the store was busy when it arrived


def _app_text(key: str, fallback: str) -> app_commands.locale_str:
    """A command string from the catalogue; `fallback` (Slovak, no English) while the key is
    missing — `app.param.prezyvka` is requested from the catalogue's owner."""
    try:
        return app_str(key)
    except CatalogueError:
        return app_commands.locale_str(fallback)


# -- answering ---------------------------------------------------------------------------


async def send(
    interaction: discord.Interaction,
    pieces: list[Outgoing],
    *,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
) -> None:
    """Answer (or follow up) with every piece; a view goes under the last one."""
    for i, piece in enumerate(pieces):
        kwargs: dict[str, Any] = piece.kwargs()
        if view is not None and i == len(pieces) - 1:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(**kwargs, ephemeral=ephemeral)


async def replace(interaction: discord.Interaction, pieces: list[Outgoing]) -> None:
    """Replace the clicked message with the first piece (buttons removed); the rest follow."""
    first, rest = pieces[0], pieces[1:]
    if interaction.response.is_done():
        await interaction.edit_original_response(**first.kwargs(), view=None)
    else:
        await interaction.response.edit_message(**first.kwargs(), view=None)
    for piece in rest:
        await interaction.followup.send(**piece.kwargs(), ephemeral=True)


def _saved(interaction: discord.Interaction, result: T) -> T:
    if isinstance(result, Reply) and result.ok:
        mark_saved(interaction, result)
    return result


def _cog(interaction: discord.Interaction) -> PlayerCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if not isinstance(cog, PlayerCog):
        raise RuntimeError("the player cog is not loaded")
    return cog


def _current_round_no(tx: Tx, slug: str) -> int:
    # "/parovanie" without a number means the round in play (never a pairing not yet published)
    rnd = lookup.current_round(tx, lookup.tournament(tx, slug))
    if rnd is None:
        raise ServiceRefusal("common.no_round")
    return rnd.number


# -- persistent buttons ------------------------------------------------------------------


class ConfirmDrawButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:remiza:(?P<round>[0-9]+):(?P<proposer>[0-9]+)" + EVENT_SUFFIX,
):
    """The opponent's written confirmation of an agreed draw (e-SP 3.5). Only the proposer's
    opponent in that round may confirm (the service checks it against the custom_id's proposer
    and round, before the limit); anyone else is refused ephemerally and the prompt with its
    button stays for the opponent."""

    def __init__(self, round_no: int, proposer: int, event: int | None = None,
                 label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or t("discord.draw.confirm_button", SLOVAK),
                style=discord.ButtonStyle.success,
                custom_id=f"stredisko:remiza:{round_no}:{proposer}{event_suffix(event)}",
            )
        )
        self.round_no = round_no
        self.proposer = proposer
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            cog = _cog(interaction)
            cog.limit(interaction)
            await cog.scope_for_click(interaction, self.event)
            reply = await cog.call(
                interaction,
                play.confirm_draw(cog.app, cog.slug, interaction.user.id, self.proposer,
                                  self.round_no),
                update=True,
            )
            if reply.ok:
                before = interaction.message.content if interaction.message else ""
                note = t("discord.draw.confirmed", SLOVAK, opponent=interaction.user.mention,
                         round=self.round_no, rule=DRAW_RULE)
                await replace(interaction, [Outgoing(content=f"{before}\n✅ {note}".strip())])
            await send(interaction, render_reply(reply, interaction.locale))
        except Exception as error:  # dynamic items have no on_error: answer like commands
            await report_error(interaction, error)


class WithdrawButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:odstupit:(?P<owner>[0-9]+)" + EVENT_SUFFIX,
):
    """The player's confirmation that he withdraws (e-SP 3.6)."""

    def __init__(self, owner: int, event: int | None = None, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or t("discord.withdraw.confirm_button", SLOVAK),
                style=discord.ButtonStyle.danger,
                custom_id=f"stredisko:odstupit:{owner}{event_suffix(event)}",
            )
        )
        self.owner = owner
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            cog = _cog(interaction)
            _owner_only(interaction, self.owner)
            await cog.scope_for_click(interaction, self.event)
            reply = await cog.call(
                interaction,
                play.withdraw(cog.app, cog.slug, interaction.user.id, True),
                update=True,
            )
            await replace(interaction, render_reply(reply, interaction.locale))
        except Exception as error:
            await report_error(interaction, error)


class CancelButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:zrusit:(?P<owner>[0-9]+)",
):
    """Back out of a confirmation: nothing changes."""

    def __init__(self, owner: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or t("discord.cancel_button", SLOVAK),
                style=discord.ButtonStyle.secondary,
                custom_id=f"stredisko:zrusit:{owner}",
            )
        )
        self.owner = owner

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            _owner_only(interaction, self.owner)
            text = t("discord.cancelled", interaction.locale)
            await replace(interaction, [Outgoing(content=text)])
        except Exception as error:
            await report_error(interaction, error)


def account_tag(user: discord.abc.User) -> str:
    """What proves an account against the registry: its unique username, or for an account
    not yet migrated its legacy tag "name#1234" — never the display name anyone may choose."""
    if user.discriminator and user.discriminator.strip("0"):
        return f"{user.name}#{user.discriminator}"
    return user.name


def _event_id() -> int | None:
    """The id of the interaction's event, for the buttons it sends (None: not resolved)."""
    return tag_id()


def _owner_only(interaction: discord.Interaction, owner: int) -> None:
    if interaction.user.id != owner:
        raise Refusal("refusal.not_your_button", player=mention(owner))


# -- the cog -----------------------------------------------------------------------------


class PlayerCog(EventScoped, commands.Cog, name=COG_NAME):
    #: what a player may still see of a finished event (every other command acts)
    LOOKS = frozenset({"stav", "parovanie", "poradie"})

    def __init__(
        self,
        bot: commands.Bot,
        app: App,
        slug: str,
        *,
        limiter: RateLimiter | None = None,
        defer_after: float = DEFER_AFTER_S,
    ) -> None:
        self.bot = bot
        self.app = app
        self.pinned = slug
        self.limiter = limiter or RateLimiter()
        self.defer_after = defer_after
        self.defer_backlog = DEFER_BACKLOG
        self._in_flight = 0  # service calls started by this cog and not finished

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ConfirmDrawButton, WithdrawButton, CancelButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ConfirmDrawButton, WithdrawButton, CancelButton)

    # -- shared steps ----------------------------------------------------------------------

    def limit(self, interaction: discord.Interaction) -> None:
        """Refuse a user who sends commands too fast."""
        refuse_if_too_fast(self.limiter, interaction.user.id)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        self.limit(interaction)  # a check for every command of this cog
        # The event of its channel, or the one named (a store read): whether the store was busy
        # is judged on arrival, and the read counts as work under way for those after it.
        busy = self._busy()
        interaction.extras[ARRIVAL_BUSY] = busy
        self._in_flight += 1
        try:
            event = await self._in_window(interaction, self.scope(interaction), busy)
        finally:
            self._in_flight -= 1
        self.router.adopt(event)  # found in a task of its own: entered here too
        return True

    async def scope_for_click(self, interaction: discord.Interaction, event: int | None) -> None:
        """A player's button: its event found inside the answer window like the work after it
        (a busy store: the button's message is acknowledged first), then entered here."""
        self.router.adopt(await self.call(
            interaction, self.scope(interaction, acts=True, event_id=event), update=True))

    def _busy(self) -> bool:
        # Our own calls count too: their transactions may not have reached the store yet.
        return max(self._in_flight, self.app.store.backlog) >= self.defer_backlog

    async def call(
        self,
        interaction: discord.Interaction,
        work: Awaitable[T],
        *,
        ephemeral: bool = True,
        update: bool = False,
    ) -> T:
        """Await a service; if it takes longer than `defer_after`, defer the interaction first
        (a "thinking…" answer, or for a button an update of its message) so Discord does not
        give up on us, then return its result for a follow-up. When `defer_backlog` other
        service calls (or store transactions) are already under way (a burst: a whole round
        reporting at once), the answer would wait behind all of them: defer at once."""
        busy = interaction.extras.pop(ARRIVAL_BUSY, None)
        self._in_flight += 1
        try:
            return _saved(interaction, await self._in_window(
                interaction, work, self._busy() if busy is None else busy,
                ephemeral=ephemeral, update=update))
        finally:
            self._in_flight -= 1

    async def _in_window(self, interaction: discord.Interaction, work: Awaitable[T],
                         busy: bool, *, ephemeral: bool = True, update: bool = False) -> T:
        task = asyncio.ensure_future(work)
        if busy:
            await self._defer(interaction, ephemeral=ephemeral, update=update)
        else:
            try:
                return await asyncio.wait_for(asyncio.shield(task), self.defer_after)
            except TimeoutError:
                await self._defer(interaction, ephemeral=ephemeral, update=update)
        return await task

    @staticmethod
    async def _defer(interaction: discord.Interaction, *, ephemeral: bool, update: bool) -> None:
        """Acknowledge now; if Discord fails that, the use case still runs to its end and its
        answer is tried afterwards (never "failed, try again" for something saved)."""
        if interaction.response.is_done():  # acknowledged while its event was found
            return
        try:
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.HTTPException as exc:
            log.warning("interaction %s: deferring failed: %s", interaction.id, exc)

    async def answer(self, interaction: discord.Interaction, work: Awaitable[Reply]) -> None:
        reply = await self.call(interaction, work)
        await send(interaction, render_reply(reply, interaction.locale))

    # -- commands ----------------------------------------------------------------------------

    @app_commands.command(
        name=app_str("app.registracia.name"), description=app_str("app.registracia.description")
    )
    @app_commands.rename(prezyvka=_app_text("app.param.prezyvka", "prezyvka"))
    @app_commands.describe(
        prezyvka=_app_text("app.param.prezyvka_description", "Tvoja prezývka na herna.net")
    )
    async def registracia(
        self,
        interaction: discord.Interaction,
        prezyvka: app_commands.Range[str, 1, bounds.NICK_MAX],
        udalost: Udalost = None,
    ) -> None:
        user = interaction.user
        await self.answer(
            interaction, play.register(self.app, self.slug, user.id, account_tag(user), prezyvka)
        )

    @app_commands.command(
        name=app_str("app.prezentacia.name"), description=app_str("app.prezentacia.description")
    )
    async def prezentacia(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, play.check_in(self.app, self.slug, interaction.user.id))

    @app_commands.command(
        name=app_str("app.stav.name"), description=app_str("app.stav.description")
    )
    async def stav(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, play.status(self.app, self.slug, interaction.user.id))

    @app_commands.command(
        name=app_str("app.nepritomny.name"), description=app_str("app.nepritomny.description")
    )
    async def nepritomny(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(
            interaction, play.report_absence(self.app, self.slug, interaction.user.id)
        )

    @app_commands.command(
        name=app_str("app.pritomny.name"), description=app_str("app.pritomny.description")
    )
    async def pritomny(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, play.arrive(self.app, self.slug, interaction.user.id))

    @app_commands.command(
        name=app_str("app.remiza.name"), description=app_str("app.remiza.description")
    )
    @app_commands.guild_only()  # the opponent's button must be visible in the control centre
    async def remiza(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        reply, opponent, round_no = await self.call(interaction, self._propose(interaction.user.id))
        await send(interaction, render_reply(reply, interaction.locale))
        if not reply.ok:
            return
        # The public prompt, in the guild's language, with the consequence before confirming.
        prompt = t("discord.draw.prompt", SLOVAK, proposer=mention(interaction.user.id),
                   opponent=opponent, round=round_no, rule=DRAW_RULE)
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmDrawButton(round_no, interaction.user.id, _event_id()))
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=True)
        home = self._home_channel(interaction)
        if home is None or home == interaction.channel_id:
            await interaction.followup.send(prompt, view=view, ephemeral=False,
                                            allowed_mentions=mentions)
        else:  # named (`udalost`) in a channel of no event: the prompt goes to the event's own
            await self.bot.get_partial_messageable(home).send(prompt, view=view,
                                                              allowed_mentions=mentions)

    def _home_channel(self, interaction: discord.Interaction) -> int | None:
        """The channel of this interaction's event (e-SP 2.6: its control centre is its one
        official source): its own, else the guild's control centre; None: not resolved, or
        not on this server (never another server's: the head admin hears of it)."""
        event = current()
        if event is None:
            return None
        config = getattr(self.bot, "config", None)
        home = event.channel_id or (config.control_channel_id if config is not None else None)
        guild = interaction.guild
        return home if guild is None or home is None or guild.get_channel(home) else None

    async def _propose(self, discord_id: int) -> tuple[Reply, str, int]:
        """Propose, then look up whom to ping (the service's reply names him, not his id)."""
        reply = await play.propose_draw(self.app, self.slug, discord_id)
        if not reply.ok:
            return reply, "", 0
        seat = await play.status(self.app, self.slug, discord_id)
        data = seat.data if isinstance(seat.data, dict) else {}
        opponent = data.get("opponent") or {}
        discord_of = opponent.get("discord_id")
        name = mention(discord_of) if discord_of else literal(
            str(reply.params.get("opponent", "")))
        return reply, name, int(data.get("round") or 0)

    @app_commands.command(
        name=app_str("app.vysledok.name"), description=app_str("app.vysledok.description")
    )
    @app_commands.rename(
        moje_skore=app_str("app.param.moje_skore"), skore_supera=app_str("app.param.skore_supera")
    )
    @app_commands.describe(
        moje_skore=app_str("app.param.moje_skore_description"),
        skore_supera=app_str("app.param.skore_supera_description"),
    )
    async def vysledok(
        self,
        interaction: discord.Interaction,
        moje_skore: app_commands.Range[int, 0, bounds.SCORE_MAX],
        skore_supera: app_commands.Range[int, 0, bounds.SCORE_MAX],
        udalost: Udalost = None,
    ) -> None:
        # Whole-number options: Discord's client offers a number field and refuses "štyristo"
        # or 9999 before sending; the service still checks the profile's own, lower bound.
        await self.answer(
            interaction,
            play.report_result(self.app, self.slug, interaction.user.id, moje_skore, skore_supera),
        )

    @app_commands.command(
        name=app_str("app.namietka.name"), description=app_str("app.namietka.description")
    )
    @app_commands.rename(dovod=app_str("app.param.dovod"), snimka=app_str("app.param.snimka"),
                         kolo=app_str("app.param.kolo"),
                         sporne_slovo=app_str("app.namietka.duplikat.sporne_slovo"),
                         namietane=app_str("app.namietka.duplikat.namietane"))
    @app_commands.describe(
        dovod=app_str("app.param.dovod_description"),
        snimka=app_str("app.param.snimka_description"),
        kolo=app_str("app.namietka.duplikat.kolo_description"),
        sporne_slovo=app_str("app.namietka.duplikat.sporne_slovo_description"),
        namietane=app_str("app.namietka.duplikat.namietane_description"),
    )
    @app_commands.choices(namietane=[
        app_commands.Choice(name=app_str("app.namietka.duplikat.uznane"),
                            value="wrongly-accepted"),
        app_commands.Choice(name=app_str("app.namietka.duplikat.zamietnute"),
                            value="wrongly-rejected"),
    ])
    async def namietka(
        self,
        interaction: discord.Interaction,
        dovod: app_commands.Range[str, 3, bounds.TEXT_MAX],
        snimka: discord.Attachment | None = None,
        kolo: app_commands.Range[int, 1, 999] | None = None,
        sporne_slovo: app_commands.Range[str, 1, 40] | None = None,
        namietane: str | None = None,
        udalost: Udalost = None,
    ) -> None:
        # A duplicate event's protest is about a word in a round (003 r. 27): the duplicate
        # cog files it; the classic dispute of a result (e-SP 4.7) otherwise.
        duplicate = interaction.client.get_cog("DuplicateCog")  # type: ignore[attr-defined]
        if duplicate is not None and await duplicate.is_duplicate():
            await duplicate.protest(interaction, dovod, kolo, sporne_slovo, namietane)
            return
        url = snimka.url if snimka is not None else None
        await self.answer(
            interaction, play.dispute(self.app, self.slug, interaction.user.id, dovod, url)
        )

    @app_commands.command(
        name=app_str("app.odstupit.name"), description=app_str("app.odstupit.description")
    )
    async def odstupit(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        user = interaction.user
        reply = await self.call(interaction, play.withdraw(self.app, self.slug, user.id, False))
        view = None
        if reply.ok:  # the consequences (e-SP 3.6) are shown; nothing happens before the click
            view = discord.ui.View(timeout=None)
            view.add_item(WithdrawButton(user.id, _event_id(),
                                         t("discord.withdraw.confirm_button", interaction.locale)))
            view.add_item(CancelButton(user.id, t("discord.cancel_button", interaction.locale)))
        await send(interaction, render_reply(reply, interaction.locale), view=view)

    @app_commands.command(
        name=app_str("app.parovanie.name"), description=app_str("app.parovanie.description")
    )
    @app_commands.rename(kolo=app_str("app.param.kolo"))
    @app_commands.describe(kolo=app_str("app.param.kolo_description"))
    async def parovanie(
        self,
        interaction: discord.Interaction,
        kolo: app_commands.Range[int, 1, bounds.ROUND_MAX] | None = None,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, self._pairings(kolo))

    async def _pairings(self, round_no: int | None) -> Reply:
        if round_no is None:
            found = await self.app.run(_current_round_no, self.slug)
            if isinstance(found, Reply):
                return found
            round_no = found
        return await views.pairings_view(self.app, self.slug, round_no, published_only=True)

    @app_commands.command(
        name=app_str("app.poradie.name"), description=app_str("app.poradie.description")
    )
    async def poradie(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, views.standings_view(self.app, self.slug))
give_event_option(PlayerCog)
