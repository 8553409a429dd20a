"""Duplicate GAME profiles: every number and interpretation of a duplicate game's rules (the
rack draw, the slips, the results, the tie order of tops), each with the rule it cites.

A game profile is a TOML file (`rules/profiles/duplicate/NAME.toml`), read by the strict
loader every profile shares (`rules.profile`): a missing key, an unknown key or a value of the
wrong type is a `ProfileError`, here prefixed with the file and the line of the offending key
("cas-duplicate.toml:12: racks: unknown field 'sise'"). It names its tile set by name
(`tiles = "cas-100"`); the tile sets themselves (letters, counts, values, vowels, collation) are
the move engine's profiles, wired in by the caller.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from rules.profile import PROFILE_DIR, ProfileError, bundled_names
from rules.profile import _build as build  # the one strict loader all profiles share

DUPLICATE_PROFILE_DIR = PROFILE_DIR / "duplicate"
DUPLICATE_KIND = "herné profily duplikátu"  # in the line for a broken installation

#: which of a player's several slips of one round counts: "last" — the last one handed in
#: before the deadline (a replacement slip, 003 r. 41); "none" — 003 r. 42 literally: more than
#: one slip, none counts. `slips.several` is a hall's (paper slips) and, unless the profile sets
#: `slips.several_online`, an online event's too.
SEVERAL_SLIPS = ("last", "none")
#: the declared score on a slip: "required" (003 r. 38, 45) or "ignored" (004 §8.1: the player
#: writes no score; one written anyway changes nothing)
DECLARED = ("required", "ignored")
#: the main word of a one-tile play, for the tie order: the longer of its two words (equal:
#: the horizontal one), always the horizontal one, or the one earlier in the alphabet
ONE_TILE_MAIN = ("longer", "horizontal", "earlier")
#: of two tops that differ only in which of two identical letters the blank stands for: the
#: one with the blank on the "earlier" or on the "later" of them comes first
BLANK_ON = ("earlier", "later")
#: the tie keys of 003 r. 6–9, in the order they apply
TOP_KEYS = ("word", "row", "column", "horizontal")
#: what breaks a tie of total points in the standings (003 r. 48, 49)
TIEBREAKS = ("percent-sum", "shoot-out")


@dataclass(frozen=True, slots=True)
class RackPhase:
    """From round `from_round` on, a rack needs `vowels` vowels and `consonants` consonants."""

    rule: str
    from_round: int
    vowels: int
    consonants: int


@dataclass(frozen=True, slots=True)
class RacksRule:
    rule: str
    size: int  # the rack is drawn to this many tiles
    phases: list[RackPhase]  # ascending from_round, the first from round 1
    # the blank counts as a vowel and a consonant at once (003 r. 12); false: as neither
    blank_counts_as_both: bool
    blank_rule: str
    # a failed draw returns ALL letters, the leave of the last round too (003 r. 12 "vrátí
    # všechna písmena", 004 §8.2 "αλλάζει και τα επτά γράμματα"); false: the leave stays
    return_leave: bool
    return_rule: str
    # whether the rule can still be met (003 r. 13) is judged on the bag WITH the letters just
    # returned (true) or on what remained in it after the failed draw (false)
    counts_returned: bool
    counts_rule: str
    # the game ends when the tiles not on the board hold only vowels or only consonants
    # (004 §8.2, §5B.3); false: the draw just stops being redrawn (003 r. 13)
    end_when_one_kind: bool
    end_rule: str


@dataclass(frozen=True, slots=True)
class SlipsRule:
    rule: str
    several: str  # SEVERAL_SLIPS: a hall's (and, without several_online, an online event's)
    several_rule: str
    declared: str  # DECLARED
    declared_rule: str
    late_rule: str  # handed in after the limit: 0
    missing_rule: str  # no slip: 0
    incomplete_rule: str  # a required declared score missing or negative: 0
    invalid_rule: str  # an invalid move: 0, with the move engine's reason
    left_rule: str  # a player who left: 0 for every remaining round
    # an online event's several slips ("" — as `several`): a slip sent again online may be
    # read as the replacement slip of 003 r. 41 (an Interpretation the hall does not need)
    several_online: str = ""
    several_online_rule: str = ""


@dataclass(frozen=True, slots=True)
class ResultsRule:
    rule: str  # points and % of the top, per round and in total
    totals_rule: str  # several games: their points are summed
    tiebreaks: list[str]  # TIEBREAKS, in order
    percent_sum_rule: str
    shoot_out_rule: str
    corrections_rule: str  # after the game: scores and ranks change, the board never
    words_rule: str  # the approved and rejected words of each round are published


@dataclass(frozen=True, slots=True)
class TopsRule:
    """Plain values for the move engine's top-move order (it reads them; this module only
    loads and checks them)."""

    rule: str
    # "profile": the alphabet of the tile set's collation (003 r. 6 "v abecedě dříve")
    collation: str
    keys: list[str]  # TOP_KEYS in order: word, then top row, left column, horizontal
    one_tile_main: str  # ONE_TILE_MAIN
    one_tile_rule: str
    blank_on: str  # BLANK_ON
    blank_rule: str
    prefer_no_blank: bool  # a top without a blank before the tie keys
    prefer_no_blank_rule: str


@dataclass(frozen=True, slots=True)
class RoundRule:
    rule: str
    minutes: float  # the time for one move
    warning_seconds: int  # the warning before its end
    parts: int  # parts of a game (the last runs to the end)
    part_rounds: int  # rounds of each part but the last
    parts_rule: str


@dataclass(frozen=True, slots=True)
class EndRule:
    """What a game's end cites, by why it ended (the reason decides the rule, never a fixed
    text): the tiles ran out, or the computer finds no scoring move. Only vowels or only
    consonants left is `racks.end_rule` (it goes with `end_when_one_kind`)."""

    empty_rule: str
    no_move_rule: str


@dataclass(frozen=True, slots=True)
class DuplicateProfile:
    name: str
    title: str
    rule: str  # the rules this profile is (e.g. "003")
    tiles: str  # the tile set's name (the move engine's profile)
    tiles_rule: str
    racks: RacksRule
    slips: SlipsRule
    results: ResultsRule
    tops: TopsRule
    round: RoundRule
    end: EndRule

    def phase(self, round_no: int) -> RackPhase:
        """The vowel/consonant requirement of a round."""
        return [p for p in self.racks.phases if p.from_round <= round_no][-1]

    def for_mode(self, mode: str) -> DuplicateProfile:
        """The profile as an event of `mode` ("online" | "hall") plays it: online, the
        `slips.several_online` setting (when set) instead of `slips.several`. The rule every
        several-slips decision cites then names the setting that applied with its rule
        ("003 r. 42; slips.several = none")."""
        slips = self.slips
        setting, value, rule = "several", slips.several, slips.several_rule
        if mode == "online" and slips.several_online:
            setting, value = "several_online", slips.several_online
            rule = slips.several_online_rule
        return replace(self, slips=replace(slips, several=value,
                                           several_rule=f"{rule}; slips.{setting} = {value}"))

    def end_rule(self, reason: str) -> str:
        """The rule a game's end cites: `reason` "empty" (the tiles ran out), "no-move" (no
        scoring move for the computer) or "one-kind" (only vowels or only consonants)."""
        rules = {"empty": self.end.empty_rule, "no-move": self.end.no_move_rule,
                 "one-kind": self.racks.end_rule}
        if reason not in rules:
            raise ValueError(f"a game ends for one of {', '.join(rules)}, not {reason!r}")
        return rules[reason]


@cache
def duplicate_profile(name: str) -> DuplicateProfile:
    """A bundled game profile by name ("cas-duplicate", "greek-duplicate")."""
    return load_duplicate_profile(DUPLICATE_PROFILE_DIR / f"{name}.toml")


def duplicate_profiles() -> list[str]:
    return bundled_names(DUPLICATE_PROFILE_DIR, DUPLICATE_KIND)


def load_duplicate_profile(path: str | Path) -> DuplicateProfile:
    """A game profile file; every problem is a `ProfileError` "FILE:LINE: field: why"."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        known = bundled_names(DUPLICATE_PROFILE_DIR, DUPLICATE_KIND, path.name)
        raise ProfileError(f"duplicate profile {path.stem!r} not found "
                           f"(bundled: {', '.join(known)})") from None
    return duplicate_profile_from_text(text, path.name)


