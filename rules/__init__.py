"""The association's rules for online Scrabble tournaments — pure: no I/O, no clock, no chat.

Contract: DESIGN.md section 2. Rules text: RULES.md (digest of e-SP, Príloha D).
"""

from rules.exclusion import exclusion_details, exclusions
from rules.model import Case, End, Entrant, Exclusion, Pairing, Rating, Result, Standing
from rules.pairing import PairingError, is_round_robin, pair_round
from rules.profile import Profile, ProfileError
from rules.scoring import score
from rules.screlo import decay, expected, rate
from rules.standings import standings

__all__ = [
    "Case",
    "End",
    "Entrant",
    "Exclusion",
    "Pairing",
    "PairingError",
    "Profile",
    "ProfileError",
    "Rating",
    "Result",
    "Standing",
    "decay",
    "exclusion_details",
    "exclusions",
    "expected",
    "is_round_robin",
    "pair_round",
    "rate",
    "score",
    "standings",
]
