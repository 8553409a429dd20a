"""An impostor attacks through discord.py's real dispatch (tests/bot/discord/harness) with both cogs
over a real store: he cannot become a registered player, act for her, click another table's
draw prompt, nor — holding the head-admin role without being named — run the tournament.
Counted: 0 evidence rows and 0 changes to the victim by him."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from sqlite_utils import Database

from bot.clock import ManualClock
from bot.discord.client import StrediskoBot
from bot.discord.cogs import admin_cog_factory, player_cog_factory
from bot.discord.cogs.admin.link_controls import LinkButton
from bot.discord.cogs.admin.review_controls import DiscrepancyButton, RulingSelect
from bot.discord.notifier import DiscordNotifier
from bot.discord.ratelimit import RateLimiter
from bot.services.app import App
from bot.store import (
    Change,
    Store,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    get_entry,
    get_player,
    list_audit,
    list_evidence,
    list_rounds,
    replace_pairings,
    set_status,
    update_round,
)
from bot.store.links import list_link_requests

from .conftest import said
from .harness import HEAD_ADMIN_ROLE_ID, PLAYER_ROLE_ID, DiscordHarness, FakeUser

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
SLUG = "online-7"
ADMIN_CHANNEL_ID = 1_100_000_000_000_000_900
NICKS = ("ana", "boris", "cyril", "dana")  # dana is the victim: in the registry, not linked


class Lookalike(FakeUser):
    """An account that shows the victim's name ("dana") as its display name; its unique
    username is its own. The display name is no proof."""

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "global_name": "dana"}


@dataclass
class Attack:
    h: DiscordHarness
    store: Store
    users: dict[str, FakeUser]
    ids: dict[str, int]  # store ids
    tables: list[int]
    tournament_id: int

    async def cmd(self, who: str, name: str, **options: Any) -> Any:
        return await self.h.slash(name, user=self.users[who], options=options)

    async def admin(self, who: str, sub: str, **options: Any) -> Any:
        return await self.h.slash("admin", user=self.users[who], subcommand=sub,
                                  options=options)

    async def audit(self) -> list[Any]:
        return await self.store.read(list_audit, limit=100_000)

    async def requests(self) -> list[Any]:
        return await self.store.read(list_link_requests, self.tournament_id, status=None)


def _seed(db: Database, discord: dict[str, int | None], admin: int) -> tuple[dict[str, int],
                                                                            list[int], int]:
    by = Change.admin("spravca", START - timedelta(days=1), "test setup")
    t = create_tournament(db, slug=SLUG, name="Online kvalifikácia 7", season="2026/27",
                          round_starts=[START, START + timedelta(hours=2)], waiting_minutes=10,
                          game_limit_minutes=50, by=by, admin_ids=[admin])
    ids = {}
    for n, nick in enumerate(NICKS):
        # the registry records each Discord name (the harness's username is the lower name)
        p = create_player(db, name=nick.capitalize(), herna_nick=nick, by=by,
                          discord_id=discord[nick], discord_name=nick, screlo=1800.0 - n)
        add_entry(db, t.id, p.id, by, paid=True)
        ids[nick] = p.id
    tables = replace_pairings(db, t.id, 1, [(1, ids["ana"], ids["boris"]),
                                            (2, ids["cyril"], ids["dana"])], by)
    set_status(db, t.id, TournamentStatus.RUNNING, by)
    update_round(db, t.id, 1, by, published_at=by.at)
    return ids, [p.id for p in tables], t.id


@pytest.fixture
async def attack(tmp_path: Path) -> AsyncIterator[Attack]:
    store = await Store.open(tmp_path / "stredisko.db")
    clock = ManualClock(START + timedelta(minutes=20))
    holder: list[App] = []
    bot = StrediskoBot(cogs=[player_cog_factory(holder, SLUG), admin_cog_factory(holder, SLUG)])
    holder.append(App(store, clock, DiscordNotifier(bot, store,
                                                   admin_channel_id=ADMIN_CHANNEL_ID)))
    try:
        async with DiscordHarness(bot) as h:
            # the attack is about identity, not speed: no per-user rate limit here
            bot.get_cog("PlayerCog").limiter = RateLimiter(1000, 1)  # type: ignore[union-attr]
            users = {nick: h.member(nick.capitalize()) for nick in NICKS}
            users["impostor"] = Lookalike(h.snowflake(), "Impostor", roles=[PLAYER_ROLE_ID])
            h.users[users["impostor"].id] = users["impostor"]
            users["rogue"] = h.member("Rogue", roles=[HEAD_ADMIN_ROLE_ID])  # role, not named
            users["head"] = h.head_admin
            discord: dict[str, int | None] = {n: users[n].id for n in NICKS}
            discord["dana"] = None
            ids, tables, tid = await store.call(_seed, discord, h.head_admin.id)
            yield Attack(h, store, users, ids, tables, tid)
    finally:
        await store.close()


async def test_an_impostor_gets_nothing_and_the_real_player_links(attack: Attack) -> None:
    a = attack
    victim_before = await a.store.read(get_player, a.ids["dana"])
    seeded = len(await a.audit())

    # He asks for Dana's nick: a request for the head admin, asked twice = one request.
    first = await a.cmd("impostor", "registracia", prezyvka="dana")
    again = await a.cmd("impostor", "registracia", prezyvka="Dana")
    assert first.ephemeral and "čaká na jeho schválenie" in first.content
    assert again.content == first.content
    [request] = await a.requests()
    assert (request.discord_id, request.status) == (a.users["impostor"].id, "pending")
    [note] = a.h.messages_in(ADMIN_CHANNEL_ID)
    assert f"Žiadosť č. {request.id}" in note.text and "impostor" in note.text

    # Not linked: he cannot report her result, nor withdraw her.
    report = await a.cmd("impostor", "vysledok", moje_skore=0, skore_supera=500)
    withdraw = await a.cmd("impostor", "odstupit")
    for refused in (report, withdraw):
        assert refused.ephemeral and "nie je prepojený" in refused.content
        assert not refused.components  # no withdrawal button to click

    # The head admin rejects the request in the queue (its card is his alone: ephemeral).
    queue = await a.admin("head", "poradovnik")
    [card] = [m for m in queue.followups if any(
        "prepojenie" in str(b.get("custom_id")) for b in m.buttons)]
    reject = f"stredisko:admin:prepojenie:{request.id}:zamietni"
    denied = await a.admin("rogue", "poradovnik")  # the role alone does not show him the queue
    assert "nie je v zozname" in said(denied) and len(denied.followups) == 1
    opened = await a.h.click(card, a.users["head"], custom_id=reject)
    await a.h.submit_modal(opened.modal["custom_id"], {"dovod": "nie je to Dana"},
                           a.users["head"])
    assert [r.status for r in await a.requests()] == ["rejected"]
    assert "nie je to Dana" in a.h.dms(a.users["impostor"])[-1].text

    # Dana herself: the registry's Discord name is hers, she links at once.
    mine = await a.cmd("dana", "registracia", prezyvka="dana")
    assert mine.content.startswith("Hotovo, Dana: tvoj Discord účet je prepojený")
    taken = await a.cmd("impostor", "registracia", prezyvka="dana")
    assert "je už prepojená s iným Discord účtom" in taken.content
    assert (await a.cmd("impostor", "vysledok", moje_skore=0, skore_supera=500)).content \
        == report.content

    # Counted: no evidence anywhere (only Dana could have added any), nothing of hers changed.
    assert [await a.store.read(list_evidence, t) for t in a.tables] == [[], []]
    entry = await a.store.read(get_entry, a.tournament_id, a.ids["dana"])
    assert entry.out is None
    victim = await a.store.read(get_player, a.ids["dana"])
    assert victim == replace(victim_before, discord_id=a.users["dana"].id)  # her own link
    rows = (await a.audit())[seeded:]
    by_him = [x.action for x in rows if x.actor_id == f"discord:{a.users['impostor'].id}"]
    assert by_him == ["identity.request"]  # his one request, and nothing else
    on_her = [x.action for x in rows if x.subject == f"player:{a.ids['dana']}"
              and x.actor_id not in (str(a.ids["dana"]), str(a.users["head"].id))]
    assert on_her == ["identity.request"]


async def test_only_the_opponent_confirms_a_draw(attack: Attack) -> None:
    a = attack
    ex = await a.cmd("ana", "remiza")
    [prompt] = ex.followups
    shown = (prompt.content, prompt.buttons)
    for intruder in ("cyril", "ana", "impostor"):  # another table, the proposer, a stranger
        refused = await a.h.click(prompt, a.users[intruder])
        assert refused.ephemeral, intruder
        assert (prompt.content, prompt.buttons) == shown  # untouched: still for Boris
    assert await a.store.read(list_evidence, a.tables[1]) == []  # Cyril's table: nothing
    await a.h.click(prompt, a.users["boris"])
    assert prompt.buttons == [] and "potvrdená aj druhou stranou" in prompt.content
    assert len(await a.store.read(list_evidence, a.tables[0])) == 2  # Ana's and Boris's


@pytest.mark.parametrize(("sub", "options"), [
    ("paruj", {"kolo": 2}), ("zverejni", {"kolo": 2}), ("uzavri", {"kolo": 1}),
    ("ukonci", {}), ("prezentacia otvor", {}), ("poradovnik", {}),
    ("rozhodni", {"kolo": 1, "stol": 1}), ("odpoj", {"hrac": "ana", "dovod": "x"}),
])
async def test_the_role_alone_runs_nothing(attack: Attack, sub: str,
                                           options: dict[str, Any]) -> None:
    a = attack
    before = (len(await a.audit()), await a.store.read(list_rounds, a.tournament_id))
    ex = await a.admin("rogue", sub, **options)
    assert "nie je v zozname jeho administrátorov" in said(ex), said(ex)
    assert (len(await a.audit()), await a.store.read(list_rounds, a.tournament_id)) == before
    assert a.h.channel_messages == []
    named = await a.admin("head", sub, **options)  # the named head admin is not refused so
    assert "nie je v zozname" not in said(named)


async def test_the_head_admin_links_and_unlinks_in_chat(attack: Attack) -> None:
    """/admin prepoj and /admin odpoj: the player is told by DM on the account concerned."""
    a = attack
    dana, impostor = a.users["dana"], a.users["impostor"]
    ex = await a.admin("head", "prepoj", hrac="dana", ucet=impostor, dovod="omylom")
    assert "Hotovo — prepojené:" in said(ex), said(ex)
    assert "omylom" in a.h.dms(impostor)[-1].text
    ex = await a.admin("head", "prepoj", hrac="dana", ucet=dana, dovod="jej vlastný účet")
    assert said(ex).startswith("Hotovo — prepojené: Dana (herna.net: dana)")
    assert "už nie je prepojený" in a.h.dms(impostor)[-1].text  # the old account is told
    assert "jej vlastný účet" in a.h.dms(dana)[-1].text
    ex = await a.admin("head", "odpoj", hrac=f"<@{dana.id}>", dovod="nový účet")
    assert said(ex).startswith("Hotovo — prepojenie zrušené: Dana (herna.net: dana)")
    assert "nový účet" in a.h.dms(dana)[-1].text
    assert (await a.store.read(get_player, a.ids["dana"])).discord_id is None
    again = await a.cmd("dana", "registracia", prezyvka="dana")  # unlinked by the admin
    assert "čaká na jeho schválenie" in again.content


async def test_the_role_alone_opens_none_of_the_admins_forms(attack: Attack) -> None:
    """Issue 20.9: the discrepancy buttons, the link request's reject and the ruling select
    open a form (modal). A role holder the tournament does not name gets the policy's
    refusal, never the form; the named head admin gets the form."""
    a = attack
    view = discord.ui.View(timeout=None)
    view.add_item(DiscrepancyButton(1, "ponechat"))
    view.add_item(DiscrepancyButton(1, "vedomie"))
    view.add_item(LinkButton(1, "zamietni"))
    view.add_item(RulingSelect(a.tables[0], [discord.SelectOption(label="Kontumácia",
                                                                  value="no_show")]))
    await a.h.bot.get_partial_messageable(ADMIN_CHANNEL_ID).send("fronta", view=view)
    message = a.h.messages_in(ADMIN_CHANNEL_ID)[-1]
    forms = [("stredisko:admin:nezhoda:1:ponechat", None),
             ("stredisko:admin:nezhoda:1:vedomie", None),
             ("stredisko:admin:prepojenie:1:zamietni", None),
             (f"stredisko:admin:rozhodni:{a.tables[0]}", ["no_show"])]
    before = len(await a.audit())
    for custom_id, values in forms:
        ex = await a.h.click(message, a.users["rogue"], custom_id=custom_id, values=values)
        assert ex.modal is None, custom_id
        assert "nie je v zozname jeho administrátorov" in said(ex), (custom_id, said(ex))
        assert "e-SP 2.5" in said(ex)
        opened = await a.h.click(message, a.users["head"], custom_id=custom_id, values=values)
        assert opened.modal is not None, custom_id
    assert len(await a.audit()) == before  # a form shown is no act
