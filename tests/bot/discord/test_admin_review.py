"""The head admin's review queue through the real dispatch: each item's evidence side by side
(the platform record, each player's reports with times, the absence/arrival timeline), and
discrepancies with confirmed results (e-SP 4.7) decided with one click and a required note."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.services.app import Tx
from bot.services.results import lifecycle
from bot.services.results.evidence_map import game_payload
from bot.services.tournament import play
from bot.store import ResultStatus, list_discrepancies

from ..conftest import SLUG, START, add_game
from .conftest import REFUSED, embed_fields, record_as_shown, said
from .harness import DiscordWouldReject, RecordedMessage

pytestmark = pytest.mark.admin_world(published=True)


def _item(messages: list[RecordedMessage], text: str) -> RecordedMessage:
    return next(m for m in messages if text in m.text and m.components)


async def _contested_table_2(env: Any) -> None:
    """Table 2 (Ľubomír Čierny – Šimon Ťažký): Šimon reports Ľubomír absent at 10:02,
    Ľubomír arrives at 10:04; herna.net records 410:300 for Ľubomír; Šimon reports 420:400
    for himself, Ľubomír reports nothing — a conflict for the admin."""
    env.clock.set(START + timedelta(minutes=2))
    assert (await play.report_absence(env.app, SLUG, env.world.discord(3))).ok
    env.clock.set(START + timedelta(minutes=4))
    assert (await play.arrive(env.app, SLUG, env.world.discord(2))).ok
    await add_game(env.app, env.world.tables[1], 410, 300)
    env.clock.set(START + timedelta(minutes=45))
    reply = await play.report_result(env.app, SLUG, env.world.discord(3), 420, 400)
    assert reply.key == "play.result_conflict", reply


async def test_an_item_shows_record_reports_and_timeline_side_by_side(env: Any) -> None:
    await _contested_table_2(env)
    ex = await env.admin_cmd("poradovnik")
    item = _item(ex.followups, "stôl 2")
    fields = embed_fields(item)
    # in this order and inline: the record, each player's reports, the timeline
    assert list(fields) == ["Záznam z herna.net", "Hlásenie: Ľubomír Čierny",
                            "Hlásenie: Šimon Ťažký", "Priebeh"]
    assert all(f["inline"] for e in item.embeds for f in e["fields"])
    assert fields["Záznam z herna.net"] == (
        "hra g1: 410:300, Dohraná partia; začínal(a) Ľubomír Čierny; ťahy: Ľubomír Čierny 10, "
        "Šimon Ťažký 10; 1. 3. 2025 10:05 – 1. 3. 2025 10:40; načítané 1. 3. 2025 10:04")
    # Šimon's "420 for me, 400 for him" in the same order; Ľubomír's silence is shown too
    assert fields["Hlásenie: Šimon Ťažký"] == "1. 3. 2025 10:45: 400:420"
    assert fields["Hlásenie: Ľubomír Čierny"] == "bez hlásenia"
    assert fields["Priebeh"].split("\n") == [
        "1. 3. 2025 10:02 — Šimon Ťažký: hlási, že súper neprišiel",
        "1. 3. 2025 10:04 — Ľubomír Čierny: je na mieste"]
    assert "Skóre sú v poradí stola: Ľubomír Čierny – Šimon Ťažký." in item.content


async def test_an_item_in_english_for_an_english_admin(env: Any) -> None:
    await _contested_table_2(env)
    ex = await env.h.slash("admin", user=env.admin, subcommand="poradovnik", locale="en-US")
    item = _item(ex.followups, "table 2")
    fields = embed_fields(item)
    assert fields["herna.net record"].startswith(
        "game g1: 410:300, Finished game; Ľubomír Čierny started; moves: Ľubomír Čierny 10, ")
    assert "1 Mar 2025, 10:05 – 1 Mar 2025, 10:40" in fields["herna.net record"]
    assert fields["Report: Šimon Ťažký"] == "1 Mar 2025, 10:45: 400:420"
    assert fields["Report: Ľubomír Čierny"] == "no report"
    assert "Scores are in table order: Ľubomír Čierny – Šimon Ťažký." in item.content


async def test_a_swapped_start_a_flag_and_whom_the_end_concerns_are_shown(env: Any) -> None:
    """Žofia started although Ďuro should have, and Ďuro lost on time: the record still reads
    in the table's order (Ďuro first), names the starter and the loser, and shows its flag."""
    table = env.world.tables[0]  # Ďuro Ďurkovič – Žofia Šťastná
    duro, zofia = table.first_id, table.second_id
    payload = game_payload(game_id="g7", first=zofia, second=duro, first_score=95,
                           second_score=120, end="time_loss",
                           started=START + timedelta(minutes=5),
                           ended=START + timedelta(minutes=30), on=duro,
                           moves={zofia: 8, duro: 7}, flags=["wrong_settings", "novinka"])
    assert await record_as_shown(env, payload, 31) == (
        "hra g7: 120:95, Prehra na čas: Ďuro Ďurkovič; začínal(a) Žofia Šťastná; "
        "ťahy: Ďuro Ďurkovič 7, Žofia Šťastná 8; 1. 3. 2025 10:05 – 1. 3. 2025 10:30; "
        "načítané 1. 3. 2025 10:31 Príznaky: nastavenie stola nezodpovedá propozíciám "
        "(e-SP 4.1), novinka.")


