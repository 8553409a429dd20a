"""The one-click decisions under a review item: approve a forfeit proposal as proposed, or
rule otherwise with a ruling the rules allow here (select, then a modal for the reason and any
scores); for a discrepancy (e-SP 4.7), keep the confirmed result or take note, with a note.
Their custom_ids are what messages of a running bot hold: they must not change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.discord.client import Refusal, StrediskoModal, reply_ephemeral, require_head_admin
from bot.discord.cogs.admin.clicks import AdminHost, actor, event_id, on_click, open_modal
from bot.discord.cogs.admin.rulings import needs_scores, parse_score, ruling_of, ruling_options
from bot.discord.current_event import current, enter, tag_id
from bot.discord.i18n import SLOVAK, t
from bot.discord.persistent import EVENT_SUFFIX, RebuiltFromCustomId, event_suffix
from bot.services import bounds
from bot.services.replies import Reply
from bot.services.tournament import admin as admin_service


class ApproveButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:schval:(?P<pairing>[0-9]+):(?P<version>[0-9]+)" + EVENT_SUFFIX,
):
    """One click: the forfeit proposal as proposed (e-SP 4.9). The custom_id carries the
    result version shown, so a proposal that changed since is not approved blindly."""

    def __init__(self, pairing_id: int, version: int, event: int | None = None,
                 label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t("discord_admin.approve_button"), style=discord.ButtonStyle.success,
            custom_id=f"stredisko:admin:schval:{pairing_id}:{version}{event_suffix(event)}"))
        self.pairing_id = pairing_id
        self.version = version
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        async def work(cog: AdminHost) -> Reply:
            # one transaction: a proposal that changed since the admin saw it is refused
            return await admin_service.approve(cog.app, cog.slug, actor(interaction),
                                               self.pairing_id, expected_version=self.version)

        await on_click(interaction, work, event=self.event)


class RulingSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"stredisko:admin:rozhodni:(?P<pairing>[0-9]+)" + EVENT_SUFFIX,
):
    """Rule otherwise: only the rulings the rules allow here; choosing one opens the modal."""

    def __init__(self, pairing_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, event: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"stredisko:admin:rozhodni:{pairing_id}{event_suffix(event)}",
            options=options or [],
            placeholder=placeholder or t("discord_admin.rule_placeholder"),
            min_values=1, max_values=1))
        self.pairing_id = pairing_id
        self.event = event

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any, /) -> RulingSelect:
        event = match["event"]
        # a forged custom_id may put a select's id on a button (which has no options): nothing
        # to rule on, its callback says so
        return cls(int(match["pairing"]), list(getattr(item, "options", [])),
                   getattr(item, "placeholder", None), int(event) if event else None)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        if not self.item.values:  # a forged click (a button bearing the select's id): no choice
            await reply_ephemeral(interaction, t("discord_admin.no_choice", interaction.locale))
            return
        await open_modal(interaction, lambda: RulingModal(
            self.pairing_id, self.item.values[0], interaction.locale), event=self.event)


class ReasonModal(StrediskoModal):
    """A head admin's decision that needs a reason: the required reason box first, and the
    submit checked like every click of the head admin (e-SP 2.5)."""

    def __init__(self, title: str, custom_id: str, locale: Any) -> None:
        super().__init__(title=title[:45], custom_id=custom_id)
        self.event = event_id()  # opened by a click whose event it keeps for its submit
        self._entered, self._tagged = current(), tag_id() is not None
        self.reason = discord.ui.TextInput(
            label=t("discord_admin.reason_label", locale)[:45], custom_id="dovod",
            style=discord.TextStyle.paragraph, required=True, max_length=bounds.REASON_MAX)
        self.add_item(self.reason)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if self._entered is not None:  # its event's head-admin role is the one that counts
            enter(self._entered, tag=self._tagged)
        return require_head_admin(interaction)


class RulingModal(ReasonModal):
    """The reason (required) and, where the ruling needs them, the scores."""

    def __init__(self, pairing_id: int, choice: str, locale: Any) -> None:
        super().__init__(t("discord_admin.modal_title", locale),
                         f"stredisko:admin:dovod:{pairing_id}:{choice}"[:100], locale)
        self.pairing_id = pairing_id
        self.choice = choice
        self.scores: tuple[discord.ui.TextInput, discord.ui.TextInput] | None = None
        if needs_scores(choice):
            self.scores = (
                discord.ui.TextInput(label=t("discord_admin.first_score_label", locale)[:45],
                                     custom_id="skore1", max_length=4),
                discord.ui.TextInput(label=t("discord_admin.second_score_label", locale)[:45],
                                     custom_id="skore2", max_length=4),
            )
            for box in self.scores:
                self.add_item(box)

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        scores = None
        if self.scores is not None:
            scores = (parse_score(self.scores[0].value), parse_score(self.scores[1].value))
        ruling = ruling_of(self.choice, scores)
        reason = self.reason.value

        async def work(cog: AdminHost) -> Reply:
            return await admin_service.rule(cog.app, cog.slug, actor(interaction),
                                            self.pairing_id, ruling, reason)

        await on_click(interaction, work, event=self.event)


class DiscrepancyButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:nezhoda:(?P<id>[0-9]+):(?P<how>ponechat|vedomie)" + EVENT_SUFFIX,
):
    """A discrepancy's decision (e-SP 4.7: the confirmed result stays either way): keep the
    confirmed result, or take the new record note; the modal asks why."""

    def __init__(self, discrepancy_id: int, how: str, event: int | None = None,
                 label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t(f"discord_admin.discrepancy_button.{how}"),
            style=discord.ButtonStyle.primary if how == "ponechat"
            else discord.ButtonStyle.secondary,
            custom_id=f"stredisko:admin:nezhoda:{discrepancy_id}:{how}{event_suffix(event)}"))
        self.discrepancy_id = discrepancy_id
        self.how = how
        self.event = event

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await open_modal(interaction, lambda: DiscrepancyModal(
            self.discrepancy_id, self.how, interaction.locale), event=self.event)


class DiscrepancyModal(ReasonModal):
    """The head admin's note on a discrepancy (required); stored in Slovak, the language of
    the audit log, behind the decision's own words."""

    def __init__(self, discrepancy_id: int, how: str, locale: Any) -> None:
        super().__init__(t(f"discord_admin.discrepancy_button.{how}", locale),
                         f"stredisko:admin:nezhoda-dovod:{discrepancy_id}:{how}", locale)
        self.discrepancy_id = discrepancy_id
        self.how = how
        self.reason.max_length = bounds.NOTE_MAX  # the decision's own words go before it

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        note = self.reason.value.strip()
        if not note:  # the decision's words alone would pass the service's check
            raise Refusal("admin.reason_required", rule="e-SP 2.6")
        resolution = t(f"discord_admin.resolution.{self.how}", SLOVAK, note=note)

        async def work(cog: AdminHost) -> Reply:
            return await admin_service.resolve_discrepancy(
                cog.app, cog.slug, actor(interaction), self.discrepancy_id, resolution)

        await on_click(interaction, work, event=self.event)


def review_view(item: Mapping[str, Any], locale: Any) -> discord.ui.View | None:
    """The one-click decisions under a review item: approve a proposal as proposed, or rule
    otherwise with one of the allowed rulings; for a discrepancy, keep the confirmed result or
    take note (e-SP 4.7)."""
    view = discord.ui.View(timeout=None)
    if "discrepancy_id" in item:
        for how in ("ponechat", "vedomie"):
            view.add_item(DiscrepancyButton(item["discrepancy_id"], how, event_id(),
                                            t(f"discord_admin.discrepancy_button.{how}", locale)))
        return view
    verdict = item.get("verdict") or {}
    result = item.get("result") or {}
    if item.get("status") == "proposed" and verdict.get("kind") == "proposal":
        view.add_item(ApproveButton(item["pairing_id"], int(result.get("version", 0)),
                                    event_id(), t("discord_admin.approve_button", locale)))
    options = ruling_options(item, locale)
    if options and item.get("status") != "confirmed":
        view.add_item(RulingSelect(item["pairing_id"], options,
                                   t("discord_admin.rule_placeholder", locale), event_id()))
    return view if view.children else None
