"""The head administrator's /admin commands through discord.py's real dispatch (harness), against
a real SQLite store, a ManualClock and the Discord notifier — nothing mocked but Discord's HTTP."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.discord.client import Refusal
from bot.discord.cogs.admin import parse_pairings
from bot.discord.i18n import t
from bot.services.tournament import play
from bot.store import ResultStatus, get_entry, get_round

from ..conftest import SLUG, START, add_game
from .conftest import REFUSED, Env, said
from .harness import (
    CONTROL_CHANNEL_ID,
    DiscordWouldReject,
    Exchange,
    RecordedMessage,
)


def _custom_ids(messages: list[RecordedMessage], prefix: str) -> list[str]:
    return [c["custom_id"] for m in messages for c in m.walk_components()
            if str(c.get("custom_id", "")).startswith(prefix)]


def _item_with(ex: Exchange, text: str) -> RecordedMessage:
    return next(m for m in ex.followups if text in m.text and m.components)


async def _publish_round_1(env: Env) -> None:
    await env.admin_cmd("zverejni", kolo=1)


# -- who may -----------------------------------------------------------------------------


async def test_a_player_is_refused_everything_with_no_detail(env: Env) -> None:
    player = env.players[0]
    for sub, options in [("poradovnik", {}), ("paruj", {"kolo": 1}), ("ukonci", {}),
                         ("vyluc", {"hrac": "kt-test-hrac2", "dovod": "skúška"}),
                         ("prezentacia otvor", {})]:
        ex = await env.h.slash("admin", user=player, subcommand=sub, options=options)
        assert ex.ephemeral and ex.content == REFUSED, sub
        assert "kt-test" not in said(ex) and "Ďuro" not in said(ex)
    assert env.h.channel_messages == []
    entry = await env.app.store.read(get_entry, env.world.tournament.id, env.world.players[1].id)
    assert entry is not None and entry.out is None
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.published_at is None


async def test_a_player_cannot_click_the_admins_buttons(env: Env) -> None:
    ex = await env.admin_cmd("paruj", kolo=1)
    (publish,) = _custom_ids([ex.message], "stredisko:admin:zverejni:")
    # The admin's reply is ephemeral, but a persistent custom_id could be replayed elsewhere:
    # the button itself checks the role.
    env.h.messages[ex.message.id].raw["flags"] = 0
    click = await env.h.click(ex.message, env.players[0], custom_id=publish)
    assert click.message is not None and click.message.ephemeral and said(click) == REFUSED
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.published_at is None
    assert [m for m in env.h.channel_messages if m.id != ex.message.id] == []


# -- rounds ------------------------------------------------------------------------------


@pytest.mark.parametrize("minutes", [0, 10], ids=["at-the-start", "after-the-start"])
async def test_pairing_after_the_official_start_warns_in_chat_too(env: Env, minutes: int) -> None:
    env.clock.set(START + timedelta(minutes=minutes))
    ex = await env.admin_cmd("paruj", kolo=1)
    assert "1. kolo je spárované" in said(ex) and "stôl 1:" in said(ex)  # paired all the same
    late = "Pozor: oficiálny začiatok 1. kola (1. 3. 2025 10:00) už uplynul"
    assert (late in said(ex)) is (minutes > 0)


async def test_the_admin_pairs_and_publishes_round_1(env: Env) -> None:
    ex = await env.admin_cmd("paruj", kolo=1)
    assert ex.ephemeral and "1. kolo je spárované" in said(ex)
    assert "stôl 1:" in said(ex) and "začína" in said(ex)
    assert env.h.channel_messages == []  # pairing alone is not announced

    click = await env.h.click("stredisko:admin:zverejni:1", env.admin)
    assert click.response_type is not None
    assert ex.message.components == []  # the publish button is gone
    assert "oficiálny začiatok" in ex.message.text  # replaced by the service's answer
    channel = env.channel_text()
    assert "1. kolo: oficiálny začiatok" in channel and "e-SP 4.3, 4.5" in channel
    names = [p.name for p in env.world.players]
    assert all(name in channel for name in names)
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.published_at == START
    posted = len(env.channel_text())
    again = await env.admin_cmd("zverejni", kolo=1)  # a retry answers as the first did …
    assert "1. kolo: oficiálny začiatok" in said(again)
    assert len(env.channel_text()) == posted  # … and the channel hears it once


async def test_import_pairings_from_text(env: Env) -> None:
    bad = await env.admin_cmd("import", kolo=1, text="kt-test-hrac1")
    assert "Riadok 1" in said(bad) and "Nič sa nezapísalo" in said(bad)
    ex = await env.admin_cmd("import", kolo=1, text="kt-test-hrac3 kt-test-hrac1; "
                                                    "kt-test-hrac4 – kt-test-hrac2")
    assert "1. kolo je spárované" in said(ex)
    assert said(ex).index("Ľubomír Čierny") < said(ex).index("Ďuro Ďurkovič")  # 3 starts
    assert _custom_ids([ex.message], "stredisko:admin:zverejni:1")


def test_parse_pairings_reads_numbers_byes_and_separators() -> None:
    text = "1. ana bob\n2 cyril - dana\n# comment\neva volno"
    assert parse_pairings(text) == [("ana", "bob"), ("cyril", "dana"), ("eva", None)]
    with pytest.raises(Refusal) as empty:
        parse_pairings(" ; ")
    assert empty.value.key == "discord_admin.no_tables"


async def test_close_round_warns_first_then_closes_with_the_button(env: Env) -> None:
    await _publish_round_1(env)
    before = len(env.h.channel_messages)
    ex = await env.admin_cmd("uzavri", kolo=1)
    assert ex.ephemeral and "2 neuzavreté výsledky" in said(ex) and "e-SP 4.9" in said(ex)
    assert "výsledok ešte nie je známy" in said(ex) and "--force" not in said(ex)
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.closed_at is None and len(env.h.channel_messages) == before

    await env.h.click("stredisko:admin:aj-tak:uzavri:1", env.admin)
    assert ex.message.components == [] and "poradie po 1. kole" in ex.message.text
    rnd = await env.app.store.read(get_round, env.world.tournament.id, 1)
    assert rnd.closed_at == START
    assert "poradie po 1. kole" in env.channel_text()


# -- the review queue --------------------------------------------------------------------


async def _no_show(env: Env) -> None:
    await _publish_round_1(env)
    env.clock.advance(timedelta(minutes=2))
    reply = await play.report_absence(env.app, SLUG, env.world.discord(0))
    assert reply.ok, reply
    env.clock.set(START + timedelta(minutes=11))  # the waiting period is over (e-SP 4.3)
    await env.refresh()


async def test_a_no_show_proposal_is_in_the_queue_and_approved_with_one_click(env: Env) -> None:
    await _no_show(env)
    ex = await env.admin_cmd("poradovnik")
    assert "Na rozhodnutie čaká: 1" in said(ex)
    item = _item_with(ex, "stôl 1")
    text = item.text
    assert "Ďuro Ďurkovič – Žofia Šťastná" in text
    assert "návrh čaká na hlavného administrátora" in text
    assert "Ďuro Ďurkovič: hlási, že súper neprišiel" in text
    assert "1. 3. 2025 10:02" in text  # the absence report's time, in Bratislava
    assert "Záznam z herna.net" in text and "Hlásenie: Žofia Šťastná\nbez hlásenia" in text
    (approve,) = _custom_ids([item], "stredisko:admin:schval:")
    options = [o["value"] for c in item.walk_components() for o in c.get("options", [])]
    assert "no_show:" + str(env.world.players[1].id) in options and "bye" not in options

    await env.h.click(item, env.admin, custom_id=approve)
    assert item.components == [] and "Návrh schválený" in item.text
    result = await env.result(0)
    assert result.status is ResultStatus.PROVISIONAL and result.end_kind == "no_show"
    channel = env.channel_text()
    assert "Ďuro Ďurkovič" in channel and "e-SP 4.3" in channel
    # a replay of the same button finds nothing left to approve
    env.h.messages[item.id].raw["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 3, "label": "x", "custom_id": approve}]}]
    again = await env.h.click(item, env.admin, custom_id=approve)
    assert "nie je tu návrh na schválenie" in said(again)  # already approved: nothing to approve
    assert (await env.result(0)).version == result.version


async def test_a_conflict_is_ruled_via_select_and_modal_with_a_required_reason(env: Env) -> None:
    await _publish_round_1(env)
    table = env.world.tables[1]
    await add_game(env.app, table, 400, 300)
    env.clock.set(START + timedelta(minutes=45))
    reply = await play.report_result(env.app, SLUG, env.world.discord(3), 420, 400)
    assert reply.key == "play.result_conflict", reply
    conflict = await env.result(1)
    assert conflict.status is ResultStatus.PROPOSED
    assert conflict.verdict["kind"] == "needs_admin"

    ex = await env.admin_cmd("poradovnik")
    item = _item_with(ex, "stôl 2")
    assert "400:300" in item.text and "Šimon Ťažký" in item.text and "420:400" in item.text
    assert not _custom_ids([item], "stredisko:admin:schval:")  # nothing to approve as is
    (select,) = _custom_ids([item], "stredisko:admin:rozhodni:")

    opened = await env.h.click(item, env.admin, custom_id=select, values=["finished"])
    modal_id = opened.modal["custom_id"]  # type: ignore[index]
    with pytest.raises(DiscordWouldReject):  # the client itself will not send it empty
        await env.h.submit_modal(modal_id, {"dovod": "", "skore1": "400", "skore2": "300"},
                                 env.admin)
    blank = await env.h.submit_modal(modal_id, {"dovod": "   ", "skore1": "400",
                                                "skore2": "300"}, env.admin)
    assert "zdôvodnenie" in said(blank) and "e-SP 2.6" in said(blank)
    assert (await env.result(1)).version == conflict.version  # nothing recorded

    opened = await env.h.click(item, env.admin, custom_id=select, values=["finished"])
    bad = await env.h.submit_modal(opened.modal["custom_id"],  # type: ignore[index]
                                   {"dovod": "podľa záznamu", "skore1": "4OO", "skore2": "300"},
                                   env.admin)
    assert "nie je skóre" in said(bad)

    opened = await env.h.click(item, env.admin, custom_id=select, values=["finished"])
    await env.h.submit_modal(opened.modal["custom_id"],  # type: ignore[index]
                             {"dovod": "Záznam z herna.net platí", "skore1": "400",
                              "skore2": "300"}, env.admin)
    ruled = await env.result(1)
    assert ruled.status is ResultStatus.PROVISIONAL and ruled.verdict["code"] == "ruling"
    assert (ruled.first_score, ruled.second_score) == (400, 300)
    assert "Záznam z herna.net platí" in item.text and item.components == []
    assert "Záznam z herna.net platí" in env.channel_text()


async def test_rozhodni_shows_any_table_and_refuses_an_unknown_one(env: Env) -> None:
    await _publish_round_1(env)
    ex = await env.admin_cmd("rozhodni", kolo=1, stol=2)
    assert "Ľubomír Čierny – Šimon Ťažký" in said(ex)
    assert _custom_ids(ex.followups, "stredisko:admin:rozhodni:")
    missing = await env.admin_cmd("rozhodni", kolo=1, stol=9)
    assert said(missing) == t("discord_admin.unknown_table", "sk", round=1, table=9)


# -- players -----------------------------------------------------------------------------


async def test_exclude_needs_a_reason_and_tells_the_player(env: Env) -> None:
    await _publish_round_1(env)
    unknown = await env.admin_cmd("vyluc", hrac="nikto", dovod="skúška")
    assert "nikto" in said(unknown) and "nepoznám" in said(unknown)
    blank = await env.admin_cmd("vyluc", hrac="kt-test-hrac2", dovod="   ")
    assert "zdôvodnenie" in said(blank)
    player = env.world.players[1]
    ex = await env.admin_cmd("vyluc", hrac="KT-TEST-HRAC2", dovod="Nešportové správanie")
    assert ex.ephemeral and "Vylúčenie z turnaja zapísané: Žofia Šťastná" in said(ex)
    assert "e-SP 3.6" in said(ex)
    entry = await env.app.store.read(get_entry, env.world.tournament.id, player.id)
    assert entry is not None and entry.out is not None
    assert "Nešportové správanie" in env.channel_text()
    dms = env.h.dms(env.players[1])
    assert dms and "Nešportové správanie" in dms[-1].text

    back = await env.admin_cmd("obnov", hrac=f"<@{player.discord_id}>", dovod="Omyl")
    assert "Späť v turnaji: Žofia Šťastná" in said(back)
    entry = await env.app.store.read(get_entry, env.world.tournament.id, player.id)
    assert entry is not None and entry.out is None


async def test_sync_without_a_herna_client_says_how(env: Env) -> None:
    ex = await env.admin_cmd("synchronizuj")
    assert ex.ephemeral and f"stredisko sync {SLUG}" in ex.content


async def test_every_admin_answer_is_acknowledged_first(env: Env) -> None:
    """Every answer acknowledged, the admin's by a deferral or an update (how fast: the
    dispatch bench — a test's verdict does not hang on the machine's speed)."""
    await _no_show(env)
    await env.admin_cmd("poradovnik")
    await env.admin_cmd("uzavri", kolo=1)
    assert all(ex.first_response_s is not None for ex in env.h.exchanges)
    assert all(ex.callback["type"] in (5, 6, 9) for ex in env.h.exchanges  # type: ignore[index]
               if ex.user is env.admin)
    assert CONTROL_CHANNEL_ID in {m.channel_id for m in env.h.channel_messages}


async def test_the_entry_fee_is_marked_in_chat_through_the_same_service(env: Env) -> None:
    player = env.world.players[1]
    unknown = await env.admin_cmd("nezaplatil", hraci="kt-test-hrac2, nikto")
    assert "nikto" in said(unknown) and "Nič sa nezapísalo" in said(unknown)
    entry = await env.app.store.read(get_entry, env.world.tournament.id, player.id)
    assert entry is not None and entry.paid
    ex = await env.admin_cmd("nezaplatil", hraci="@KT-TEST-HRAC2")
    assert ex.ephemeral and "mimo párovania" in said(ex) and "Žofia Šťastná" in said(ex)
    assert "e-SP 2.2" in said(ex)
    entry = await env.app.store.read(get_entry, env.world.tournament.id, player.id)
    assert entry is not None and not entry.paid
    back = await env.admin_cmd("zaplatil", hraci="kt-test-hrac2 kt-test-hrac1")
    assert "štartovné zaplatené (e-SP 2.2): Žofia Šťastná" in said(back)
    entry = await env.app.store.read(get_entry, env.world.tournament.id, player.id)
    assert entry is not None and entry.paid
    refused = await env.h.slash("admin", user=env.players[0], subcommand="zaplatil",
                                options={"hraci": "kt-test-hrac1"})
    assert refused.ephemeral and refused.content == REFUSED
