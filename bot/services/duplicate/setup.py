"""A duplicate event's settings (issue 24 item 1): the propozície's `[duplicate]` table as plain
data, checked, and stored with the tournament (`dup_events`).

    [tournament]
    format = "duplicate"
    [duplicate]
    profile = "cas-duplicate"     # or "greek-duplicate" (rules/profiles/duplicate)
    lexicon = "sk-2026"           # a built lexicon's id (in [lexicon] dir) or file; checked now
    tiles = "sss-100"             # default: the profile's tile set
    move_seconds = 180            # 003 r. 15: 3 minutes
    warning_seconds = 30          # 003 r. 18, 004 §5C
    parts = 3                     # 003 r. 3: parts of a game (the last runs to the end)
    rounds_per_part = 10          # or a list, one per part but the last: [10, 10]
    games = 1                     # default: one per [tournament] round_starts time
    mode = "online"               # or "hall" (the arbiter types racks and slips)
    discord = "none"              # a hall: what goes to Discord — "none", "results", "all"
    double_entry = false          # the desk (`duplicate pult`) checks every slip typed twice
    pause_seconds = 30            # online: between a round's close and the next rack

In a duplicate event [tournament] round_starts are the games' start times ("rounds" their
number); [[player]] needs no herna.net nick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.services.app import Tx
from bot.services.duplicate import lexicons
from bot.services.duplicate.context import DISCORD, DISCORD_SETTING, DOUBLE_ENTRY_SETTING
from bot.services.duplicate.game import GAME_START
from bot.store.duplicate import DupEvent, add_event, get_event
from bot.store.timers import add_timer
from bot.store.times import to_text
from bot.store.tournaments import get_tournament, update_tournament
from rules.duplicate import duplicate_profile, duplicate_profiles
from rules.duplicate.tiles import TileSet
from rules.profile import ProfileError

MODES = ("online", "hall")
#: defaults and the rules they rest on
MOVE_SECONDS = 180  # 003 r. 15
WARNING_SECONDS = 30  # 003 r. 18, 004 §5C


@dataclass(frozen=True, slots=True)
class DuplicateSettings:
    profile: str
    lexicon: str
    tiles: str = ""  # "" = the profile's
    move_seconds: int = MOVE_SECONDS
    warning_seconds: int = WARNING_SECONDS
    part_rounds: tuple[int, ...] = ()  # () = the profile's parts × part_rounds
    games: int = 1
    mode: str = "online"
    pause_seconds: int = 30
    discord: str = "all"  # what goes to Discord (context.DISCORD); a hall's default "none"
    starts: tuple[datetime, ...] = field(default=())
    double_entry: bool = False  # the desk's second typing of every slip (issue 41.2)


#: [duplicate] keys: (kind, required); kinds: "str", "int", "parts" (an int or a list of ints)
KEYS: dict[str, tuple[str, bool]] = {
    "profile": ("str", True), "lexicon": ("str", True), "tiles": ("str", False),
    "move_seconds": ("int", False), "warning_seconds": ("int", False), "parts": ("int", False),
    "rounds_per_part": ("parts", False), "games": ("int", False), "mode": ("str", False),
    "pause_seconds": ("int", False), "discord": ("str", False),
    "double_entry": ("bool", False),
}
#: the ranges a number may take (seconds, parts, rounds, games)
RANGES: dict[str, tuple[int, int]] = {
    "move_seconds": (10, 3600), "warning_seconds": (0, 600), "parts": (1, 20),
    "rounds_per_part": (1, 100), "games": (1, 50), "pause_seconds": (0, 3600),
}


class TableError(ValueError):
    """A problem of the [duplicate] table: the key it is about and why (Slovak)."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"[duplicate]: {key}: {reason}" if key else f"[duplicate]: {reason}")
        self.key = key


