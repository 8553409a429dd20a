"""Finding who and what a request is about — or refusing with the reason.

Every use case starts here: the tournament by its short name, the player by his Discord
account, his entry, the round in play and his table in it. Each miss is a `Refusal` with a
catalogue key, so the person asking is told why, never a stack trace.
"""

from __future__ import annotations

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
    get_entry,
    get_tournament_by_slug,
    last_published_round,
)


def rules_id(player_id: int) -> str:
    """The id `rules` knows a player by: the store's id as text."""
    return str(player_id)


def tournament(tx: Tx, slug: str) -> Tournament:
    try:
        return get_tournament_by_slug(tx.db, slug)
    except NotFoundError:
        raise Refusal("common.unknown_tournament", slug=slug) from None


def player_by_discord(tx: Tx, discord_id: int) -> Player:
    player = find_player_by_discord(tx.db, discord_id)
    if player is None:
        raise Refusal("common.not_linked")
    return player


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
    if rnd is None:
        raise Refusal("common.no_round")
    pairing = find_pairing(tx.db, t.id, rnd.number, player.id)
    if pairing is None:
        raise Refusal("common.not_paired", round=rnd.number)
    return rnd, pairing
