"""Exclusion thresholds: e-SP 3.6 (RULES.md section 5). NOT YET IMPLEMENTED."""

from __future__ import annotations

from collections.abc import Iterable

from rules.model import Result
from rules.profile import Profile


def exclusions(results: Iterable[Result], profile: Profile) -> dict[str, str]:
    raise NotImplementedError
