"""The entry fee (e-SP 2.2): who may mark it, all-or-nothing lists, and the audit."""

from __future__ import annotations

from bot.services.app import App
from bot.services.tournament import payments
from bot.store import TournamentStatus, get_entry, list_audit, set_status
from bot.store.rows import Change

from .conftest import ADMIN_ID, START, World


async def test_only_the_head_admin_marks_the_fee_and_each_change_is_audited(
        app: App, world: World) -> None:
    nick = world.players[2].herna_nick
    stranger = await payments.set_payment(app, world.slug, 4242, [nick], False)
    assert (stranger.ok, stranger.rule) == (False, "e-SP 2.2")
    reply = await payments.set_payment(app, world.slug, ADMIN_ID, [nick, nick.upper()], False)
    assert reply.ok and reply.params["names"] == world.players[2].name
    again = await payments.set_payment(app, world.slug, ADMIN_ID, [nick], False)
    assert again.params["names"] == "—" and again.params["already"] == world.players[2].name
    audit = await app.store.read(lambda db: list_audit(db, tournament_id=world.tournament.id,
                                                      action="entry.paid"))
    assert len(audit) == 1 and audit[0].actor_id == str(ADMIN_ID)
    assert audit[0].reason == "nezaplatil štartovné (e-SP 2.2)"


async def test_a_finished_tournament_or_an_empty_list_changes_nothing(
        app: App, world: World) -> None:
    empty = await payments.set_payment(app, world.slug, ADMIN_ID, ["  "], False)
    assert (empty.ok, empty.key) == (False, "payment.unknown")
    await app.run(lambda tx: set_status(tx.db, world.tournament.id, TournamentStatus.FINISHED,
                                        Change.admin(ADMIN_ID, START, "koniec")))
    nick = world.players[0].herna_nick
    late = await payments.set_payment(app, world.slug, ADMIN_ID, [nick], False)
    assert (late.ok, late.key) == (False, "setup.finished")
    entry = await app.store.read(get_entry, world.tournament.id, world.players[0].id)
    assert entry is not None and entry.paid
