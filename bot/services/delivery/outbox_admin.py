"""The head admin's hand on the outbox (`stredisko outbox`, `/admin odchadzajuce`): list what
is pending, was dropped or given up, send one again, drop one with a reason. The admin policy
applies as to every admin act (e-SP 2.6: the control centre's messages are his); the CLI
operator, who holds the database, sees every tournament's messages (no slug)."""

from __future__ import annotations

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.notifier import Message
from bot.services.policy import CONTROL_RULE, AdminRef, actor_of, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.store.outbox import (
    OutboxRow,
    OutboxStatus,
    copies_of,
    decode_params,
    drop_message,
    get_message,
    outbox_page,
    requeue_message,
)

PAGE = 50  # messages listed at most, newest first


def _scope(tx: Tx, slug: str | None, who: AdminRef) -> int | None:
    """The tournament whose messages the actor may handle (None: the operator's, all)."""
    if slug is None:
        if actor_of(who).kind != "operator":
            raise Refusal("outbox.operator_only", rule=CONTROL_RULE)
        return None
    t = lookup.tournament(tx, slug)
    require_admin(t, who, CONTROL_RULE)
    return t.id


def _row(row: OutboxRow) -> dict[str, object]:
    return {"key": f"outbox.row_{row.status}", "id": row.id, "message": row.message_key,
            "where": f"{row.destination} {row.target}", "created": row.created_at,
            "attempts": row.attempts, "note": row.last_error or "—"}


def _message(tx: Tx, scope: int | None, row_id: int) -> OutboxRow:
    row = get_message(tx.db, row_id)
    # an event's head admin handles his event's messages only: a message of another event,
    # or of none (a registry DM, one queued before DMs carried their event), is the
    # operator's (issue 44.5)
    if row is None or (scope is not None and row.tournament_id != scope):
        raise Refusal("outbox.unknown", id=row_id, rule=CONTROL_RULE)
    return row


def _list(tx: Tx, slug: str | None, who: AdminRef, everything: bool) -> Reply:
    scope = _scope(tx, slug, who)
    found = outbox_page(tx.db, scope, everything=everything, limit=PAGE)
    return done("outbox.list" if found else "outbox.list_empty", rule=CONTROL_RULE,
                data=[_row(row) for row in found], n=len(found))


def _resent_already(tx: Tx, row: OutboxRow) -> None:
    """A message that has left `pending` and already went out again — or waits to — is not
    copied once more unless asked for with `again` (`--again`, `este_raz`): the same command
    typed twice must not post twice (issue 36.5)."""
    for copy in reversed(copies_of(tx.db, row)):
        if copy.status in (OutboxStatus.PENDING, OutboxStatus.SENT):
            key = ("outbox.resend_waiting" if copy.status is OutboxStatus.PENDING
                   else "outbox.resend_delivered")
            raise Refusal(key, id=row.id, message=row.message_key, copy=copy.id,
                          rule=CONTROL_RULE)


def _resend(tx: Tx, slug: str | None, who: AdminRef, row_id: int, again: bool) -> Reply:
    row = _message(tx, _scope(tx, slug, who), row_id)
    if row.status is not OutboxStatus.PENDING and not again:
        _resent_already(tx, row)
    ref = requeue_message(tx.db, row, tx.by_admin(actor_of(who), "správa odoslaná znova"))
    # as any use case's message: the bot delivers it after the commit, the CLI shows it
    tx.queued.append((row.destination, row.target,
                      Message(row.message_key, decode_params(row.params), ref=ref,
                              tournament_id=row.tournament_id)))
    key = "outbox.resent" if row.status is OutboxStatus.PENDING else "outbox.resent_copy"
    return done(key, rule=CONTROL_RULE, id=row.id, message=row.message_key)


def _drop(tx: Tx, slug: str | None, who: AdminRef, row_id: int, reason: str) -> Reply:
    row = _message(tx, _scope(tx, slug, who), row_id)
    why = reason.strip()
    if not why:
        raise Refusal("outbox.reason_missing", rule=CONTROL_RULE)
    if row.status is not OutboxStatus.PENDING:
        raise Refusal("outbox.not_pending", id=row.id, rule=CONTROL_RULE)
    drop_message(tx.db, row, f"zahodil hlavný administrátor: {why}",
                 tx.by_admin(actor_of(who), why))
    return done("outbox.dropped", rule=CONTROL_RULE, id=row.id, message=row.message_key)


async def list_messages(app: App, slug: str | None, who: AdminRef,
                        everything: bool = False) -> Reply:
    """The newest pending, dropped and given-up messages (all of them with `everything`)."""
    return await app.run(_list, slug, who, everything)


async def resend(app: App, slug: str | None, who: AdminRef, row_id: int,
                 again: bool = False) -> Reply:
    """Send a message again (a pending one at once; any other as a new message — once: a
    message already sent again, or waiting to be, needs `again`)."""
    return await app.run(_resend, slug, who, row_id, again)


async def drop(app: App, slug: str | None, who: AdminRef, row_id: int, reason: str) -> Reply:
    """Drop a pending message for good, with the head admin's reason (audited)."""
    return await app.run(_drop, slug, who, row_id, reason)
