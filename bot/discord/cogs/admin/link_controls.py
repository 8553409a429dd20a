"""The Discord link requests in the review queue (`/admin poradovnik`): each with "approve" and
"reject" (the rejection asks for its reason in a modal). Clicks are checked like every click
of the head admin (the role first, then the services' admin policy). Their custom_ids are what
messages of a running bot hold: they must not change."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.discord.cogs.admin.clicks import AdminHost, actor, event_id, on_click, open_modal
from bot.discord.cogs.admin.review_controls import ReasonModal
from bot.discord.cogs.admin.texts import when
from bot.discord.cogs.player import send
from bot.discord.i18n import t
from bot.discord.persistent import EVENT_SUFFIX, RebuiltFromCustomId, event_suffix
from bot.discord.render import field_messages, text_messages
from bot.services.identity import accounts as identity
from bot.services.policy import UNFORESEEN_RULE
from bot.services.replies import Reply

APPROVE, REJECT = "schval", "zamietni"


class LinkButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:prepojenie:(?P<request>[0-9]+):(?P<how>schval|zamietni)"
    + EVENT_SUFFIX,
):
    """Approve a link request at once, or reject it with a reason (modal)."""

    def __init__(self, request_id: int, how: str, event: int | None = None,
                 label: str | None = None) -> None:
        key = "approve_button" if how == APPROVE else "reject_button"
        super().__init__(discord.ui.Button(
            label=label or t(f"discord_identity.{key}"),
            style=discord.ButtonStyle.success if how == APPROVE else discord.ButtonStyle.danger,
            custom_id=f"stredisko:admin:prepojenie:{request_id}:{how}{event_suffix(event)}"))
        self.request_id = request_id
        self.how = how
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        if self.how == APPROVE:
            async def work(cog: AdminHost) -> Reply:
                return await identity.approve_request(cog.app, cog.slug, actor(interaction),
                                                      self.request_id)

            await on_click(interaction, work, event=self.event)
            return
        await open_modal(interaction, lambda: RejectModal(self.request_id, interaction.locale),
                         event=self.event)


class RejectModal(ReasonModal):
    """Why the request is rejected (required; the account is told)."""

    def __init__(self, request_id: int, locale: Any) -> None:
        super().__init__(t("discord_identity.reject_title", locale),
                         f"stredisko:admin:prepojenie-dovod:{request_id}", locale)
        self.request_id = request_id

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        reason = self.reason.value

        async def work(cog: AdminHost) -> Reply:
            return await identity.reject_request(cog.app, cog.slug, actor(interaction),
                                                 self.request_id, reason)

        await on_click(interaction, work, event=self.event)


async def send_link_requests(interaction: discord.Interaction,
                             links: Sequence[Mapping[str, Any]]) -> None:
    """The pending link requests, each under its two buttons (nothing when there are none)."""
    if not links:
        return
    locale = interaction.locale
    await send(interaction, text_messages(t("discord_identity.queue_links", locale,
                                            n=len(links))))
    for r in links:
        view = discord.ui.View(timeout=None)
        for how in (APPROVE, REJECT):
            key = "approve_button" if how == APPROVE else "reject_button"
            view.add_item(LinkButton(r["request_id"], how, event_id(),
                                     t(f"discord_identity.{key}", locale)))
        text = t("discord_identity.request_text", locale, account=r["account"],
                 discord_id=r["discord_id"], at=when(r["requested_at"], locale),
                 recorded=r["recorded"] or "—", rule=UNFORESEEN_RULE)
        title = t("discord_identity.request_title", locale, request_id=r["request_id"],
                  player=r["player"], herna=r["herna"])
        await send(interaction, field_messages(title, [], content=text), view=view)
