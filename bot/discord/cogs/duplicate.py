"""Duplicate Scrabble in Discord (issue 24 items 2–3): `/tah`, the duplicate `/namietka`, and
the head referee's `/duplikat` — `rozhodnutie`, `koniec`, `poradie`, `start` (what they run:
`duplicate_admin`).

`/tah suradnica hlavne_slovo [body]` — or `/tah` alone, which opens a form — hands in the
player's slip for the open round through `bot.services.duplicate.slips.submit_slip`, stamped
with the moment Discord received the interaction (its snowflake time, never the bot's clock:
a slip sent at 17:59:59 that reaches a busy bot at 18:00:02 was on time, 003 r. 19). The answer
is private and says how the slip was read ("8H SLOVO, 24 bodov"), whether it replaces an
earlier one (the profile's 003 r. 41/42) or came late — never whether the move is valid.

The round's public messages (the rack and board image, the warning, the top, the summary,
evaluations by DM, standings, results, the seed) are the services' outbox messages, rendered by
`bot.discord.render` with the chat wording of `bot.discord.duplicate_text`; a filed protest
reaches the head referee with two buttons (uphold / reject, then the reasons), the same
decision as `/duplikat rozhodnutie`. The head referee's other acts — the final results and
the seed (003 r. 25–29), the standings now (r. 46–48), the next game started (r. 11–13) — are
the hall's console commands in chat, answered to him alone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import bot.discord.cogs.duplicate_admin as duplicate_admin
from bot.discord.client import (
    CogFactory,
    Refusal,
    StrediskoBot,
    StrediskoModal,
    mark_saved,
    refuse_if_too_fast,
    require_head_admin,
)
from bot.discord.cogs.duplicate_protests import COG_NAME, DecisionButton, protest_buttons
from bot.discord.cogs.player import DEFER_AFTER_S, send
from bot.discord.cogs.scoped import EventScoped, Udalost, within
from bot.discord.i18n import app_str, t
from bot.discord.markdown import literal
from bot.discord.ratelimit import RateLimiter
from bot.discord.render import MESSAGE_VIEWS, render_reply, text_messages
from bot.discord.routing import current, give_event_option
from bot.services import bounds
from bot.services.app import App, Tx
from bot.services.duplicate.context import event_of
from bot.services.duplicate.protests import CLAIMS
from bot.services.duplicate.shootout import SCORE_LIMIT as SHOOT_OUT_SCORE_LIMIT
from bot.services.duplicate.slips import SlipReceipt, submit_slip
from bot.services.replies import Reply, done
from bot.store.duplicate import get_event, protest_event_id
from bot.store.tournaments import get_tournament_by_slug

T = TypeVar("T")
log = logging.getLogger("stredisko.discord.duplicate")

ADMIN_PERMISSIONS = discord.Permissions(manage_messages=True)  # as /admin's
MODAL_ID = "stredisko:tah"
COORD_MAX = 6  # "15O" or "O15" and a direction letter: far below
WORD_MAX = 40  # 15 letters, each a blank in parentheses, with room to spare
SCORE_MAX = 9999

PROTEST_RULE = duplicate_admin.PROTEST_RULE


def slip_answer(receipt: SlipReceipt, late_rule: str, locale: Any) -> str:
    """The private answer to a slip: as read, replaced, late — never valid or not."""
    lines = [t("chat.duplicate.slip_received", locale, game=receipt.game, round=receipt.round,
               line=literal(receipt.line))]
    if receipt.replaced:
        key = "slip_replaced_none" if receipt.several == "none" else "slip_replaced_last"
        lines.append(t(f"chat.duplicate.{key}", locale, rule=receipt.player_rule))
    if receipt.late:
        lines.append(t("chat.duplicate.slip_late", locale, rule=late_rule))
    return "\n".join(lines)


class SlipModal(StrediskoModal):
    """`/tah` without options: the slip as a form (coordinate, word, score), for the event
    `/tah` was used for (the form's submit is an interaction of its own)."""

    def __init__(self, locale: Any) -> None:
        super().__init__(title=t("chat.duplicate.modal_title", locale)[:45], custom_id=MODAL_ID)
        self.event = current()
        self.coord = discord.ui.TextInput(label=t("chat.duplicate.modal_coord", locale)[:45],
                                          custom_id="suradnica", max_length=COORD_MAX)
        self.word = discord.ui.TextInput(label=t("chat.duplicate.modal_word", locale)[:45],
                                         custom_id="slovo", max_length=WORD_MAX)
        self.score = discord.ui.TextInput(label=t("chat.duplicate.modal_score", locale)[:45],
                                          custom_id="body", max_length=4, required=False)
        for item in (self.coord, self.word, self.score):
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        cog = duplicate_cog(interaction)
        cog.limit(interaction)
        await cog.scope(interaction, acts=True,
                        event_id=self.event.id if self.event is not None else None)
        await cog.submit(interaction, self.coord.value, self.word.value,
                         self.score.value.strip() or None)


MESSAGE_VIEWS["duplicate.online.protest_filed"] = protest_buttons


def duplicate_cog(interaction: discord.Interaction) -> DuplicateCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if not isinstance(cog, DuplicateCog):
        raise RuntimeError("the duplicate cog is not loaded")
    return cog


def _file(tx: Tx, slug: str, round_no: int, word: str, claim: str, reason: str,
          discord_id: int) -> Any:
    from bot.services.duplicate.protests import file_protest

    return file_protest(tx, slug, round_no, word, claim, reason, discord_id=discord_id)


class DuplicateCog(EventScoped, commands.Cog, name=COG_NAME):
    # Hidden from players like /admin (the head admin role has the permission); the role and
    # the admin policy stay the gate.
    duplikat = app_commands.Group(name=app_str("app.duplikat.name"),
                                  description=app_str("app.duplikat.description"),
                                  guild_only=True, default_permissions=ADMIN_PERMISSIONS,
                                  allowed_contexts=app_commands.AppCommandContext(guild=True))
    #: the head referee's acts: they keep working on a finished event (corrections)
    LOOKS = frozenset({"rozhodnutie", "koniec", "poradie", "start", "rozstrel"})

    def __init__(self, bot: commands.Bot, app: App, slug: str, *,
                 limiter: RateLimiter | None = None) -> None:
        self.bot = bot
        self.app = app
        self.pinned = slug
        self.limiter = limiter or RateLimiter()
        self.defer_after = DEFER_AFTER_S

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DecisionButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DecisionButton)

    def limit(self, interaction: discord.Interaction) -> None:
        refuse_if_too_fast(self.limiter, interaction.user.id)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        await self.scope(interaction)  # the event of its channel, or the one named
        return True

    async def protest_event(self, protest: int) -> int | None:
        """The event a protest belongs to (None: no such protest, a forged id out of SQLite's
        range included)."""
        return await self.app.store.read(protest_event_id, protest)

    async def is_duplicate(self) -> bool:
        """Whether this interaction's event is a duplicate event."""
        event = current()
        if event is not None:
            return event.kind == "duplicate"
        if not self.slug:
            return False

        def read(db: Any) -> bool:
            try:
                return get_event(db, get_tournament_by_slug(db, self.slug).id) is not None
            except LookupError:
                return False
        return bool(await self.app.store.read(read))

    async def in_time(self, interaction: discord.Interaction, work: Awaitable[T]) -> T:
        """The service's result; when it takes longer than `defer_after` (a busy machine at a
        round's deadline, the move generator running), "thinking…" first, so Discord keeps
        waiting: the slip's time is Discord's anyway, the answer may come later."""
        return await within(interaction, work, self.defer_after)

    # -- /tah ------------------------------------------------------------------------------

    @app_commands.command(name=app_str("app.tah.name"), description=app_str("app.tah.description"))
    @app_commands.rename(suradnica=app_str("app.tah.suradnica"),
                         hlavne_slovo=app_str("app.tah.hlavne_slovo"), body=app_str("app.tah.body"))
    @app_commands.describe(suradnica=app_str("app.tah.suradnica_description"),
                           hlavne_slovo=app_str("app.tah.hlavne_slovo_description"),
                           body=app_str("app.tah.body_description"))
    async def tah(
        self,
        interaction: discord.Interaction,
        suradnica: app_commands.Range[str, 1, COORD_MAX] | None = None,
        hlavne_slovo: app_commands.Range[str, 1, WORD_MAX] | None = None,
        body: app_commands.Range[int, 0, SCORE_MAX] | None = None,
        udalost: Udalost = None,
    ) -> None:
        self.limit(interaction)
        if suradnica is None and hlavne_slovo is None and body is None:
            await interaction.response.send_modal(SlipModal(interaction.locale))
            return
        if suradnica is None or hlavne_slovo is None:
            raise Refusal("chat.duplicate.both_or_none")
        await self.submit(interaction, suradnica, hlavne_slovo, body)

    async def submit(self, interaction: discord.Interaction, coord: str, word: str,
                     declared: int | str | None) -> None:
        """Hand the slip to the service; answer privately with how it was read."""
        received_at = interaction.created_at  # when Discord received it (snowflake time)
        text = f"{coord.strip()} {word.strip()}"
        result = await self.in_time(interaction, self.app.run(
            submit_slip, self.slug, text, received_at=received_at,
            discord_id=interaction.user.id, declared=declared, source="discord"))
        if isinstance(result, Reply):  # the service's refusal, one Slovak line
            await send(interaction, render_reply(result, interaction.locale))
            return
        mark_saved(interaction, done("chat.duplicate.slip_received", game=result.game,
                                     round=result.round, line=result.line))
        late_rule = await self.app.store.read(
            lambda db: event_of(db, self.slug).profile.slips.late_rule) if result.late else ""
        await send(interaction, text_messages(slip_answer(result, late_rule,
                                                          interaction.locale)))

    # -- protests ------------------------------------------------------------------------

    async def protest(self, interaction: discord.Interaction, reason: str,
                      round_no: int | None, word: str | None, claim: str | None) -> None:
        """`/namietka` in a duplicate event: a word wrongly accepted or rejected in a round
        (003 r. 27), into the head referee's queue."""
        if round_no is None or not word or claim not in CLAIMS:
            raise Refusal("chat.duplicate.protest_needs", rule=PROTEST_RULE)
        result = await self.app.run(_file, self.slug, round_no, word, claim, reason,
                                    interaction.user.id)
        if isinstance(result, Reply):
            await send(interaction, render_reply(result, interaction.locale))
            return
        answer = done("chat.duplicate.protest_filed", id=result.id, round=result.round_no,
                      word=result.word, rule=PROTEST_RULE)
        mark_saved(interaction, answer)
        await send(interaction, render_reply(answer, interaction.locale))

    @duplikat.command(name=app_str("app.duplikat.rozhodnutie.name"),
                      description=app_str("app.duplikat.rozhodnutie.description"))
    @app_commands.rename(cislo=app_str("app.admin.param.cislo"),
                         uznat=app_str("app.duplikat.rozhodnutie.uznat"),
                         odovodnenie=app_str("app.duplikat.rozhodnutie.odovodnenie"))
    @app_commands.describe(cislo=app_str("app.duplikat.rozhodnutie.cislo_description"),
                           uznat=app_str("app.duplikat.rozhodnutie.uznat_description"),
                           odovodnenie=app_str("app.duplikat.rozhodnutie.odovodnenie_description"))
    async def rozhodnutie(
        self,
        interaction: discord.Interaction,
        cislo: app_commands.Range[int, 1, 1_000_000],
        uznat: bool,
        odovodnenie: app_commands.Range[str, 3, bounds.REASON_MAX],
        udalost: Udalost = None,
    ) -> None:
        await self.decide(interaction, cislo, uznat, odovodnenie)  # the role, then the policy

    async def decide(self, interaction: discord.Interaction, protest: int, upheld: bool,
                     reason: str) -> None:
        """The head referee's decision on a protest, by command or by the buttons under it."""
        await self.head_admin_act(interaction, partial(
            duplicate_admin.decide, protest=protest, upheld=upheld, reason=reason))

    @duplikat.command(name=app_str("app.duplikat.koniec.name"),
                      description=app_str("app.duplikat.koniec.description"))
    async def koniec(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.head_admin_act(interaction, duplicate_admin.final_results)

    @duplikat.command(name=app_str("app.poradie.name"),
                      description=app_str("app.duplikat.poradie.description"))
    async def poradie(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.head_admin_act(interaction, duplicate_admin.standings_now)

    @duplikat.command(name=app_str("app.duplikat.start.name"),
                      description=app_str("app.duplikat.start.description"))
    async def start(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.head_admin_act(interaction, duplicate_admin.start_next_game)

    @duplikat.command(name=app_str("app.duplikat.rozstrel.name"),
                      description=app_str("app.duplikat.rozstrel.description"))
    @app_commands.rename(hrac=app_str("app.admin.param.hrac"), body=app_str("app.tah.body"),
                         sekundy=app_str("app.duplikat.rozstrel.sekundy"),
                         tah_rozstrelu=app_str("app.duplikat.rozstrel.tah_rozstrelu"),
                         dovod=app_str("app.param.dovod"))
    @app_commands.describe(hrac=app_str("app.duplikat.rozstrel.hrac_description"),
                           body=app_str("app.duplikat.rozstrel.body_description"),
                           sekundy=app_str("app.duplikat.rozstrel.sekundy_description"),
                           tah_rozstrelu=app_str("app.duplikat.rozstrel.tah_rozstrelu_description"),
                           dovod=app_str("app.duplikat.rozstrel.dovod_description"))
    async def rozstrel(
        self,
        interaction: discord.Interaction,
        hrac: app_commands.Range[str, 1, 60],
        body: app_commands.Range[int, 0, SHOOT_OUT_SCORE_LIMIT],
        sekundy: app_commands.Range[float, 0.1, 3600.0],
        tah_rozstrelu: app_commands.Range[str, 1, 60] | None = None,
        dovod: app_commands.Range[str, 1, bounds.REASON_MAX] | None = None,
        udalost: Udalost = None,
    ) -> None:
        """003 r. 49: the shoot-out's result of a player level after the last game."""
        await self.head_admin_act(interaction, partial(
            duplicate_admin.shoot_out, player=hrac, score=body, seconds=sekundy,
            move=tah_rozstrelu, reason=dovod))

    async def head_admin_act(self, interaction: discord.Interaction,
                             act: Callable[[Tx, str, int, Any], Reply]) -> None:
        """One of the head referee's acts (`duplicate_admin`): the role first, then the act in
        one transaction behind the admin policy; answered to him alone ("thinking…" first: a
        close or a draw may take a while)."""
        require_head_admin(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await self.app.run(act, self.slug, interaction.user.id, interaction.locale)
        if reply.ok:
            mark_saved(interaction, reply)
        await send(interaction, duplicate_admin.answer(reply, interaction.locale))


def duplicate_cog_factory(app: App | Sequence[App], slug: str) -> CogFactory:
    """For `StrediskoBot(cogs=[...])`; `app` may be the runner's one-element holder."""

    def build(bot: StrediskoBot) -> commands.Cog:
        return DuplicateCog(bot, app if isinstance(app, App) else app[0], slug)

    return build
give_event_option(DuplicateCog)
