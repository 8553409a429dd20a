"""Pairing: e-SP 2.4, SP 1.3 (RULES.md section 1). NOT YET IMPLEMENTED."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.model import Entrant, Pairing, Result
from rules.profile import Profile


class PairingError(ValueError):
    """No pairing satisfies the rules; the message names the conflict."""


def is_round_robin(players: int, rounds: int, profile: Profile) -> bool:
    extra = profile.pairing.round_robin_extra
    return extra >= 0 and players <= rounds + extra


def pair_round(
    entrants: Sequence[Entrant],
    results: Iterable[Result],
    round_no: int,
    rounds: int,
    profile: Profile,
    *,
    avoid: Iterable[tuple[str, str]] = (),
) -> list[Pairing]:
    raise NotImplementedError
