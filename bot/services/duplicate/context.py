"""What every duplicate use case looks up first: the event, its game, its round, the player,
the rules (game profile, tile set) — each refused with one Slovak line when it is not there."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlite_utils import Database

from bot.i18n import Term
from bot.services.app import Tx
from bot.services.bounds import NICK_MAX
from bot.services.replies import Refusal
from bot.store import NotFoundError, Tournament
from bot.store.duplicate import (
    DupEvent,
    DupGame,
    DupRound,
    get_event,
    get_game,
    get_round,
    list_games,
)
from bot.store.entries import get_entry, list_entries
from bot.store.players import find_player_by_discord, get_player
from bot.store.rows import Entry, Player
from bot.store.tournaments import get_tournament_by_slug
from rules.duplicate import DuplicateProfile, duplicate_profile
from rules.duplicate.tiles import TileSet


@dataclass(frozen=True, slots=True)
class Event:
    tournament: Tournament
    settings: DupEvent

    @property
    def id(self) -> int:
        return self.tournament.id

    @property
    def profile(self) -> DuplicateProfile:
        """The game profile as the event's mode plays it (`DuplicateProfile.for_mode`)."""
        return mode_profile(self.settings.profile, self.settings.mode)

    @property
    def tiles(self) -> TileSet:
        return tile_set(self.settings.tiles)


@cache
def mode_profile(name: str, mode: str) -> DuplicateProfile:
    return duplicate_profile(name).for_mode(mode)


@cache
def tile_set(name: str) -> TileSet:
    return TileSet.load(name)


def event_of(db: Database, slug: str) -> Event:
    """The duplicate event `slug`; Refusal when there is no such tournament or it is not a
    duplicate one."""
    try:
        tournament = get_tournament_by_slug(db, slug)
    except NotFoundError:
        raise Refusal("duplicate.online.no_event", slug=slug) from None
    settings = get_event(db, tournament.id)
    if settings is None:
        raise Refusal("duplicate.online.not_duplicate", slug=slug)
    return Event(tournament, settings)


def game_of(db: Database, event: Event, number: int | None = None) -> DupGame:
    """Game `number`, or (None) the latest one started; Refusal when there is none."""
    if number is None:
        games = list_games(db, event.id)
        if not games:
            raise Refusal("duplicate.online.no_game", slug=event.tournament.slug)
        return games[-1]
    game = get_game(db, event.id, number)
    if game is None:
        raise Refusal("duplicate.online.no_such_game", slug=event.tournament.slug, game=number)
    return game


def round_of(db: Database, game: DupGame, number: int) -> DupRound:
    rnd = get_round(db, game.id, number)
    if rnd is None:
        raise Refusal("duplicate.online.no_round", game=game.number, round=number)
    return rnd


def players_of(db: Database, event: Event) -> list[tuple[Entry, Player]]:
    """The event's entrants (withdrawn and excluded ones too: they left, 004 §7), by number."""
    return [(e, get_player(db, e.player_id)) for e in list_entries(db, event.id)]


def player_by_discord(db: Database, event: Event, discord_id: int, *,
                      playing: bool = True) -> Player:
    """The entrant using this Discord account; Refusal when he is none (or, `playing`, when
    he withdrew or was excluded)."""
    player = find_player_by_discord(db, discord_id)
    entry = get_entry(db, event.id, player.id) if player is not None else None
    if player is None or entry is None:
        # the one asking is named, never by his raw Discord id (issue 43.5)
        if player is None:
            raise Refusal("duplicate.online.not_in_event_you", event=event.tournament.name)
        raise Refusal("duplicate.online.not_in_event", who=player.name,
                      event=event.tournament.name)
    return _still_in(event, entry, player) if playing else player


def _still_in(event: Event, entry: Entry, player: Player) -> Player:
    """An entrant who withdrew or was excluded plays no more rounds (004 §7)."""
    if entry.out is not None:
        raise Refusal("duplicate.online.left_event", who=player.name,
                      event=event.tournament.name, rule="004 §7")
    return player


def no_herna_nick(slug: str, file_id: str) -> str:
    """The registry's nick of a duplicate entrant without a herna.net account: it names the
    event and his id in its file (a ':' no herna.net nick has, so it never matches one).
    Within a nick's 40 characters as written; a longer one keeps the event's start and a
    digest of the whole (issue 44.8: cut at 40, two events whose slugs share 39 characters,
    or `p1` and `p10` of one long slug, were one registry player). A slug has no ':', so the
    short form is one pair only, and the digested form (`:#`, 10 hex digits) stays apart."""
    whole = f"{slug}:{file_id}"
    if len(whole) <= NICK_MAX:
        return whole
    digest = hashlib.sha256(whole.encode("utf-8")).hexdigest()[:_DIGEST]
    return f"{slug[:NICK_MAX - _DIGEST - 2]}:#{digest}"


