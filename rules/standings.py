"""Standings and qualification points: e-SP 2.4, SP 1.3, SP A3. NOT YET IMPLEMENTED."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.model import Result, Standing
from rules.profile import Profile


def standings(
    players: Sequence[str],
    results: Iterable[Result],
    profile: Profile,
    *,
    out: Mapping[str, str] | None = None,
    round_robin: bool = False,
) -> list[Standing]:
    raise NotImplementedError
