"""Season profiles: the rules' numbers are there, every table cites a rule, and a bad profile
or a bad season is refused with the field or the code that says why."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from rules import ProfileError
from rules.season import (
    ERROR_CODES,
    Season,
    SeasonError,
    SeasonEvent,
    season_ladder,
    season_profile,
    season_profiles,
)
from rules.season.profile import season_profile_from_dict

BUNDLED = ("cas-duplicate-cup", "sss-cup", "sss-msr")
A3_TABLE = [40, 35, 32, 30, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
            16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]  # SP A3 7.1, as printed
SSS_KINDS = ["live-qt", "online-qt", "pairs", "m-version", "written", "internet", "msr",
             "msr-vykladacie"]


def _rules(node: Any, where: str) -> list[tuple[str, str]]:
    """(where, rule) of every table in the profile, nested ones and lists included."""
    found = []
    if dataclasses.is_dataclass(node):
        if hasattr(node, "rule"):
            found.append((where, node.rule))
        for f in dataclasses.fields(node):
            found += _rules(getattr(node, f.name), f"{where}.{f.name}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found += _rules(item, f"{where}[{i}]")
    return found


def test_the_bundled_profiles_are_the_three_competitions() -> None:
    assert tuple(season_profiles()) == BUNDLED


@pytest.mark.parametrize("name", BUNDLED)
def test_every_table_cites_a_rule(name: str) -> None:
    profile = season_profile(name)
    assert profile.name == name
    cited = _rules(profile, name)
    assert len(cited) >= 3
    assert all(rule.strip() for _, rule in cited), cited


def test_the_sss_numbers_are_the_rules_numbers() -> None:
    msr, cup = season_profile("sss-msr"), season_profile("sss-cup")
    assert msr.points.table == cup.points.table == A3_TABLE
    assert msr.points.given == 32
    assert msr.kinds == cup.kinds == SSS_KINDS
    assert msr.msr is not None and cup.cup is not None
    assert (msr.msr.seats, msr.msr.ms_b_seats) == (32, 32)
    assert msr.msr.kinds == ["live-qt", "online-qt", "pairs", "m-version"]
    assert msr.msr.tiebreaks == ["cup-position", "best-results", "events-played", "field-size"]
    assert {s.name: s.coefficients for s in cup.cup.slots} == {
        "live-qt": [1.0] * 6, "online-qt": [1.0], "pairs": [1.0], "m-version": [1.0],
        "written": [1.0], "internet": [1.0], "msr": [2.0], "msr-vykladacie": [2.0]}
    assert (cup.cup.organizer.kinds, cup.cup.organizer.from_kinds, cup.cup.organizer.nth) == (
        ["written", "internet"], ["live-qt"], 4)


def test_the_cas_profile_marks_the_table_the_seed_gives_only_in_part() -> None:
    cas = season_profile("cas-duplicate-cup")
    assert cas.points.table[0] == 55 and cas.points.given == 1  # "první hráč … 55 bodů"
    assert cas.cas is not None
    assert [(lad.name, lad.seats, lad.best) for lad in cas.cas.ladders] == [
        ("internet", 8, 4), ("correspondence", 8, 0), ("online", 4, 0), ("live", 12, 4)]
    assert sum(lad.seats for lad in cas.cas.ladders) == 32
    assert cas.cas.fill_from == "live"


def test_the_formats_the_rules_fix_and_only_those() -> None:
    """SP A4 8.1: the qualifiers and M-SR are Swiss; ČAS PoS: the live qualifiers are
    duplicate; a kind whose rule says nothing may be either (no entry)."""
    for name in ("sss-msr", "sss-cup"):
        p = season_profile(name)
        for kind in ("live-qt", "online-qt", "msr"):
            fixed = p.formats_of(kind)
            assert fixed is not None and fixed.formats == ["classic"] and fixed.rule == "SP A4 8.1"
        assert [k for k in p.kinds if p.formats_of(k) is None] == [
            "pairs", "m-version", "written", "internet", "msr-vykladacie"]
    cas = season_profile("cas-duplicate-cup")
    assert cas.formats_of("cas-live").formats == ["duplicate"]  # type: ignore[union-attr]
    assert [k for k in cas.kinds if cas.formats_of(k) is None] == [
        "cas-internet", "cas-correspondence", "cas-online"]


def test_an_unknown_profile_names_the_bundled_ones() -> None:
    with pytest.raises(ProfileError, match="sss-msr"):
        season_profile("nope")


def _edit(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        data = data[int(key)] if isinstance(data, list) else data[key]
    if value is _DELETE:
        del data[last]
    else:
        data[last] = value


_DELETE = object()

BROKEN = [
    ("sss-msr", "colour", "red", "unknown field 'colour'"),
    ("sss-msr", "msr.seats", _DELETE, "msr.seats: missing"),
    ("sss-msr", "msr.seats", "32", "msr.seats: expected an integer"),
    ("sss-msr", "msr.tiebreaks", ["age"], "msr.tiebreaks: 'age'"),
    ("sss-msr", "msr.kinds", ["bingo"], "msr.kinds: 'bingo'"),
    ("sss-msr", "points.table", [1, 2], "points.table"),
    ("sss-msr", "points.given", 33, "points.given"),
    ("sss-msr", "cup", {}, "cup"),
    ("sss-cup", "cup.organizer.shortfall", "guess", "cup.organizer.shortfall"),
    ("sss-cup", "cup.slots.0.coefficients", [], "cup.slots[0].coefficients"),
    ("cas-duplicate-cup", "cas.fill_from", "internet", "cas.fill_from"),
    ("cas-duplicate-cup", "cas.ladders.1.best", 3, "cas.ladders[1].best"),
    ("cas-duplicate-cup", "cas.ladders.0.tiebreaks", ["coin"], "cas.ladders[0].tiebreaks"),
    ("cas-duplicate-cup", "formats.0.formats", ["scrabble"], "formats[0].formats: 'scrabble'"),
    ("cas-duplicate-cup", "formats.0.kinds", ["live-qt"], "formats[0].kinds: 'live-qt'"),
    ("cas-duplicate-cup", "formats.0.formats", [], "formats[0]: must name"),
    ("sss-msr", "formats", [{"kinds": ["msr"], "formats": ["classic"], "rule": "x"},
                            {"kinds": ["msr"], "formats": ["duplicate"], "rule": "y"}],
     "formats: a kind may be named once"),
    ("sss-msr", "formats", _DELETE, "formats: missing"),
]


@pytest.mark.parametrize(("name", "path", "value", "message"), BROKEN)
def test_a_broken_profile_names_its_field(raw, name, path, value, message) -> None:
    data = raw(name)
    _edit(data, path, value)
    with pytest.raises(ProfileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        season_profile_from_dict(data, "x.toml")


DAY = dt.date(2023, 1, 1)


def _event(name: str = "Q", places: tuple[str, ...] = ("a", "b"), **kw: Any) -> SeasonEvent:
    return SeasonEvent(name, kw.pop("kind", "live-qt"), DAY, places, **kw)


BAD_SEASONS = [
    ("unknown-competition", Season("s", "sss-xyz", ())),
    ("unknown-kind", Season("s", "sss-msr", (_event(kind="cas-live"),))),
    ("duplicate-event", Season("s", "sss-msr", (_event(), _event()))),
    ("duplicate-player", Season("s", "sss-msr", (_event(places=("a", "a")),))),
    ("out-not-placed", Season("s", "sss-cup", (_event(out=frozenset({"z"})),))),
    ("bad-ranks", Season("s", "sss-cup", (_event(ranks=(1, 3)),))),
    ("bad-ranks", Season("s", "sss-cup", (_event(ranks=(1,)),))),
    ("bad-ranks", Season("s", "sss-cup", (_event(kind="pairs", ranks=(2, 2)),))),
    ("bad-ranks", Season("s", "sss-cup", (_event(kind="pairs", ranks=(1, 3)),))),
    ("bad-field", Season("s", "sss-cup", (_event(field=1),))),
    ("one-event-only", Season("s", "cas-duplicate-cup", (
        _event("K1", kind="cas-correspondence"), _event("K2", kind="cas-correspondence")))),
]


@pytest.mark.parametrize(("code", "season"), BAD_SEASONS)
def test_a_bad_season_is_refused_with_a_code(code: str, season: Season) -> None:
    with pytest.raises(SeasonError) as caught:
        season_ladder(season)
    assert caught.value.code == code and code in ERROR_CODES
    assert str(caught.value)


def test_a_pair_is_one_competitor_and_the_second_pair_scores_the_second_place(event) -> None:
    # SP 1.3 "za hráča … sa považuje dvojica": pair (a, b) 1st, (c, d) 2nd — A3 7.1 gives 40
    # each and 35 each; on the ladder c and d have two players ahead of them: rank 3
    ladder = season_ladder(Season("s", "sss-msr", (
        event("P", "pairs", "a b c d", ranks=(1, 1, 2, 2)),)))
    assert [(r.player, r.total, r.rank) for r in ladder.rows] == [
        ("a", 40, 1), ("b", 40, 1), ("c", 35, 3), ("d", 35, 3)]


def test_shared_places_of_individuals_skip_the_places_they_take(event) -> None:
    # a tie of two individuals for 1st (1, 1, 3): the next is 3rd — 40, 40, 32
    ladder = season_ladder(Season("s", "sss-msr", (
        event("Q", "live-qt", "a b c", ranks=(1, 1, 3)),)))
    assert [(r.player, r.total) for r in ladder.rows] == [("a", 40), ("b", 40), ("c", 32)]
    with pytest.raises(SeasonError) as caught:  # pairs' numbering is for pairs only
        season_ladder(Season("s", "sss-msr", (event("Q", "live-qt", "a b c d",
                                                      ranks=(1, 1, 2, 2)),)))
    assert caught.value.code == "bad-ranks"
