"""Which event a slash command, button or modal acts on (issue 37.1).

One bot serves every unfinished event of its database (`bot.services.tournament.events`).
An interaction acts on the event of the channel it was used in; in a DM, or a channel with no
event, on the event its user named in the `udalost` option (autocomplete offers the events he
takes part in) — never a guess. A button carries its event in its custom_id (buttons reach
DMs and the shared admin channel). With `[discord] tournament` set the bot serves that event
only, as before issue 37 (`pinned`).

The event found is this interaction's for the rest of its handling: the cogs read its slug
through `current_slug()` (a context variable: discord.py runs every interaction in its own task,
so one interaction's event never leaks into another's). A finished event keeps answering its
results, standings and the admin's corrections; a player action on it gets one line citing
e-SP 2.4 (its final standings are out).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import discord
from discord import app_commands

from bot.discord.client import Refusal
from bot.discord.current_event import current, enter
from bot.discord.i18n import app_str, t
from bot.services.tournament import events
from bot.services.tournament.events import Event

#: the option every event-bound command has (its shown name comes from the catalogue)
OPTION = "udalost"
#: the finished event's standings are final (e-SP 2.4); its admin still corrects (e-SP 2.5)
FINISHED_RULE = "e-SP 2.4"
#: the control centre of an event is its channel (e-SP 2.6)
CHANNEL_RULE = "e-SP 2.6"
#: the one command that offers events the user is not in: registering for one
REGISTER_COMMAND = "registracia"
#: how long the list of events in a one-line answer may grow: the rest of the line is some
#: 300 characters, a message at most 2,000
LIST_BUDGET = 1200

__all__ = ["EventRouter", "current", "current_slug", "enter", "give_event_option"]

Reader = Callable[[Callable[..., Any]], Any]  # Store.read


def current_slug(pinned: str = "") -> str:
    """The slug of this interaction's event; `pinned` where nothing was resolved (a cog
    built for one event and driven directly, as the tests and the CLI's helpers do)."""
    event = current()
    return event.slug if event is not None else pinned


class EventRouter:
    """Finds an interaction's event in the store, afresh each time (an event created or given
    its channel while the bot runs is served at its next command)."""

    def __init__(self, read: Reader, pinned: str = "",
                 control_channel: Callable[[], int | None] = lambda: None) -> None:
        self.read = read
        self.pinned = pinned.strip()
        self.control_channel = control_channel

    async def resolve(self, interaction: discord.Interaction, *, acts: bool,
                      event_id: int | None = None) -> Event:
        """The interaction's event, made current. `acts`: a player's action, refused on a
        finished event. `event_id`: what a button's custom_id carries."""
        typed = _typed(interaction)
        event = await self.read(lambda db: self._find(db, interaction, typed, event_id, acts))
        if acts and event.finished:
            raise Refusal("discord.event.finished", tournament=event.name, rule=FINISHED_RULE)
        enter(event, tag=not self.pinned)
        return event

    def adopt(self, event: Event) -> None:
        """Enter `event`, resolved in another task (a read raced against Discord's 3 s), in
        this one: a context variable set in a task stays in that task."""
        enter(event, tag=not self.pinned)

    def _find(self, db: Any, interaction: discord.Interaction, typed: str | None,
              event_id: int | None, acts: bool = True) -> Event:
        if self.pinned:
            return self._pinned(db, typed)
        if event_id is not None:
            found = events.by_id(db, event_id)
            if found is None:
                raise Refusal("discord.event.unknown", slug=str(event_id))
            return found
        here = events.for_channel(db, _guild_channel(interaction), self.control_channel())
        if typed:
            named = events.named(db, typed)
            if named is None:
                raise Refusal("discord.event.unknown", slug=typed)
            if here and named.id not in {e.id for e in here}:
                raise Refusal("discord.event.other_channel", slug=named.slug,
                              here=here[0].name, rule=CHANNEL_RULE)
            return named
        if len(here) == 1:
            return here[0]
        locale = interaction.locale
        mine = [e for e in events.of_user(db, interaction.user.id, acting=acts)
                if not e.finished]
        if mine:
            raise Refusal("discord.event.which", events=listed(mine, locale))
        # in none of them: not told "the events you take part in" (issue 44.6)
        raise Refusal("discord.event.which_none",
                      events=listed(events.registrable(db, interaction.user.id), locale))

    def _pinned(self, db: Any, typed: str | None) -> Event:
        if typed and typed != self.pinned:
            raise Refusal("discord.event.not_served", slug=typed, served=self.pinned)
        found = events.named(db, self.pinned)
        if found is None:
            raise Refusal("discord.no_tournament")
        return found

    async def complete(self, interaction: discord.Interaction, typed: str
                       ) -> list[app_commands.Choice[str]]:
        """The autocomplete of `udalost`: the events the user takes part in (entered or named
        head administrator) matching what he typed — for a command that acts, not those he
        withdrew from; for `/registracia` also the unfinished events he is not in, marked as
        open to register. Never others' events as his own, whatever he typed (issue 44.6).
        With a pinned event, that one."""
        if self.pinned:
            found = await self.read(lambda db: events.named(db, self.pinned))
            return [app_commands.Choice(name=e.label, value=e.slug)
                    for e in ([found] if found is not None else [])]
        uid, acting = interaction.user.id, acts_of(interaction)
        register = _callback_name(interaction) == REGISTER_COMMAND
        mine, others = await self.read(lambda db: (
            events.of_user(db, uid, typed, acting=acting),
            events.registrable(db, uid, typed) if register else []))
        choices = [app_commands.Choice(name=e.label, value=e.slug) for e in mine]
        mark = t("discord.event.to_register", interaction.locale)
        choices += [app_commands.Choice(name=f"{e.name} · {e.slug}"[:99 - len(mark)]
                                        + f" {mark}", value=e.slug) for e in others]
        return choices[:events.CHOICES]


