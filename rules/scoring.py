"""Scoring one pairing: RULES.md section 2 (e-SP 3.5, 4.3–4.9). NOT YET IMPLEMENTED."""

from __future__ import annotations

from rules.model import Case, Result
from rules.profile import Profile


def score(case: Case, profile: Profile) -> Result:
    raise NotImplementedError
