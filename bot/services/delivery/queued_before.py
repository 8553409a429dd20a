"""Messages an earlier version queued, worded by today's catalogue: a message waits in the outbox
across an update (a restart during an outage), so a template that changed its parameters reads
the old ones too. Each entry names the version's change it bridges."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import Term

Params = dict[str, Any]


def _phrase_of_nick(param: str, key: str) -> Callable[[Params], Params]:
    """2026-11-26 (nickless entrants named as players): a template's "„{nick}“" became the
    phrase `param`, the catalogue's `key` (`identity.linked_to`, `identity.herna_of`): made from
    the old `nick`."""
    def upgrade(params: Params) -> Params:
        if param in params:
            return params
        return {**params, param: Term(key, nick=params.get("nick", ""))}
    return upgrade


#: the queued messages whose template changed: the outbox's DMs and the head admin's ping
UPGRADES: dict[str, Callable[[Params], Params]] = {
    "identity.linked_dm": _phrase_of_nick("to", "identity.to_nick"),
    "identity.unlinked_dm": _phrase_of_nick("to", "identity.to_nick"),
    "identity.rejected_dm": _phrase_of_nick("to", "identity.to_nick"),
    "identity.request_admin": _phrase_of_nick("herna", "identity.herna_note"),
}


def as_today(key: str, params: Params) -> Params:
    """`params` of a queued message `key` as today's template needs them."""
    upgrade = UPGRADES.get(key)
    return params if upgrade is None else upgrade(params)
