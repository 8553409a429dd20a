"""Verified identities on a real store: /registracia links only what the registry proves,
otherwise one link request per (player, account) for the head admin; approving, rejecting,
linking, relinking and unlinking are his, audited, and told by DM."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.app import App, Tx
from bot.services.identity import accounts as identity
from bot.services.identity.accounts import DISCORD_ACCOUNT, handle
from bot.services.notifier import RecordingNotifier
from bot.services.tournament import play
from bot.store import add_entry, create_player, get_player, list_audit
from bot.store.links import list_link_requests

from .conftest import ADMIN_ID, World, said

STRANGER = 77_000_000_000_000_001  # a guild member who is nobody in the registry
OWNER = 77_000_000_000_000_002  # Majka's own account


async def majka(app: App, world: World, discord_name: str | None = "majka.novak",
                discord_id: int | None = None) -> int:
    """A registry player entered in the world's tournament, not linked unless `discord_id`."""
    def body(tx: Tx) -> int:
        by = tx.by_admin(ADMIN_ID)
        player = create_player(tx.db, name="Mária Nováková", herna_nick="Majka", by=by,
                               discord_name=discord_name, discord_id=discord_id)
        add_entry(tx.db, world.tournament.id, player.id, by)
        return player.id

    return await app.run(body)


async def requests(app: App, world: World, status: str | None = None) -> list[Any]:
    return await app.store.read(list_link_requests, world.tournament.id, status=status)


async def linked(app: App, player_id: int) -> int | None:
    return (await app.store.read(get_player, player_id)).discord_id


@pytest.mark.parametrize(("recorded", "account", "proves"), [
    ("majka.novak", "majka.novak", True),
    ("Majka.Novak", "majka.novak", True),  # Discord names compare case-insensitively
    ("@majka.novak ", "majka.novak", True),
    ("majka.novak#0", "majka.novak", True),  # a migrated account's old form
    ("Majka#1234", "majka#1234", True),  # a legacy tag
    ("Majka#1234", "majka", False),  # the unique username "majka" may be someone else
    ("majka", "majka#1234", False),
    ("majka.novak", "majka.novakova", False),
    (None, "majka.novak", False),
    ("", "", False),
    # issue 20.6: exact after Unicode normalisation, never case-folding
    ("Straße", "strasse", False),  # casefold() would make them one name: two accounts
    ("straße", "STRASSE", False),
    ("Ja\u0301n.Novak", "Ján.novak", True),  # NFD accent typed apart = the same name
    ("ｍａｊｋａ", "majka", False),  # full-width: a look-alike, not the name (NFC; issue 36.3)
    ("𝐦ajka", "majka", False),  # a mathematical bold m, the same
    ("majka#¹²³⁴", "majka", False),  # a superscript "discriminator" is no tag
])
def test_what_proves_an_account(recorded: str | None, account: str, proves: bool) -> None:
    both = (handle(recorded), handle(account))
    assert (both[0] is not None and both[0] == both[1]) is proves


async def test_the_recorded_name_links_at_once(app: App, world: World,
                                               notifier: RecordingNotifier) -> None:
    pid = await majka(app, world)
    reply = await play.register(app, world.slug, OWNER, "Majka.Novak", "majka")
    assert (reply.ok, reply.key) == (True, "play.registered"), reply
    assert await linked(app, pid) == OWNER
    assert await requests(app, world) == [] and notifier.sent == []
    how = [a.data for a in await app.store.read(list_audit, action=identity.LINK_ACTION)]
    assert how == [{"discord_id": OWNER, "how": "registry"}]


async def test_a_stranger_becomes_one_request_the_admin_is_told_once(
        app: App, world: World, notifier: RecordingNotifier) -> None:
    pid = await majka(app, world)
    first = await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    again = await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    assert first == again and first.key == "identity.request_pending" and first.rule == "e-SP 5"
    assert "čaká na jeho schválenie" in said(first)
    assert await linked(app, pid) is None
    [request] = await requests(app, world)
    assert (request.player_id, request.discord_id, request.discord_name) == (
        pid, STRANGER, "impostor")
    assert notifier.keys() == ["identity.request_admin"]  # not twice
    # the display name is not proof: "majka.novak" as a display name never reaches the service


