"""`season_ladder`: the ladder a season's profile computes."""

from __future__ import annotations

from rules.profile import ProfileError
from rules.season.cas import cas_ladder
from rules.season.cup import cup_ladder
from rules.season.model import Ladder, Season, SeasonError
from rules.season.msr import msr_ladder
from rules.season.profile import SeasonProfile, season_profile, season_profiles
from rules.season.results import validate

_LADDERS = {"msr": msr_ladder, "cup": cup_ladder, "cas": cas_ladder}


def season_ladder(season: Season) -> Ladder:
    """The ladder of `season`, by the profile its `competition` names. Pure."""
    profile = _profile(season.competition)
    validate(season, profile)
    return _LADDERS[profile.ladder](season, profile)


def _profile(name: str) -> SeasonProfile:
    known = season_profiles()
    if name not in known:
        raise SeasonError(f"unknown competition {name!r} (known: {', '.join(known)})",
                          "unknown-competition", competition=name, known=", ".join(known))
    try:
        return season_profile(name)
    except ProfileError as exc:  # a broken bundled profile is a bug, not bad input
        raise RuntimeError(str(exc)) from exc