# -- discrepancies with confirmed results (e-SP 4.7) ---------------------------------------


async def _discrepancy(env: Any) -> int:
    """Table 1 confirmed at 400:300; a later herna.net record says 300:410 (as the services'
    test of resolve_discrepancy): a discrepancy, never a change."""
    table = env.world.tables[0]
    tid = env.world.tournament.id
    await add_game(env.app, table, 400, 300)
    env.clock.set(START + timedelta(minutes=55))

    def confirm(tx: Tx) -> None:
        lifecycle.confirm_round(tx, tid, 1, tx.by_scheduler("test"))

    await env.app.run(confirm)
    env.clock.set(START + timedelta(minutes=70))
    await add_game(env.app, table, 300, 410, game_id="g2", minutes=(41, 48))
    await env.refresh()
    (found,) = await env.app.store.read(list_discrepancies, tid)
    return int(found.id)


async def test_a_discrepancy_shows_the_confirmed_result_beside_the_new_one(env: Any) -> None:
    number = await _discrepancy(env)
    ex = await env.admin_cmd("poradovnik")
    assert "nezhody: 1" in said(ex)
    item = _item(ex.followups, f"Nezhoda č. {number}")
    fields = embed_fields(item)
    assert list(fields)[:2] == ["Potvrdený výsledok", "Podľa dôkazov teraz"]
    assert fields["Potvrdený výsledok"].startswith("400:300 (body 1:0), Dohraná partia (e-SP")
    assert fields["Podľa dôkazov teraz"].startswith("300:410 (body 0:1), Dohraná partia")
    record = fields["Záznam z herna.net"].split("\n")
    assert record[0].startswith("hra g1: 400:300") and record[1].startswith("hra g2: 300:410")
    assert record[1].endswith("načítané 1. 3. 2025 11:10")  # the late record's arrival
    assert "Potvrdený výsledok sa už nemení (e-SP 4.7). Nezhoda zistená 1. 3. 2025 11:10" \
        in item.content
    buttons = [b["custom_id"] for b in item.buttons]
    assert buttons == [f"stredisko:admin:nezhoda:{number}:ponechat",
                       f"stredisko:admin:nezhoda:{number}:vedomie"]
    assert not [c for c in item.walk_components() if c.get("type") == 3]  # no ruling select


