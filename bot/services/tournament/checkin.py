"""Check-in (prezentácia): the head admin opens it (a draft tournament goes to check-in, announced
with its planned close) and closes it (announced; who did not check in is listed for him, and
nobody is removed automatically).
"""

from __future__ import annotations

from sqlite_utils import Database

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.delivery.outbox import Timely
from bot.services.policy import CONTROL_RULE, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.store import (
    TournamentStatus,
    get_player,
    list_audit,
    list_entries,
    record,
    set_status,
    update_tournament,
)

CHECKIN_CLOSE_ACTION = "checkin.close"


def _open_checkin(tx: Tx, slug: str, admin_id: str) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is not TournamentStatus.DRAFT:
        raise Refusal("setup.checkin_not_draft", tournament=t.name, status=str(t.status))
    by = tx.by_admin(admin_id, "otvorenie prezentácie")
    set_status(tx.db, t.id, TournamentStatus.CHECKIN, by)
    update_tournament(tx.db, t.id, by, checkin_opens_at=tx.now)
    tx.announce(t.id, "setup.checkin_opened", timely=Timely(t.id, until=t.checkin_closes_at),
                tournament=t.name, closes=t.checkin_closes_at or "—")
    return done("setup.checkin_opened", tournament=t.name, closes=t.checkin_closes_at or "—")


def _close_checkin(tx: Tx, slug: str, admin_id: str) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is not TournamentStatus.CHECKIN:
        raise Refusal("setup.checkin_not_open", tournament=t.name, status=str(t.status))
    # The status stays "checkin" until round 1 is published, and the planned closing time is
    # set in advance: the audit row written below is what says it was closed already.
    closed = list_audit(tx.db, tournament_id=t.id, action=CHECKIN_CLOSE_ACTION)
    if closed:
        raise Refusal("setup.checkin_already_closed", tournament=t.name, at=closed[0].at)
    by = tx.by_admin(admin_id, "uzavretie prezentácie")
    update_tournament(tx.db, t.id, by, checkin_closes_at=tx.now)
    record(tx.db, by, CHECKIN_CLOSE_ACTION, tournament_id=t.id, subject=t.slug)
    entries = list_entries(tx.db, t.id, active_only=True)
    missing = [e for e in entries if e.checked_in_at is None]
    names = ", ".join(lookup_name(tx.db, e.player_id) for e in missing) or "—"
    present = len(entries) - len(missing)
    tx.announce(t.id, "setup.checkin_closed", tournament=t.name, present=present)
    if missing:  # the head admin decides about them; nobody is removed automatically
        tx.to_admin(t.id, "setup.not_checked_in", tournament=t.name, count=len(missing),
                    names=names)
    return done("setup.checkin_closed", tournament=t.name, present=present)


def lookup_name(db: Database, player_id: int) -> str:
    return get_player(db, player_id).name


async def open_checkin(app: App, slug: str, admin_id: str) -> Reply:
    return await app.run(_open_checkin, slug, admin_id)


async def close_checkin(app: App, slug: str, admin_id: str) -> Reply:
    return await app.run(_close_checkin, slug, admin_id)
