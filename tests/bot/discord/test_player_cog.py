"""The player commands through discord.py's real dispatch (the harness), against a real
SQLite store, the real player services and a ManualClock; messages go out through the
DiscordNotifier, recorded by the harness."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.clock import ManualClock
from bot.discord.client import StrediskoBot
from bot.discord.cogs.player import PlayerCog
from bot.discord.notifier import DiscordNotifier
from bot.discord.ratelimit import RateLimiter, whole_seconds
from bot.services.app import App
from bot.services.delivery.outbox import as_message, deliver
from bot.services.notifier import RecordingNotifier
from bot.store import (
    Change,
    EvidenceKind,
    Player,
    Store,
    TablePairing,
    Tournament,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    get_entry,
    list_evidence,
    replace_pairings,
    set_status,
    update_round,
)
from bot.store.audit import list_audit
from bot.store.outbox import list_outbox

from .harness import (
    CONTROL_CHANNEL_ID,
    DiscordHarness,
    DiscordWouldReject,
    Exchange,
    FakeUser,
)

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # round 1: 9:00 in Bratislava
SLUG = "online-1"
ADMIN_CHANNEL_ID = 1_100_000_000_000_000_900


class FakeMonotonic:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    h: DiscordHarness
    app: App
    clock: ManualClock
    store: Store
    cog: PlayerCog
    limiter_clock: FakeMonotonic
    users: dict[str, FakeUser]
    players: dict[str, Player]
    tournament: Tournament
    tables: list[TablePairing]

    def at(self, minutes: float) -> None:
        """Move the clock to `minutes` after round 1's official start."""
        self.clock.set(START + timedelta(minutes=minutes))


def _seed(db: Database, discord_ids: dict[str, int | None]
          ) -> tuple[Tournament, dict[str, Player], list[TablePairing]]:
    by = Change.admin("hlavny", START - timedelta(days=1), "test setup")
    t = create_tournament(
        db, slug=SLUG, name="Online kvalifikácia 1", season="2026/27", round_starts=[START],
        waiting_minutes=10, game_limit_minutes=50, by=by,
        checkin_opens_at=START - timedelta(hours=1), checkin_closes_at=START)
    names = {"ana": "Ana Ábelová", "boris": "Boris Bán", "cyril": "Cyril Čierny",
             "dana": "Dana Ďurišová"}
    players = {}
    for n, (key, name) in enumerate(names.items()):
        # the registry records each player's Discord name (the harness's username: "dana")
        players[key] = create_player(db, name=name, herna_nick=key, by=by,
                                     discord_id=discord_ids[key], discord_name=key,
                                     screlo=1800.0 - 10 * n)
        add_entry(db, t.id, players[key].id, by, paid=True)
    tables = replace_pairings(db, t.id, 1, [(1, players["ana"].id, players["boris"].id),
                                            (2, players["cyril"].id, players["dana"].id)], by)
    set_status(db, t.id, TournamentStatus.CHECKIN, by)
    update_round(db, t.id, 1, by, published_at=by.at)
    return t, players, tables


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    store = await Store.open(tmp_path / "stredisko.db")
    clock = ManualClock(START - timedelta(minutes=30))
    limiter_clock = FakeMonotonic()
    holder: list[PlayerCog] = []

    def build(bot: StrediskoBot) -> PlayerCog:
        holder.append(PlayerCog(bot, app, SLUG, limiter=RateLimiter(5, 10, clock=limiter_clock)))
        return holder[0]

    bot = StrediskoBot(cogs=[build])
    app = App(store, clock, DiscordNotifier(bot, store, admin_channel_id=ADMIN_CHANNEL_ID))
    try:
        async with DiscordHarness(bot) as h:
            users = {name: h.member(name.capitalize()) for name in ("ana", "boris", "cyril")}
            users["dana"] = h.member("Dana")
            ids: dict[str, int | None] = {k: u.id for k, u in users.items()}
            ids["dana"] = None  # Dana links her account with /registracia
            t, players, tables = await store.call(_seed, ids)
            yield World(h, app, clock, store, holder[0], limiter_clock, users, players, t,
                        tables)
    finally:
        await store.close()


