"""The event the interaction being handled acts on (issue 37), in a context variable:
discord.py runs every interaction in a task of its own, so one interaction's event never leaks
into another's. `bot.discord.routing` sets it; the checks and cogs read it. Its own module, so
that the client's role check can read it without importing the router (which imports it)."""

from __future__ import annotations

from contextvars import ContextVar

from bot.services.tournament.events import Event

_CURRENT: ContextVar[Event | None] = ContextVar("stredisko_event", default=None)
#: whether the buttons this interaction sends name its event: only for a bot serving several
#: (a bot pinned to one keeps the custom_ids its running messages already hold)
_TAGGED: ContextVar[bool] = ContextVar("stredisko_event_tagged", default=False)


def current() -> Event | None:
    """The event this interaction acts on (None before the router resolved it)."""
    return _CURRENT.get()


def enter(event: Event, *, tag: bool = True) -> None:
    """Make `event` this interaction's; `tag`: its buttons carry it."""
    _CURRENT.set(event)
    _TAGGED.set(tag)


def tag_id() -> int | None:
    """The event id the buttons of this interaction carry (None: they carry none)."""
    event = _CURRENT.get()
    return event.id if event is not None and _TAGGED.get() else None
