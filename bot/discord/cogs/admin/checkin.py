"""The check-in as the head admin sees it (e-SP 2.2): who has checked in, and when, and who
has not — read from the store, shown as two lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.discord.cogs.admin.texts import when
from bot.discord.i18n import t
from bot.discord.markdown import text
from bot.discord.render import OK_COLOUR, REFUSED_COLOUR, Outgoing, list_messages
from bot.services import lookup
from bot.services.app import Tx
from bot.services.policy import CONTROL_RULE, AdminRef, require_admin
from bot.store import get_player, list_entries


def checkin_state(tx: Tx, slug: str, admin: AdminRef) -> dict[str, Any]:
    """The players still in the tournament who have checked in (with the time) and those who
    have not (e-SP 2.2); for the head admin (`policy`)."""
    t_ = lookup.tournament(tx, slug)
    require_admin(t_, admin, CONTROL_RULE)
    present: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    for entry in list_entries(tx.db, t_.id, active_only=True):
        player = get_player(tx.db, entry.player_id)
        row = {"name": player.name, "nick": player.herna_nick, "at": entry.checked_in_at}
        (missing if entry.checked_in_at is None else present).append(row)
    return {"present": present, "missing": missing}


def checkin_messages(state: Mapping[str, Any], locale: Any) -> list[Outgoing]:
    """Who has checked in (and when) and who has not, as two lists (e-SP 2.2)."""
    none = [t("discord_admin.none", locale)]
    present = [text("discord_admin.checkin.present_row", locale, name=r["name"],
                    nick=r["nick"], at=when(r["at"], locale)) for r in state["present"]]
    missing = [text("discord_admin.checkin.missing_row", locale, name=r["name"], nick=r["nick"])
               for r in state["missing"]]
    return [
        *list_messages(t("discord_admin.checkin.present", locale, n=len(present)),
                       present or none, colour=OK_COLOUR),
        *list_messages(t("discord_admin.checkin.missing", locale, n=len(missing)),
                       missing or none, colour=REFUSED_COLOUR),
    ]