def duplicate_profile_from_text(text: str, source: str) -> DuplicateProfile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML: {exc}") from None
    try:
        profile = build(DuplicateProfile, data, source)
        _check(profile, source)
    except ProfileError as exc:
        raise ProfileError(_with_line(str(exc), source, text)) from None
    return profile


def _with_line(message: str, source: str, text: str) -> str:
    """"file: racks.phases[1]: unknown field 'x'" -> "file:LINE: racks.phases[1]: …", LINE
    being where the named key (or, for a missing one, its table) is written."""
    rest = message.removeprefix(f"{source}: ")
    path, _, why = rest.partition(": ")
    if path.startswith("unknown field "):  # top level: "file: unknown field 'x'"
        path, why = "", path
    if why.startswith("unknown field "):
        path = ".".join(p for p in (path, why.split("'")[1]) if p)
    return f"{source}:{_line_of(text, path)}: {rest}"


def _line_of(text: str, dotted: str) -> int:
    """The line of key `a.b[1].c` in a TOML text (tables by their [a.b] / [[a.b]] headers);
    for a key not written, its table's header; 1 when nothing matches."""
    parts = [p for p in re.split(r"\.|\[(\d+)\]", dotted) if p]
    names = [p for p in parts if not p.isdecimal()]
    if not names:
        return 1
    if parts[-1].isdecimal():
        key, table, occurrence = None, ".".join(names), int(parts[-1])
    else:
        key, table = names[-1], ".".join(names[:-1])
        occurrence = int(parts[-2]) if len(parts) > 1 and parts[-2].isdecimal() else 0
    seen = {"": 0}
    current, best = "", 1
    for no, line in enumerate(text.splitlines(), start=1):
        header = re.match(r"^\s*\[\[?\s*([\w.-]+)\s*\]", line)
        if header:
            current = header[1]
            seen[current] = seen.get(current, -1) + 1
            if current == table and seen[current] == occurrence:
                if key is None:
                    return no
                best = no
            elif key is not None and current == ".".join(names):
                return no  # the key is a table of its own
        elif (key is not None and current == table and seen[current] == occurrence
              and re.match(rf"^\s*{re.escape(key)}\s*=", line)):
            return no
    return best


