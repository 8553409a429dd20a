"""Which event a form, a prompt and a channel belong to when events run side by side (issue 44
items 5 and 6), through discord.py's real dispatch over a real store: two players' slip forms
open at once never swap or drop a slip; a draw named for an event is posted in that event's
channel; a channel an event moved away from answers for nobody; a forged id out of SQLite's
range gets one line; the question "which event?" fits Discord's 2,000 characters; the
autocomplete offers the user's own events only."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.config import DiscordConfig
from bot.discord.i18n import t
from bot.discord.notifier import DiscordNotifier, Undeliverable
from bot.discord.runner import check_new_events
from bot.services.duplicate.game import start_game
from bot.services.notifier import Message
from bot.services.policy import Actor
from bot.services.tournament import events
from bot.store import (
    Change,
    TournamentStatus,
    add_entry,
    create_tournament,
    find_player_by_discord,
    get_tournament_by_slug,
    set_status,
)
from bot.store.duplicate import get_game, list_slips, open_rounds
from bot.store.entries import withdraw

from . import test_several_events as several
from .conftest import said
from .duplicate_world import SECOND_CHANNEL_ID, SECOND_SLUG, SEED, SLUG, Game
from .harness import CONTROL_CHANNEL_ID, GUILD_ID, Exchange, guild_payload
from .test_several_events import CH_A, CH_D, CH_FREE, START, Season

pytestmark = pytest.mark.asyncio


# -- the slip form (item 5: "the slip form and every modal carry their event") -------------


async def _slips(game: Game, slug: str) -> dict[str, str]:
    """The slips of the event's open round: player's name -> the move as handed in."""

    def read(db: Any) -> dict[str, str]:
        t = get_tournament_by_slug(db, slug)
        [rnd] = open_rounds(db, t.id)
        names = {}
        for name, user in game.players.items():
            player = find_player_by_discord(db, user.id)
            assert player is not None
            names[player.id] = name
        return {names[s.player_id]: s.text for s in list_slips(db, rnd.id)
                if s.replaced_by is None}

    return await game.app.store.read(read)


async def _open_form(game: Game, who: str, channel: int = CONTROL_CHANNEL_ID) -> Exchange:
    opened = await game.h.slash("tah", user=game.players[who], channel_id=channel)
    assert opened.modal is not None
    return opened


async def _submit(game: Game, who: str, coord: str, word: str) -> Exchange:
    return await game.h.submit_modal("stredisko:tah", {"suradnica": coord, "slovo": word,
                                                      "body": "5"},
                                     game.players[who], check=False)


async def test_two_forms_open_at_once_in_one_event_each_keep_their_slip(game: Game) -> None:
    """Ana and Boris open `/tah` one after the other, then both send: each slip is its
    sender's, and neither submit is dropped (a fixed custom_id let Boris's form replace
    Ana's: her send ran his form and his was discarded — "interaction failed")."""
    await game.app.run(start_game, SLUG, seed=SEED)
    await _open_form(game, "ana")
    await _open_form(game, "boris")
    ana = await _submit(game, "ana", "8H", "KOLO")
    boris = await _submit(game, "boris", "8H", "SOK")
    assert "8H KOLO" in ana.content and "8H SOK" in boris.content
    assert await _slips(game, SLUG) == {"ana": "8H KOLO", "boris": "8H SOK"}


@pytest.mark.two_duplicates
async def test_two_forms_open_at_once_in_two_events_land_in_their_own(game: Game) -> None:
    """Ana's form is for the first event (the control centre), Boris's for the second (its
    own channel); sent in that order, each slip lands in the event its form was opened for."""
    await game.app.run(start_game, SLUG, seed=SEED)
    await game.app.run(start_game, SECOND_SLUG, seed=SEED)
    await _open_form(game, "ana")
    await _open_form(game, "boris", SECOND_CHANNEL_ID)
    ana = await _submit(game, "ana", "8H", "KOLO")
    boris = await _submit(game, "boris", "8H", "SOK")
    assert "8H KOLO" in ana.content and "8H SOK" in boris.content
    assert await _slips(game, SLUG) == {"ana": "8H KOLO"}
    assert await _slips(game, SECOND_SLUG) == {"boris": "8H SOK"}


def _game_started(db: Any, slug: str) -> bool:
    return get_game(db, get_tournament_by_slug(db, slug).id, 1) is not None