async def _evidence(w: World, table: int) -> list[EvidenceKind]:
    found = await w.store.read(list_evidence, w.tables[table].id)
    return [e.kind for e in found]


# -- registration, check-in, status -------------------------------------------------------


async def test_register_check_in_and_status(w: World) -> None:
    dana = w.users["dana"]
    ex = await w.h.slash("stav", user=dana)
    assert ex.ephemeral and "nie je prepojený" in ex.content  # not linked yet

    ex = await w.h.slash("registracia", user=dana, options={"prezyvka": "dana"})
    assert ex.ephemeral
    assert ex.content == (
        "Hotovo, Dana Ďurišová: tvoj Discord účet je prepojený s prezývkou „dana“ "
        "v turnaji Online kvalifikácia 1."
    )
    ex = await w.h.slash("prezentacia", user=dana)
    assert ex.ephemeral and ex.content.startswith("Prezentácia prijatá (21. 11. 2026 8:30)")

    ex = await w.h.slash("stav", user=dana)
    assert ex.ephemeral
    assert ex.content.startswith(
        "1. kolo, stôl 2: súper: Cyril Čierny (herna.net: cyril), začína: Cyril Čierny. "
        "Oficiálny začiatok 21. 11. 2026 9:00, čakacia lehota do 9:10, "
        "časový limit 9:50."
    )
    assert w.h.channel_messages == []  # nothing here concerned anybody else


async def test_unknown_nick_is_refused_citing_the_rule(w: World) -> None:
    ex = await w.h.slash("registracia", user=w.users["dana"], options={"prezyvka": "nikto"})
    assert ex.ephemeral and "„nikto“ nie je prihlásená" in ex.content
    assert "(e-SP 2.2)" in ex.content


async def test_english_locale_replies_in_english(w: World) -> None:
    ex = await w.h.slash("stav", user=w.users["ana"], locale="en-US")
    assert ex.content.startswith(
        "Round 1, table 1: opponent: Boris Bán (herna.net: boris), starts: Ana Ábelová. "
        "Official start 21 Nov 2026, 09:00"
    )
    ex = await w.h.slash("vysledok", user=w.users["ana"], locale="en-GB",
                         options={"moje_skore": 412, "skore_supera": 300})
    assert ex.content == "Round 1 starts only at 21 Nov 2026, 09:00 (e-SP 4.5)."


# -- absence (e-SP 4.3) --------------------------------------------------------------------


async def test_absence_pings_the_opponent_by_dm(w: World) -> None:
    w.at(12)
    ex = await w.h.slash("nepritomny", user=w.users["ana"])
    assert ex.ephemeral
    assert ex.content.startswith("Neprítomnosť súpera (Boris Bán) je zaznamenaná")
    assert "(e-SP 4.3)" in ex.content
    [dm] = w.h.dms(w.users["boris"])
    assert dm.content.startswith(f"**{w.tournament.name}** · Ana Ábelová ťa čaká pri stole "
                                 "(1. kolo, stôl 1)")  # named: he may play in two (44.5)
    assert await _evidence(w, 0) == [EvidenceKind.ABSENCE]


async def test_closed_dms_give_the_head_admin_a_notice_without_the_content(w: World) -> None:
    w.at(12)
    w.h.close_dms(w.users["boris"])
    ex = await w.h.slash("nepritomny", user=w.users["ana"])
    assert ex.content.startswith("Neprítomnosť súpera (Boris Bán) je zaznamenaná")
    assert w.h.dms(w.users["boris"]) == []
    assert w.h.channel_messages == []  # the players' channel is not told
    [notice] = [m for m in w.h.messages.values() if m.channel_id == ADMIN_CHANNEL_ID]
    assert f"<@{w.users['boris'].id}>" in notice.content and "zablokované" in notice.content
    assert "čaká" not in notice.content and "0:100" not in notice.content


