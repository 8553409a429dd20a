"""Duplicate Scrabble (issue 23): pure — no I/O, no clock; randomness is a seed parameter.

The game's side (items 4–6): `profile` (duplicate game profiles), `racks` (seeded, auditable
draws under the vowel/consonant rule; an arbiter's typed rack), `players` (scoring a slip),
`results` (points, % of the top, standings, corrections, the word list).
"""

from rules.duplicate.players import (
    OUTCOMES,
    Correction,
    RoundScore,
    Slip,
    score_round,
    score_slip,
)
from rules.duplicate.profile import (
    DuplicateProfile,
    duplicate_profile,
    duplicate_profiles,
    load_duplicate_profile,
)
from rules.duplicate.racks import (
    RACK_PROBLEMS,
    Draw,
    RackCheck,
    RackProblem,
    SeedError,
    check_rack,
    commit,
    draw_rack,
    replay,
    verify,
)
from rules.duplicate.results import (
    DECIDERS,
    Game,
    GameResult,
    ShootOut,
    Standing,
    WordRuling,
    percent,
    percent_text,
    score_game,
    standings,
)

__all__ = [
    "DECIDERS", "OUTCOMES", "RACK_PROBLEMS", "Correction", "Draw", "DuplicateProfile", "Game",
    "GameResult", "RackCheck", "RackProblem", "RoundScore", "SeedError", "ShootOut", "Slip",
    "Standing", "WordRuling", "check_rack", "commit", "draw_rack", "duplicate_profile",
    "duplicate_profiles", "load_duplicate_profile", "percent", "percent_text", "replay",
    "score_game", "score_round", "score_slip", "standings", "verify",
]