# -- classic events side by side (the `season` world of test_several_events) ----------------

season = several.season  # kt-a in CH_A, kt-b in CH_B, kt-c finished (A took its channel)


async def test_a_draw_named_in_a_shared_channel_is_posted_in_its_events_channel(
        season: Season) -> None:
    """`/remiza udalost:kt-a` in a channel of no event: the opponent's prompt goes to kt-a's
    own channel (e-SP 2.6), where its button confirms; nothing is posted where it was typed."""
    s = season
    proposed = await s.cmd("ana", "remiza", channel=CH_FREE, udalost="kt-a")
    assert proposed.ephemeral and not proposed.followups
    assert s.h.messages_in(CH_FREE) == []
    [prompt] = [m for m in s.h.messages_in(CH_A) if m.buttons]
    assert s.users["boris"].mention in prompt.content
    await s.h.click(prompt, s.users["boris"])
    assert "potvrdená aj druhou stranou" in prompt.content
    assert len(await s.evidence("kt-a")) == 2


def _forge(message: Any, custom_id: str) -> None:
    """Make the message's one button carry `custom_id` (what a modified client could send)."""
    [button] = [c for c in message.walk_components() if c.get("type") == 2]
    button["custom_id"] = custom_id


@pytest.mark.parametrize("forged, line", [
    (f"stredisko:remiza:1:{{ana}}:u{2**63}",
     t("discord.event.unknown", "sk", slug=str(2**63))),
    (f"stredisko:dup-namietka:{2**64}:ano",
     t("duplicate.online.no_protest", "sk", id=2**64)),
])
async def test_a_forged_id_beyond_sqlites_range_gets_one_line(
        season: Season, forged: str, line: str) -> None:
    """An event or protest id ≥ 2^63 in a button's custom_id names nothing: the one-line
    refusal, not "Niečo sa pokazilo" (SQLite's OverflowError)."""
    s = season
    proposed = await s.cmd("ana", "remiza", channel=CH_A)
    [prompt] = proposed.followups
    custom_id = forged.format(ana=s.users["ana"].id)
    _forge(prompt, custom_id)
    clicked = await s.h.click(prompt, s.users["head_a"], custom_id=custom_id)
    assert clicked.ephemeral and said(clicked) == line
    assert len(await s.evidence("kt-a")) == 1  # the proposal only: nothing confirmed


# -- the question "which event?" and the autocomplete (items 5 and 6) ----------------------


def _long_events(db: Any, count: int, entrant: int | None = None) -> None:
    """`count` running events with 100-character short names (what `create` accepted before
    the 64 limit), each in no channel of its own; `entrant` entered in each."""
    by = Change.admin("spravca", START, "test setup")
    for n in range(count):
        t_ = create_tournament(db, slug=f"{n:02d}-" + "x" * 97, name=f"Dlhá {n}",
                               season="2026/27", round_starts=[START], waiting_minutes=10,
                               game_limit_minutes=50, by=by, channel_id=None)
        set_status(db, t_.id, TournamentStatus.RUNNING, by)
        if entrant is not None:
            add_entry(db, t_.id, entrant, by, paid=True)


@pytest.mark.parametrize("who", ["newcomer", "ana"])
async def test_the_question_which_event_fits_in_one_message(season: Season, who: str) -> None:
    """25 running events with long short names: the question lists what fits and says how
    many more there are, within Discord's 2,000 characters (it was 2,600 and refused)."""
    s = season
    user = s.h.member("Nováčik") if who == "newcomer" else s.users["ana"]
    ana = await s.store.read(find_player_by_discord, s.users["ana"].id)
    await s.store.call(_long_events, 25, ana.id if who == "ana" else None)
    asked = await s.h.slash("stav", user=user, dm=True, check=False)  # refused: said below
    assert not s.h.take_violations(), "Discord would refuse the answer (over 2,000)"
    assert asked.ephemeral and len(asked.content) <= 2000
    assert "a ďalšie " in asked.content and asked.content.endswith("…).")
    key = "which_none" if who == "newcomer" else "which"
    assert asked.content.startswith(t(f"discord.event.{key}", "sk", events="|").split("|")[0])


