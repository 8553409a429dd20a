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
    games = 1
    mode = "online"               # or "hall" (the arbiter types racks and slips)
    pause_seconds = 30            # online: between a round's close and the next rack
    starts = [2026-12-05T18:00:00+01:00]   # each game's start (optional; else started by hand)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bot.services.app import Tx
from bot.services.duplicate import lexicons
from bot.store.duplicate import DupEvent, add_event, get_event
from bot.store.times import to_text
from rules.duplicate import duplicate_profile
from rules.duplicate.tiles import TileSet

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
    starts: tuple[datetime, ...] = field(default=())


def create_event(tx: Tx, tournament_id: int, settings: DuplicateSettings,
                 lexicon_dir: Path) -> DupEvent:
    """Store the duplicate settings of a new tournament; the lexicon is read now (its id is
    kept and checked at every close). LexiconError/DuplicateError/OSError when it cannot be
    read; ProfileError for an unknown profile or tile set; ValueError for a bad value."""
    if get_event(tx.db, tournament_id) is not None:
        raise ValueError("the tournament already has its duplicate settings")
    profile = duplicate_profile(settings.profile)
    tiles = settings.tiles or profile.tiles
    TileSet.load(tiles)
    if settings.mode not in MODES:
        raise ValueError(f"mode: one of {', '.join(MODES)}")
    part_rounds = list(settings.part_rounds) or [profile.round.part_rounds] * (
        profile.round.parts - 1)
    place = lexicons.where(settings.lexicon, lexicon_dir)
    loaded = lexicons.read_lexicon(settings.lexicon, lexicon_dir)
    lexicons.remember(place, loaded)
    return add_event(tx.db, tournament_id, tx.by_admin("propozície", "duplicate settings"),
                     profile=profile.name, lexicon=place, lexicon_id=loaded.id, tiles=tiles,
                     move_seconds=settings.move_seconds,
                     warning_seconds=settings.warning_seconds, part_rounds=part_rounds,
                     games=settings.games, mode=settings.mode,
                     pause_seconds=settings.pause_seconds,
                     starts=[to_text(s) for s in settings.starts])
