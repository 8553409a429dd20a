"""Two texts of a review item, through the real dispatch: an earlier ruling names the head
admin who made it (his name on the server, else "hlavný administrátor" — never a Discord id),
and a herna.net record reads how the game ended in Slovak, "unfinished" included."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.discord.i18n import CatalogueError, t
from bot.services.policy import set_admins
from bot.services.results.evidence_map import game_payload
from bot.services.tournament import play
from bot.store import ResultStatus
from rules import PlatformEnd
from scrapers.herna.records import EndKind

from ..conftest import ADMIN_ID, SLUG, START, add_game
from .conftest import embed_fields, record_as_shown
from .harness import HEAD_ADMIN_ROLE_ID, Exchange, FakeUser

pytestmark = pytest.mark.admin_world(published=True)
REASON = "Záznam z herna.net platí"


async def _rule_table_2(env: Any) -> None:
    """A conflict at table 2 (herna.net 400:300, Šimon reports 420:400), ruled by the head
    admin (Discord id ADMIN_ID, "Hlavný rozhodca") with the select and the modal at 10:50."""
    await add_game(env.app, env.world.tables[1], 400, 300)
    env.clock.set(START + timedelta(minutes=45))
    reply = await play.report_result(env.app, SLUG, env.world.discord(3), 420, 400)
    assert reply.key == "play.result_conflict", reply
    ex = await env.admin_cmd("poradovnik")
    item = next(m for m in ex.followups if "stôl 2" in m.text and m.components)
    select = next(c["custom_id"] for c in item.walk_components()
                  if str(c.get("custom_id", "")).startswith("stredisko:admin:rozhodni:"))
    env.clock.set(START + timedelta(minutes=50))
    opened = await env.h.click(item, env.admin, custom_id=select, values=["finished"])
    await env.h.submit_modal(opened.modal["custom_id"],
                             {"dovod": REASON, "skore1": "400", "skore2": "300"}, env.admin)
    assert (await env.result(1)).status is ResultStatus.PROVISIONAL


async def _rulings_seen_by(env: Any, user: FakeUser, locale: str = "sk") -> str:
    ex = await env.h.slash("admin", user=user, subcommand="rozhodni", locale=locale,
                           options={"kolo": 1, "stol": 2})
    fields = embed_fields(ex.followups[0])
    return fields[t("discord_admin.field.rulings", locale)]


async def _deputy(env: Any, locale: str = "sk") -> FakeUser:
    """A second head admin: the role, and named in the tournament's admin list (policy)."""
    deputy = env.h.member("Mária Zástupcová", roles=[HEAD_ADMIN_ROLE_ID], locale=locale)
    assert (await set_admins(env.app, SLUG, "spravca", add=[deputy.id])).ok
    return deputy


def _member_lookups(ex_calls: list[Any]) -> int:
    return sum(1 for c in ex_calls if c.key == "GET /guilds/{guild_id}/members/{member_id}")


async def test_the_admin_who_asks_sees_his_own_name_on_his_ruling(env: Any) -> None:
    await _rule_table_2(env)
    calls_before = len(env.h.calls)
    row = await _rulings_seen_by(env, env.admin)
    assert row == f"1. 3. 2025 10:50 — Hlavný rozhodca: Dohraná partia, {REASON}"
    assert str(ADMIN_ID) not in row
    assert _member_lookups(env.h.calls[calls_before:]) == 0  # he is the one asking


async def test_another_head_admin_sees_the_rulers_server_name(env: Any) -> None:
    await _rule_table_2(env)
    deputy = await _deputy(env)
    calls_before = len(env.h.calls)
    row = await _rulings_seen_by(env, deputy)
    assert row == f"1. 3. 2025 10:50 — Hlavný rozhodca: Dohraná partia, {REASON}"
    assert _member_lookups(env.h.calls[calls_before:]) == 1  # asked of Discord once


@pytest.mark.parametrize(("locale", "expected"), [
    ("sk", f"1. 3. 2025 10:50 — hlavný administrátor: Dohraná partia, {REASON}"),
    ("en-US", f"1 Mar 2025, 10:50 — the head administrator: Finished game, {REASON}"),
])
async def test_a_ruler_who_left_the_server_is_the_head_admin(env: Any, locale: str,
                                                             expected: str) -> None:
    await _rule_table_2(env)
    env.admin.in_guild = False  # Discord answers 404 Unknown Member
    deputy = await _deputy(env, locale)
    assert await _rulings_seen_by(env, deputy, locale) == expected


async def test_the_queue_names_each_ruler_once_for_all_its_items(env: Any) -> None:
    """A ruled pairing disputed again is back in the queue with its earlier ruling."""
    await _rule_table_2(env)
    reply = await play.dispute(env.app, SLUG, env.world.discord(3), "Hral som 420:400.")
    assert reply.ok, reply
    deputy = await _deputy(env)
    calls_before = len(env.h.calls)
    ex: Exchange = await env.h.slash("admin", user=deputy, subcommand="poradovnik")
    item = next(m for m in ex.followups if "stôl 2" in m.text and m.components)
    assert embed_fields(item)["Rozhodnutia"].startswith("1. 3. 2025 10:50 — Hlavný rozhodca: ")
    assert _member_lookups(env.h.calls[calls_before:]) == 1


# -- how herna.net says the game ended ----------------------------------------------------


async def _record(env: Any, end: str, ended: bool) -> str:
    """A herna.net record at table 1 (Ďuro Ďurkovič – Žofia Šťastná) as the head admin sees
    it through `/admin rozhodni`, in Slovak."""
    table = env.world.tables[0]
    duro, zofia = table.first_id, table.second_id
    payload = game_payload(game_id="g5", first=duro, second=zofia, first_score=120,
                           second_score=95, end=end, started=START + timedelta(minutes=5),
                           ended=START + timedelta(minutes=30) if ended else None,
                           moves={duro: 7, zofia: 7})
    return await record_as_shown(env, payload, 20)


async def test_an_unfinished_record_reads_in_slovak(env: Any) -> None:
    line = await _record(env, "unfinished", ended=False)
    assert line == (
        "hra g5: 120:95, Partia ešte neskončila; začínal(a) Ďuro Ďurkovič; ťahy: "
        "Ďuro Ďurkovič 7, Žofia Šťastná 7; 1. 3. 2025 10:05 – neskončená; "
        "načítané 1. 3. 2025 10:20")
    assert "unfinished" not in line


@pytest.mark.parametrize(("end", "label"), [
    ("passes", "Koniec po dvoch kolách bez platného ťahu"),
    ("draw", "Remíza dohodou"),
    ("finished", "Dohraná partia"),
])
async def test_herna_nets_own_ends_read_in_slovak(env: Any, end: str, label: str) -> None:
    line = await _record(env, end, ended=True)
    assert line.startswith(f"hra g5: 120:95, {label}; začínal(a) Ďuro Ďurkovič;")


@pytest.mark.parametrize("lang", ["sk", "en"])
def test_every_herna_end_has_its_own_label(lang: str) -> None:
    # the scraper's EndKind and the evidence's PlatformEnd must keep the same words
    assert {str(e) for e in EndKind} == {str(e) for e in PlatformEnd}
    labels = {}
    for end in PlatformEnd:
        try:
            labels[end] = t(f"discord_admin.herna_end.{end.value}", lang)
        except CatalogueError as error:
            pytest.fail(f"{lang}: no label for herna.net's end {end.value!r}: {error}")
    assert all(label != end.value for end, label in labels.items())
    assert len(set(labels.values())) == len(labels)  # no two ends read alike