async def test_the_admin_keeps_the_confirmed_result_with_a_required_note(env: Any) -> None:
    number = await _discrepancy(env)
    before = await env.result(0)
    channel_before = len(env.h.channel_messages)
    ex = await env.admin_cmd("poradovnik")
    item = _item(ex.followups, f"Nezhoda č. {number}")
    keep = f"stredisko:admin:nezhoda:{number}:ponechat"

    opened = await env.h.click(item, env.admin, custom_id=keep)
    modal_id = opened.modal["custom_id"]
    assert opened.modal["title"] == "Potvrdený výsledok platí"
    with pytest.raises(DiscordWouldReject):  # the client will not send it empty
        await env.h.submit_modal(modal_id, {"dovod": ""}, env.admin)
    blank = await env.h.submit_modal(modal_id, {"dovod": "   "}, env.admin)
    assert "zdôvodnenie" in said(blank) and "e-SP 2.6" in said(blank)
    assert len(await env.app.store.read(list_discrepancies, env.world.tournament.id)) == 1

    opened = await env.h.click(item, env.admin, custom_id=keep)
    await env.h.submit_modal(opened.modal["custom_id"],
                             {"dovod": "Námietka neprišla do rozlosovania 2. kola"}, env.admin)
    assert item.components == []
    assert item.text == (f"Nezhoda č. {number} je vyriešená: Potvrdený výsledok platí "
                         "(e-SP 4.7): Námietka neprišla do rozlosovania 2. kola.")  # cited once
    assert await env.app.store.read(list_discrepancies, env.world.tournament.id) == []
    (resolved,) = await env.app.store.read(list_discrepancies, env.world.tournament.id,
                                           unresolved_only=False)
    assert resolved.resolution.startswith("Potvrdený výsledok platí (e-SP 4.7): Námietka")
    after = await env.result(0)  # the confirmed result never changes (e-SP 4.7)
    assert after.status is ResultStatus.CONFIRMED and after.version == before.version
    assert (after.first_score, after.second_score) == (400, 300)
    assert len(env.h.channel_messages) == channel_before  # the admin's business alone

    # a second click on a stale copy of the button finds it decided
    env.h.messages[item.id].raw["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": keep}]}]
    opened = await env.h.click(item, env.admin, custom_id=keep)
    again = await env.h.submit_modal(opened.modal["custom_id"], {"dovod": "znova"}, env.admin)
    assert said(again) == f"Nezhoda č. {number} je už vyriešená."


async def test_take_note_stores_the_slovak_record_even_for_an_english_admin(env: Any) -> None:
    number = await _discrepancy(env)
    ex = await env.h.slash("admin", user=env.admin, subcommand="poradovnik", locale="en-US")
    item = _item(ex.followups, f"Discrepancy no. {number}")
    assert "Confirmed result" in embed_fields(item)
    opened = await env.h.click(item, env.admin, locale="en-US",
                               custom_id=f"stredisko:admin:nezhoda:{number}:vedomie")
    assert opened.modal["title"] == "Take note"
    await env.h.submit_modal(opened.modal["custom_id"], {"dovod": "duplicate record"},
                             env.admin, locale="en-US")
    assert item.text.startswith(f"Discrepancy no. {number} is resolved: Vzaté na vedomie")
    (resolved,) = await env.app.store.read(list_discrepancies, env.world.tournament.id,
                                           unresolved_only=False)
    assert resolved.resolution == ("Vzaté na vedomie, potvrdený výsledok sa nemení "
                                   "(e-SP 4.7): duplicate record")


async def test_a_player_cannot_decide_a_discrepancy(env: Any) -> None:
    number = await _discrepancy(env)
    ex = await env.admin_cmd("poradovnik")
    item = _item(ex.followups, f"Nezhoda č. {number}")
    env.h.messages[item.id].raw["flags"] = 0  # a replayed custom_id, as if visible to all
    click = await env.h.click(item, env.players[0],
                              custom_id=f"stredisko:admin:nezhoda:{number}:ponechat")
    assert click.modal is None and click.ephemeral and said(click) == REFUSED
    assert len(await env.app.store.read(list_discrepancies, env.world.tournament.id)) == 1
