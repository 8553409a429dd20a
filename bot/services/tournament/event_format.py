"""Swiss or round robin: the propozície's `format`, else the profile's (e-SP 2.4, SP 1.3).

Online events are Swiss at any field size (e-SP 2.4; SP's articles 1.1–4 "sa na online turnaje
nevzťahujú"); one is a round robin only when its propozície say so. The choice is kept in the
tournament's settings (`format`) so pairing and standings read the same decision.
"""

from __future__ import annotations

from bot.store.rows import Tournament
from rules import Profile, is_round_robin

#: what a propozície file may name ([tournament] format)
PROPOZICIE_FORMATS = ("swiss", "round-robin")


def event_format(t: Tournament) -> str | None:
    """The propozície's format as stored, None when they named none (the profile decides)."""
    fmt = t.settings.get("format")
    return fmt if isinstance(fmt, str) else None


def round_robin(t: Tournament, players: int, profile: Profile) -> bool:
    return is_round_robin(players, t.rounds_planned, profile, event_format(t))

