"""Season ladders fed by finished tournaments and by events run elsewhere — pure.

`season_ladder(season)` computes the ladder of the profile `season.competition` names
(`sss-msr`: SP A3 7.1, `sss-cup`: SP A5 9.1, `cas-duplicate-cup`: ČAS PoS 2002);
`season_profile(name)` is that profile (`.kinds`: the event kinds a season of it may have).
"""

from rules.season.ladder import season_ladder
from rules.season.model import (
    ERROR_CODES,
    GROUPS,
    NOT_COUNTED_REASONS,
    NOTES,
    TIE_CRITERIA,
    Counted,
    Ladder,
    LadderRow,
    NotCounted,
    Season,
    SeasonError,
    SeasonEvent,
    Tie,
)
from rules.season.profile import SeasonProfile, season_profile

__all__ = [
    "ERROR_CODES",
    "GROUPS",
    "NOTES",
    "NOT_COUNTED_REASONS",
    "TIE_CRITERIA",
    "Counted",
    "Ladder",
    "LadderRow",
    "NotCounted",
    "Season",
    "SeasonError",
    "SeasonEvent",
    "SeasonProfile",
    "Tie",
    "season_ladder",
    "season_profile",
]
