"""Finding who and what a request is about — or refusing with the reason.

Every use case starts here: the tournament by its short name, the player by his Discord
account, his entry, the round in play and his table in it. Each miss is a `Refusal` with a
catalogue key, so the person asking is told why, never a stack trace.
"""

from __future__ import annotations

from typing import TypeVar

from bot.services.app import Tx
from bot.services.replies import Refusal
from bot.store import (
    Entry,
    NotFoundError,
    Player,
    Round,
    TablePairing,
    Tournament,
    find_pairing,
    find_player_by_discord,
    find_seat,
    get_entry,
    get_tournament_by_slug,
    last_published_round,
)
from bot.store.seats import SeatRows

T = TypeVar("T")


def rules_id(player_id: int) -> str:
    """The id `rules` knows a player by: the store's id as text."""
    return str(player_id)


def tournament(tx: Tx, slug: str) -> Tournament:
    try:
        return get_tournament_by_slug(tx.db, slug)
    except NotFoundError:
        raise Refusal("common.unknown_tournament", slug=slug) from None


def player_by_discord(tx: Tx, discord_id: int) -> Player:
    return linked(find_player_by_discord(tx.db, discord_id))


def linked(found: T | None) -> T:
    """What was found for a Discord account (None: nobody is linked to it)."""
    if found is None:
        raise Refusal("common.not_linked")
    return found


def entry(tx: Tx, t: Tournament, player: Player) -> Entry:
    """The player's entry; refused if he is not registered, withdrawn or excluded."""
    return check_entry(t, get_entry(tx.db, t.id, player.id))


def check_entry(t: Tournament, found: Entry | None) -> Entry:
    """`entry` for an entry already read (None: none)."""
    if found is None:
        raise Refusal("common.not_entered", tournament=t.name, rule="e-SP 2.2")
    if found.out:
        raise Refusal("common.out", reason=found.out, rule="e-SP 3.6")
    return found


def current_round(tx: Tx, t: Tournament) -> Round | None:
    """The round being played: the last published one (a closed round stays current until
    the next is published, so players can still check and dispute it, e-SP 4.7)."""
    return last_published_round(tx.db, t.id)


def my_table(tx: Tx, t: Tournament, player: Player) -> tuple[Round, TablePairing]:
    """The player's round and table now; refused when no round is published or he sits out."""
    rnd = current_round(tx, t)
    return seated(rnd, None if rnd is None else find_pairing(tx.db, t.id, rnd.number, player.id))


def seated(rnd: Round | None, pairing: TablePairing | None) -> tuple[Round, TablePairing]:
    """`my_table` for a round and table already read (None: none)."""
    if rnd is None:
        raise Refusal("common.no_round")
    if pairing is None:
        raise Refusal("common.not_paired", round=rnd.number)
    return rnd, pairing


def seat(tx: Tx, t: Tournament, discord_id: int
         ) -> tuple[SeatRows, Entry, Round, TablePairing]:
    """Who asks and where he sits, in one query (`find_seat`), refused in the order of the
    lookups above: not linked, not entered (or out), no round, not paired."""
    rnd = current_round(tx, t)  # cached: read first, refused in its turn below
    found = linked(find_seat(tx.db, t.id, None if rnd is None else rnd.number, discord_id))
    entry = check_entry(t, found.entry)
    return (found, entry, *seated(rnd, found.pairing))