# -- agreed draw (e-SP 3.5) ----------------------------------------------------------------


async def test_draw_is_confirmed_by_the_opponents_button(w: World) -> None:
    ana, boris, cyril = w.users["ana"], w.users["boris"], w.users["cyril"]
    w.at(30)
    ex = await w.h.slash("remiza", user=ana)
    assert ex.ephemeral and ex.content.startswith("Návrh remízy je zaznamenaný.")
    [prompt] = ex.followups
    assert not prompt.ephemeral and prompt in w.h.channel_messages
    assert prompt.content.startswith(f"Návrh remízy dohodou v 1. kole — <@{ana.id}>. "
                                     f"<@{boris.id}>, ak súhlasíš")
    assert "každý z vás dostane ½ bodu a nižšie z vašich dvoch skóre" in prompt.content
    custom_id = f"stredisko:remiza:1:{ana.id}"
    assert [b["custom_id"] for b in prompt.buttons] == [custom_id]
    assert "Návrh remízy dohodou — Ana Ábelová" in w.h.dms(boris)[0].content

    # The proposer cannot confirm for his opponent; a stranger cannot either.
    ex = await w.h.click(prompt, ana)
    assert ex.ephemeral and "nie je pre teba" in ex.content and "(e-SP 3.5)" in ex.content
    ex = await w.h.click(prompt, cyril)
    assert ex.ephemeral and "nie je pre teba" in ex.content
    assert prompt.buttons  # still waiting for Boris

    ex = await w.h.click(prompt, boris)
    assert prompt.buttons == []
    assert (f"✅ Remíza dohodou v 1. kole potvrdená aj druhou stranou — <@{boris.id}> (e-SP 3.5)."
            in prompt.content)
    [answer] = ex.followups
    assert answer.ephemeral and answer.content.startswith(
        "Remíza dohodou je potvrdená oboma stranami (súper: Ana Ábelová)")
    assert await _evidence(w, 0) == [EvidenceKind.DRAW_CONFIRMATION] * 2


async def test_draw_after_the_limit_is_refused_and_posts_nothing(w: World) -> None:
    w.at(51)
    ex = await w.h.slash("remiza", user=w.users["ana"])
    assert ex.ephemeral and "(e-SP 3.5)" in ex.content and ex.followups == []
    assert w.h.channel_messages == []


# -- result report and dispute ------------------------------------------------------------


@pytest.mark.parametrize("score", ["štyristo", "412", 1501, -1])
async def test_a_score_that_is_no_whole_number_in_range_never_leaves_the_client(
    w: World, score: object
) -> None:
    """Whole-number options with min/max: Discord's client refuses the rest before sending."""
    w.at(45)
    with pytest.raises(DiscordWouldReject):
        await w.h.slash("vysledok", user=w.users["ana"],
                        options={"moje_skore": score, "skore_supera": 300})
    assert await _evidence(w, 0) == []  # nothing recorded


async def test_result_report_is_recorded(w: World) -> None:
    w.at(45)
    ex = await w.h.slash("vysledok", user=w.users["ana"],
                         options={"moje_skore": 412, "skore_supera": 380})
    assert ex.content.startswith(
        "Hlásenie 412:380 (súper: Boris Bán) je zaznamenané (e-SP 4.6). ")
    assert await _evidence(w, 0) == [EvidenceKind.SCORE_REPORT]


async def test_dispute_after_the_window_is_refused_citing_the_rule(w: World) -> None:
    w.at(50 + 10)  # the last round's window: 10 minutes after the game time limit
    ex = await w.h.slash("namietka", user=w.users["ana"],
                         options={"dovod": "Skóre je zapísané naopak."})
    assert ex.ephemeral
    assert ex.content == (
        "Lehota na reklamáciu výsledku 1. kola uplynula; výsledok je potvrdený (e-SP 4.7)."
    )
    assert await _evidence(w, 0) == []


