"""Season profiles: every number and choice of a season ladder, with the rule it cites.

A season profile is a TOML file (`rules/profiles/season/NAME.toml`), loaded as strictly as the
tournament profiles (rules.profile): a missing key, an unknown key or a value of the wrong type
fails with a `ProfileError` that names the field.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from rules.profile import PROFILE_DIR, ProfileError, bundled_names, read_toml
from rules.profile import _build as build  # the one strict loader all profiles share

SEASON_PROFILE_DIR = PROFILE_DIR / "season"
SEASON_KIND = "profily sezóny"  # in the line for a broken installation

#: ladder computations a profile can name
LADDERS = ("msr", "cup", "cas")
#: A3 7.1's tie-break criteria, in the order a profile may list them
MSR_CRITERIA = ("cup-position", "best-results", "events-played", "field-size")
#: what decides a ČAS ladder's order after the total
CAS_CRITERIA = ("best-results", "lot")
#: how a ČAS ladder ranks its players: "best" = the best N results' points summed;
#: "order" = one event's final order (no points)
CAS_MODES = ("best", "order")
#: an SP organiser's credit when he lacks the Nth result: "zero" — no points (the result
#: does not exist); "last" — his weakest result of those he has
SHORTFALLS = ("zero", "last")
#: the formats a tournament of the registry has: a classic (Swiss) event or a duplicate one
EVENT_FORMATS = ("classic", "duplicate")


@dataclass(frozen=True, slots=True)
class KindFormats:
    """The formats an event of these kinds is played in, by the rule that says so; a stored
    tournament of another format is refused when a season file names it for such an event.
    Kinds no entry names may be of either format (their rules leave it to the organiser)."""

    kinds: list[str]
    formats: list[str]  # EVENT_FORMATS
    rule: str


@dataclass(frozen=True, slots=True)
class PointsTable:
    rule: str
    table: list[int]  # points of places 1, 2, 3 …; places beyond the table earn nothing
    # how many leading values the cited rule itself gives; the rest were filled in (comment)
    given: int
    out_rule: str  # excluded or withdrawn: no points, and nobody gets his place's

    def points(self, place: int) -> int:
        return self.table[place - 1] if 1 <= place <= len(self.table) else 0


@dataclass(frozen=True, slots=True)
class MsrRule:
    rule: str
    kinds: list[str]  # the kinds that qualify ("kvalifikačné turnaje")
    kinds_rule: str
    seats: int  # the championship's players, the champion included
    champion_rule: str
    ms_b_seats: int
    ms_b_rule: str
    tiebreaks: list[str]  # MSR_CRITERIA, in order
    tiebreak_rule: str
    all_tied_advance_rule: str
    cup_profile: str  # the Slovak Cup profile "cup-position" is computed with
    # a player with no qualification points qualifies for nothing (no "bodový zisk")
    zero_total_qualifies: bool
    decline_rule: str
    # A3 7.1 excludes from MS-B only "hráčov, ktorí sa zúčastňujú hlavného turnaja": a player
    # who declined M-SR may play MS-B (the letter); False = he is skipped for MS-B too
    declined_plays_ms_b: bool = True


@dataclass(frozen=True, slots=True)
class CupSlot:
    name: str
    kinds: list[str]
    coefficients: list[float]  # the best result × [0], the second best × [1] …
    rule: str


@dataclass(frozen=True, slots=True)
class SpCredit:
    rule: str
    kinds: list[str]  # events whose organisers are credited
    from_kinds: list[str]  # the results the credit is taken from
    nth: int  # his Nth best result there
    shortfall: str  # SHORTFALLS


@dataclass(frozen=True, slots=True)
class CupRule:
    rule: str
    slots: list[CupSlot]
    organizer: SpCredit
    tie_rule: str  # A5 9.1 names no tie-break: level players share the rank


@dataclass(frozen=True, slots=True)
class CasLadder:
    name: str  # the group its qualifiers get ("internet", "correspondence", "online", "live")
    kinds: list[str]
    seats: int
    mode: str  # CAS_MODES
    best: int  # "best": how many results count; "order": 0
    organizer_credit: bool  # the organiser gets the average of his other results
    organizer_min_events: int
    tiebreaks: list[str]  # CAS_CRITERIA
    rule: str


@dataclass(frozen=True, slots=True)
class CasRule:
    rule: str
    ladders: list[CasLadder]  # in the order their seats are filled
    fill_from: str  # the ladder that fills freed seats
    fill_rule: str
    organizer_rule: str


@dataclass(frozen=True, slots=True)
class SeasonProfile:
    name: str
    title: str
    ladder: str  # LADDERS
    rule: str
    kinds: list[str]  # every kind an event of such a season may have
    formats: list[KindFormats]  # the kinds whose format a rule fixes
    points: PointsTable
    msr: MsrRule | None = None
    cup: CupRule | None = None
    cas: CasRule | None = None

    def formats_of(self, kind: str) -> KindFormats | None:
        """The rule fixing the format of an event of `kind` (None: either format)."""
        return next((entry for entry in self.formats if kind in entry.kinds), None)


@cache
def season_profile(name: str) -> SeasonProfile:
    """A bundled season profile by name: "sss-msr", "sss-cup", "cas-duplicate-cup"."""
    path = SEASON_PROFILE_DIR / f"{name}.toml"
    data = read_toml(path, name, SEASON_PROFILE_DIR, "season profile", SEASON_KIND)
    return season_profile_from_dict(data, path.name)


def season_profiles() -> list[str]:
    """The bundled season profiles' names: the competitions a season may name."""
    return bundled_names(SEASON_PROFILE_DIR, SEASON_KIND)


