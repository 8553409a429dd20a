"""What the admin cog reads from the store that no service hands it: any pairing's review
item (for `/admin rozhodni`) and a player named by mention, id or nick. Each runs inside
`App.run`."""

from __future__ import annotations

import re
from typing import Any

from bot.services import lookup
from bot.services.app import Tx
from bot.services.identity import accounts as identity
from bot.services.policy import CONTROL_RULE, AdminRef, require_admin
from bot.services.replies import Refusal as ServiceRefusal
from bot.services.tournament import admin as admin_service
from bot.store import (
    find_player_by_discord,
    get_entry,
    get_player,
    pairings_of_round,
)


def review_item(tx: Tx, slug: str, admin: AdminRef, round_no: int,
                table_no: int) -> dict[str, Any]:
    """The review item of any pairing (`bot.services.tournament.admin.review_item`); an unknown
    table is refused here first, in the cog's own words (`discord_admin.unknown_table`)."""
    t_ = lookup.tournament(tx, slug)
    require_admin(t_, admin)
    pairing = next((p for p in pairings_of_round(tx.db, t_.id, round_no)
                    if p.table_no == table_no), None)
    if pairing is None:
        raise ServiceRefusal("discord_admin.unknown_table", round=round_no, table=table_no)
    return admin_service.review_item(tx, slug, admin, round_no, table_no)


def find_player(tx: Tx, slug: str, who: str) -> int:
    """A player of the tournament by @mention, Discord id or herna.net nick — in a duplicate
    event also by number or name, for an entrant without a herna.net account
    (`identity.entered_as`)."""
    t_ = lookup.tournament(tx, slug)
    text = who.strip()
    mention = re.fullmatch(r"<@!?(\d+)>|(\d{15,20})", text)
    player = None
    if mention:
        player = find_player_by_discord(tx.db, int(mention.group(1) or mention.group(2)))
    if player is None:
        player = identity.entered_as(tx, t_, text.lstrip("@"))
    if player is None or get_entry(tx.db, t_.id, player.id) is None:
        raise ServiceRefusal("discord_admin.unknown_player", who=text[:60])
    return player.id


def find_nick(tx: Tx, slug: str, who: str) -> str:
    """`find_player`'s player, by his herna.net nick (what the identity use cases take)."""
    return get_player(tx.db, find_player(tx, slug, who)).herna_nick


def may_run(tx: Tx, slug: str, admin: AdminRef, rule: str = CONTROL_RULE) -> bool:
    """The admin policy for an act whose service takes no admin (the herna.net sync), or
    before a form is even shown (a ruling's, a rejection's: `rule`)."""
    require_admin(lookup.tournament(tx, slug), admin, rule)
    return True
