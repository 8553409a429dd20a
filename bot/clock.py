"""Where services get "now" from: a real clock in production, a movable one in rehearsals.

Services never call datetime.now() themselves, so a test or a rehearsal can move time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

BRATISLAVA = ZoneInfo("Europe/Bratislava")


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to (rehearsals and tests)."""

    def __init__(self, start: datetime) -> None:
        self._now = to_utc(start)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        when = to_utc(when)
        if when < self._now:
            raise ValueError(f"time cannot go back: {when.isoformat()} < {self._now.isoformat()}")
        self._now = when

    def advance(self, delta: timedelta) -> None:
        self.set(self._now + delta)


def to_utc(when: datetime) -> datetime:
    """A naive datetime is refused: every time must say which zone it is in."""
    if when.tzinfo is None:
        raise ValueError(f"naive datetime {when.isoformat()}: give a time zone")
    return when.astimezone(UTC)


def local(when: datetime) -> datetime:
    """The same instant in Bratislava time, for what people see."""
    return to_utc(when).astimezone(BRATISLAVA)


def parse_local(text: str) -> datetime:
    """Parse "2026-11-21 09:00" as Bratislava time (as the propozície write it) into UTC."""
    try:
        naive = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"not a date and time (YYYY-MM-DD HH:MM): {text!r}") from None
    if naive.tzinfo is not None:
        return naive.astimezone(UTC)
    return naive.replace(tzinfo=BRATISLAVA).astimezone(UTC)
