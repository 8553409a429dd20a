"""Time as the store keeps it: UTC, ISO-8601 text with an explicit offset.

One format everywhere means text comparison in SQL (`due_at <= ?`) orders like the instants
themselves. Converting to Europe/Bratislava for display is the caller's business.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache


@lru_cache(maxsize=4096)
def to_text(moment: datetime) -> str:
    """An aware datetime as UTC ISO-8601 text, e.g. '2025-03-01T09:00:00+00:00'. Cached: a use
    case writes the same few instants (its `now`) many times; equal instants give equal text
    whatever their zone."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        # A naive time is ambiguous (Bratislava or UTC?) and would corrupt ordering: refuse it.
        raise ValueError(f"naive datetime {moment!r}: the store needs a time zone")
    return moment.astimezone(UTC).isoformat()


@lru_cache(maxsize=4096)
def from_text(text: str) -> datetime:
    """Text written by `to_text` back to an aware UTC datetime. Cached: rows repeat the same
    few instants (round starts, creation times) and a datetime is immutable."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"stored time {text!r} has no offset")
    return moment.astimezone(UTC)


def maybe_text(moment: datetime | None) -> str | None:
    """`to_text` that lets NULL through."""
    return None if moment is None else to_text(moment)
