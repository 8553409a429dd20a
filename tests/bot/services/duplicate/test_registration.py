"""/registracia and the head admin's link in a duplicate event whose entrants have no herna.net
account (their registry nick is a placeholder, `duplicate.context.no_herna_nick`): they name
themselves as the arbiter names them — number, name (003 r. 38) — and messages show the name,
never the placeholder. A classic event still takes the herna.net nick only."""

from __future__ import annotations

from pathlib import Path

from bot.discord.cogs.admin.queries import find_nick, find_player
from bot.i18n import t
from bot.services.app import App, Tx
from bot.services.duplicate.context import no_herna_nick
from bot.services.identity import accounts as identity
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply
from bot.services.tournament import play
from bot.store import create_player, get_player, get_tournament_by_slug, update_player
from bot.store.links import list_link_requests

from ...conftest import ADMIN_ID, NAMES, World, render, said
from .conftest import SLUG, make_event

OWNER = 77_000_000_000_000_101  # Ďuro's own account, recorded in the registry by name
STRANGER = 77_000_000_000_000_102


async def nickless(app: App, words: Path) -> list[int]:
    """A duplicate event of three entrants without herna.net accounts and not linked; the
    first has his Discord name recorded."""
    world = await make_event(app, words, mode="online")

    def body(tx: Tx) -> list[int]:
        by = tx.by_admin(ADMIN_ID, "test: no herna.net accounts")
        for n, player in enumerate(world.players):
            update_player(tx.db, player.id, by, herna_nick=no_herna_nick(SLUG, f"h{n + 1}"),
                          discord_id=None, discord_name="duro.d" if n == 0 else None)
        return [p.id for p in world.players]

    ids = await app.run(body)
    assert isinstance(ids, list)
    return ids


async def test_an_entrant_without_a_nick_registers_by_name_or_number(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    ids = await nickless(app, words)
    reply = await play.register(app, SLUG, OWNER, "duro.d", NAMES[0].upper())
    assert (reply.ok, reply.key) == (True, "play.registered"), reply
    # his name, said as a player's (not "dup-test:h1", nor "s prezývkou" for what is no nick)
    assert f"tvoj Discord účet je prepojený s hráčom „{NAMES[0]}“ v turnaji" in said(reply)
    assert f"linked to the player “{NAMES[0]}” in" in t(reply.key, "en-GB", **reply.params)
    assert (await app.store.read(get_player, ids[0])).discord_id == OWNER
    taken = await play.register(app, SLUG, STRANGER, "niekto", NAMES[0])  # he is linked now
    assert (taken.ok, taken.key) == (False, "play.register_taken"), taken
    assert said(taken).startswith(f"Hráč „{NAMES[0]}“ je už prepojený s iným Discord účtom.")
    # by his registration number: a stranger's claim is the head admin's to decide
    pending = await play.register(app, SLUG, STRANGER, "niekto", "2")
    assert (pending.ok, pending.key) == (True, "identity.request_pending"), pending
    assert f"sa s hráčom „{NAMES[1]}“ v registri" in said(pending)
    [ping] = [m for where, _, m in notifier.sent if m.key == "identity.request_admin"]
    assert ping.params["player"] == NAMES[1]
    assert f"chce hrať ako {NAMES[1]}; v registri" in render(ping.key, ping.params)  # no nick
    unknown = await play.register(app, SLUG, STRANGER, "niekto", "Nikto Nikde")
    assert (unknown.ok, unknown.key) == (False, "play.register_unknown_nick")
    assert (await app.store.read(get_player, ids[1])).discord_id is None


async def test_a_number_in_superscript_digits_is_no_entrant(app: App, words: Path) -> None:
    await nickless(app, words)
    reply = await play.register(app, SLUG, STRANGER, "niekto", "²")  # isdigit() yes, int() no
    assert (reply.ok, reply.key) == (False, "play.register_unknown_nick"), reply


async def test_the_head_admin_links_an_entrant_without_a_nick_by_name(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    ids = await nickless(app, words)
    reply = await identity.link(app, SLUG, ADMIN_ID, NAMES[2], STRANGER, "overil som ho")
    assert reply.ok and said(reply).startswith(f"Hotovo — prepojené: {NAMES[2]} a Discord"), reply
    assert (await app.store.read(get_player, ids[2])).discord_id == STRANGER
    # his DM, through the outbox: a phrase survives the store and is worded when delivered
    [dm] = [m for where, _, m in notifier.sent if m.key == "identity.linked_dm"]
    assert f"je teraz prepojený s hráčom „{NAMES[2]}“ v turnaji" in render(dm.key, dm.params)
    again = await identity.link(app, SLUG, ADMIN_ID, "3", STRANGER, "znova")
    assert again.key == "identity.already_linked"


async def test_a_classic_event_still_wants_the_herna_nick(app: App, world: World) -> None:
    reply = await play.register(app, world.slug, STRANGER, "niekto", NAMES[0])
    assert (reply.ok, reply.key) == (False, "play.register_unknown_nick")


async def test_the_chats_admin_commands_find_an_entrant_without_a_nick(
        app: App, words: Path) -> None:
    """/admin prepoj | odpoj name the player as `find_player` reads him: his name works."""
    ids = await nickless(app, words)
    assert await app.run(find_player, SLUG, NAMES[1]) == ids[1]
    assert await app.run(find_nick, SLUG, "3") == no_herna_nick(SLUG, "h3")
    refused = await app.run(find_player, SLUG, "Nikto")
    assert isinstance(refused, Reply) and refused.key == "discord_admin.unknown_player"


async def test_a_nick_of_someone_not_entered_does_not_hide_the_entrant(
        app: App, words: Path) -> None:
    """A registry player outside the event whose herna.net nick is "2" does not shadow
    entrant number 2 when the label is looked up in this event."""
    ids = await nickless(app, words)

    def stranger(tx: Tx) -> None:
        create_player(tx.db, name="Iný Hráč", herna_nick="2", by=tx.by_admin(ADMIN_ID))

    await app.run(stranger)
    reply = await play.register(app, SLUG, STRANGER, "niekto", "2")
    assert reply.key == "identity.request_pending", reply
    [request] = await app.store.read(list_link_requests, (await app.store.read(
        get_tournament_by_slug, SLUG)).id)
    assert request.player_id == ids[1]