async def test_a_bad_dispute_text_names_the_field_in_the_readers_language(w: World) -> None:
    """The input error reaches an English reader in English — the field too — and a Slovak
    one in Slovak; nothing is recorded (issue 11.4's bounds, i18n.Term)."""
    w.at(45)
    for locale, said in (("en-US", "reason for the dispute: contains an invisible control "
                                    "character (U+001B)"),
                         (None, "dôvod sporu: obsahuje neviditeľný riadiaci znak (U+001B)")):
        ex = await w.h.slash("namietka", user=w.users["ana"], locale=locale,
                             options={"dovod": "Zle\x1b[2J zapísané"})
        assert ex.ephemeral and ex.content == said
    assert await _evidence(w, 0) == []


async def test_dispute_keeps_the_screenshot_url(w: World) -> None:
    w.at(45)  # something is recorded for the table: a result to dispute
    await w.h.slash("vysledok", user=w.users["ana"],
                    options={"moje_skore": 400, "skore_supera": 300})
    w.at(55)
    shot = w.h.attachment("skore.png")
    ex = await w.h.slash("namietka", user=w.users["ana"],
                         options={"dovod": "Skóre je zapísané naopak.", "snimka": shot})
    assert ex.content.startswith("Reklamácia výsledku 1. kola je zaznamenaná")
    rows = await w.store.read(list_evidence, w.tables[0].id)
    [evidence] = [e for e in rows if e.kind is EvidenceKind.DISPUTE]
    assert evidence.attachment_url == shot.payload()["url"]
    [note] = [m for m in w.h.messages.values() if m.channel_id == ADMIN_CHANNEL_ID]
    assert shot.payload()["url"] in note.content and "Skóre je zapísané naopak." in note.content


# -- withdrawal (e-SP 3.6) -----------------------------------------------------------------


async def test_withdrawal_asks_first_and_can_be_cancelled(w: World) -> None:
    ana = w.users["ana"]
    ex = await w.h.slash("odstupit", user=ana)
    assert ex.ephemeral
    assert ex.content.startswith("Naozaj odstupuješ z turnaja Online kvalifikácia 1?")
    assert "kvalifikačné body" in ex.content and "(e-SP 3.6)" in ex.content
    ids = [b["custom_id"] for b in ex.message.buttons]  # type: ignore[union-attr]
    assert ids == [f"stredisko:odstupit:{ana.id}", f"stredisko:zrusit:{ana.id}"]

    cancel = await w.h.click(ex.message, ana, custom_id=f"stredisko:zrusit:{ana.id}")  # type: ignore[arg-type]
    assert cancel.message is ex.message and ex.content == "Zrušené, nič sa nezmenilo."
    assert ex.message.buttons == []  # type: ignore[union-attr]
    entry = await w.store.read(get_entry, w.tournament.id, w.players["ana"].id)
    assert entry is not None and entry.out is None

    ex = await w.h.slash("odstupit", user=ana)
    await w.h.click(ex.message, ana, custom_id=f"stredisko:odstupit:{ana.id}")  # type: ignore[arg-type]
    assert ex.content == (
        "Tvoje odstúpenie z turnaja Online kvalifikácia 1 je zaznamenané (e-SP 3.6).")
    entry = await w.store.read(get_entry, w.tournament.id, w.players["ana"].id)
    assert entry is not None and entry.withdrawn_at is not None
    assert [m.content for m in w.h.channel_messages] == [
        "Odstúpenie z turnaja: Ana Ábelová (e-SP 3.6)."
    ]
    ex = await w.h.slash("stav", user=ana)
    assert "Už nehráš v turnaji" in ex.content


# -- pairings and standings ---------------------------------------------------------------


async def test_pairings_and_standings_show_their_rows(w: World) -> None:
    ex = await w.h.slash("parovanie", user=w.users["cyril"])
    assert ex.ephemeral and "párovanie 1. kola" in ex.content
    [embed] = ex.embeds
    assert embed["description"].split("\n") == [
        "stôl 1: **Ana Ábelová** (ana) začína – Boris Bán (boris)",
        "stôl 2: **Cyril Čierny** (cyril) začína – Dana Ďurišová (dana)",
    ]
    ex = await w.h.slash("parovanie", user=w.users["cyril"], options={"kolo": 4})
    assert ex.content == "Turnaj Online kvalifikácia 1 nemá 4. kolo."

    ex = await w.h.slash("poradie", user=w.users["cyril"])
    assert "priebežné poradie" in ex.content
    assert len(ex.embeds[0]["description"].split("\n")) == 4


