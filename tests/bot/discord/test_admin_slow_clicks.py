"""The head admin's slow clicks (issue 34.1): when the work outlasts `clicks.DEFER_AFTER_S`,
the click is acknowledged at once (a deferred update, Discord's 3 s) and the message it sat on
is edited later through `@original`. Every control answered by `clicks.on_click` takes that
path here — each button, and each modal's submit — with the deferral and the edit both checked
against Discord's spec by the harness, and the outcome the same as on the quick path."""

from __future__ import annotations

import ast
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.discord.cogs.admin as admin_package
from bot.discord.cogs.admin import clicks
from bot.services.identity import accounts as identity
from bot.services.tournament import play
from bot.store import ResultStatus, TournamentStatus, get_round, get_tournament

from ..conftest import SLUG, START, add_game, enter_player
from .conftest import Env
from .harness import TALLY, Exchange, RecordedMessage
from .test_admin_review import _discrepancy, _item

DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update

#: the controls answered by `clicks.on_click`, by the class that calls it → the test here
COVERED: dict[str, str] = {}


def covers(*controls: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        COVERED.update(dict.fromkeys(controls, test.__name__))
        return test
    return mark


@pytest.fixture(autouse=True)
def slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every admin click is slower than the bound: deferred first, whatever the machine."""
    monkeypatch.setattr(clicks, "DEFER_AFTER_S", 0.0)


async def deferred_then_edited(env: Env, act: Awaitable[Exchange]) -> Exchange:
    """Run a click (or a modal's submit) and check the slow path: a deferred update, then the
    message edited through `@original` — every request of it validated against the spec."""
    calls, checked = len(env.h.calls), TALLY.requests
    ex = await act
    assert ex.response_type is DEFERRED_UPDATE, ex.callback
    callback, *rest = ex.calls
    assert callback.url.endswith("/callback") and callback.payload == {"type": 6}
    edits = [c for c in rest if c.method == "PATCH" and c.url.endswith("/messages/@original")]
    assert edits and all(c.status == 200 for c in ex.calls)
    assert TALLY.requests - checked == len(env.h.calls) - calls  # each one checked
    assert ex.source is not None and ex.message is ex.source
    assert ex.source.components == []  # replaced by the outcome, its buttons gone
    return ex


def custom_ids(messages: list[RecordedMessage], prefix: str) -> list[str]:
    return [c["custom_id"] for m in messages for c in m.walk_components()
            if str(c.get("custom_id", "")).startswith(prefix)]


# -- rounds ------------------------------------------------------------------------------------


@covers("PublishButton")
async def test_publish(env: Env) -> None:
    await env.admin_cmd("paruj", kolo=1)
    ex = await deferred_then_edited(env, env.h.click("stredisko:admin:zverejni:1", env.admin))
    assert "oficiálny začiatok" in ex.source.text  # type: ignore[union-attr]
    assert "1. kolo: oficiálny začiatok" in env.channel_text()
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.published_at == START


@covers("ForceButton")
async def test_pair_anyway(env: Env) -> None:
    await env.admin_cmd("zverejni", kolo=1)
    warned = await env.admin_cmd("paruj", kolo=2)
    assert custom_ids([warned.message], "stredisko:admin:aj-tak:paruj:2")
    ex = await deferred_then_edited(env, env.h.click("stredisko:admin:aj-tak:paruj:2",
                                                     env.admin))
    assert "2. kolo je spárované" in ex.source.text  # type: ignore[union-attr]


@covers("ForceButton")
async def test_close_anyway(env: Env) -> None:
    await env.admin_cmd("zverejni", kolo=1)
    await env.admin_cmd("uzavri", kolo=1)
    ex = await deferred_then_edited(env, env.h.click("stredisko:admin:aj-tak:uzavri:1",
                                                     env.admin))
    assert "poradie po 1. kole" in ex.source.text  # type: ignore[union-attr]
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.closed_at == START


@covers("ForceButton")
async def test_finish_anyway(env: Env) -> None:
    await env.admin_cmd("zverejni", kolo=1)
    await env.admin_cmd("ukonci")
    await deferred_then_edited(env, env.h.click("stredisko:admin:aj-tak:ukonci:0", env.admin))
    t = await env.app.store.read(get_tournament, env.world.tournament.id)
    assert t.status is TournamentStatus.FINISHED


@covers("ImportView")
async def test_import_anyway(env: Env) -> None:
    warned = await env.admin_cmd("import", kolo=1, text="kt-test-hrac3 kt-test-hrac1")
    assert custom_ids([warned.message], "stredisko:admin:import:1")  # two players missing
    ex = await deferred_then_edited(env, env.h.click("stredisko:admin:import:1", env.admin))
    assert "1. kolo je spárované" in ex.source.text  # type: ignore[union-attr]


# -- the review queue --------------------------------------------------------------------------


async def _queue_item(env: Env, text: str) -> RecordedMessage:
    ex = await env.admin_cmd("poradovnik")
    return _item(ex.followups, text)


@covers("ApproveButton")
async def test_approve_a_proposal(env: Env) -> None:
    await env.admin_cmd("zverejni", kolo=1)
    env.clock.advance(timedelta(minutes=2))
    assert (await play.report_absence(env.app, SLUG, env.world.discord(0))).ok
    env.clock.set(START + timedelta(minutes=11))  # the waiting period is over (e-SP 4.3)
    await env.refresh()
    item = await _queue_item(env, "stôl 1")
    (approve,) = custom_ids([item], "stredisko:admin:schval:")
    await deferred_then_edited(env, env.h.click(item, env.admin, custom_id=approve))
    assert "Návrh schválený" in item.text
    assert (await env.result(0)).status is ResultStatus.PROVISIONAL


@covers("RulingModal")
async def test_rule_through_the_select_and_its_modal(env: Env) -> None:
    await env.admin_cmd("zverejni", kolo=1)
    await add_game(env.app, env.world.tables[1], 400, 300)
    env.clock.set(START + timedelta(minutes=45))
    assert (await play.report_result(env.app, SLUG, env.world.discord(3), 420, 400)).key \
        == "play.result_conflict"
    item = await _queue_item(env, "stôl 2")
    (select,) = custom_ids([item], "stredisko:admin:rozhodni:")
    opened = await env.h.click(item, env.admin, custom_id=select, values=["finished"])
    assert opened.modal is not None  # opening a form is immediate: nothing to defer
    await deferred_then_edited(env, env.h.submit_modal(
        opened.modal["custom_id"], {"dovod": "Záznam z herna.net platí", "skore1": "400",
                                    "skore2": "300"}, env.admin))
    assert "Záznam z herna.net platí" in item.text
    ruled = await env.result(1)
    assert (ruled.first_score, ruled.second_score) == (400, 300)


@pytest.mark.parametrize("how", ["ponechat", "vedomie"])
@covers("DiscrepancyModal")
async def test_decide_a_discrepancy_through_its_modal(env: Env, how: str) -> None:
    number = await _discrepancy(env)
    item = await _queue_item(env, f"Nezhoda č. {number}")
    opened = await env.h.click(item, env.admin, custom_id=f"stredisko:admin:nezhoda:{number}:{how}")
    assert opened.modal is not None
    await deferred_then_edited(env, env.h.submit_modal(
        opened.modal["custom_id"], {"dovod": "Námietka neprišla včas"}, env.admin))
    assert item.text.startswith(f"Nezhoda č. {number} je vyriešená")


# -- link requests -----------------------------------------------------------------------------


async def _link_card(env: Env) -> tuple[RecordedMessage, int]:
    """Dana, entered without a Discord account, is asked for by an account the registry does
    not prove: a request in the head admin's queue."""
    tournament = env.world.tournament

    def enter(tx: Any) -> None:
        enter_player(tx, tournament, tx.by_admin(env.admin.id, "test"), name="Dana Nová",
                     herna_nick="dana", discord_id=None, discord_name=None)

    await env.app.run(enter)
    reply = await env.app.run(identity.register, SLUG, 4242, "niekto", "dana")
    assert reply.key == "identity.request_pending", reply
    ex = await env.admin_cmd("poradovnik")
    [card] = [m for m in ex.followups if custom_ids([m], "stredisko:admin:prepojenie:")]
    (approve,) = custom_ids([card], "stredisko:admin:prepojenie:")[:1]
    return card, int(approve.split(":")[3])


@covers("LinkButton")
async def test_approve_a_link_request(env: Env) -> None:
    card, request = await _link_card(env)
    await deferred_then_edited(env, env.h.click(
        card, env.admin, custom_id=f"stredisko:admin:prepojenie:{request}:schval"))
    assert "Dana Nová" in card.text


@covers("RejectModal")
async def test_reject_a_link_request_through_its_modal(env: Env) -> None:
    card, request = await _link_card(env)
    opened = await env.h.click(card, env.admin,
                               custom_id=f"stredisko:admin:prepojenie:{request}:zamietni")
    assert opened.modal is not None
    await deferred_then_edited(env, env.h.submit_modal(
        opened.modal["custom_id"], {"dovod": "nie je to Dana"}, env.admin))
    assert "je zamietnutá" in card.text


# -- every control ---------------------------------------------------------------------------


def _on_click_users() -> set[str]:
    """The classes of the admin package whose code answers through `on_click`."""
    found: set[str] = set()
    for path in Path(admin_package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(call, ast.Call) and getattr(call.func, "id", None) == "on_click"
                    for call in ast.walk(node)):
                found.add(node.name)
    return found


def test_every_control_answered_by_on_click_has_its_slow_path_here() -> None:
    assert _on_click_users() == set(COVERED)
