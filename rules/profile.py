"""Rule profiles: every number and every interpretation of RULES.md, with the rule it cites.

A profile is a TOML file (`rules/profiles/NAME.toml`). Each table is one rule and carries a
`rule` key naming the section it comes from, so the software can cite it wherever it applies a
number or a choice. Loading is strict: a missing key, an unknown key or a value of the wrong
type fails with a `ProfileError` that names the field.
"""

from __future__ import annotations

import tomllib
import types
from dataclasses import MISSING, dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

PROFILE_DIR = Path(__file__).with_name("profiles")
#: every profile file the package ships, as paths under PROFILE_DIR (a test keeps it equal to
#: the folder): a name in it whose file is missing is an incomplete installation, not the user's
#: mistake (issue 43.3)
MANIFEST = PROFILE_DIR / "bundled.txt"


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file and the field."""


class IncompleteInstallError(ValueError):
    """The profiles the package ships are not where it installed them (issue 34.2): the
    installation is at fault, not the user's input. Not a `ProfileError`, so that no handler
    of bad input reports it as a fault of the user's file; the message is one Slovak line."""


def bundled_names(folder: Path, kind: str, wanted: str = "") -> list[str]:
    """The names of the profiles bundled in `folder`. Every such folder ships at least one, so
    none at all means a package built without them: `kind` says in Slovak what is missing
    ("sady kameňov"), `wanted` which file was looked for."""
    names = sorted(p.stem for p in folder.glob("*.toml"))
    if not names:
        looked_for = f" (hľadal sa súbor {wanted})" if wanted else ""
        raise IncompleteInstallError(
            f"inštalácia strediska je neúplná: chýbajú pribalené {kind} — priečinok {folder} "
            f"nemá žiadny súbor *.toml{looked_for}; nejde o chybu vášho súboru, "
            "preinštalujte stredisko")
    return names