async def test_a_pairing_the_head_admin_has_not_published_stays_hidden(w: World) -> None:
    def unpublish(db: Database) -> None:
        update_round(db, w.tournament.id, 1, Change.admin("hlavny", START, "test"),
                     published_at=None)

    await w.store.call(unpublish)
    for options in ({}, {"kolo": 1}):
        ex = await w.h.slash("parovanie", user=w.users["cyril"], options=options)
        assert ex.ephemeral and "stôl" not in ex.content and not ex.embeds, options
    assert ex.content == "1. kolo ešte nie je zverejnené."


# -- speed and manners --------------------------------------------------------------------


async def test_slow_store_is_deferred_then_answered(w: World) -> None:
    w.cog.defer_after = 0.05
    # The store is busy with someone else's long transaction: our use case waits in its queue
    # until the test frees it — only after the "thinking…" answer has reached Discord, so the
    # verdict is the order of the two, whatever the machine's speed.
    free = threading.Event()
    busy = asyncio.ensure_future(w.store.call(lambda db: free.wait(60)))
    await asyncio.sleep(0.01)
    asked = asyncio.ensure_future(w.h.slash("stav", user=w.users["ana"]))
    try:
        for _ in range(6000):  # a hang guard of a minute, not a speed limit
            if w.h.exchanges and w.h.exchanges[-1].first_response_at is not None:
                break
            await asyncio.sleep(0.01)
        acknowledged = [ex.deferred for ex in w.h.exchanges]
    finally:
        free.set()
    assert await busy is True  # the store was still held when the deferral came
    ex = await asked
    assert acknowledged == [True] and ex.deferred
    assert ex.ephemeral  # the "thinking…" answer keeps the visibility of the final one
    assert ex.content.startswith("1. kolo, stôl 1: súper: Boris Bán")


async def test_spamming_a_command_is_rate_limited_per_user(w: World) -> None:
    ana, boris = w.users["ana"], w.users["boris"]
    for _ in range(5):
        ex = await w.h.slash("stav", user=ana)
        assert ex.content.startswith("1. kolo")
    ex = await w.h.slash("stav", user=ana)
    assert ex.ephemeral
    assert ex.content == (
        "Pomalšie, prosím: poslal si príliš veľa príkazov za sebou. Skús to znova o 10 s."
    )
    ex = await w.h.slash("stav", user=boris)  # others are not affected
    assert ex.content.startswith("1. kolo")
    w.limiter_clock.now += 10
    ex = await w.h.slash("stav", user=ana)
    assert ex.content.startswith("1. kolo")


def test_rate_limiter_window_slides() -> None:
    now = FakeMonotonic()
    limiter = RateLimiter(2, 10, clock=now)
    assert limiter.hit(1) is None
    now.now += 3
    assert limiter.hit(1) is None
    now.now += 1
    assert limiter.hit(1) == pytest.approx(6)  # the first hit leaves the window at +10
    now.now += 6
    assert limiter.hit(1) is None  # it left; the refused attempt at +4 was not counted
    assert limiter.hit(1) == pytest.approx(3)  # the hit at +3 leaves at +13
    assert limiter.hit(2) is None  # per user
    assert whole_seconds(0.2) == 1 and whole_seconds(4.0) == 4
    with pytest.raises(ValueError):
        RateLimiter(0, 10)


