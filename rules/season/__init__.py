"""Season ladders fed by finished tournaments and by events run elsewhere — pure."""

from rules.season.model import (
    Counted,
    Ladder,
    LadderRow,
    NotCounted,
    Season,
    SeasonError,
    SeasonEvent,
    Tie,
)

__all__ = [
    "Counted",
    "Ladder",
    "LadderRow",
    "NotCounted",
    "Season",
    "SeasonError",
    "SeasonEvent",
    "Tie",
]