async def test_someone_in_no_event_is_not_told_he_takes_part_in_some(season: Season) -> None:
    s = season
    asked = await s.h.slash("stav", user=s.h.member("Nováčik"), dm=True)
    assert "zúčastňuješ" not in asked.content
    assert asked.content == t("discord.event.which_none", "sk", events="kt-a, kt-b")


async def test_the_autocomplete_never_offers_others_events_as_his(season: Season) -> None:
    """What Ana types matches none of her events (kt-a, kt-c): nothing is offered — not kt-b,
    which she is not in; `/registracia` offers it, marked as open to register."""
    s = season
    ana = s.users["ana"]
    assert await s.h.autocomplete("stav", "udalost", "b", user=ana, dm=True) == []
    offered = await s.h.autocomplete("registracia", "udalost", "", user=ana, dm=True)
    assert [c["value"] for c in offered] == ["kt-a", "kt-c", "kt-b"]
    assert offered[2]["name"] == "Online kt-b · kt-b (na prihlásenie)"
    assert not offered[0]["name"].endswith("(na prihlásenie)")


async def test_an_event_he_withdrew_from_is_not_offered_for_actions(season: Season) -> None:
    s = season
    boris = s.users["boris"]

    def leave(db: Any) -> None:
        player = find_player_by_discord(db, boris.id)
        withdraw(db, s.ids["kt-a"], player.id, "odstúpil",
                 Change.admin("spravca", START, "test"))

    await s.store.call(leave)
    assert await s.h.autocomplete("vysledok", "udalost", "", user=boris, dm=True) == []
    looks = await s.h.autocomplete("poradie", "udalost", "", user=boris, dm=True)
    assert [c["value"] for c in looks] == ["kt-a"]  # its standings he may still see


# -- a channel an event moved away from (item 5) --------------------------------------------


async def test_a_channel_an_event_moved_away_from_answers_for_nobody(season: Season) -> None:
    """kt-c ended in CH_A; kt-a ran there after it and moved to another channel: CH_A is no
    longer anybody's — Boris (kt-a) is asked which event, not told that kt-c has ended."""
    s = season
    app = s.h.bot.get_cog("PlayerCog").app  # type: ignore[union-attr]
    assert (await events.set_channel(app, "kt-a", CH_D, Actor.operator("spravca"))).ok
    asked = await s.cmd("boris", "vysledok", channel=CH_A, moje_skore=400, skore_supera=350)
    assert asked.content == t("discord.event.which", "sk", events="kt-a")
    assert "kt-c" not in asked.content and await s.evidence("kt-a") == []
    # in its new channel kt-a is served
    moved = await s.cmd("boris", "stav", channel=CH_D)
    assert "Ana" in moved.content
    # the operator gives the ended kt-c the channel anew: it answers there again
    for channel in (CH_FREE, CH_A):
        assert (await events.set_channel(app, "kt-c", channel, Actor.operator("spravca"))).ok
    standings = await s.cmd("emil", "poradie", channel=CH_A)
    assert "Emil" in said(standings) + str(standings.embeds)


# -- /slovo during a duplicate round (item 8: every running duplicate event) ----------------


@pytest.mark.two_duplicates
async def test_slovo_stays_closed_while_any_of_his_duplicate_rounds_is_open(game: Game) -> None:
    """Ana plays in two duplicate events; the older one's round is open, the newer one has not
    started: /slovo is refused (003 r. 30) — the newest event alone was asked before."""
    await game.app.run(start_game, SLUG, seed=SEED)
    assert not await game.app.store.read(_game_started, SECOND_SLUG)
    asked = await game.h.slash("slovo", user=game.players["ana"], dm=True,
                               options={"tvar": "kolo"})
    assert "003 r. 30" in asked.content and "PLATNÉ" not in asked.content


# -- an event's channel on another server (item 5) -------------------------------------------

#: a channel of another server the bot is in (the operator's CLI cannot tell it apart)
FOREIGN, OTHER_GUILD_ID = 1_200_000_000_000_000_999, 1_200_000_000_000_000_100


