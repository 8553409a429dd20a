"""What people typed, shown literally on Discord (issue 11, point 4).

A nick like `**x**_y_` would turn bold, `@everyone` or `<@id>` in a name would ping: every
text parameter of a message is escaped for Discord's markdown and its mentions before it is
put into the catalogue's template, whose own markdown (**first player**) stays. Mentions the
bot itself builds are `Markup` and go through as they are. Labels of buttons and options do
not render markdown and keep using `t` directly; the console and the HTML page have their own
escaping (plain text, `html.escape`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.discord.i18n import SLOVAK, t
from bot.i18n import Term


class Markup(str):
    """Text the bot built for Discord (a mention): not escaped."""

    __slots__ = ()


def mention(user_id: int) -> Markup:
    return Markup(f"<@{user_id}>")


def literal(value: Any) -> Any:
    """A text value escaped so Discord shows it as typed; anything else as it is. A `Term`
    is the catalogue's own text: its key stays, its parameters are escaped."""
    if isinstance(value, Term):
        return Term(value, **literal_params(value.params))
    if not isinstance(value, str) or isinstance(value, Markup):
        return value
    return discord.utils.escape_mentions(discord.utils.escape_markdown(value))


def literal_params(params: Mapping[str, Any]) -> dict[str, Any]:
    return {key: literal(value) for key, value in params.items()}


def text(key: str, locale: Any = SLOVAK, **params: Any) -> str:
    """`t` for a message's content: its parameters shown literally."""
    return t(key, locale, **literal_params(params))
