"""Season ladders fed by finished tournaments and by events run elsewhere — pure.

`season_ladder(season)` computes the ladder of the profile `season.competition` names
(`sss-msr`: SP A3 7.1, `sss-cup`: SP A5 9.1, `cas-duplicate-cup`: ČAS PoS 2002);
`season_profile(name)` is that profile (`.kinds`: the event kinds a season of it may have),
`season_profiles()` the names of them all. The codes a ladder carries (NotCounted.reason,
Tie.criterion, LadderRow.group, Ladder.notes, SeasonError.code) are listed in
NOT_COUNTED_REASONS, TIE_CRITERIA, GROUPS, NOTES and ERROR_CODES. `ranks_fit` checks an
event's shared places (at a PAIRS_KIND event a pair is one competitor, SP 1.3).
"""

from rules.season.ladder import season_ladder
from rules.season.model import (
    ERROR_CODES,
    GROUPS,
    NOT_COUNTED_REASONS,
    NOTES,
    PAIRS_KIND,
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
from rules.season.profile import SeasonProfile, season_profile, season_profiles
from rules.season.results import ranks_fit

__all__ = [
    "ERROR_CODES",
    "GROUPS",
    "NOTES",
    "NOT_COUNTED_REASONS",
    "PAIRS_KIND",
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
    "ranks_fit",
    "season_ladder",
    "season_profile",
    "season_profiles",
]
