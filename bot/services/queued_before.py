"""Messages an earlier version queued, worded by today's catalogue: a message waits in the outbox
across an update (a restart during an outage), so a template that changed its parameters reads
the old ones too. Each entry names the version's change it bridges."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import Term

Params = dict[str, Any]


def _linked_to(params: Params) -> Params:
    """Session 10: "s prezývkou „{nick}“" became the phrase `to` (`identity.linked_to`)."""
    return params if "to" in params else {**params, "to": Term("identity.to_nick",
                                                              nick=params.get("nick", ""))}


def _herna_note(params: Params) -> Params:
    """Session 10: "{player} (herna.net: {nick})" became "{player}{herna}"."""
    return params if "herna" in params else {**params, "herna": Term("identity.herna_note",
                                                                    nick=params.get("nick", ""))}


#: the queued messages whose template changed: the outbox's DMs and the head admin's ping
UPGRADES: dict[str, Callable[[Params], Params]] = {
    "identity.linked_dm": _linked_to,
    "identity.unlinked_dm": _linked_to,
    "identity.rejected_dm": _linked_to,
    "identity.request_admin": _herna_note,
}


def as_today(key: str, params: Params) -> Params:
    """`params` of a queued message `key` as today's template needs them."""
    upgrade = UPGRADES.get(key)
    return params if upgrade is None else upgrade(params)
