"""What two events share — a player's Discord account, his DMs, the outbox, link requests —
stays each event's own (issue 44.4, 44.5, 44.8), through discord.py's real dispatch over a real
store, the bot built as `stredisko run` builds it for every unfinished event.

Dana plays in B (head_b) and in E (head_a); each event has its channel and its admin channel.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from bot.clock import ManualClock
from bot.discord.notifier import DiscordNotifier
from bot.discord.ratelimit import RateLimiter
from bot.discord.runner import build_bot
from bot.services.app import App
from bot.services.identity import accounts as identity
from bot.services.notifier import RecordingNotifier
from bot.services.policy import Actor
from bot.services.tournament import admin
from bot.store import (
    Change,
    Store,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    get_player,
    list_audit,
    replace_pairings,
    set_status,
    update_round,
    update_tournament,
)
from bot.store.links import list_link_requests
from bot.store.outbox import list_outbox

from .conftest import said
from .harness import HEAD_ADMIN_ROLE_ID, DiscordHarness, FakeUser, RecordedMessage

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
CH_B, CH_E, ADM_B, ADM_E = (1_100_000_000_000_000_400 + i for i in range(4))
#: event slug -> (its players, its channel, its admin channel, its head admin)
EVENTS = {"kt-b": (("cyril", "dana"), CH_B, ADM_B, "head_b"),
          "kt-e": (("ana", "dana"), CH_E, ADM_E, "head_a")}


@dataclass
class Two:
    h: DiscordHarness
    store: Store
    app: App
    users: dict[str, FakeUser]
    ids: dict[str, int]  # slug -> tournament id
    players: dict[str, int]  # nick -> player id

    async def admin(self, who: str, sub: str, channel: int, **options: Any) -> str:
        ex = await self.h.slash("admin", user=self.users[who], subcommand=sub,
                                options=options, channel_id=channel)
        return said(ex)

    def notes(self, channel: int) -> list[str]:
        return [m.text for m in self.h.messages_in(channel)]

    async def audit(self, slug: str, action: str) -> list[Any]:
        return [a for a in await self.store.read(list_audit, tournament_id=self.ids[slug])
                if a.action == action]

    async def dana_account(self) -> int | None:
        return (await self.store.read(get_player, self.players["dana"])).discord_id


def _seed(db: Database, users: dict[str, FakeUser]) -> tuple[dict[str, int], dict[str, int]]:
    by = Change.admin("spravca", START - timedelta(days=1), "test setup")
    players: dict[str, int] = {}
    ids: dict[str, int] = {}
    for slug, (nicks, channel, admin_channel, head) in EVENTS.items():
        t = create_tournament(db, slug=slug, name=f"Online {slug}", season="2026/27",
                              round_starts=[START, START + timedelta(hours=2)],
                              waiting_minutes=10, game_limit_minutes=50, by=by,
                              admin_ids=[users[head].id], channel_id=channel,
                              settings={"admin_channel_id": admin_channel})
        ids[slug] = t.id
        for nick in nicks:
            if nick not in players:
                players[nick] = create_player(db, name=nick.capitalize(), herna_nick=nick,
                                              by=by, discord_id=users[nick].id,
                                              discord_name=nick).id
            add_entry(db, t.id, players[nick], by, paid=True)
        first, second = (players[n] for n in nicks)
        replace_pairings(db, t.id, 1, [(1, first, second)], by)
        set_status(db, t.id, TournamentStatus.RUNNING, by)
        update_round(db, t.id, 1, by, published_at=by.at)
    return ids, players


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[Two]:
    store = await Store.open(tmp_path / "stredisko.db")
    holder: list[App] = []
    bot = build_bot(holder, "")  # no [discord] tournament: every unfinished event
    app = App(store, ManualClock(START + timedelta(minutes=20)), DiscordNotifier(bot, store))
    holder.append(app)
    channels = [(CH_B, "kt-b"), (CH_E, "kt-e"), (ADM_B, "admin-b"), (ADM_E, "admin-e")]
    try:
        async with DiscordHarness(bot, channels=channels) as h:
            bot.get_cog("PlayerCog").limiter = RateLimiter(1000, 1)  # type: ignore[union-attr]
            users = {n: h.member(n.capitalize()) for n in ("ana", "cyril", "dana", "sock",
                                                           "fero_ucet")}
            users["head_a"] = h.head_admin
            users["head_b"] = h.member("Hlavná B", roles=[HEAD_ADMIN_ROLE_ID])
            ids, players = await store.call(lambda db: _seed(db, users))
            yield Two(h, store, app, users, ids, players)
    finally:
        await store.close()


# -- 44.4: one event's head admin cannot take a seat in another ------------------------------


async def test_a_head_admin_of_one_event_cannot_relink_a_player_of_another(two: Two) -> None:
    s = two
    dana = s.users["dana"].id
    answer = await s.admin("head_a", "prepoj", CH_E, hrac="dana", ucet=s.users["sock"],
                           dovod="Dana hrá z nového účtu")
    assert "kt-b" in answer and "Nič sa nezmenilo" in answer
    assert await s.dana_account() == dana  # her seat in B is still hers
    unlinked = await s.admin("head_a", "odpoj", CH_E, hrac="dana", dovod="omyl")
    assert "kt-b" in unlinked and await s.dana_account() == dana
    # the account that was not linked reports nothing as Dana in B
    ex = await s.h.slash("vysledok", user=s.users["sock"], channel_id=CH_B,
                         options={"moje_skore": 500, "skore_supera": 0})
    assert ex.ephemeral
    assert await s.audit("kt-b", identity.LINK_ACTION) == []
    assert await s.audit("kt-e", identity.LINK_ACTION) == []
    assert s.notes(ADM_B) == []


async def test_a_head_admin_of_both_relinks_and_both_events_hear_it(two: Two) -> None:
    s = two
    await s.store.call(lambda db: update_tournament(
        db, s.ids["kt-b"], Change.admin("spravca", START, "test"),
        admin_ids=[s.users["head_b"].id, s.users["head_a"].id]))
    answer = await s.admin("head_a", "prepoj", CH_E, hrac="dana", ucet=s.users["sock"],
                           dovod="Dana hrá z nového účtu")
    assert "prepojené" in answer, answer
    assert await s.dana_account() == s.users["sock"].id
    for slug in ("kt-b", "kt-e"):  # the audit line in each event
        [line] = await s.audit(slug, identity.LINK_ACTION)
        assert line.data["discord_id"] == s.users["sock"].id
        assert line.data["was"] == s.users["dana"].id
    for admin_channel, slug in ((ADM_B, "kt-b"), (ADM_E, "kt-e")):  # a note in each
        [note] = [n for n in s.notes(admin_channel) if "Discord účet hráča Dana" in n]
        assert f"**Online {slug}** · " in note and "(kt-e)" in note
        assert str(s.users["sock"].id) in note


# -- 44.5: every DM names its event; the outbox is each event's --------------------------------


async def test_the_dms_of_two_events_each_name_their_event(two: Two) -> None:
    s = two
    await s.h.slash("remiza", user=s.users["cyril"], channel_id=CH_B)
    await s.h.slash("remiza", user=s.users["ana"], channel_id=CH_E)
    first, second = (m.text for m in s.h.dms(s.users["dana"]))
    assert first.startswith("**Online kt-b** · ") and "kt-e" not in first
    assert second.startswith("**Online kt-e** · ") and "kt-b" not in second


async def test_one_events_outbox_never_lists_or_resends_anothers_dm(two: Two) -> None:
    s = two
    # B's operator unlinks Cyril from the console: the DM waits in the outbox for the bot
    queued = App(s.store, s.app.clock, RecordingNotifier(), delivery="queue")
    assert (await identity.unlink(queued, "kt-b", Actor.operator("spravca"), "cyril",
                                  "nový účet")).ok
    [dm] = [row for row in await s.store.read(list_outbox) if row.destination == "dm"]
    assert dm.tournament_id == s.ids["kt-b"]  # the DM carries its event
    in_e = await s.admin("head_a", "odchadzajuce zoznam", CH_E)
    assert f"č. {dm.id} ·" not in in_e and "unlinked" not in in_e
    in_b = await s.admin("head_b", "odchadzajuce zoznam", CH_B)
    assert f"č. {dm.id} · čaká · identity.unlinked\\_dm" in in_b
    sent = len(s.h.dms(s.users["cyril"]))
    resent = await s.admin("head_a", "odchadzajuce znova", CH_E, cislo=dm.id)
    dropped = await s.admin("head_a", "odchadzajuce zahod", CH_E, cislo=dm.id, dovod="x")
    assert resent.startswith(f"Správa č. {dm.id} neexistuje")
    assert dropped.startswith(f"Správa č. {dm.id} neexistuje")
    assert len(s.h.dms(s.users["cyril"])) == sent  # never sent twice by E's admin
    [status] = [r.status for r in await s.store.read(list_outbox) if r.id == dm.id]
    assert status != "dropped"  # nor dropped by him
    assert [r.id for r in await s.store.read(list_outbox)
            if r.destination == "dm" and r.target == dm.target] == [dm.id]  # nor copied


# -- 44.8: undelivered DMs and link requests are each event's --------------------------------


async def test_an_undelivered_dm_is_told_to_its_own_events_admin(two: Two) -> None:
    s = two
    s.h.close_dms(s.users["dana"])
    await s.h.slash("remiza", user=s.users["cyril"], channel_id=CH_B)
    await s.h.slash("remiza", user=s.users["ana"], channel_id=CH_E)
    [in_b] = [n for n in s.notes(ADM_B) if "Súkromnú správu" in n]
    [in_e] = [n for n in s.notes(ADM_E) if "Súkromnú správu" in n]
    assert in_b.startswith("**Online kt-b** · ") and "Dana" in in_b
    assert in_e.startswith("**Online kt-e** · ") and "Dana" in in_e


async def _register(s: Two, channel: int) -> str:
    ex = await s.h.slash("registracia", user=s.users["fero_ucet"], channel_id=channel,
                         options={"prezyvka": "fero"})
    return ex.content or said(ex)


def _cards(ex_text: list[RecordedMessage]) -> list[str]:
    return [c["custom_id"] for m in ex_text for c in m.walk_components()
            if str(c.get("custom_id", "")).startswith("stredisko:admin:prepojenie:")]


async def test_a_link_request_is_each_events(two: Two) -> None:
    s = two

    def enter(db: Database) -> int:
        by = Change.admin("spravca", START, "test")
        fero = create_player(db, name="Fero", herna_nick="fero", by=by)
        for slug in EVENTS:
            add_entry(db, s.ids[slug], fero.id, by, paid=True)
        return fero.id

    fero = await s.store.call(enter)
    assert "čaká" in await _register(s, CH_E)
    assert "čaká" in await _register(s, CH_B)
    per_event = {slug: await s.store.read(list_link_requests, s.ids[slug]) for slug in EVENTS}
    assert [r.player_id for r in per_event["kt-b"]] == [fero]  # B's head admin sees it
    assert [r.player_id for r in per_event["kt-e"]] == [fero]
    queue_b = await s.h.slash("admin", user=s.users["head_b"], subcommand="poradovnik",
                              channel_id=CH_B)
    assert _cards(queue_b.followups)
    # E's head admin rejects E's request; in B it still waits for B's head admin
    [request_e] = per_event["kt-e"]
    rejected = await identity.reject_request(s.app, "kt-e", s.users["head_a"].id,
                                             request_e.id, "nie je to on")
    assert rejected.ok, rejected
    assert "čaká" in await _register(s, CH_B)
    [request_b] = await s.store.read(list_link_requests, s.ids["kt-b"])
    approved = await identity.approve_request(s.app, "kt-b", s.users["head_b"].id,
                                              request_b.id)
    assert approved.ok, approved
    assert (await s.store.read(get_player, fero)).discord_id == s.users["fero_ucet"].id



@pytest.mark.parametrize("shared", [True, False], ids=["shared-channel", "own-channel"])
async def test_an_announcement_names_its_event_where_a_channel_carries_two(
        two: Two, shared: bool) -> None:
    s = two
    if shared:  # E moves into B's channel: one channel carries both events' news
        await s.store.call(lambda db: update_tournament(
            db, s.ids["kt-e"], Change.admin("spravca", START, "test"), channel_id=CH_B))
    assert (await admin.exclude(s.app, "kt-b", s.users["head_b"].id, s.players["cyril"],
                                "hrubé správanie")).ok
    [news] = [m.text for m in s.h.messages_in(CH_B) if "hrubé správanie" in m.text]
    assert news.startswith("**Online kt-b** · ") is shared
