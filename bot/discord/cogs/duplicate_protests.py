"""A filed duplicate protest's buttons in the head referee's channel: uphold or reject, then
the reasons (003 r. 29). Its own module because both the duplicate cog (which registers the
buttons) and `duplicate_admin` (which re-sends waiting protests with them) need it, and the cog
imports `duplicate_admin`: the decision itself is the cog's, found by its name at click time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import discord

from bot.discord.client import Refusal, StrediskoModal, report_error, require_head_admin
from bot.discord.current_event import current, enter, tag_id
from bot.discord.i18n import SLOVAK, t
from bot.discord.persistent import RebuiltFromCustomId
from bot.services import bounds

COG_NAME = "DuplicateCog"


@runtime_checkable
class Decider(Protocol):
    """What the duplicate cog offers a decision modal (the cog itself)."""

    async def decide(self, interaction: discord.Interaction, protest: int, upheld: bool,
                     reason: str) -> None: ...

    async def scope(self, interaction: discord.Interaction, *, acts: bool | None = None,
                    event_id: int | None = None) -> Any: ...

    async def protest_event(self, protest: int) -> int | None: ...


def _decider(interaction: discord.Interaction) -> Decider:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if not isinstance(cog, Decider):
        raise RuntimeError("the duplicate cog is not loaded")
    return cog


class DecisionButton(
    RebuiltFromCustomId,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:dup-namietka:(?P<protest>[0-9]+):(?P<how>ano|nie)",
):
    """Under a filed protest in the head referee's channel: uphold it or reject it (003 r. 29);
    the click asks for the reasons first. Works after a restart (rebuilt from its custom_id)."""

    def __init__(self, protest: int, how: str, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t(f"chat.duplicate.button_{how}", SLOVAK),
            style=discord.ButtonStyle.success if how == "ano" else discord.ButtonStyle.danger,
            custom_id=f"stredisko:dup-namietka:{protest}:{how}"))
        self.protest = protest
        self.how = how

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            decider = _decider(interaction)  # the protest's event (issue 37), then the role
            event = await decider.protest_event(self.protest)
            if event is None:  # no such protest (a forged custom_id): one line, no form
                raise Refusal("duplicate.online.no_protest", id=self.protest)
            await decider.scope(interaction, acts=False, event_id=event)
            require_head_admin(interaction)
            await interaction.response.send_modal(
                DecisionModal(self.protest, self.how == "ano", interaction.locale))
        except Exception as error:  # dynamic items have no on_error: answer like commands
            await report_error(interaction, error)


class DecisionModal(StrediskoModal):
    """The reasons of the head referee's decision (required)."""

    def __init__(self, protest: int, upheld: bool, locale: Any) -> None:
        super().__init__(title=t("chat.duplicate.decision_title", locale, id=protest)[:45],
                         custom_id=f"stredisko:dup-rozhodnutie:{protest}:{int(upheld)}")
        self.protest = protest
        self.upheld = upheld
        # the click's event: the submit is an interaction of its own
        self.event, self.tagged = current(), tag_id() is not None
        self.reason = discord.ui.TextInput(
            label=t("chat.duplicate.decision_reason", locale)[:45], custom_id="odovodnenie",
            style=discord.TextStyle.paragraph, min_length=3, max_length=bounds.REASON_MAX)
        self.add_item(self.reason)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if self.event is not None:
            enter(self.event, tag=self.tagged)
        return require_head_admin(interaction)

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _decider(interaction).decide(interaction, self.protest, self.upheld,
                                           self.reason.value)


def protest_buttons(params: Mapping[str, Any], locale: Any) -> discord.ui.View:
    """The two decisions under a filed protest (the message `duplicate.online.protest_filed`)."""
    view = discord.ui.View(timeout=None)
    for how in ("ano", "nie"):
        view.add_item(DecisionButton(int(params["id"]), how,
                                     t(f"chat.duplicate.button_{how}", locale)))
    return view
