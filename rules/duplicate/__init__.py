"""Duplicate Scrabble (issue 23): pure — no I/O, no clock; randomness is a seed parameter.

The game's side (items 4–6): `profile` (duplicate game profiles), `racks` (seeded, auditable
draws under the vowel/consonant rule; an arbiter's typed rack), `players` (scoring a slip),
`results` (points, % of the top, standings, corrections, the word list).

The board's side (items 1–3, 7): `tiles` (tile-set profiles), `board`, `coords`, `slip`,
`validate` (`score_move`: a slip checked and scored, 004 §6), `scoring`, `generate` (every
legal placement, Appel–Jacobson), `top` (`top_moves`: the count and the tops in 003 r. 5–9's
order). The slips of `players` are the game's record of a player's move; `slip.Slip` is a
move as read from its text.
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
    shoot_out_groups,
    standings,
)

__all__ = [
    "DECIDERS", "OUTCOMES", "RACK_PROBLEMS", "Correction", "Draw", "DuplicateProfile", "Game",
    "GameResult", "RackCheck", "RackProblem", "RoundScore", "SeedError", "ShootOut", "Slip",
    "Standing", "WordRuling", "check_rack", "commit", "draw_rack", "duplicate_profile",
    "duplicate_profiles", "load_duplicate_profile", "percent", "percent_text", "replay",
    "score_game", "score_round", "score_slip", "shoot_out_groups", "standings",
    "verify",
]
