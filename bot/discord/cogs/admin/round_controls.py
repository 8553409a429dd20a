"""The buttons around rounds: "… anyway" after a warning (pair, close, finish, import),
publish the round just paired, and the check-in lists. Their custom_ids are what messages of a
running bot hold: they must not change."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.client import report_error
from bot.discord.cogs.admin.clicks import AdminHost, actor, enter_event, event_id, on_click
from bot.discord.cogs.admin.texts import FORCE_LABELS
from bot.discord.cogs.season import offer_ladder
from bot.discord.i18n import t
from bot.discord.persistent import EVENT_SUFFIX, RebuiltFromCustomId, event_suffix
from bot.services.replies import Reply
from bot.services.tournament import rounds


class ForceButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:aj-tak:(?P<action>paruj|uzavri|ukonci):(?P<round>[0-9]+)"
    + EVENT_SUFFIX,
):
    """"… anyway" after a warning: pair with open results, close a round, finish."""

    def __init__(self, action: str, round_no: int, event: int | None = None,
                 label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t(FORCE_LABELS[action]), style=discord.ButtonStyle.danger,
            custom_id=f"stredisko:admin:aj-tak:{action}:{round_no}{event_suffix(event)}"))
        self.action = action
        self.round_no = round_no
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        admin = actor(interaction)

        def work(cog: AdminHost) -> Awaitable[Reply]:
            if self.action == "paruj":
                return rounds.pair_round(cog.app, cog.slug, self.round_no, admin, force=True)
            if self.action == "uzavri":
                return rounds.close_round(cog.app, cog.slug, self.round_no, admin, force=True)
            return rounds.finish_tournament(cog.app, cog.slug, admin, force=True)

        reply = await on_click(interaction, work, event=self.event)
        if self.action == "ukonci" and reply is not None and reply.ok:
            await offer_ladder(interaction, (await enter_event(interaction, self.event)).slug)


class PublishButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:zverejni:(?P<round>[0-9]+)" + EVENT_SUFFIX,
):
    """Publish the round just paired (the service announces the tables)."""

    def __init__(self, round_no: int, event: int | None = None, label: str | None = None
                 ) -> None:
        super().__init__(discord.ui.Button(
            label=label or t("discord_admin.publish_button", round=round_no),
            style=discord.ButtonStyle.success,
            custom_id=f"stredisko:admin:zverejni:{round_no}{event_suffix(event)}"))
        self.round_no = round_no
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await on_click(interaction, lambda cog: rounds.publish_round(
            cog.app, cog.slug, self.round_no, actor(interaction)), event=self.event)


def publish_view(round_no: int, locale: Any) -> discord.ui.View:
    """After a round is paired or imported, publishing it is the next step."""
    view = discord.ui.View(timeout=None)
    view.add_item(PublishButton(round_no, event_id(), t("discord_admin.publish_button", locale,
                                                        round=round_no)))
    return view


class ImportView(discord.ui.View):
    """"Import anyway" for the warned list: it holds the tables, so it lives 15 minutes."""

    def __init__(self, round_no: int, tables: list[tuple[str, str | None]], locale: Any) -> None:
        super().__init__(timeout=900)
        self.round_no = round_no
        self.tables = tables
        self.event = event_id()  # the view lives in memory: it keeps its event itself
        button: discord.ui.Button[ImportView] = discord.ui.Button(
            label=t(FORCE_LABELS["import"], locale), style=discord.ButtonStyle.danger,
            custom_id=f"stredisko:admin:import:{round_no}")
        button.callback = self._force  # type: ignore[method-assign]
        self.add_item(button)

    async def _force(self, interaction: discord.Interaction) -> None:
        await on_click(interaction, lambda cog: rounds.import_pairings(
            cog.app, cog.slug, self.round_no, self.tables, actor(interaction), force=True),
            event=self.event)


class CheckinButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:prezentacia" + EVENT_SUFFIX,
):
    """Under the check-in answers: the lists of who has and has not checked in, any time
    (the answer itself stays as the service gave it; the lists come ephemerally)."""

    def __init__(self, event: int | None = None, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t("discord_admin.checkin.button"), style=discord.ButtonStyle.secondary,
            custom_id=f"stredisko:admin:prezentacia{event_suffix(event)}"))
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            cog = await enter_event(interaction, self.event)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await cog.show_checkin(interaction)
        except Exception as error:
            await report_error(interaction, error)


def checkin_view(locale: Any) -> Callable[[Reply], discord.ui.View | None]:
    """After opening or closing the check-in, the button to the lists."""
    def build(reply: Reply) -> discord.ui.View | None:
        if not reply.ok:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(CheckinButton(event_id(), t("discord_admin.checkin.button", locale)))
        return view
    return build