async def test_a_burst_is_acknowledged_at_once_then_answered(w: World) -> None:
    """Commands arriving while others are under way would wait behind them: from the
    DEFER_BACKLOG-th on, the interaction is deferred at once, then answered; a lone command
    is answered directly."""
    w.at(20)
    w.cog.defer_after = 60.0  # no deferral by time here: only the backlog can cause one
    score = {"moje_skore": 400, "skore_supera": 350}
    lone = await w.h.slash("vysledok", user=w.users["ana"], options=score)
    assert not lone.deferred and "je zaznamenané" in lone.content
    users = [w.users["boris"], w.users["cyril"], w.users["ana"]]
    burst = await asyncio.gather(*(w.h.slash("vysledok", user=u, options=score) for u in users))
    assert [ex.deferred for ex in burst] == [False, False, True]  # two calls were under way
    for ex in burst:
        assert ex.ephemeral and "je zaznamenané" in ex.content  # the follow-up replaced it
    # Ana's second, identical report is a repeat: it adds nothing (Boris's is the other one)
    assert await _evidence(w, 0) == [EvidenceKind.SCORE_REPORT] * 2


# -- Discord failing after the save (issue: nothing lost, nothing doubled) ------------------


def _everything_said(ex: Exchange) -> str:
    return "\n".join([ex.content, *(m.text for m in ex.followups)])


async def test_a_discord_5xx_on_the_answer_never_says_the_save_failed(w: World) -> None:
    """Discord fails the answer to a /vysledok that was saved: the player is told it was saved
    (not "something went wrong, try again"); his retry adds nothing and answers the same."""
    w.at(20)
    score = {"moje_skore": 400, "skore_supera": 350}
    w.h.fail_next("/callback")
    ex = await w.h.slash("vysledok", user=w.users["ana"], options=score)
    said = _everything_said(ex)
    assert "Uložené" in said and "je zaznamenané" in said
    assert "Niečo sa pokazilo" not in said
    assert [c.status for c in ex.calls if c.path.endswith("/callback")] == [500, 200]
    retry = await w.h.slash("vysledok", user=w.users["ana"], options=score)
    assert "je zaznamenané" in retry.content
    assert await _evidence(w, 0) == [EvidenceKind.SCORE_REPORT]


async def test_an_announcement_discord_refused_goes_out_later_once(w: World) -> None:
    """The channel post fails with a 5xx after /odstupit was saved: the withdrawal stands, the
    announcement stays in the outbox and goes out at the next flush — once."""
    w.at(20)
    posts = "POST /channels/{channel_id}/messages"
    w.h.fail_next(posts)
    cyril = w.users["cyril"]
    await w.h.slash("odstupit", user=cyril)
    click = await w.h.click(f"stredisko:odstupit:{cyril.id}", cyril)
    assert "Niečo sa pokazilo" not in _everything_said(click)
    entry = await w.store.read(get_entry, w.tournament.id, w.players["cyril"].id)
    assert entry.withdrawn_at is not None
    channel = w.h.messages_in(CONTROL_CHANNEL_ID)
    assert not [m for m in channel if "odstúpil" in m.text]
    w.clock.advance(timedelta(seconds=5))
    assert (await w.app.sender.flush()).sent == 1
    assert (await w.app.sender.flush()).sent == 0
    channel = w.h.messages_in(CONTROL_CHANNEL_ID)
    assert len([m for m in channel if "Cyril Čierny" in m.text]) == 1


async def test_a_delivery_repeated_after_a_crash_is_not_a_second_copy(w: World) -> None:
    """Killed between Discord's 200 and marking the message sent: the restart delivers it
    again with the same nonce, and Discord (played by the harness) returns the first post."""
    w.at(20)
    # committed by a process that died before delivering (a queue-only App on the same store)
    died = App(w.store, w.clock, RecordingNotifier(), delivery="queue")
    await died.run(lambda tx: tx.announce(w.tournament.id, "play.withdrawn",
                                          player="Dana Ďurišová", rule="e-SP 3.6"))
    (row,) = await w.store.read(list_outbox)
    await deliver(w.app.notifier, row.destination, row.target, as_message(row))  # it went out…
    assert (await w.app.sender.flush()).sent == 1  # … and the next start sends it again
    posts = [c for c in w.h.calls if c.path == "/channels/{channel_id}/messages"]
    assert len(posts) == 2 and posts[0].payload["nonce"] == posts[1].payload["nonce"]
    assert posts[0].payload["enforce_nonce"] is True
    shown = [m for m in w.h.messages_in(CONTROL_CHANNEL_ID) if "Dana Ďurišová" in m.text]
    assert len(shown) == 1


