"""Persistent buttons: after a restart discord.py rebuilds a clicked button from its custom_id
alone, so each button's constructor takes exactly what its custom_id carries."""

from __future__ import annotations

from typing import Any, Self

import discord


class RebuiltFromCustomId:
    """A persistent button rebuilt after a restart from its own custom_id: the template's
    groups in order (digits as ints; an optional group absent as None), then the label it was
    shown with. Put first among the bases of a `discord.ui.DynamicItem[discord.ui.Button]` whose
    `__init__` takes just that."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any, /) -> Self:
        groups = (int(g) if g is not None and g.isdecimal() else g for g in match.groups())
        return cls(*groups, item.label)  # type: ignore[call-arg]


#: the event a button acts on, at the end of its custom_id (issue 37: buttons reach DMs and the
#: shared admin channel); optional, so buttons sent before it keep working (their channel's)
EVENT_SUFFIX = r"(?::u(?P<event>[0-9]+))?"


def event_suffix(event_id: int | None) -> str:
    return "" if event_id is None else f":u{event_id}"
