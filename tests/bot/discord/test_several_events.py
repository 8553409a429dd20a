"""One bot, several events (issue 37), through discord.py's real dispatch over a real store,
the bot built as `stredisko run` builds it without `[discord] tournament`: each command acts on
the event of its channel; in a DM the event is asked for (autocomplete offers the user's own);
a finished event refuses player actions with one line and still shows its standings; an event
created while the bot runs is served at its first command; one event's player or head admin
gets nothing in another's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from bot.clock import ManualClock
from bot.discord.i18n import t
from bot.discord.notifier import DiscordNotifier
from bot.discord.ratelimit import RateLimiter
from bot.discord.runner import build_bot
from bot.services.app import App
from bot.store import (
    Change,
    Store,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    list_evidence,
    replace_pairings,
    set_status,
    update_round,
)

from .conftest import said
from .harness import HEAD_ADMIN_ROLE_ID, DiscordHarness, FakeUser

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
CH_A, CH_B, CH_D, CH_FREE = (1_100_000_000_000_000_300 + i for i in range(4))
PLAYERS = {"kt-a": ("ana", "boris"), "kt-b": ("cyril", "dana"), "kt-c": ("ana", "emil")}


@dataclass
class Season:
    h: DiscordHarness
    store: Store
    users: dict[str, FakeUser]
    ids: dict[str, int]  # event slug -> tournament id
    tables: dict[str, list[int]]  # event slug -> its round-1 pairing ids

    async def cmd(self, who: str, name: str, *, channel: int | None = None, dm: bool = False,
                  **options: Any) -> Any:
        return await self.h.slash(name, user=self.users[who], options=options,
                                  channel_id=channel, dm=dm)

    async def evidence(self, slug: str) -> list[Any]:
        return [e for p in self.tables[slug] for e in await self.store.read(list_evidence, p)]


def _event(db: Database, slug: str, channel: int | None, admin: int,
           users: dict[str, FakeUser], players: dict[str, int], *, finished: bool = False
           ) -> tuple[int, list[int]]:
    by = Change.admin("spravca", START - timedelta(days=1), "test setup")
    t = create_tournament(db, slug=slug, name=f"Online {slug}", season="2026/27",
                          round_starts=[START, START + timedelta(hours=2)], waiting_minutes=10,
                          game_limit_minutes=50, by=by, admin_ids=[admin], channel_id=channel)
    for nick in PLAYERS[slug]:
        if nick not in players:
            players[nick] = create_player(db, name=nick.capitalize(), herna_nick=nick, by=by,
                                          discord_id=users[nick].id, discord_name=nick).id
        add_entry(db, t.id, players[nick], by, paid=True)
    first, second = (players[n] for n in PLAYERS[slug])
    tables = replace_pairings(db, t.id, 1, [(1, first, second)], by)
    set_status(db, t.id, TournamentStatus.RUNNING, by)
    update_round(db, t.id, 1, by, published_at=by.at)
    if finished:
        set_status(db, t.id, TournamentStatus.FINISHED, by)
    return t.id, [p.id for p in tables]


@pytest.fixture
async def season(tmp_path: Path) -> AsyncIterator[Season]:
    store = await Store.open(tmp_path / "stredisko.db")
    holder: list[App] = []
    bot = build_bot(holder, "")  # no [discord] tournament: every unfinished event
    holder.append(App(store, ManualClock(START + timedelta(minutes=20)),
                      DiscordNotifier(bot, store)))
    channels = [(CH_A, "kt-a"), (CH_B, "kt-b"), (CH_D, "kt-d"), (CH_FREE, "kaviaren")]
    try:
        async with DiscordHarness(bot, channels=channels) as h:
            bot.get_cog("PlayerCog").limiter = RateLimiter(1000, 1)  # type: ignore[union-attr]
            users = {n: h.member(n.capitalize()) for n in ("ana", "boris", "cyril", "dana",
                                                           "emil")}
            users["head_a"] = h.head_admin
            users["head_b"] = h.member("Hlavná B", roles=[HEAD_ADMIN_ROLE_ID])

            def seed(db: Database) -> tuple[dict[str, int], dict[str, list[int]]]:
                players: dict[str, int] = {}
                ids, tables = {}, {}
                for slug, channel, admin, finished in (
                        ("kt-a", CH_A, users["head_a"].id, False),
                        ("kt-b", CH_B, users["head_b"].id, False),
                        ("kt-c", CH_A, users["head_a"].id, True)):  # ended; A took its channel
                    ids[slug], tables[slug] = _event(db, slug, channel, admin, users, players,
                                                     finished=finished)
                return ids, tables

            ids, tables = await store.call(seed)
            yield Season(h, store, users, ids, tables)
    finally:
        await store.close()


async def test_each_channel_acts_on_its_own_event(season: Season) -> None:
    s = season
    a = await s.cmd("ana", "stav", channel=CH_A)
    b = await s.cmd("cyril", "stav", channel=CH_B)
    assert "Boris" in a.content and "Dana" in b.content  # each table of its own event
    # Ana reports in A's channel: the evidence is A's, B has none
    await s.cmd("ana", "vysledok", channel=CH_A, moje_skore=400, skore_supera=350)
    assert len(await s.evidence("kt-a")) == 1 and await s.evidence("kt-b") == []
    # the standings of B in B's channel name B's players only
    standings = await s.cmd("dana", "poradie", channel=CH_B)
    shown = said(standings) + str(standings.embeds)
    assert "Cyril" in shown and "Boris" not in shown


async def test_a_dm_asks_which_event_and_never_guesses(season: Season) -> None:
    s = season
    asked = await s.cmd("ana", "stav", dm=True)
    assert asked.ephemeral and asked.content == t("discord.event.which", "sk", events="kt-a")
    # the option offers her events: the running one first, the finished one after
    offered = await s.h.autocomplete("stav", "udalost", "", user=s.users["ana"], dm=True)
    assert [c["value"] for c in offered] == ["kt-a", "kt-c"]
    assert offered[1]["name"].endswith("(ukončená)")
    assert [c["value"] for c in await s.h.autocomplete(
        "stav", "udalost", "c", user=s.users["ana"], dm=True)] == ["kt-c"]
    named = await s.cmd("ana", "stav", dm=True, udalost="kt-a")
    assert "Boris" in named.content
    # a channel with no event asks too, and nothing is recorded meanwhile
    free = await s.cmd("ana", "vysledok", channel=CH_FREE, moje_skore=400, skore_supera=350)
    assert free.content == asked.content and await s.evidence("kt-a") == []


async def test_a_finished_event_refuses_player_actions_but_shows_its_results(
        season: Season) -> None:
    s = season
    refused = await s.cmd("ana", "vysledok", dm=True, udalost="kt-c", moje_skore=1,
                          skore_supera=2)
    assert refused.content == t("discord.event.finished", "sk", tournament="Online kt-c",
                                rule="e-SP 2.4")
    assert await s.evidence("kt-c") == []
    standings = await s.cmd("emil", "poradie", dm=True, udalost="kt-c")
    assert "Emil" in said(standings) + str(standings.embeds)


async def test_hostile_or_wrong_event_names_get_one_line(season: Season) -> None:
    s = season
    unknown = await s.cmd("ana", "stav", dm=True, udalost="nie-je")
    assert unknown.content == t("discord.event.unknown", "sk", slug="nie-je")
    # naming another event in an event's channel: refused, nothing stored in either
    elsewhere = await s.cmd("cyril", "vysledok", channel=CH_A, udalost="kt-b",
                            moje_skore=400, skore_supera=350)
    assert elsewhere.content == t("discord.event.other_channel", "sk", slug="kt-b",
                                  here="Online kt-a", rule="e-SP 2.6")
    markup = await s.cmd("ana", "stav", dm=True, udalost="**@everyone** `x`")
    assert markup.content.startswith("Udalosť „") and "@everyone" not in markup.content.replace(
        "\\@everyone", "")
    assert await s.evidence("kt-a") == [] and await s.evidence("kt-b") == []


async def test_one_events_people_get_nothing_in_another(season: Season) -> None:
    s = season
    # Ana plays in A, not in B: in B's channel she cannot report a result there
    intruder = await s.cmd("ana", "vysledok", channel=CH_B, moje_skore=0, skore_supera=500)
    assert intruder.ephemeral and await s.evidence("kt-b") == []
    assert "kt-b" in intruder.content or "Online kt-b" in intruder.content
    # A's head admin (role + named in A) is not B's: B's queue refuses him, A's answers
    in_b = await s.h.slash("admin", user=s.users["head_a"], subcommand="poradovnik",
                           channel_id=CH_B)
    assert "nie je v zozname" in said(in_b)
    in_a = await s.h.slash("admin", user=s.users["head_a"], subcommand="poradovnik",
                           channel_id=CH_A)
    assert "nie je v zozname" not in said(in_a)
    b_own = await s.h.slash("admin", user=s.users["head_b"], subcommand="poradovnik",
                            channel_id=CH_B)
    assert "nie je v zozname" not in said(b_own)


async def test_buttons_carry_their_event(season: Season) -> None:
    s = season
    proposed = await s.cmd("ana", "remiza", channel=CH_A)
    [prompt] = proposed.followups
    [button] = prompt.buttons
    assert button["custom_id"].endswith(f":u{s.ids['kt-a']}")
    await s.h.click(prompt, s.users["boris"])
    assert "potvrdená aj druhou stranou" in prompt.content
    assert len(await s.evidence("kt-a")) == 2 and await s.evidence("kt-b") == []


async def test_an_event_created_while_the_bot_runs_is_served_at_once(season: Season) -> None:
    s = season
    before = await s.cmd("dana", "stav", channel=CH_D)
    assert before.content == t("discord.event.which", "sk", events="kt-b")

    def create(db: Database) -> None:
        by = Change.admin("spravca", START, "test")
        t_ = create_tournament(db, slug="kt-d", name="Online kt-d", season="2026/27",
                               round_starts=[START + timedelta(days=1)], waiting_minutes=10,
                               game_limit_minutes=50, by=by, admin_ids=[s.users["head_a"].id],
                               channel_id=CH_D)
        add_entry(db, t_.id, _player(db, "dana"), by, paid=True)

    await s.store.call(create)
    served = await s.cmd("dana", "stav", channel=CH_D)
    # D's own state (no round published yet), not B's, where Dana has a table in round 1
    assert served.content == "Ešte nie je zverejnené žiadne kolo."
    assert "Cyril" in (await s.cmd("dana", "stav", channel=CH_B)).content


def _player(db: Database, nick: str) -> int:
    return int(db.execute("SELECT id FROM players WHERE herna_nick = ?", [nick]).fetchone()[0])


# -- a duplicate evening beside a classic qualifier (the `game` fixture, marked) ------------


@pytest.mark.several_events
async def test_a_duplicate_event_and_a_classic_one_side_by_side(game: Any) -> None:
    from bot.services.duplicate.game import start_game

    from .duplicate_world import CLASSIC_CHANNEL_ID, SEED, SLUG

    h, ana = game.h, game.players["ana"]
    await game.app.run(start_game, SLUG, seed=SEED)
    coord, word, score = await game.top_of(1)
    # the control centre is the duplicate event's: /tah there is its slip
    slip = await h.slash("tah", user=ana, options={"suradnica": coord, "hlavne_slovo": word,
                                                   "body": score})
    assert f"{coord} {word}, {score} bodov" in slip.content
    # in the classic event's channel Ana is at her table there, not in the duplicate game
    table = await h.slash("stav", user=ana, channel_id=CLASSIC_CHANNEL_ID)
    assert "Dušan Vedľajší" in table.content
    wrong = await h.slash("tah", user=ana, channel_id=CLASSIC_CHANNEL_ID,
                          options={"suradnica": coord, "hlavne_slovo": word})
    assert wrong.ephemeral and f"{coord} {word}, {score} bodov" not in wrong.content
    # the form opened in a DM for the named event keeps it for its submit
    opened = await h.slash("tah", user=game.players["boris"], dm=True,
                           options={"udalost": SLUG})
    assert opened.modal is not None
    sent = await h.submit_modal("stredisko:tah", {"suradnica": coord, "slovo": word,
                                                  "body": str(score)}, game.players["boris"])
    assert f"{coord} {word}, {score} bodov" in sent.content
    # /slovo stays closed to a player of the open duplicate round, even in a DM (003 r. 30)
    asked = await h.slash("slovo", user=ana, dm=True, options={"tvar": "kolo"})
    assert "003 r. 30" in asked.content


async def test_a_newcomer_in_a_dm_is_offered_the_running_events(season: Season) -> None:
    s = season
    newcomer = s.h.member("Nováčik")
    asked = await s.h.slash("registracia", user=newcomer, dm=True,
                            options={"prezyvka": "novacik"})
    assert asked.content == t("discord.event.which_none", "sk", events="kt-a, kt-b")
    offered = await s.h.autocomplete("registracia", "udalost", "b", user=newcomer, dm=True)
    assert [c["value"] for c in offered] == ["kt-b"]


async def test_the_admin_names_the_event_in_a_shared_channel_and_its_buttons_keep_it(
        season: Season) -> None:
    """The head admin's channel belongs to no event: /admin there asks, or acts on the event
    named; the "close anyway" button it offers carries that event (its click is another
    interaction, in the same channel)."""
    from bot.store import get_round

    s = season
    asked = await s.h.slash("admin", user=s.users["head_a"], subcommand="uzavri",
                            options={"kolo": 1}, channel_id=CH_FREE)
    assert said(asked) == t("discord.event.which", "sk", events="kt-a")
    warned = await s.h.slash("admin", user=s.users["head_a"], subcommand="uzavri",
                             options={"kolo": 1, "udalost": "kt-a"}, channel_id=CH_FREE)
    [force] = warned.message.buttons
    assert force["custom_id"] == f"stredisko:admin:aj-tak:uzavri:1:u{s.ids['kt-a']}"
    await s.h.click(warned.message, s.users["head_a"])
    closed_a = await s.store.read(get_round, s.ids["kt-a"], 1)
    closed_b = await s.store.read(get_round, s.ids["kt-b"], 1)
    assert closed_a.closed_at is not None and closed_b.closed_at is None