async def test_a_message_cut_by_a_crash_between_its_pieces_posts_only_the_rest(
        w: World) -> None:
    """A message too long for one Discord message goes out in pieces; the bot died after the
    first. Restarted after the nonce window, the read-back finds the first piece, and the
    delivery posts only the second: nothing lost (the rest was once marked sent with the first
    found), nothing doubled."""
    w.at(20)
    died = App(w.store, w.clock, RecordingNotifier(), delivery="queue")
    long_name = "Dana Ďurišová " * 200  # ~2,800 characters: two pieces
    await died.run(lambda tx: tx.announce(w.tournament.id, "play.withdrawn", player=long_name,
                                          rule="e-SP 3.6"))
    (row,) = await w.store.read(list_outbox)
    posts = 0

    async def dies_before_the_second_piece() -> None:
        nonlocal posts
        posts += 1
        if posts == 2:
            raise ConnectionError("the process died here")

    w.app.notifier._before_post = dies_before_the_second_piece
    with pytest.raises(ConnectionError):
        await deliver(w.app.notifier, row.destination, row.target, as_message(row))
    w.app.notifier._before_post = None
    before = [m.text for m in w.h.messages_in(CONTROL_CHANNEL_ID)]
    assert len(before) == 1  # the first piece went out
    w.h.forget_nonces()
    w.clock.advance(timedelta(minutes=10))
    assert (await App(w.store, w.clock, w.app.notifier).sender.flush()).sent == 1
    shown = [m.text for m in w.h.messages_in(CONTROL_CHANNEL_ID)]
    assert len(shown) == 2 and shown[0] == before[0]  # the second piece, once
    assert "e-SP 3.6" in shown[1] and shown[1] != shown[0]
    assert not await w.store.read(lambda db: list_audit(db, action="outbox.found_delivered"))


async def test_an_old_delivery_repeated_after_a_crash_is_read_back_not_posted(w: World) -> None:
    """Killed between Discord's 200 and marking the message sent, restarted after Discord's
    nonce window: the new process reads the channel back, finds the message, marks it sent
    (audited) and posts no copy; a message that never went out is still posted (issue 20.2)."""
    w.at(20)
    died = App(w.store, w.clock, RecordingNotifier(), delivery="queue")
    for name in ("Dana Ďurišová", "Emil Ečer"):
        await died.run(lambda tx, name=name: tx.announce(
            w.tournament.id, "play.withdrawn", player=name, rule="e-SP 3.6"))
    handed, _ = await w.store.read(list_outbox)
    await deliver(w.app.notifier, handed.destination, handed.target, as_message(handed))
    w.h.forget_nonces()  # ten minutes later Discord no longer collapses the nonce …
    w.clock.advance(timedelta(minutes=10))
    restarted = App(w.store, w.clock, w.app.notifier)
    flushed = await restarted.sender.flush()
    assert flushed.sent == 2
    channel = w.h.messages_in(CONTROL_CHANNEL_ID)
    assert len([m for m in channel if "Dana Ďurišová" in m.text]) == 1  # … and no copy
    assert len([m for m in channel if "Emil Ečer" in m.text]) == 1
    (found,) = await w.store.read(lambda db: list_audit(db, action="outbox.found_delivered"))
    assert found.subject == handed.key
    assert any(c.method == "GET" and c.path == "/channels/{channel_id}/messages"
               for c in w.h.calls)
    # without the read-back the same re-send would have posted a second copy
    await deliver(w.app.notifier, handed.destination, handed.target, as_message(handed))
    channel = w.h.messages_in(CONTROL_CHANNEL_ID)
    assert len([m for m in channel if "Dana Ďurišová" in m.text]) == 2