def read_toml(path: Path, name: str, bundled: Path, what: str, kind: str) -> dict[str, Any]:
    """A profile file's table; a missing file names the bundled ones (`bundled`'s `*.toml`),
    a broken one the file; no bundled one at all is a broken installation (`kind`: see
    `bundled_names`)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = ", ".join(bundled_names(bundled, kind, path.name))  # none at all: its line
        if _shipped_file(path):
            raise IncompleteInstallError(
                f"inštalácia strediska je neúplná: chýba pribalený súbor {path.resolve()} "
                f"({kind}); nejde o chybu vášho súboru, preinštalujte stredisko") from None
        raise ProfileError(f"{what} {name!r} not found (bundled: {known})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path.name}: not valid TOML: {exc}") from None


def shipped() -> frozenset[str]:
    """The manifest's entries (none when it is missing too: then the folder's own check)."""
    try:
        text = MANIFEST.read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def _shipped_file(path: Path) -> bool:
    """Whether `path` is one of the files the package ships (so its absence is the install's)."""
    try:
        relative = path.resolve().relative_to(PROFILE_DIR.resolve()).as_posix()
    except ValueError:  # a user's own file, or a folder a test points elsewhere
        return False
    return relative in shipped()


@dataclass(frozen=True, slots=True)
class PointsRule:
    rule: str
    win: float
    draw: float
    loss: float


@dataclass(frozen=True, slots=True)
class FinishedRule:
    rule: str
    # Interpretation (e-SP 3.5): a game the server ended after two rounds with no valid move
    # ends "by forfeit, i.e. by the current score" — scored as a normal finish, not a forfeit.
    passes_rule: str


@dataclass(frozen=True, slots=True)
class PlainRule:
    rule: str


@dataclass(frozen=True, slots=True)
class ResignedRule:
    rule: str
    # ČAS 13.1/14.2 and SP 2.6 d) treat a resignation as a one-sided forfeit; e-SP 3.5 does not.
    forfeit: bool
    # "as_played": the score at the moment of resignation (e-SP 3.5);
    # "forfeit_or_current": the no-show forfeit score or the current score, whichever gives the
    #           winner the larger lead (ČAS 14.2);
    # "forfeit_or_difference": the no-show forfeit score, or 0 : current lead when the lead is
    #           larger (SP 2.6 d: "0:100, prípadne ... 0:rozdiel skóre").
    mode: str


@dataclass(frozen=True, slots=True)
class DisconnectRule:
    rule: str
    # "margin": the winner's score becomes max(winner, loser + margin) — Interpretation of
    #           "by 50" (e-SP 4.8) = "at least 50" (e-SP 4.9 table);
    # "forfeit_or_current": the no-show forfeit score or the current score, whichever gives
    #           the winner the larger lead (ČAS 14.2);
    # "forfeit_or_difference": as for a resignation (SP 2.6 d, live rules by analogy).
    mode: str
    margin: int


@dataclass(frozen=True, slots=True)
class NoShowRule:
    # also the one-sided forfeit score that ČAS 14.2 uses for resignations and disconnections
    rule: str
    winner_score: int
    loser_score: int


@dataclass(frozen=True, slots=True)
class DoubleForfeitRule:
    rule: str
    score: int


@dataclass(frozen=True, slots=True)
class OverLimitRule:
    rule: str
    score: int
    # Interpretation (e-SP 4.5): the counting game ended after the limit, or had not ended by it.
    ended_after_limit: bool
    unfinished_at_limit: bool
    # Which game counts when the pair played more than one by the limit (e-SP 4.5: "ak hráči
    # odohrajú viac ako jednu vzájomnú partiu do stanoveného limitu, … posledná z nich"):
    # "last_finished": the last game FINISHED by the limit; a later game still unfinished at
    #           the limit does not cancel it; row 7 only when no game was finished by then;
    # "last_started": the older reading — the last game STARTED by the limit counts, so an
    #           unfinished later game makes the pairing row 7.
    counting_game: str = "last_finished"


@dataclass(frozen=True, slots=True)
class ByeRule:
    rule: str
    points: float
    score: int
    opponent_score: int


@dataclass(frozen=True, slots=True)
class MissedRoundRule:
    """A round a player was not paired in because he entered late or was temporarily out
    (ČAS 14.4: "nula bodů a skóre 0:0" for each such round). Only profiles that list
    "missed_round" in `ends` score it."""

    rule: str = "ČAS 14.4"
    points: float = 0.0
    score: int = 0


@dataclass(frozen=True, slots=True)
class SaveFailedRule:
    rule: str
    agreed_rule: str
    winner_score: int
    loser_score: int
    no_agreement_score: int


@dataclass(frozen=True, slots=True)
class AgreedDrawRule:
    rule: str
    # "lower": both players get the lower of the two scores (420:300 -> 300:300).
    score: str
    confirmations_required: int


@dataclass(frozen=True, slots=True)
class RatedRule:
    rule: str
    # Interpretation (e-SP 5): games actually played count for online screlo.
    ends: list[str]
    save_failed_agreed: bool
    require_moves_by_both: bool


@dataclass(frozen=True, slots=True)
class ExclusionRule:
    rule: str
    # A threshold of 0 means the rules set no automatic exclusion (ČAS: only the HR excludes).
    # e-SP 3.6 (a): forfeited against him with no move made, or resigned — counted together.
    no_move_or_resigned: int
    # e-SP 3.6 (b): forfeited against him for any reason.
    any_forfeit: int
    # Interpretation: resignations count for (a) only; time losses for neither.
    resignations_count: bool


@dataclass(frozen=True, slots=True)
class StandingsRule:
    rule: str
    # criteria after which the seed order breaks a full tie; names from
    # points, wins, median_buchholz, buchholz, score, spread, neustadtl
    tiebreaks: list[str]
    round_robin_rule: str
    round_robin_tiebreaks: list[str]
    # Interpretations (SP 1.3 / e-SP 2.4):
    bye_counts_as_win: bool
    forfeit_win_counts_as_win: bool
    bye_in_buchholz: bool
    forfeit_opponent_counts: bool
    # how many opponents median Buchholz drops at each end (the best- and worst-placed one)
    median_drop: int


@dataclass(frozen=True, slots=True)
class QualificationRule:
    rule: str
    table: list[int]
    out_rule: str


@dataclass(frozen=True, slots=True)
class TimingRule:
    rule: str
    game_limit_minutes: int
    # e-SP 4.3 leaves the waiting period to the propozície; this default is used only when a
    # tournament's propozície name none.
    waiting_rule: str
    waiting_minutes_default: int
    time_control_rule: str
    minutes_per_player: int
    move_rule: str
    max_move_minutes: int
    move_warning_seconds: int
    dispute_rule: str
    last_round_dispute_minutes: int


@dataclass(frozen=True, slots=True)
class PlausibleRule:
    """What a platform record can possibly say; a record outside is refused (not scored) and
    the head administrator told. Each bound carries the rule it rests on."""

    rule: str  # the scores: the result is the score as played
    max_score: int  # one player's score; no Scrabble game reaches it
    moves_rule: str
    max_moves: int  # one player's moves in one game
    time_rule: str
    max_game_minutes: int  # from the start to the end of one game
    future_minutes: int  # how far herna.net's clock may run ahead of ours


@dataclass(frozen=True, slots=True)
class PairingRule:
    rule: str
    newcomer_rating: float
    top_seed_starts: bool
    max_start_difference: int
    max_same_in_a_row: int
    round_robin_rule: str
    # round robin when players <= rounds + round_robin_extra (SP 1.3); -1 = never. Used only
    # when the event's format is "by-size".
    round_robin_extra: int
    # The event's format unless its propozície name one ([tournament] format):
    # "swiss" — always Swiss (online: e-SP 2.4; SP's articles 1.1–4 do not apply online);
    # "round-robin" — every round from the Berger table; "by-size" — SP 1.3's size rule.
    format: str = "by-size"
    format_rule: str = "SP 1.3"
    # where the start-balance limits above come from (online: SP 1.3 by analogy only)
    balance_rule: str = "SP 1.3"


@dataclass(frozen=True, slots=True)
class ScreloRule:
    # the computation (K table, 50-game split, K across a band boundary, acceleration, the
    # probability curve): the association's published "výpočet screla" method, not e-SP
    rule: str
    newcomer_rating: float
    decay_rule: str
    decay_per_season: float
    decay_floor: float
    k_bands: list[int]  # band boundaries, ascending: [1800, 2000]
    k_few_games: list[float]  # K per band for fewer than `experienced_games` games
    k_many_games: list[float]
    experienced_games: int
    acceleration_below_games: int  # fewer than this many games before -> acceleration
    acceleration_per_game: float
    curve_scale: float
    probability_decimals: int
    # explicit table of [rating difference, expected score] rows; empty = use the curve
    table: list[list[float]]
    # which events and games feed the rating and the newcomer's start (online: e-SP 2.4, 5)
    scope_rule: str = ""


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    title: str
    kind: str  # "online" | "live"
    # the ends (End values) these rules know; `score` refuses the others with a clear message
    ends: list[str]
    points: PointsRule
    finished: FinishedRule
    time_loss: PlainRule
    resigned: ResignedRule
    disconnect: DisconnectRule
    no_show: NoShowRule
    both_no_show: DoubleForfeitRule
    over_limit: OverLimitRule
    bye: ByeRule
    save_failed: SaveFailedRule
    agreed_draw: AgreedDrawRule
    rated: RatedRule
    exclusion: ExclusionRule
    standings: StandingsRule
    qualification: QualificationRule
    timing: TimingRule
    plausible: PlausibleRule
    pairing: PairingRule
    screlo: ScreloRule
    missed_round: MissedRoundRule = MissedRoundRule()

    @classmethod
    def load(cls, name_or_path: str | Path) -> Profile:
        """Load a bundled profile by name ("sss-online") or any profile file by path."""
        path = Path(name_or_path)
        if path.suffix != ".toml":
            path = PROFILE_DIR / f"{name_or_path}.toml"
        data = read_toml(path, str(name_or_path), PROFILE_DIR, "profile", "profily pravidiel")
        profile = _build(cls, data, path.name)
        _check(profile, path.name)
        return profile

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<dict>") -> Profile:
        profile = _build(cls, data, source)
        _check(profile, source)
        return profile


def _build(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: expected a table")
    hints = get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ProfileError(f"{where}: unknown field {unknown[0]!r}")
    values = {}
    for f in fields(cls):
        path = f"{where}: {f.name}" if ":" not in where else f"{where}.{f.name}"
        if f.name not in data:
            if f.default is not MISSING:  # added later, with the meaning it always had
                continue
            raise ProfileError(f"{path}: missing")
        values[f.name] = _convert(hints[f.name], data[f.name], path)
    return cls(**values)


def _convert(tp: Any, value: Any, path: str) -> Any:
    origin = get_origin(tp)
    if is_dataclass(tp):
        return _build(tp, value, path)
    if origin in (Union, types.UnionType):
        for arg in get_args(tp):
            try:
                return _convert(arg, value, path)
            except ProfileError:
                continue
        raise ProfileError(f"{path}: expected {tp}, got {type(value).__name__}")
    if origin is list:
        if not isinstance(value, list):
            raise ProfileError(f"{path}: expected a list, got {type(value).__name__}")
        (item,) = get_args(tp)
        return [_convert(item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ProfileError(f"{path}: expected a number, got {type(value).__name__}")
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProfileError(f"{path}: expected an integer, got {type(value).__name__}")
        return value
    if tp is type(None):
        if value is not None:
            raise ProfileError(f"{path}: expected nothing")
        return None
    if not isinstance(value, tp):
        raise ProfileError(f"{path}: expected {tp.__name__}, got {type(value).__name__}")
    return value


#: event formats a profile may default to; the propozície may name the first two
FORMATS = ("swiss", "round-robin", "by-size")
COUNTING_GAMES = ("last_finished", "last_started")
_CRITERIA = ("points", "wins", "median_buchholz", "buchholz", "score", "spread", "neustadtl")
# one-sided forfeit scores shared by resignations and disconnections (rules.scoring)
_FORFEIT_MODES = ("forfeit_or_current", "forfeit_or_difference")


def _check(p: Profile, where: str) -> None:
    """Cross-field checks that a type alone cannot express."""

    def fail(field_name: str, why: str) -> None:
        raise ProfileError(f"{where}: {field_name}: {why}")

    def one_of(field_name: str, value: str, allowed: tuple[str, ...]) -> None:
        if value not in allowed:
            fail(field_name, f"{value!r} is not one of {', '.join(map(repr, allowed))}")

    one_of("kind", p.kind, ("online", "live"))
    one_of("disconnect.mode", p.disconnect.mode, ("margin", *_FORFEIT_MODES))
    one_of("resigned.mode", p.resigned.mode, ("as_played", *_FORFEIT_MODES))
    one_of("agreed_draw.score", p.agreed_draw.score, ("lower", "as_played"))
    one_of("over_limit.counting_game", p.over_limit.counting_game, COUNTING_GAMES)
    one_of("pairing.format", p.pairing.format, FORMATS)
    for key in ("tiebreaks", "round_robin_tiebreaks"):
        criteria = getattr(p.standings, key)
        if not criteria or len(set(criteria)) != len(criteria):
            fail(f"standings.{key}", "must name at least one criterion, each once")
        for c in criteria:
            one_of(f"standings.{key}", c, _CRITERIA)
    if p.standings.median_drop < 0:
        fail("standings.median_drop", "must not be negative")
    from rules.model import End  # local: model has no dependency on profile

    for key, ends in (("ends", p.ends), ("rated.ends", p.rated.ends)):
        for e in ends:
            one_of(key, e, tuple(x.value for x in End))
    for key in ("no_move_or_resigned", "any_forfeit"):
        if getattr(p.exclusion, key) < 0:
            fail(f"exclusion.{key}", "must be 0 (no automatic exclusion) or more")
    s = p.screlo
    if not (len(s.k_few_games) == len(s.k_many_games) == len(s.k_bands) + 1):
        fail("screlo.k_bands", "needs one K more than band boundaries in each K list")
    if s.k_bands != sorted(s.k_bands):
        fail("screlo.k_bands", "must be ascending")
    if any(len(row) != 2 for row in s.table):
        fail("screlo.table", "rows must be [difference, expected]")
    for key in ("max_score", "max_moves", "max_game_minutes"):
        if getattr(p.plausible, key) <= 0:
            fail(f"plausible.{key}", "must be more than 0")
    if p.plausible.future_minutes < 0:
        fail("plausible.future_minutes", "must not be negative")
    if any(q < 0 for q in p.qualification.table):
        fail("qualification.table", "points must not be negative")
