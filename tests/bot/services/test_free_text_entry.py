"""Free-text entry points of the use cases (issue 36.2): the head admin's reasons for linking
and unlinking accounts, and — behind every entry point — the audited reason of any change
(`Tx.by_admin`, `Tx.by_player`) refuse a control or direction character by the one rule."""

from __future__ import annotations

import pytest

from bot.services.app import App, Tx
from bot.services.identity import accounts as identity
from bot.store import add_entry, create_player, get_player, list_audit

from .conftest import ADMIN_ID, World, said

OWNER = 77_000_000_000_000_002


async def test_a_link_reason_with_an_escape_sequence_is_refused(app: App, world: World) -> None:
    def body(tx: Tx) -> int:
        by = tx.by_admin(ADMIN_ID)
        player = create_player(tx.db, name="Mária Nováková", herna_nick="Majka", by=by)
        add_entry(tx.db, world.tournament.id, player.id, by)
        return player.id

    pid = await app.run(body)
    reply = await identity.link(app, world.slug, ADMIN_ID, "Majka", OWNER, "jej\x1b[2J účet")
    assert (reply.ok, reply.key) == (False, "input.control_character")
    assert said(reply) == "zdôvodnenie: obsahuje neviditeľný riadiaci znak (U+001B)"
    assert (await app.store.read(get_player, pid)).discord_id is None
    assert await app.store.read(list_audit, action=identity.LINK_ACTION) == []
    reply = await identity.link(app, world.slug, ADMIN_ID, "Majka", OWNER, "jej účet")
    assert reply.ok and (await app.store.read(get_player, pid)).discord_id == OWNER
    reply = await identity.unlink(app, world.slug, ADMIN_ID, "Majka", "\u202eomyl")
    assert said(reply) == "zdôvodnenie: obsahuje neviditeľný riadiaci znak (U+202E)"
    assert (await app.store.read(get_player, pid)).discord_id == OWNER


@pytest.mark.parametrize("reason", ["zle\x00", "zle\x1b[31m", "zle\u2066", "zle\rznova"])
async def test_no_audited_reason_holds_a_control_character(app: App, reason: str) -> None:
    """The last net: a use case that forgot the check still writes no such reason."""
    for who in ("by_admin", "by_player"):
        reply = await app.run(lambda tx, who=who: getattr(tx, who)(1, reason))
        assert (reply.ok, reply.key) == (False, "input.control_character"), who
    assert (await app.run(lambda tx: tx.by_admin(1, "riadok\nďalší\ttab"))).reason == (
        "riadok\nďalší\ttab")
