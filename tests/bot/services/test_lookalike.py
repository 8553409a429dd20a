"""Look-alike names (issue 36.3): names are compared after NFC, not NFKC, so a full-width or
Cyrillic look-alike of a registry name is another name — never linked to the account the
registry names; and a new registry name (a Discord name, a herna.net nick) whose Unicode TR39
skeleton collides with an existing one is refused with one line, nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.app import App, Tx
from bot.services.identity import accounts as identity
from bot.services.identity.lookalike import collides, skeleton
from bot.services.tournament import play
from bot.store import add_entry, create_player, get_player, list_players

from .conftest import ADMIN_ID, World, said

OWNER = 77_000_000_000_000_002  # the account "boris"
CYRILLIC_O = "\u043e"


@pytest.mark.parametrize(("name", "other", "alike"), [
    (f"b{CYRILLIC_O}ris", "boris", True),  # Cyrillic о for Latin o
    ("ｂｏｒｉｓ", "boris", True),  # full-width letters
    ("𝐛𝐨𝐫𝐢𝐬", "boris", True),  # mathematical bold
    ("\u0430nna77", "anna77", True),  # Cyrillic а
    ("bo\u200bris", "boris", True),  # a zero-width space inside
    ("Ďurica", "Durica", False),  # a Slovak accent is a letter of its own
    ("šimon", "simon", False),
    ("Ma\u0301ria", "Mária", False),  # the same name, its accent typed apart
    ("jan1", "janl", False),  # both plain ASCII: two accounts herna.net and Discord allow
    ("boris", "borisa", False),
])
def test_what_looks_alike(name: str, other: str, alike: bool) -> None:
    assert collides(name, other) is alike
    assert collides(other, name) is alike


def test_the_skeleton_follows_unicodes_prototypes() -> None:
    assert skeleton("m") == skeleton("rn")  # a prototype of two letters (TR39's example)
    assert skeleton(f"b{CYRILLIC_O}ris") == skeleton("boris") == "boris"


async def _boris(app: App, world: World, discord_name: str) -> int:
    def body(tx: Tx) -> int:
        by = tx.by_admin(ADMIN_ID)
        player = create_player(tx.db, name="Boris Ďurica", herna_nick="boris77", by=by,
                               discord_name=discord_name)
        add_entry(tx.db, world.tournament.id, player.id, by)
        return player.id
    return await app.run(body)


@pytest.mark.parametrize("recorded", ["ｂｏｒｉｓ", f"b{CYRILLIC_O}ris"])
async def test_a_look_alike_in_the_registry_does_not_link_the_account_it_imitates(
        app: App, world: World, recorded: str) -> None:
    """The registry (from before this check) records a look-alike of the account's name: the
    account "boris" is not linked by it; the head admin decides (a link request)."""
    pid = await _boris(app, world, recorded)
    reply = await play.register(app, world.slug, OWNER, "boris", "boris77")
    assert (reply.ok, reply.key) == (True, "identity.request_pending"), said(reply)
    assert (await app.store.read(get_player, pid)).discord_id is None


def _new(name: str, nick: str, discord_name: str | None) -> Any:
    def body(tx: Tx) -> Any:
        return identity.new_player(tx, tx.by_admin(ADMIN_ID), "riadok 9", name=name,
                                   herna_nick=nick, discord_name=discord_name, discord_id=None)
    return body


async def test_a_look_alike_discord_name_is_refused_at_import(app: App, world: World) -> None:
    await _boris(app, world, "boris")
    before = len(await app.store.read(list_players))
    for look_alike in ("ｂｏｒｉｓ", f"b{CYRILLIC_O}ris", "𝐛oris"):
        reply = await app.run(_new("Iný Boris", "boris88", look_alike))
        assert not reply.ok and reply.key == "identity.registry_name_lookalike", reply
        assert said(reply) == (
            f"riadok 9: Discord meno „{look_alike}“ vyzerá rovnako ako „boris“ hráča "
            "„boris77“ v registri, hoci je z iných znakov (Unicode TR39); také dve mená by si "
            "hráči aj rozhodca zamenili (e-SP 5). Nič sa nezapísalo.")
    assert len(await app.store.read(list_players)) == before
    assert (await app.run(_new("Iný Boris", "boris88", "borisko"))).name == "Iný Boris"


async def test_a_look_alike_nick_is_refused_at_import(app: App, world: World) -> None:
    await _boris(app, world, "boris")
    reply = await app.run(_new("Iný Boris", f"b{CYRILLIC_O}ris77", None))
    assert not reply.ok and reply.key == "identity.registry_nick_lookalike", reply
    assert "prezývka „bоris77“ vyzerá rovnako ako „boris77“" in said(reply)
    # two ASCII nicks that only resemble each other are two herna.net accounts: both stay
    assert (await app.run(_new("Boris Jednotka", "borls77", None))).herna_nick == "borls77"