def season_profile_from_dict(data: dict, source: str = "<dict>") -> SeasonProfile:
    data = dict(data)
    # built apart: an optional table's own errors would hide behind "expected X | None"
    sections = {name: build(cls, data.pop(name), f"{source}: {name}")
                for name, cls in _SECTIONS.items() if name in data}
    profile = replace(build(SeasonProfile, data, source), **sections)
    _check(profile, source)
    return profile


_SECTIONS = {"msr": MsrRule, "cup": CupRule, "cas": CasRule}


def _check(p: SeasonProfile, where: str) -> None:
    """Cross-field checks that a type alone cannot express."""

    def fail(field_name: str, why: str) -> None:
        raise ProfileError(f"{where}: {field_name}: {why}")

    def subset(field_name: str, values: list[str], allowed: tuple[str, ...] | list[str]) -> None:
        for v in values:
            if v not in allowed:
                fail(field_name, f"{v!r} is not one of {', '.join(map(repr, allowed))}")

    subset("ladder", [p.ladder], LADDERS)
    if len(set(p.kinds)) != len(p.kinds) or not p.kinds:
        fail("kinds", "must name at least one kind, each once")
    fixed = [kind for entry in p.formats for kind in entry.kinds]
    if len(set(fixed)) != len(fixed):
        fail("formats", "a kind may be named once")
    for i, entry in enumerate(p.formats):
        subset(f"formats[{i}].kinds", entry.kinds, p.kinds)
        subset(f"formats[{i}].formats", entry.formats, EVENT_FORMATS)
        if not entry.kinds or not entry.formats:
            fail(f"formats[{i}]", "must name at least one kind and one format")
    if any(q < 0 for q in p.points.table) or p.points.table != sorted(p.points.table)[::-1]:
        fail("points.table", "must not increase and must not be negative")
    if not 0 <= p.points.given <= len(p.points.table):
        fail("points.given", "must be between 0 and the table's length")
    for name in LADDERS:
        if (getattr(p, name) is None) == (name == p.ladder):
            fail(name, "required" if name == p.ladder else f"not used by ladder {p.ladder!r}")
    if p.msr is not None:
        subset("msr.kinds", p.msr.kinds, p.kinds)
        subset("msr.tiebreaks", p.msr.tiebreaks, MSR_CRITERIA)
        if p.msr.seats < 1 or p.msr.ms_b_seats < 0:
            fail("msr.seats", "must be at least 1 (ms_b_seats at least 0)")
    if p.cup is not None:
        for i, slot in enumerate(p.cup.slots):
            subset(f"cup.slots[{i}].kinds", slot.kinds, p.kinds)
            if not slot.coefficients or any(c < 0 for c in slot.coefficients):
                fail(f"cup.slots[{i}].coefficients", "at least one, none negative")
        subset("cup.organizer.kinds", p.cup.organizer.kinds, p.kinds)
        subset("cup.organizer.from_kinds", p.cup.organizer.from_kinds, p.kinds)
        subset("cup.organizer.shortfall", [p.cup.organizer.shortfall], SHORTFALLS)
        if p.cup.organizer.nth < 1:
            fail("cup.organizer.nth", "must be at least 1")
    if p.cas is not None:
        names = [lad.name for lad in p.cas.ladders]
        if len(set(names)) != len(names):
            fail("cas.ladders", "names must differ")
        subset("cas.fill_from", [p.cas.fill_from], names)
        if names and names[-1] != p.cas.fill_from:
            fail("cas.fill_from", "must be the last ladder (it takes every seat freed before it)")
        for i, lad in enumerate(p.cas.ladders):
            subset(f"cas.ladders[{i}].kinds", lad.kinds, p.kinds)
            subset(f"cas.ladders[{i}].mode", [lad.mode], CAS_MODES)
            subset(f"cas.ladders[{i}].tiebreaks", lad.tiebreaks, CAS_CRITERIA)
            if (lad.mode == "best") != (lad.best > 0):
                fail(f"cas.ladders[{i}].best", "more than 0 exactly when mode is 'best'")