def read_table(data: Any, starts: Sequence[datetime]) -> DuplicateSettings:
    """The propozície's [duplicate] table, strictly (an unknown key, a missing one, a wrong
    type or range is a TableError naming the key). `starts` are the [tournament]'s
    round_starts: in a duplicate event, each game's start (their number is the games')."""
    if not isinstance(data, dict):
        raise TableError("", "chýba tabuľka [duplicate] (format = \"duplicate\")")
    for key in data:
        if key not in KEYS:
            raise TableError(key, f"neznámy kľúč (známe: {', '.join(KEYS)})")
    for key, (_, required) in KEYS.items():
        if required and key not in data:
            raise TableError(key, "chýba povinný kľúč")
    values = {key: _value(key, value) for key, value in data.items()}
    if values["profile"] not in duplicate_profiles():
        raise TableError("profile", f"„{values['profile']}“: očakáva sa "
                         + " alebo ".join(duplicate_profiles()))
    profile = duplicate_profile(values["profile"])
    tiles = values.get("tiles", profile.tiles)
    try:
        TileSet.load(tiles)
    except ProfileError as exc:
        raise TableError("tiles", str(exc)) from None
    mode = values.get("mode", "online")
    if mode not in MODES:
        raise TableError("mode", f"„{mode}“: očakáva sa " + " alebo ".join(MODES))
    discord = values.get("discord", "all" if mode == "online" else "none")
    if discord not in DISCORD:
        raise TableError("discord", f"„{discord}“: očakáva sa " + " alebo ".join(DISCORD))
    if mode == "online" and discord != "all":
        raise TableError("discord", "turnaj online sa hrá na Discorde: posiela všetko "
                         "(výber platí pre mode = \"hall\")")
    move = values.get("move_seconds", MOVE_SECONDS)
    warning = values.get("warning_seconds", WARNING_SECONDS)
    if warning >= move:
        raise TableError("warning_seconds", "upozornenie musí prísť pred koncom času na ťah")
    parts = values.get("parts", profile.round.parts)
    per_part = values.get("rounds_per_part", profile.round.part_rounds)
    part_rounds = [per_part] * (parts - 1) if isinstance(per_part, int) else per_part
    if len(part_rounds) != parts - 1:
        raise TableError("rounds_per_part", f"zoznam má mať {parts - 1} čísel: kolá každej "
                         "časti okrem poslednej, ktorá trvá do konca partie (003 r. 3)")
    games = values.get("games", len(starts))
    if games != len(starts):
        raise TableError("games", f"počet partií {games} nesúhlasí s počtom časov v "
                         f"[tournament] round_starts ({len(starts)}): každá partia má svoj "
                         "začiatok")
    return DuplicateSettings(profile.name, values["lexicon"], tiles, move, warning,
                             tuple(part_rounds), games, mode,
                             values.get("pause_seconds", 30), discord=discord,
                             starts=tuple(starts),
                             double_entry=values.get("double_entry", False))


def _value(key: str, value: Any) -> Any:
    kind = KEYS[key][0]
    if kind == "bool":
        if not isinstance(value, bool):
            raise TableError(key, f"očakáva sa true alebo false, je tam {str(value)[:60]!r}")
        return value
    if kind == "str":
        if not isinstance(value, str) or not value.strip() or len(value) > 500:
            raise TableError(key, f"očakáva sa text, je tam {str(value)[:60]!r}")
        return value.strip()
    items = value if kind == "parts" and isinstance(value, list) else [value]
    if len(items) > 100:
        raise TableError(key, "zoznam je príliš dlhý")
    low, high = RANGES[key]
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high:
            raise TableError(key, f"očakáva sa celé číslo od {low} do {high}, "
                             f"je tam {str(item)[:60]!r}")
    return list(items) if isinstance(value, list) else value


def load_lexicon(name: str, directory: Path) -> tuple[str, lexicons.LoadedLexicon]:
    """Where the event's lexicon is and the lexicon itself (checked when the event is made);
    LexiconError / DuplicateError / OSError when it cannot be read."""
    place = lexicons.where(name, directory)
    loaded = lexicons.read_lexicon(place, directory)
    lexicons.remember(place, loaded)
    return place, loaded


def create_event(tx: Tx, tournament_id: int, settings: DuplicateSettings,
                 lexicon: tuple[str, lexicons.LoadedLexicon]) -> DupEvent:
    """Store the duplicate settings of a new tournament with its lexicon (`load_lexicon`):
    where it is and its id, checked again at every close."""
    if get_event(tx.db, tournament_id) is not None:
        raise ValueError("the tournament already has its duplicate settings")
    profile = duplicate_profile(settings.profile)
    part_rounds = list(settings.part_rounds) or [profile.round.part_rounds] * (
        profile.round.parts - 1)
    place, loaded = lexicon
    by = tx.by_admin("propozície", "duplicate settings")
    if settings.mode == "online":  # each game starts at its time (bot.services.duplicate.timers)
        for number, start in enumerate(settings.starts, start=1):
            add_timer(tx.db, GAME_START, f"dup:{tournament_id}:g{number}:{GAME_START}", start,
                      by, tournament_id=tournament_id, payload={"game": number})
    tournament = get_tournament(tx.db, tournament_id)  # what a hall sends to Discord
    update_tournament(tx.db, tournament_id, by, settings={
        **tournament.settings, DISCORD_SETTING: settings.discord,
        DOUBLE_ENTRY_SETTING: settings.double_entry})
    return add_event(tx.db, tournament_id, by,
                     profile=profile.name, lexicon=place, lexicon_id=loaded.id,
                     tiles=settings.tiles or profile.tiles,
                     move_seconds=settings.move_seconds,
                     warning_seconds=settings.warning_seconds, part_rounds=part_rounds,
                     games=settings.games, mode=settings.mode,
                     pause_seconds=settings.pause_seconds,
                     starts=[to_text(s) for s in settings.starts])