async def test_approving_links_and_closes_the_others(app: App, world: World,
                                                     notifier: RecordingNotifier) -> None:
    pid = await majka(app, world, discord_name=None)
    await play.register(app, world.slug, OWNER, "majka2", "Majka")
    await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    mine, theirs = await requests(app, world)
    refused = await identity.approve_request(app, world.slug, world.discord(0), mine.id)
    assert (refused.ok, refused.key) == (False, "policy.not_admin")
    reply = await identity.approve_request(app, world.slug, ADMIN_ID, mine.id)
    assert reply.ok and reply.key == "identity.approved", reply
    assert await linked(app, pid) == OWNER
    statuses = {r.id: r.status for r in await requests(app, world, None)}
    assert statuses == {mine.id: "approved", theirs.id: "rejected"}
    dm = [(target, m.key) for where, target, m in notifier.sent if where == "dm"]
    assert dm == [(pid, "identity.linked_dm")]
    twice = await identity.approve_request(app, world.slug, ADMIN_ID, mine.id)
    assert twice.key == "identity.request_decided"
    said(reply), said(twice)


async def test_a_rejected_request_stays_rejected(app: App, world: World,
                                                 notifier: RecordingNotifier) -> None:
    await majka(app, world)
    await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    [request] = await requests(app, world)
    no_reason = await identity.reject_request(app, world.slug, ADMIN_ID, request.id, "  ")
    assert no_reason.key == "admin.reason_required"
    reply = await identity.reject_request(app, world.slug, ADMIN_ID, request.id, "nie je to ona")
    assert reply.ok, reply
    [dm] = [m for where, _, m in notifier.sent if where == "dm"]
    assert dm.key == "identity.rejected_dm" and dm.params[DISCORD_ACCOUNT] == STRANGER
    again = await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    assert (again.ok, again.key) == (False, "identity.request_rejected")
    assert "nie je to ona" in said(again)
    assert len(await requests(app, world, None)) == 1


async def test_the_owner_is_never_displaced_without_the_admin(app: App, world: World) -> None:
    pid = await majka(app, world, discord_id=OWNER)  # recorded in the propozície: linked
    taken = await play.register(app, world.slug, STRANGER, "majka.novak", "Majka")
    assert (taken.ok, taken.key) == (False, "play.register_taken")
    assert await linked(app, pid) == OWNER and await requests(app, world) == []
    mine = await play.register(app, world.slug, OWNER, "whatever", "Majka")
    assert mine.key == "play.register_already"


async def test_unlink_and_relink_are_the_admins_and_audited(
        app: App, world: World, notifier: RecordingNotifier) -> None:
    pid = await majka(app, world)
    assert (await play.register(app, world.slug, STRANGER, "majka.novak", "Majka")).ok
    refused = await identity.unlink(app, world.slug, world.discord(1), "Majka", "omyl")
    assert (refused.ok, refused.key) == (False, "policy.not_admin")
    reply = await identity.unlink(app, world.slug, ADMIN_ID, "majka", "účet nie je jej")
    assert reply.ok and await linked(app, pid) is None, reply
    unlinked_dm = [m for where, _, m in notifier.sent if where == "dm"][-1]
    assert unlinked_dm.params[DISCORD_ACCOUNT] == STRANGER  # told on the account he had
    # the unlinked account cannot take her again by the name: the admin decides
    back = await play.register(app, world.slug, STRANGER, "majka.novak", "Majka")
    assert back.key == "identity.request_pending" and await linked(app, pid) is None
    relinked = await identity.link(app, world.slug, "spravca", "Majka", OWNER, "jej účet")
    assert relinked.ok and await linked(app, pid) == OWNER, relinked
    [request] = await requests(app, world, None)
    assert request.status == "rejected"  # the stranger's request is moot now
    actions = [(a.action, a.actor_id, a.reason) for a in await app.store.read(
        list_audit, tournament_id=world.tournament.id) if a.action.startswith("identity.")]
    assert ("identity.unlink", str(ADMIN_ID), "účet nie je jej") in actions
    assert ("identity.link", "spravca", "jej účet") in actions
    same = await identity.link(app, world.slug, "spravca", "Majka", OWNER, "znova")
    assert same.key == "identity.already_linked"