def listed(found: list[Event], locale: Any) -> str:
    """The events' short names for a one-line answer, cut to `LIST_BUDGET` characters with
    "and N more" (25 events with long names exceeded Discord's 2,000 — issue 44.5)."""
    shown: list[str] = []
    for n, event in enumerate(found):
        rest = t("discord.event.more", locale, count=len(found) - n)
        if sum(len(s) + 2 for s in shown) + len(event.slug) + len(rest) > LIST_BUDGET:
            return ", ".join([*shown, rest])
        shown.append(event.slug)
    return ", ".join(shown) or "—"


def acts_of(interaction: discord.Interaction, looks: Collection[str] | None = None) -> bool:
    """Whether the interaction's command acts on its event — not one of `looks` (by default
    its cog's `LOOKS`), which only show it (a withdrawn player may still look at his event's
    standings)."""
    if looks is None:
        looks = getattr(getattr(interaction.command, "binding", None), "LOOKS", frozenset())
    return _callback_name(interaction) not in looks


def _callback_name(interaction: discord.Interaction) -> str:
    """The name of the command's callback (its Slovak name without diacritics)."""
    return getattr(getattr(interaction.command, "callback", None), "__name__", "")


def _typed(interaction: discord.Interaction) -> str | None:
    """The `udalost` option as typed (commands only; components have none)."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    value = getattr(interaction.namespace, OPTION, None)
    return value.strip() if isinstance(value, str) and value.strip() else None


def _guild_channel(interaction: discord.Interaction) -> int | None:
    """The channel a guild interaction came from (a DM has no event's channel)."""
    return interaction.channel_id if interaction.guild_id is not None else None


def router_of(client: Any) -> EventRouter:
    router = getattr(client, "events", None)
    if not isinstance(router, EventRouter):
        raise RuntimeError("the bot has no EventRouter")
    return router


async def autocomplete_event(interaction: discord.Interaction, typed: str
                             ) -> list[app_commands.Choice[str]]:
    """The `udalost` option's autocomplete callback (any cog)."""
    return await router_of(interaction.client).complete(interaction, typed)


def event_option(command: app_commands.Command[Any, ..., Any]) -> None:
    """Give a command built with an `udalost` parameter its shown name, description and
    autocomplete (one place for all the commands that take it)."""
    parameter = command._params.get(OPTION)
    if parameter is None:
        return
    parameter.description = app_str("app.param.udalost_description")
    parameter._rename = app_str("app.param.udalost")
    parameter.autocomplete = autocomplete_event


def give_event_option(cog: type[Any]) -> None:
    """`event_option` for every command of a cog class (its groups' commands too)."""
    pending = list(getattr(cog, "__cog_app_commands__", ()))
    while pending:
        command = pending.pop()
        if isinstance(command, app_commands.Group):
            pending.extend(command.commands)
        elif isinstance(command, app_commands.Command):
            event_option(command)
