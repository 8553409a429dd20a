"""Building seasons for the ladder tests: events from place lists, profiles with small tables."""

from __future__ import annotations

import copy
import datetime as dt
import tomllib
from collections.abc import Callable
from typing import Any

import pytest

from rules.season import SeasonEvent
from rules.season.profile import SEASON_PROFILE_DIR, SeasonProfile, season_profile_from_dict

DAY = dt.date(2023, 1, 1)


def raw_profile(name: str) -> dict[str, Any]:
    return tomllib.loads((SEASON_PROFILE_DIR / f"{name}.toml").read_text(encoding="utf-8"))


@pytest.fixture
def raw() -> Callable[[str], dict[str, Any]]:
    """A bundled season profile as its TOML's plain data (a fresh copy each call)."""
    return lambda name: copy.deepcopy(raw_profile(name))


@pytest.fixture
def small() -> Callable[..., SeasonProfile]:
    """A bundled profile with a small points table and other numbers changed, for hand
    computation: small("sss-msr", [8, 6, 5, 4, 3, 2, 1], msr={"seats": 1})."""

    def make(name: str, table: list[int], **tables: dict[str, Any]) -> SeasonProfile:
        data = copy.deepcopy(raw_profile(name))
        data["points"]["table"] = table
        data["points"]["given"] = len(table)
        for key, changes in tables.items():
            data[key].update(changes)
        return season_profile_from_dict(data, f"{name} (test)")

    return make


@pytest.fixture
def event() -> Callable[..., SeasonEvent]:
    """event("Q1", "live-qt", "a b c", day=3, out="b", field=10): places from a space-separated
    string; a "-" is a filler player unique to the event (named "Q1#2" for place 2)."""

    def make(name: str, kind: str, places: str, day: int = 1, **kw: Any) -> SeasonEvent:
        ids = tuple(f"{name}#{i}" if p == "-" else p
                    for i, p in enumerate(places.split(), start=1))
        for key in ("out", "organizers"):
            if key in kw:
                kw[key] = frozenset(kw[key].split())
        return SeasonEvent(name, kind, DAY + dt.timedelta(days=day), ids, **kw)

    return make
