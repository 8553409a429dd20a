"""What a use case answers: plain data the chat or console adapter renders.

A refusal always carries the reason and, where a rule decides it, the rule it cites.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t


@dataclass(frozen=True, slots=True)
class Reply:
    ok: bool
    key: str  # message catalogue key
    params: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None  # e.g. "e-SP 4.7" when a rule decided the answer
    data: Any = None  # structured payload for the adapter (a pairing, a standings list, …)


def reason_of(reply: Reply) -> str:
    """A reply said as one reason, its rule in its place: the line a console prints after
    "chyba:", or quoted inside another refusal (a slips CSV's line)."""
    return t(reply.key, **{**reply.params, "rule": reply.rule or ""})


def done(key: str, rule: str | None = None, data: Any = None, **params: Any) -> Reply:
    return Reply(True, key, params, rule, data)


def refused(key: str, rule: str | None = None, **params: Any) -> Reply:
    return Reply(False, key, params, rule)


class Refusal(Exception):
    """Raised inside a use case to stop it and roll its transaction back with a reason."""

    def __init__(self, key: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(key)
        self.reply = refused(key, rule, **params)
