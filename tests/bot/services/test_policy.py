"""One admin policy for every admin use case, enforced by the services themselves: a Discord
account acts as head admin only when the tournament names it (the server role is never
enough), the CLI operator is trusted and audited; a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.services.app import App
from bot.services.identity import accounts as identity
from bot.services.policy import Actor, actor_of, set_admins
from bot.services.replies import Reply
from bot.services.tournament import admin, checkin, rounds
from bot.store import get_tournament, list_audit
from rules import End

from .conftest import ADMIN_ID, World, said

UseCase = Callable[[App, World, Any], Awaitable[Reply]]
ROLE_ONLY = 55_000_000_000_000_001  # has the Discord role, is not in the admin list


def _table(w: World) -> int:
    return w.tables[0].id


#: every admin use case, as (name, call with the acting admin)
USE_CASES: list[tuple[str, UseCase]] = [
    ("rule", lambda app, w, who: admin.rule(
        app, w.slug, who, _table(w), (End.FINISHED, {"first_score": 400, "second_score": 300}),
        "dohrané")),
    ("approve", lambda app, w, who: admin.approve(app, w.slug, who, _table(w))),
    ("exclude", lambda app, w, who: admin.exclude(app, w.slug, who, w.players[0].id, "x")),
    ("reinstate", lambda app, w, who: admin.reinstate(app, w.slug, who, w.players[0].id, "x")),
    ("discrepancy", lambda app, w, who: admin.resolve_discrepancy(app, w.slug, who, 1, "x")),
    ("queue", lambda app, w, who: admin.review_queue(app, w.slug, who)),
    ("pair", lambda app, w, who: rounds.pair_round(app, w.slug, 2, who)),
    ("import", lambda app, w, who: rounds.import_pairings(app, w.slug, 2, [("a", "b")], who)),
    ("publish", lambda app, w, who: rounds.publish_round(app, w.slug, 2, who)),
    ("close", lambda app, w, who: rounds.close_round(app, w.slug, 1, who)),
    ("finish", lambda app, w, who: rounds.finish_tournament(app, w.slug, who)),
    ("checkin_open", lambda app, w, who: checkin.open_checkin(app, w.slug, who)),
    ("checkin_close", lambda app, w, who: checkin.close_checkin(app, w.slug, who)),
    ("link_approve", lambda app, w, who: identity.approve_request(app, w.slug, who, 1)),
    ("link_reject", lambda app, w, who: identity.reject_request(app, w.slug, who, 1, "x")),
    ("link", lambda app, w, who: identity.link(
        app, w.slug, who, w.players[0].herna_nick, 55_000_000_000_000_009, "x")),
    ("unlink", lambda app, w, who: identity.unlink(
        app, w.slug, who, w.players[0].herna_nick, "x")),
    ("link_requests", lambda app, w, who: identity.link_requests(app, w.slug, who)),
]
IDS = [name for name, _ in USE_CASES]


async def _audit_count(app: App) -> int:
    return len(await app.store.read(list_audit, limit=100_000))


@pytest.mark.parametrize("who", [ROLE_ONLY, str(ROLE_ONLY), Actor.discord(ROLE_ONLY), 1001],
                         ids=["int", "digits", "actor", "a player"])
@pytest.mark.parametrize("use_case", [u for _, u in USE_CASES], ids=IDS)
async def test_a_discord_account_not_named_is_refused_and_nothing_changes(
        app: App, world: World, use_case: UseCase, who: Any) -> None:
    before = await _audit_count(app)
    reply = await use_case(app, world, who)
    assert (reply.ok, reply.key) == (False, "policy.not_admin"), reply
    assert reply.rule in ("e-SP 2.5", "e-SP 2.6", "e-SP 5")
    assert await _audit_count(app) == before
    assert "hlavný administrátor" in said(reply)


@pytest.mark.parametrize("who", [ADMIN_ID, "spravca"], ids=["named admin", "CLI operator"])
@pytest.mark.parametrize("use_case", [u for _, u in USE_CASES], ids=IDS)
async def test_the_named_admin_and_the_operator_pass_the_policy(
        app: App, world: World, use_case: UseCase, who: Any) -> None:
    reply = await use_case(app, world, who)
    assert not reply.key.startswith("policy."), reply  # the use case's own answer


async def test_a_tournament_naming_nobody_has_no_discord_admin(app: App, world: World) -> None:
    emptied = await set_admins(app, world.slug, "spravca", remove=[ADMIN_ID])
    assert emptied.ok and "—" in said(emptied)
    reply = await rounds.publish_round(app, world.slug, 2, ADMIN_ID)
    assert (reply.key, reply.rule) == ("policy.no_admins", "e-SP 2.6")
    assert f"stredisko admins {world.slug} --add" in said(reply)


async def test_only_the_operator_names_admins(app: App, world: World) -> None:
    refused = await set_admins(app, world.slug, ADMIN_ID, add=[ROLE_ONLY])
    assert (refused.ok, refused.key) == (False, "policy.operator_only")
    named = await set_admins(app, world.slug, Actor.operator("spravca"), add=[ROLE_ONLY] * 2)
    assert named.ok, named
    t = await app.store.read(get_tournament, world.tournament.id)
    assert t.admin_ids == [ADMIN_ID, ROLE_ONLY]
    [row] = [a for a in await app.store.read(list_audit, action="tournament.update")
             if a.actor_id == "spravca"]
    assert row.reason == "hlavní administrátori turnaja"
    assert (await rounds.publish_round(app, world.slug, 2, ROLE_ONLY)).key != "policy.not_admin"


@pytest.mark.parametrize(("ref", "expected"), [
    (123, Actor("discord", "123")),
    ("123", Actor("discord", "123")),
    (" hlavny ", Actor("operator", "hlavny")),
    (Actor.operator("1"), Actor("operator", "1")),
])
def test_what_a_bare_admin_value_means(ref: Any, expected: Actor) -> None:
    assert actor_of(ref) == expected
    assert str(actor_of(ref)) == expected.ident  # what the audit stores
