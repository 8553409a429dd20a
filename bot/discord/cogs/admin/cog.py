"""The head administrator's `/admin` command group: the commands themselves.

Only members with the tournament's head-admin role get past the cog's check (and its buttons,
select and modals, see `clicks`); everyone else gets one ephemeral line citing e-SP 2.5 and
nothing more. The role is only this first filter: every use case applies the admin policy
(`bot.services.policy`: the acting account must be in the tournament's admin list), so a
role holder who is not named is refused too. Every command calls one use case of
`bot.services` (admin, rounds, setup, sync, identity)
— the services decide, cite the rules and announce in the control centre; this module only
asks, shows and offers the next click. Each answer is deferred first (a "thinking…" reply), so
a slow store or a long pairing never misses Discord's 3 seconds. In a duplicate event
`/admin poradovnik` also lists the undecided protests (003 r. 29), each with the buttons it was
filed with (`duplicate_admin`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import (
    CogFactory,
    Refusal,
    StrediskoBot,
    mark_saved,
    require_head_admin,
)
from bot.discord.cogs.admin.checkin import checkin_messages, checkin_state
from bot.discord.cogs.admin.clicks import COG_NAME, actor, event_id
from bot.discord.cogs.admin.link_controls import LinkButton, send_link_requests
from bot.discord.cogs.admin.pairings import (
    AttachmentReader,
    parse_pairings,
    read_attachment,
    read_pairing_file,
)
from bot.discord.cogs.admin.queries import find_nick, find_player, may_run, review_item
from bot.discord.cogs.admin.review import admin_names, item_messages
from bot.discord.cogs.admin.review_controls import (
    ApproveButton,
    DiscrepancyButton,
    RulingSelect,
    review_view,
)
from bot.discord.cogs.admin.round_controls import (
    CheckinButton,
    ForceButton,
    ImportView,
    PublishButton,
    checkin_view,
    publish_view,
)
from bot.discord.cogs.admin.texts import FORCE_LABELS, WARNINGS, render
from bot.discord.cogs.duplicate_admin import protest_messages, queue_header, waiting_protests
from bot.discord.cogs.player import send
from bot.discord.cogs.scoped import EventScoped, Udalost, defer_once
from bot.discord.cogs.season import offer_ladder
from bot.discord.i18n import app_str, t
from bot.discord.render import text_messages
from bot.discord.routing import give_event_option
from bot.services import bounds
from bot.services.app import App
from bot.services.delivery import outbox_admin
from bot.services.identity import accounts as identity
from bot.services.replies import Reply
from bot.services.results import sync
from bot.services.results.fetch import Herna
from bot.services.tournament import admin as admin_service
from bot.services.tournament import checkin, payments, rounds

QUEUE_PAGE = 10  # review items shown per /admin poradovnik; the rest after these are decided

HernaFactory = Callable[[], AbstractAsyncContextManager[Herna]]

#: Every persistent button and select of the head admin, registered while the cog is loaded
#: so the ones on messages sent before a restart keep working.
DYNAMIC_ITEMS = (ForceButton, PublishButton, ApproveButton, RulingSelect, DiscrepancyButton,
                 CheckinButton, LinkButton)

#: A command parameter's name and description keys in the catalogue.
KOLO = ("app.param.kolo", "app.param.kolo_description")
HRAC = ("app.admin.param.hrac", "app.admin.param.hrac_description")
DOVOD = ("app.param.dovod", "app.admin.param.dovod_vylucenia_description")
SUBOR = ("app.admin.param.subor", "app.admin.param.subor_description")
TEXT = ("app.admin.param.text", "app.admin.param.text_description")
STOL = ("app.admin.param.stol", "app.admin.param.stol_description")
UCET = ("app.admin.param.ucet", "app.admin.param.ucet_description")
CISLO = ("app.admin.param.cislo", "app.admin.param.cislo_description")
ESTE_RAZ = ("app.admin.param.este_raz", "app.admin.param.este_raz_description")
DOVOD_ZAHODENIA = ("app.param.dovod", "app.admin.param.dovod_zahodenia_description")
HRACI = ("app.admin.param.hraci", "app.admin.param.hraci_description")

#: what Discord asks of a member before it even shows him /admin ("Manage Messages", a
#: moderator's permission players do not have); config.example.toml tells how to grant it
ADMIN_PERMISSIONS = discord.Permissions(manage_messages=True)

# the parameters' types (Discord checks the ranges before the command runs)
Kolo = app_commands.Range[int, 1, bounds.ROUND_MAX]
Hrac = app_commands.Range[str, 1, 60]
Dovod = app_commands.Range[str, 1, bounds.REASON_MAX]
#: the largest integer option value Discord accepts (2^53 − 1, its Int53Type): 2^53 makes it
#: refuse the whole command registration (400), and the server has no slash command at all
DISCORD_INT_MAX = 2**53 - 1
#: an outgoing message's number (`/admin odchadzajuce zoznam` shows it)
Cislo = app_commands.Range[int, 1, DISCORD_INT_MAX]
CommandMaker = Callable[..., Callable[[Callable[..., Any]], Any]]


def _command(key: str, maker: CommandMaker = app_commands.command
             ) -> Callable[[Callable[..., Any]], Any]:
    """`/admin <key>` (or a subgroup's, with its `.command` as `maker`), named and described
    by the catalogue's `app.admin.<key>.name` and `.description`."""
    return maker(name=app_str(f"app.admin.{key}.name"),
                 description=app_str(f"app.admin.{key}.description"))


def _params(**keys: tuple[str, str]) -> Callable[[Callable[..., Any]], Any]:
    """The parameters' shown names and descriptions: `parameter=(name key, description key)`."""
    def apply(callback: Callable[..., Any]) -> Any:
        described = app_commands.describe(**{p: app_str(d) for p, (_, d) in keys.items()})
        renamed = app_commands.rename(**{p: app_str(n) for p, (n, _) in keys.items()})
        return renamed(described(callback))
    return apply


@app_commands.guild_only()
# Hidden from members without this permission (players): the head admin role has it, or the
# server's Integrations settings allow /admin to a role. The role check stays the gate.
@app_commands.default_permissions(ADMIN_PERMISSIONS)
class AdminCog(
    EventScoped,
    commands.GroupCog,
    name=COG_NAME,
    group_name=app_str("app.admin.name"),
    group_description=app_str("app.admin.description"),
):
    def __init__(self, bot: commands.Bot, app: App, slug: str, *,
                 herna: HernaFactory | None = None,
                 read: AttachmentReader = read_attachment) -> None:
        self.bot = bot
        self.app = app
        self.pinned = slug
        self.herna = herna
        self.read = read
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        # the event first (its own head-admin role, if it has one, is the one that counts);
        # the admin's corrections keep working on a finished event
        await self.scope_in_time(interaction, acts=False)  # a busy store: "thinking…" first
        require_head_admin(interaction)
        return True

    async def answer(self, interaction: discord.Interaction, work: Awaitable[Reply], *,
                     view: Callable[[Reply], discord.ui.View | None] | None = None) -> Reply:
        """Defer (Discord's 3 s), run the use case, answer ephemerally with its rows and, if
        `view` offers one, the next click."""
        await defer_once(interaction)
        reply = await work
        if reply.ok:
            mark_saved(interaction, reply)
        await send(interaction, render(reply, interaction.locale),
                   view=view(reply) if view is not None else None)
        return reply

    def _force_view(self, action: str, round_no: int, locale: Any
                    ) -> Callable[[Reply], discord.ui.View | None]:
        def build(reply: Reply) -> discord.ui.View | None:
            if reply.ok or reply.key not in WARNINGS:
                return None
            view = discord.ui.View(timeout=None)
            view.add_item(ForceButton(action, round_no, event_id(),
                                      t(FORCE_LABELS[action], locale)))
            return view
        return build

    # -- check-in ------------------------------------------------------------------------

    prezentacia = app_commands.Group(name=app_str("app.prezentacia.name"),
                                     description=app_str("app.admin.prezentacia.description"))

    @_command("otvor", prezentacia.command)
    async def otvor(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, checkin.open_checkin(self.app, self.slug,
                                                            actor(interaction)),
                          view=checkin_view(interaction.locale))

    @_command("zatvor", prezentacia.command)
    async def zatvor(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, checkin.close_checkin(self.app, self.slug,
                                                             actor(interaction)),
                          view=checkin_view(interaction.locale))

    @_command("prehlad", prezentacia.command)
    async def prehlad(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await defer_once(interaction)
        await self.show_checkin(interaction)

    async def show_checkin(self, interaction: discord.Interaction) -> None:
        """Who has checked in and who has not, to the head admin alone."""
        state = await self.app.run(checkin_state, self.slug, actor(interaction))
        if isinstance(state, Reply):  # e.g. the tournament is not in the store
            await send(interaction, render(state, interaction.locale))
            return
        await send(interaction, checkin_messages(state, interaction.locale))

    # -- rounds --------------------------------------------------------------------------

    @_command("paruj")
    @_params(kolo=KOLO)
    async def paruj(
        self,
        interaction: discord.Interaction,
        kolo: Kolo,
        udalost: Udalost = None,
    ) -> None:
        locale = interaction.locale
        force = self._force_view("paruj", kolo, locale)

        def next_click(reply: Reply) -> discord.ui.View | None:
            if reply.ok:  # paired: publishing is the next step
                return publish_view(kolo, locale)
            return force(reply)

        await self.answer(interaction, rounds.pair_round(self.app, self.slug, kolo,
                                                         actor(interaction)),
                          view=next_click)

    @_command("zverejni")
    @_params(kolo=KOLO)
    async def zverejni(
        self,
        interaction: discord.Interaction,
        kolo: Kolo,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, rounds.publish_round(self.app, self.slug, kolo,
                                                            actor(interaction)))

    @_command("import")
    @_params(kolo=KOLO, subor=SUBOR, text=TEXT)
    async def import_(
        self,
        interaction: discord.Interaction,
        kolo: Kolo,
        subor: discord.Attachment | None = None,
        text: app_commands.Range[str, 1, 4000] | None = None,
        udalost: Udalost = None,
    ) -> None:
        source = text or ""
        if subor is not None:
            source = await read_pairing_file(subor, self.read)
        tables = parse_pairings(source)
        locale = interaction.locale

        def next_click(reply: Reply) -> discord.ui.View | None:
            if reply.ok:
                return publish_view(kolo, locale)
            if reply.key == "round.import_warnings":
                return ImportView(kolo, tables, locale)
            return self._force_view("paruj", kolo, locale)(reply)  # previous round still open

        await self.answer(interaction, rounds.import_pairings(
            self.app, self.slug, kolo, tables, actor(interaction)), view=next_click)

    @_command("uzavri")
    @_params(kolo=KOLO)
    async def uzavri(
        self,
        interaction: discord.Interaction,
        kolo: Kolo,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, rounds.close_round(self.app, self.slug, kolo,
                                                          actor(interaction)),
                          view=self._force_view("uzavri", kolo, interaction.locale))

    @_command("ukonci")
    async def ukonci(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        reply = await self.answer(interaction, rounds.finish_tournament(
            self.app, self.slug, actor(interaction)),
            view=self._force_view("ukonci", 0, interaction.locale))
        if reply.ok:  # finished: the season's ladder as it stands now (issue 14)
            await offer_ladder(interaction, self.slug)

    # -- rulings -------------------------------------------------------------------------

    @_command("poradovnik")
    async def poradovnik(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await defer_once(interaction)
        reply = await admin_service.review_queue(self.app, self.slug, actor(interaction))
        locale = interaction.locale
        await send(interaction, render(Reply(reply.ok, reply.key, reply.params, reply.rule),
                                       locale))
        if not reply.ok:
            return
        data = reply.data or {}
        await send_link_requests(interaction, data.get("links", []))
        items = [*data.get("results", []), *data.get("discrepancies", [])]
        admins = await admin_names(interaction, items[:QUEUE_PAGE])
        for item in items[:QUEUE_PAGE]:
            await self._show_item(interaction, item, admins)
        # a duplicate event's protests after them (003 r. 29), each with its two buttons
        protests = await self.app.store.read(waiting_protests, self.slug)
        if protests is not None:
            await send(interaction, queue_header(len(protests), locale))
        shown = protests[:max(0, QUEUE_PAGE - len(items))] if protests else []
        for protest in shown:
            await send(interaction, protest_messages(protest, locale))
        more = len(items) + len(protests or ()) - QUEUE_PAGE
        if more > 0:
            await send(interaction, text_messages(t("discord_admin.queue_more", locale, n=more)))

    async def _show_item(self, interaction: discord.Interaction, item: Mapping[str, Any],
                         admins: Mapping[str, str]) -> None:
        locale = interaction.locale
        await send(interaction, item_messages(item, locale, admins),
                   view=review_view(item, locale))

    @_command("rozhodni")
    @_params(kolo=KOLO, stol=STOL)
    async def rozhodni(
        self,
        interaction: discord.Interaction,
        kolo: Kolo,
        stol: app_commands.Range[int, 1, bounds.TABLE_MAX],
        udalost: Udalost = None,
    ) -> None:
        await defer_once(interaction)
        item = await self.app.run(review_item, self.slug, actor(interaction), kolo, stol)
        if isinstance(item, Reply):
            await send(interaction, render(item, interaction.locale))
            return
        await self._show_item(interaction, item, await admin_names(interaction, [item]))

    # -- players -------------------------------------------------------------------------

    async def _about_player(self, interaction: discord.Interaction, who: str,
                            act: Callable[[int], Awaitable[Reply]]) -> None:
        await defer_once(interaction)
        found = await self.app.run(find_player, self.slug, who)
        reply = found if isinstance(found, Reply) else await act(found)
        await send(interaction, render(reply, interaction.locale))

    @_command("vyluc")
    @_params(hrac=HRAC, dovod=DOVOD)
    async def vyluc(
        self,
        interaction: discord.Interaction,
        hrac: Hrac,
        dovod: Dovod,
        udalost: Udalost = None,
    ) -> None:
        await self._about_player(interaction, hrac, lambda pid: admin_service.exclude(
            self.app, self.slug, actor(interaction), pid, dovod))

    @_command("obnov")
    @_params(hrac=HRAC, dovod=DOVOD)
    async def obnov(
        self,
        interaction: discord.Interaction,
        hrac: Hrac,
        dovod: Dovod,
        udalost: Udalost = None,
    ) -> None:
        await self._about_player(interaction, hrac, lambda pid: admin_service.reinstate(
            self.app, self.slug, actor(interaction), pid, dovod))

    @_command("zaplatil")
    @_params(hraci=HRACI)
    async def zaplatil(
        self,
        interaction: discord.Interaction,
        hraci: app_commands.Range[str, 1, 1000],
        udalost: Udalost = None,
    ) -> None:
        await self._payment(interaction, hraci, paid=True)

    @_command("nezaplatil")
    @_params(hraci=HRACI)
    async def nezaplatil(
        self,
        interaction: discord.Interaction,
        hraci: app_commands.Range[str, 1, 1000],
        udalost: Udalost = None,
    ) -> None:
        await self._payment(interaction, hraci, paid=False)

    async def _payment(self, interaction: discord.Interaction, nicks: str, *,
                       paid: bool) -> None:
        """The entry fee of the players named by herna nick (spaces or commas between)."""
        named = [n.lstrip("@") for n in re.split(r"[\s,;]+", nicks) if n.strip()]
        await self.answer(interaction, payments.set_payment(
            self.app, self.slug, actor(interaction), named, paid))

    @_command("prepoj")
    @_params(hrac=HRAC, ucet=UCET, dovod=DOVOD)
    async def prepoj(
        self,
        interaction: discord.Interaction,
        hrac: Hrac,
        ucet: discord.User,
        dovod: Dovod,
        udalost: Udalost = None,
    ) -> None:
        await self._about_nick(interaction, hrac, lambda nick: identity.link(
            self.app, self.slug, actor(interaction), nick, ucet.id, dovod))

    @_command("odpoj")
    @_params(hrac=HRAC, dovod=DOVOD)
    async def odpoj(
        self,
        interaction: discord.Interaction,
        hrac: Hrac,
        dovod: Dovod,
        udalost: Udalost = None,
    ) -> None:
        await self._about_nick(interaction, hrac, lambda nick: identity.unlink(
            self.app, self.slug, actor(interaction), nick, dovod))

    async def _about_nick(self, interaction: discord.Interaction, who: str,
                          act: Callable[[str], Awaitable[Reply]]) -> None:
        """`_about_player` for the identity acts, which name the player by his herna nick."""
        await defer_once(interaction)
        found = await self.app.run(find_nick, self.slug, who)
        reply = found if isinstance(found, Reply) else await act(found)
        await send(interaction, render(reply, interaction.locale))

    # -- the outbox (issue 20.1) ---------------------------------------------------------

    odchadzajuce = app_commands.Group(name=app_str("app.admin.odchadzajuce.name"),
                                      description=app_str("app.admin.odchadzajuce.description"))

    @_command("zoznam", odchadzajuce.command)
    async def zoznam(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, outbox_admin.list_messages(self.app, self.slug,
                                                                  actor(interaction)))

    @_command("znova", odchadzajuce.command)
    @_params(cislo=CISLO, este_raz=ESTE_RAZ)
    async def znova(
        self,
        interaction: discord.Interaction,
        cislo: Cislo,
        este_raz: bool = False,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, outbox_admin.resend(self.app, self.slug,
                                                           actor(interaction), cislo, este_raz))

    @_command("zahod", odchadzajuce.command)
    @_params(cislo=CISLO, dovod=DOVOD_ZAHODENIA)
    async def zahod(
        self,
        interaction: discord.Interaction,
        cislo: Cislo,
        dovod: Dovod,
        udalost: Udalost = None,
    ) -> None:
        await self.answer(interaction, outbox_admin.drop(self.app, self.slug,
                                                         actor(interaction), cislo, dovod))

    # -- herna.net -----------------------------------------------------------------------

    @_command("synchronizuj")
    async def synchronizuj(
        self,
        interaction: discord.Interaction,
        udalost: Udalost = None,
    ) -> None:
        if self.herna is None:
            raise Refusal("discord_admin.sync_unavailable", slug=self.slug)
        await defer_once(interaction)
        allowed = await self.app.run(may_run, self.slug, actor(interaction))
        if isinstance(allowed, Reply):  # the sync is the control centre's act too (e-SP 2.6)
            await send(interaction, render(allowed, interaction.locale))
            return
        async with self.herna() as client:
            reply = await sync.sync_command(self.app, self.slug, client)
        await send(interaction, render(reply, interaction.locale))


def admin_cog_factory(app: App | Sequence[App], slug: str, *,
                      herna: HernaFactory | None = None) -> CogFactory:
    """For `StrediskoBot(cogs=[...])`; `app` may be the runner's one-element holder, read at
    set-up time (the App's notifier needs the bot). `herna` opens a logged-in herna.net
    client for `/admin synchronizuj` (None: the command says how to sync from the CLI)."""

    def build(bot: StrediskoBot) -> commands.Cog:
        resolved = app if isinstance(app, App) else app[0]
        return AdminCog(bot, resolved, slug, herna=herna)

    return build
give_event_option(AdminCog)
