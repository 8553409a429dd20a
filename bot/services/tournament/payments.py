"""Who has paid the entry fee (e-SP 2.2: only a player who paid is paired). The head admin
marks a late payer as paid, or a player as unpaid, by herna.net nick; each change is audited
(`entry.paid`) with the rule. The CLI (`stredisko paid` / `unpaid`) and `/admin zaplatil` /
`nezaplatil` call this one use case.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.policy import AdminRef, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.store import (
    TournamentStatus,
    find_player_by_nick,
    get_entry,
    get_player,
    list_entries,
    set_paid,
)

PAYMENT_RULE = "e-SP 2.2"


def _set_payment(tx: Tx, slug: str, admin_id: AdminRef, nicks: Sequence[str],
                 paid: bool) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, PAYMENT_RULE)
    if t.status is TournamentStatus.FINISHED:
        raise Refusal("setup.finished", tournament=t.name)
    players = []
    unknown = []
    for nick in dict.fromkeys(n.strip() for n in nicks if n.strip()):  # once each, in order
        player = find_player_by_nick(tx.db, nick)
        if player is None or get_entry(tx.db, t.id, player.id) is None:
            unknown.append(nick)
        else:
            players.append(player)
    if unknown or not players:  # all or nothing: a typo must not half-apply the list
        raise Refusal("payment.unknown", nicks=", ".join(unknown) or "—", tournament=t.name)
    why = f"{'zaplatil' if paid else 'nezaplatil'} štartovné ({PAYMENT_RULE})"
    by = tx.by_admin(admin_id, why)
    changed, already = [], []
    for player in players:
        entry = get_entry(tx.db, t.id, player.id)
        assert entry is not None  # checked above, in this transaction
        if entry.paid == paid:
            already.append(player.name)
            continue
        set_paid(tx.db, t.id, player.id, paid, by)
        changed.append(player.name)
    return done("payment.paid" if paid else "payment.unpaid", tournament=t.name,
                names=", ".join(changed) or "—", already=", ".join(already) or "—",
                unpaid=unpaid_names(tx, t.id), rule=PAYMENT_RULE)


def unpaid_names(tx: Tx, tournament_id: int) -> str:
    """The players still playing who have not paid, by name ("—" for none)."""
    return ", ".join(get_player(tx.db, e.player_id).name
                     for e in list_entries(tx.db, tournament_id, active_only=True)
                     if not e.paid) or "—"


async def set_payment(app: App, slug: str, admin_id: AdminRef, nicks: Sequence[str],
                      paid: bool) -> Reply:
    """Mark the players named by herna.net nick as paid (or unpaid); unknown nicks refuse
    the whole list. The reply names who changed, who already was so, and who is still unpaid
    (and so will not be paired, e-SP 2.2)."""
    return await app.run(_set_payment, slug, admin_id, nicks, paid)
