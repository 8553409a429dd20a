"""Persistent buttons: after a restart discord.py rebuilds a clicked button from its custom_id
alone, so each button's constructor takes exactly what its custom_id carries."""

from __future__ import annotations

from typing import Any, Self

import discord


class RebuiltFromCustomId:
    """A persistent button rebuilt after a restart from its own custom_id: the template's
    groups in order (digits as ints), then the label it was shown with. Put first among the
    bases of a `discord.ui.DynamicItem[discord.ui.Button]` whose `__init__` takes just that."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any, /) -> Self:
        groups = (int(g) if g.isdecimal() else g for g in match.groups())
        return cls(*groups, item.label)  # type: ignore[call-arg]