def _check(p: DuplicateProfile, where: str) -> None:
    """Cross-field checks that a type alone cannot express."""

    def fail(field_name: str, why: str) -> None:
        raise ProfileError(f"{where}: {field_name}: {why}")

    def one_of(field_name: str, value: str, allowed: tuple[str, ...]) -> None:
        if value not in allowed:
            fail(field_name, f"{value!r} is not one of {', '.join(map(repr, allowed))}")

    r = p.racks
    if r.size < 1:
        fail("racks.size", "must be at least 1")
    starts = [ph.from_round for ph in r.phases]
    if not starts or starts[0] != 1 or starts != sorted(set(starts)):
        fail("racks.phases", "from_round must start at 1 and ascend")
    for i, ph in enumerate(r.phases):
        if ph.vowels < 0 or ph.consonants < 0 or ph.vowels + ph.consonants > r.size:
            fail(f"racks.phases[{i}]", "vowels and consonants: 0 or more, together ≤ size")
    one_of("slips.several", p.slips.several, SEVERAL_SLIPS)
    if p.slips.several_online:
        one_of("slips.several_online", p.slips.several_online, SEVERAL_SLIPS)
        if not p.slips.several_online_rule:
            fail("slips.several_online_rule", "cite the rule the online setting rests on")
    one_of("slips.declared", p.slips.declared, DECLARED)
    for i, key in enumerate(p.results.tiebreaks):
        one_of(f"results.tiebreaks[{i}]", key, TIEBREAKS)
    if len(set(p.results.tiebreaks)) != len(p.results.tiebreaks):
        fail("results.tiebreaks", "each criterion once")
    if sorted(p.tops.keys) != sorted(TOP_KEYS):
        fail("tops.keys", f"must order exactly {', '.join(TOP_KEYS)}")
    if p.tops.collation != "profile":
        fail("tops.collation", "only 'profile' (the tile set's collation) is known")
    one_of("tops.one_tile_main", p.tops.one_tile_main, ONE_TILE_MAIN)
    one_of("tops.blank_on", p.tops.blank_on, BLANK_ON)
    if p.round.minutes <= 0 or p.round.warning_seconds < 0:
        fail("round.minutes", "must be more than 0 (warning_seconds 0 or more)")
    if p.round.parts < 1 or p.round.part_rounds < 1:
        fail("round.parts", "parts and part_rounds must be at least 1")
