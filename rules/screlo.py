"""Online screlo: RULES.md section 8 (e-SP 2.4, 5). NOT YET IMPLEMENTED."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.model import Rating, Result
from rules.profile import Profile


def expected(diff: float, profile: Profile) -> float:
    raise NotImplementedError


def rate(
    before: Mapping[str, Rating], results: Iterable[Result], profile: Profile
) -> dict[str, Rating]:
    raise NotImplementedError


def decay(rating: Rating, inactive_seasons: int, profile: Profile) -> Rating:
    raise NotImplementedError
