"""The association's rules for online Scrabble tournaments — pure: no I/O, no clock, no chat.

Contract: DESIGN.md section 2. Rules text: RULES.md (digest of e-SP, Príloha D).
"""

from rules.evidence import (
    AbsenceReport,
    Arrival,
    Dispute,
    DrawConfirmation,
    EvidenceError,
    PairingEvidence,
    PlatformEnd,
    PlatformGame,
    RoundClock,
    Ruling,
    ScoreReport,
)
from rules.exclusion import exclusion_details, exclusions
from rules.model import Case, End, Entrant, Exclusion, Pairing, Rating, Result, Standing
from rules.pairing import PairingError, is_round_robin, pair_round
from rules.profile import Profile, ProfileError
from rules.reconcile import (
    Decided,
    NeedsAdmin,
    Pending,
    Verdict,
    allowed_rulings,
    evidence_at,
    reconcile,
)
from rules.scoring import score
from rules.screlo import compose, decay, expected, rate, replay
from rules.standings import standings

__all__ = [
    "AbsenceReport",
    "Arrival",
    "Case",
    "Decided",
    "Dispute",
    "DrawConfirmation",
    "End",
    "Entrant",
    "EvidenceError",
    "Exclusion",
    "NeedsAdmin",
    "Pairing",
    "PairingError",
    "PairingEvidence",
    "Pending",
    "PlatformEnd",
    "PlatformGame",
    "Profile",
    "ProfileError",
    "Rating",
    "Result",
    "RoundClock",
    "Ruling",
    "ScoreReport",
    "Standing",
    "Verdict",
    "allowed_rulings",
    "compose",
    "decay",
    "evidence_at",
    "exclusion_details",
    "exclusions",
    "expected",
    "is_round_robin",
    "pair_round",
    "rate",
    "reconcile",
    "replay",
    "score",
    "standings",
]