_DIGEST = 10  # hex digits: 40 bits, no two entrants of a registry alike


def player_by_label(db: Database, event: Event, label: str, *, playing: bool = True
                    ) -> Player:
    """The entrant an arbiter names: his registration number (the slip's "číslo hráča",
    003 r. 38), his id in the propozície, his name or herna nick (case ignored). Refusal when
    none or several match."""
    text = label.strip()
    number = int(text) if text.isdecimal() else None
    key = text.casefold()
    as_id = no_herna_nick(event.tournament.slug, text).casefold()
    found = [(e, p) for e, p in players_of(db, event)
             if e.registration_no == number or p.herna_nick.casefold() == as_id
             or key in (p.name.casefold(), p.herna_nick.casefold())]
    if len(found) > 1:  # e.g. one player's id is another's name: the arbiter says which
        raise Refusal("duplicate.online.several_players", who=text[:60],
                      players=", ".join(f"{e.registration_no}. {p.name}" for e, p in found))
    if not found:
        raise Refusal("duplicate.online.not_in_event", who=text[:60],
                      event=event.tournament.name)
    return _still_in(event, *found[0]) if playing else found[0][1]


#: what a hall event sends to Discord (`[duplicate] discord`, stored with the tournament's
#: settings): "none" — nothing; "results" — the game's results once they stand (never stale,
#: so a bot started later posts them rightly); "all" — everything, as online (the bot runs in
#: the hall). An online event sends everything.
DISCORD = ("none", "results", "all")
DISCORD_SETTING = "duplicate_discord"
#: the hall's double entry (`[duplicate] double_entry`): the desk compares a second typing of
#: every slip with the first (issue 41.2)
DOUBLE_ENTRY_SETTING = "duplicate_double_entry"
RESULT_KEYS = frozenset(f"duplicate.online.{key}" for key in (
    "game_over", "preliminary", "words", "final", "seed", "shoot_out_decided"))


def to_discord(event: Event, key: str) -> bool:
    """Whether message `key` of `event` goes to Discord; else it is shown at the console only
    (the hall's arbiter sees it; a bot started after the evening posts no backlog)."""
    if event.settings.mode == "online":
        return True
    chosen = event.tournament.settings.get(DISCORD_SETTING, "none")
    return chosen == "all" or (chosen == "results" and key in RESULT_KEYS)


def cited(rule: str) -> str:
    """A profile's citation as players read it (issue 44.7): the audit and the stored score
    keep the whole ("003 r. 41 (Interpretation); slips.several_online = last"), a message
    shows the rule — without our reading's label and the setting's name — and says when it
    applies by analogy ("004 §7 (analogy)" → "004 §7 per analógiu"; its note dropped)."""
    text = _SETTING.sub("", rule).replace(" (Interpretation)", "")
    shown, analogies = _ANALOGY.subn("", text)
    return Term("duplicate.online.by_analogy", rule=shown) if analogies else shown


_SETTING = re.compile(r";\s*[a-z_]+(?:\.[a-z_]+)+ = [^;]*")  # "; slips.several = none"
_ANALOGY = re.compile(r" \(analogy[^)]*\)")  # "(analogy)", "(analogy; 004 silent)"


def _cited(params: dict[str, Any]) -> dict[str, Any]:
    """A message's citations (`rule`, `…_rule`) as players read them."""
    return {k: cited(v) if (k == "rule" or k.endswith("_rule")) and isinstance(v, str) else v
            for k, v in params.items()}


def announce(tx: Tx, event: Event, key: str, **params: Any) -> None:
    """An announcement on the event's channel, or (`to_discord`) at the console only."""
    tx.announce(event.id, key, local=not to_discord(event, key), **_cited(params))


def direct(tx: Tx, event: Event, player_id: int, key: str, **params: Any) -> None:
    """A DM to an entrant who has a Discord account (a hall player may have none: his
    evaluation is on the arbiter's screen and the results page); at the console only when
    the event sends it no Discord message (`to_discord`)."""
    if get_player(tx.db, player_id).discord_id is not None:
        tx.direct(player_id, key, event=event.id, local=not to_discord(event, key),
                  **_cited(params))
