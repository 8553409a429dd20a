"""The console adapter: renders replies and messages in Slovak for the CLI and the rehearsal.

A reply or message that carries a list (a reply's `data`, a message's `params["rows"]`) is
followed by one line per row, rendered with the catalogue key `<key>_row` — or with the key a
row names itself under "key" (rows of different kinds in one list). Discord's bold (`**`) is
dropped: a terminal would print the asterisks.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from bot.i18n import SLOVAK, t
from bot.services.notifier import Message
from bot.services.replies import Reply

_WHERE = {"channel": "kanál", "dm": "DM", "admin": "admin"}
LOCAL = "v sále"  # the label of a message shown at the console and never sent to Discord


def plain(text: str) -> str:
    """Catalogue text for a terminal: without Discord's bold markers."""
    return text.replace("**", "")


def render(key: str, params: dict[str, Any], rows: Any = None, locale: str = SLOVAK
           ) -> list[str]:
    """The message and, for a list of dict rows, one line per row."""
    lines = [plain(t(key, locale, **params))]
    if isinstance(rows, list):
        for row in rows:
            if isinstance(row, dict):
                row_key = row.get("key") or f"{key}_row"
                values = {**params, **{k: v for k, v in row.items() if k != "key"}}
                lines.append("  " + plain(t(row_key, locale, **values)))
    return lines


def render_reply(reply: Reply, locale: str = SLOVAK) -> list[str]:
    params = dict(reply.params)
    if reply.rule is not None:
        params.setdefault("rule", reply.rule)
    rows = reply.data if isinstance(reply.data, list) else params.pop("rows", None)
    params.pop("rows", None)
    return render(reply.key, params, rows, locale)


def render_message(message: Message, locale: str = SLOVAK) -> list[str]:
    params = dict(message.params)
    rows = params.pop("rows", None)
    return render(message.key, params, rows, locale)


class ConsoleNotifier:
    """Prints every announcement, direct message and admin note as rendered Slovak text."""

    def __init__(self, out: TextIO | None = None,
                 name_of: Callable[[int], str] | None = None,
                 read_name: Callable[[int], Awaitable[str]] | None = None) -> None:
        """A DM is labelled with its player's name: `name_of` knows it, or `read_name`
        reads it (the CLI's store); else the player's store id."""
        self.out = out
        self.name_of = name_of
        self.read_name = read_name

    def _print(self, where: str, target: int | str, message: Message) -> None:
        label = _WHERE[where]
        if where == "dm":
            label += f" {self.name_of(int(target)) if self.name_of else target}"
        if message.local:  # shown here only, never sent to Discord (a hall event, issue 35)
            label = LOCAL if where == "channel" else f"{LOCAL} · {label}"
        out = self.out or sys.stdout
        for n, line in enumerate(render_message(message)):
            print(f"[{label}] {line}" if n == 0 else f"{' ' * (len(label) + 3)}{line}",
                  file=out)

    async def announce(self, tournament_id: int, message: Message) -> None:
        self._print("channel", tournament_id, message)

    async def direct(self, player_id: int, message: Message) -> None:
        if self.name_of is None and self.read_name is not None:
            self._print("dm", await self.read_name(player_id), message)
            return
        self._print("dm", player_id, message)

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        self._print("admin", tournament_id, message)