async def test_relinking_moves_the_link_and_tells_both(app: App, world: World,
                                                       notifier: RecordingNotifier) -> None:
    pid = await majka(app, world, discord_id=STRANGER)
    reply = await identity.link(app, world.slug, ADMIN_ID, "Majka", OWNER, "nový účet")
    assert reply.ok and await linked(app, pid) == OWNER
    dms = [(m.key, m.params.get(DISCORD_ACCOUNT)) for where, _, m in notifier.sent
           if where == "dm"]
    assert dms == [("identity.unlinked_dm", STRANGER), ("identity.linked_dm", None)]
    taken = await identity.link(app, world.slug, ADMIN_ID, "Majka", world.discord(0), "x")
    assert (taken.ok, taken.key) == (False, "identity.account_taken")
    unknown = await identity.link(app, world.slug, ADMIN_ID, "nikto", OWNER, "x")
    assert unknown.key == "identity.unknown_player"
    said(taken), said(unknown)


async def test_the_cli_lists_the_pending_requests(app: App, world: World) -> None:
    await majka(app, world)
    await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    reply = await identity.link_requests(app, world.slug, "spravca")
    assert reply.ok and [r["account"] for r in reply.data] == ["impostor"]
    refused = await identity.link_requests(app, world.slug, STRANGER)
    assert refused.key == "policy.not_admin"


async def test_linking_by_the_registry_closes_a_strangers_request(app: App,
                                                                  world: World) -> None:
    pid = await majka(app, world)
    await play.register(app, world.slug, STRANGER, "impostor", "Majka")
    assert (await play.register(app, world.slug, OWNER, "majka.novak", "Majka")).ok
    assert await linked(app, pid) == OWNER
    assert [r.status for r in await requests(app, world, None)] == ["rejected"]


async def test_two_registry_players_with_one_discord_name_are_refused_at_import(
        app: App, world: World) -> None:
    """Issue 20.6: the second player named by the same Discord name (after normalisation)
    is refused with its row, so an account can never link to whichever it names first."""
    await majka(app, world, discord_name="Majka.Novak")

    def second(tx: Tx, name: str) -> Any:
        return identity.new_player(tx, tx.by_admin(ADMIN_ID), "riadok 7", name="Iná Majka",
                                   herna_nick="majka2", discord_name=name, discord_id=None)

    for name, key in (("majka.novak", "taken"), ("@MAJKA.NOVAK ", "taken"),
                      ("ｍａｊｋａ.ｎｏｖａｋ", "lookalike")):  # another name that looks the same
        reply = await app.run(second, name)
        assert not reply.ok and reply.key == f"identity.registry_name_{key}", reply
        assert reply.params["where"] == "riadok 7" and reply.params["nick"] == "Majka"
    assert (await app.run(second, "majka.novakova")).name == "Iná Majka"  # another name


async def test_namesakes_already_in_the_registry_link_nobody_by_name(
        app: App, world: World, notifier: RecordingNotifier) -> None:
    """A registry that has two players with one Discord name (from before the import check):
    the account is not linked to the one it names first; the head admin decides."""
    pid = await majka(app, world, discord_name="majka.novak")

    def twin(tx: Tx) -> None:
        create_player(tx.db, name="Majka Druhá", herna_nick="majka-2",
                      by=tx.by_admin(ADMIN_ID), discord_name="Majka.Novak")

    await app.run(twin)
    reply = await play.register(app, world.slug, OWNER, "majka.novak", "majka")
    assert (reply.ok, reply.key) == (True, "identity.request_pending"), reply
    assert await linked(app, pid) is None
    assert len(await requests(app, world)) == 1