async def _foreign_b(s: Season) -> DiscordNotifier:
    """kt-b given a channel of another server the bot is on, by the operator (`stredisko
    channel`: stored, the CLI cannot ask Discord); the bot's notifier."""
    payload = guild_payload("sk", channels=[(FOREIGN, "ina-liga")])
    payload["id"] = str(OTHER_GUILD_ID)
    payload["channels"] = [{**c, "guild_id": str(OTHER_GUILD_ID)}
                           for c in payload["channels"] if c["id"] == str(FOREIGN)]
    state = s.h.bot._connection
    state._add_guild(discord.Guild(data=payload, state=state))  # type: ignore[arg-type]
    assert s.h.bot.get_channel(FOREIGN) is not None  # the bot could post there
    app = s.h.bot.get_cog("PlayerCog").app  # type: ignore[union-attr]
    assert (await events.set_channel(app, "kt-b", FOREIGN, Actor.operator("spravca"))).ok
    return app.notifier


def _notices(s: Season) -> list[str]:
    """What kt-b's head admin was told about its channel (no admin channel: by DM)."""
    return [m.content for m in s.h.dms(s.users["head_b"]) if "kt-b" in m.content]


async def test_an_announcement_never_goes_to_another_servers_channel(season: Season) -> None:
    """kt-b's announcement stays in the outbox (Undeliverable: retried, never lost) instead of
    being posted on another server, and B's head admin is told once, not at every retry."""
    s = season
    notifier = await _foreign_b(s)
    for _ in range(3):  # the outbox retries
        with pytest.raises(Undeliverable):
            await notifier.announce(s.ids["kt-b"], Message("discord.event.unknown",
                                                           {"slug": "oznam"}))
    assert not [c for c in s.h.calls if str(FOREIGN) in c.path]
    [notice] = _notices(s)
    assert str(FOREIGN) in notice and "stredisko channel" in notice and "e-SP 2.6" in notice


async def test_the_minute_check_tells_the_head_admin_of_a_broken_channel_once(
        season: Season) -> None:
    """The running bot's check of events given a channel meanwhile: the fault is logged and
    told to the event's head admin — once, and not again when the announcement is kept."""
    s = season
    notifier = await _foreign_b(s)
    known: set[tuple[int, int | None]] = set()
    config = DiscordConfig(guild_id=GUILD_ID)
    lines = await check_new_events(s.h.bot, config, s.store, known, notifier.channel_fault)
    assert [line for line in lines if "kt-b" in line]
    assert await check_new_events(s.h.bot, config, s.store, known,
                                  notifier.channel_fault) == []
    with pytest.raises(Undeliverable):
        await notifier.announce(s.ids["kt-b"], Message("discord.event.unknown", {"slug": "x"}))
    [notice] = _notices(s)
    assert str(FOREIGN) in notice and "kt-b" in notice


BIG = 2**64
#: every persistent button's template with a number beyond SQLite's range in each group
FORGED_EVERYWHERE = [
    f"stredisko:remiza:{BIG}:{{ana}}", f"stredisko:remiza:1:{BIG}",
    f"stredisko:odstupit:{BIG}", f"stredisko:zrusit:{BIG}",
    f"stredisko:admin:prepojenie:{BIG}:schval", f"stredisko:admin:schval:{BIG}:1",
    f"stredisko:admin:schval:1:{BIG}", f"stredisko:admin:rozhodni:{BIG}",
    f"stredisko:admin:nezhoda:{BIG}:ponechat", f"stredisko:admin:aj-tak:paruj:{BIG}",
    f"stredisko:admin:zverejni:{BIG}", f"stredisko:admin:zverejni:1:u{BIG}",
    f"stredisko:dup-namietka:{BIG}:nie",
]


@pytest.mark.parametrize("forged", FORGED_EVERYWHERE)
@pytest.mark.parametrize("who", ["ana", "head_a"])
async def test_no_forged_number_in_any_button_gets_a_traceback(
        season: Season, forged: str, who: str) -> None:
    """Any number a client can put in any button's custom_id: a refusal in one line (or the
    button's ordinary answer), never "Niečo sa pokazilo" from SQLite's OverflowError."""
    s = season
    proposed = await s.cmd("ana", "remiza", channel=CH_A)
    [prompt] = proposed.followups
    custom_id = forged.format(ana=s.users["ana"].id)
    _forge(prompt, custom_id)
    clicked = await s.h.click(prompt, s.users[who], custom_id=custom_id, check=False)
    assert not clicked.errors, clicked.errors
    assert "Niečo sa pokazilo" not in said(clicked)
    assert len(await s.evidence("kt-a")) == 1  # the proposal only: nothing confirmed
