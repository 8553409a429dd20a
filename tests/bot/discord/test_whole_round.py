"""One tournament told through chat (issue #6): seven players, two rounds, everything through
discord.py's real dispatch (the harness), the production wiring (`runner.build_bot`), a real SQLite
store, the herna.net simulator over real HTTP on 127.0.0.1 (synced with `/admin synchronizuj`),
and a ManualClock that the story moves while `Scheduler.run_due()` fires the timers that fell
due. It asserts what people see (the control channel, DMs, ephemeral answers, the head admin's
channel) and what the store keeps (results, statuses, evidence)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.discord.notifier import DiscordNotifier
from bot.discord.ratelimit import RateLimiter
from bot.discord.runner import build_bot, make_scheduler
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.policy import set_admins
from bot.services.tournament import setup
from bot.store import (
    EvidenceKind,
    Player,
    ResultStatus,
    Store,
    StoredResult,
    TablePairing,
    TournamentStatus,
    find_player_by_nick,
    get_entry,
    get_result,
    get_round,
    get_tournament_by_slug,
    list_evidence,
    pairings_of_round,
)
from scrapers.herna import Credentials, EndKind, GameRecord, HernaClient, HernaSettings
from scrapers.herna.generate import STANDARD_TABLE
from scrapers.herna.simulator import Simulator

from .harness import (
    DiscordHarness,
    DiscordWouldReject,
    Exchange,
    FakeUser,
    RecordedMessage,
)

SLUG = "kt-online-11"
ROUND_1 = datetime(2026, 11, 21, 17, 0, tzinfo=UTC)  # 18:00 in Bratislava
ROUND_2 = ROUND_1 + timedelta(minutes=90)
ADMIN_CHANNEL_ID = 1_100_000_000_000_000_250
PASSWORD = "heslo-simulátora"

PROPOZICIE = f"""
[tournament]
name = "Online KT Bratislava"
slug = "{SLUG}"
season = "2026/27"
rounds = 2
round_starts = ["2026-11-21 18:00", "2026-11-21 19:30"]
waiting_minutes = 10
game_limit_minutes = 50
checkin_opens = "2026-11-21 16:30"
checkin_closes = "2026-11-21 17:45"
"""
#: (herna nick, name, online screlo, rated games before); Igor is a newcomer (1600, e-SP 2.4).
PLAYERS = [
    ("lubka", "Ľubica Šťastná", 1905, 130),
    ("simo", "Šimon Ďurica", 1850, 80),
    ("zofka", "Žofia Kráľová", 1790, 40),
    ("janko", "Ján Čierny", 1720, 60),
    ("majka", "Mária Ťažká", 1680, 55),
    ("peto", "Peter Ľalík", 1650, 20),
    ("igi", "Igor Úradník", None, 0),
]


def propozicie() -> str:
    players = []
    for nick, name, screlo, games in PLAYERS:
        rating = "" if screlo is None else f"screlo = {screlo}\ngames = {games}\n"
        # the Discord name the organiser recorded: the account's username (FakeUser's)
        discord = name.lower().replace(" ", "_")
        players.append(f'[[player]]\nid = "{nick}"\nname = "{name}"\nherna = "{nick}"\n'
                       f'discord = "{discord}"\n{rating}')
    return PROPOZICIE + "\n" + "\n".join(players)


@dataclass
class Story:
    h: DiscordHarness
    app: App
    clock: ManualClock
    sim: Simulator
    scheduler: Scheduler
    users: dict[str, FakeUser]  # by herna nick
    admin: FakeUser
    tournament_id: int
    players: dict[str, Player]  # by herna nick

    def at(self, minutes: float, start: datetime = ROUND_1) -> None:
        """Move the clock to `minutes` after a round's official start."""
        self.clock.set(start + timedelta(minutes=minutes))

    async def admin_cmd(self, sub: str, **options: Any) -> Exchange:
        return await self.h.slash("admin", user=self.admin, subcommand=sub, options=options)

    async def cmd(self, nick: str, name: str, **options: Any) -> Exchange:
        return await self.h.slash(name, user=self.users[nick], options=options)

    def channel(self, since: int = 0) -> str:
        """The control channel's text, from message number `since` on."""
        return "\n".join(m.text for m in self.h.channel_messages[since:])

    def admin_notes(self) -> str:
        return "\n".join(m.text for m in self.h.messages_in(ADMIN_CHANNEL_ID))

    def dms(self, nick: str) -> str:
        return "\n".join(m.text for m in self.h.dms(self.users[nick]))


def said(ex: Exchange) -> str:
    """Everything the user was shown in answer: the response and every follow-up."""
    messages = ex.followups or ([ex.message] if ex.message else [])
    return "\n".join(m.text for m in messages)


@pytest.fixture
async def story(tmp_path: Path) -> AsyncIterator[Story]:
    store = await Store.open(tmp_path / "stredisko.db")
    clock = ManualClock(ROUND_1 - timedelta(hours=2))
    sim = Simulator({"sss": PASSWORD}, clock=clock.now)
    try:
        async with sim.serve() as url:
            settings = HernaSettings(base_url=url, max_concurrent=None, per_second=None,
                                     backoff=0.0, timeout=5.0, retries=0)

            def herna() -> HernaClient:
                return HernaClient(Credentials("sss", PASSWORD), settings)

            holder: list[App] = []
            bot = build_bot(holder, SLUG, herna)  # the runner's wiring: both cogs, herna.net
            app = App(store, clock, DiscordNotifier(bot, store,
                                                    admin_channel_id=ADMIN_CHANNEL_ID))
            holder.append(app)
            async with DiscordHarness(bot) as h:
                # The per-user rate limit counts story time, not the test's wall clock.
                bot.get_cog("PlayerCog").limiter = RateLimiter(  # type: ignore[union-attr]
                    clock=lambda: clock.now().timestamp())
                path = tmp_path / "propozicie.toml"
                path.write_text(propozicie(), encoding="utf-8")
                created = await setup.create_from_file(app, path, "spravca")
                assert created.ok, created
                named = await set_admins(app, SLUG, "spravca", add=[h.head_admin.id])
                assert named.ok, named
                t = await store.read(get_tournament_by_slug, SLUG)
                players = {nick: await store.read(find_player_by_nick, nick)
                           for nick, *_ in PLAYERS}
                users = {nick: h.member(name) for nick, name, *_ in PLAYERS}
                yield Story(h, app, clock, sim, make_scheduler(app), users, h.head_admin,
                            t.id, players)
    finally:
        await store.close()


# -- the story's own helpers --------------------------------------------------------------


def game(game_id: str, first: str, second: str, scores: tuple[int, int], minutes: tuple[int, int],
         *, end: EndKind = EndKind.FINISHED, start: datetime = ROUND_1) -> GameRecord:
    """A herna.net record: `first` started; it began and ended `minutes` after `start`."""
    return GameRecord(
        game_id=game_id, first=first, second=second, first_score=scores[0],
        second_score=scores[1], end=end, ended_on=None,
        started=start + timedelta(minutes=minutes[0]), ended=start + timedelta(minutes=minutes[1]),
        first_moves=11, second_moves=11, settings=STANDARD_TABLE)


async def read(s: Story, fn: Callable[..., Any], *args: Any) -> Any:
    return await s.app.store.read(fn, *args)


async def table(s: Story, round_no: int, table_no: int) -> TablePairing:
    tables = await read(s, pairings_of_round, s.tournament_id, round_no)
    return next(p for p in tables if p.table_no == table_no)


async def result_at(s: Story, round_no: int, table_no: int) -> StoredResult:
    found = await read(s, get_result, (await table(s, round_no, table_no)).id)
    assert found is not None
    return found


async def evidence_at(s: Story, round_no: int, table_no: int) -> list[EvidenceKind]:
    rows = await read(s, list_evidence, (await table(s, round_no, table_no)).id)
    return [e.kind for e in rows]


def item_with(ex: Exchange, text: str) -> RecordedMessage:
    """The review item (with its components) whose text names `text`."""
    return next(m for m in ex.followups if text in m.text and m.components)


def ids_with(message: RecordedMessage, prefix: str) -> list[str]:
    return [c["custom_id"] for c in message.walk_components()
            if str(c.get("custom_id", "")).startswith(prefix)]


# -- the story, chapter by chapter ---------------------------------------------------------


async def check_in(s: Story) -> None:
    """The head admin opens check-in; six players link their accounts and check in; Peter
    does neither; the head admin closes check-in and is told who is missing."""
    s.at(-90)
    refused = await s.h.slash("admin", user=s.users["lubka"], subcommand="prezentacia otvor")
    assert refused.ephemeral and "(e-SP 2.5)" in refused.content and s.channel() == ""
    ex = await s.admin_cmd("prezentacia otvor")
    assert ex.ephemeral and said(ex).startswith("Prezentácia na turnaj Online KT Bratislava je "
                                                "otvorená (uzavretie: 21. 11. 2026 17:45).")
    assert s.channel() == said(ex)  # announced in the control centre, too

    s.at(-80)
    typo = await s.cmd("igi", "registracia", prezyvka="igor")
    assert typo.ephemeral and "„igor“ nie je prihlásená" in typo.content
    assert "(e-SP 2.2)" in typo.content
    for nick, name, *_ in PLAYERS:
        if nick == "peto":
            continue
        ex = await s.cmd(nick, "registracia", prezyvka=nick)
        assert ex.ephemeral and ex.content == (
            f"Hotovo, {name}: tvoj Discord účet je prepojený s prezývkou „{nick}“ "
            "v turnaji Online KT Bratislava.")
        ex = await s.cmd(nick, "prezentacia")
        assert ex.ephemeral and ex.content.startswith("Prezentácia prijatá (21. 11. 2026 16:40)")

    s.at(-15)
    ex = await s.admin_cmd("prezentacia zatvor")
    assert said(ex) == ("Prezentácia na turnaj Online KT Bratislava je uzavretá. "
                        "Prezentovaných hráčov: 6.")
    assert s.admin_notes() == ("Turnaj Online KT Bratislava — bez prezentácie: 1 hráč — Peter "
                              "Ľalík. O účasti rozhoduje hlavný administrátor.")
    assert "Peter" not in s.channel()  # who is missing is the head admin's business
    for nick, player in s.players.items():
        entry = await read(s, get_entry, s.tournament_id, player.id)
        assert (entry.checked_in_at is None) == (nick == "peto"), nick


async def pair_and_publish_round_1(s: Story) -> None:
    """Paired by the rules (Swiss, the top seed does not start, the lowest seed gets the bye),
    shown to the head admin first, published with the button."""
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("paruj", kolo=1)
    assert ex.ephemeral and said(ex).startswith("1. kolo je spárované: 3 stoly")
    assert len(s.h.channel_messages) == before  # pairing alone is not announced
    await s.h.click("stredisko:admin:zverejni:1", s.admin)
    assert ex.message is not None and ex.message.components == []  # the button is gone
    published = s.channel(before)
    assert published.split("\n") == [
        "Online KT Bratislava — 1. kolo: oficiálny začiatok 21. 11. 2026 18:00, časový limit "
        "partie 18:50, čakacia lehota 10 minút (e-SP 4.3, 4.5). Prvý uvedený hráč "
        "začína. Stolov: 3.",  # the bye is no table to play at
        "stôl 1: **Ján Čierny** (janko) začína – Ľubica Šťastná (lubka)",  # the top seed does
        "stôl 2: **Šimon Ďurica** (simo) začína – Mária Ťažká (majka)",  # not start (e-SP 2.4)
        "stôl 3: **Peter Ľalík** (peto) začína – Žofia Kráľová (zofka)",
        "stôl 4: Igor Úradník (igi) má voľno",
    ]
    rnd = await read(s, get_round, s.tournament_id, 1)
    assert rnd.published_at == s.clock.now()


async def round_1_starts(s: Story) -> None:
    """The scheduler announces the start and tells each player his table by DM; Peter has no
    linked account, so the channel says so without the content."""
    s.at(-10)
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 1  # the reminder before the round
    assert s.channel(before).startswith("O 10 minút (21. 11. 2026 18:00) sa začína 1. kolo.")
    s.at(0)
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 1  # the round start
    start = s.channel(before)
    assert start.startswith("Začína sa 1. kolo! Čakacia lehota do 21. 11. 2026 18:10, časový "
                            "limit partie 18:50 (e-SP 4.5).")
    # Peter has no Discord account: the head admin hears of it once, not the players' channel
    assert "Peter Ľalík" not in start
    notice = [line for line in s.admin_notes().split("\n") if "Súkromnú správu" in line]
    assert len(notice) == 1 and "Peter Ľalík: Discord účet nie je prepojený" in notice[0]
    assert "Ľubica" not in notice[0]  # the notice does not repeat the DM
    # every DM names its event: a player may be in several (issue 44.5)
    assert s.dms("janko").startswith("**Online KT Bratislava** · 1. kolo, stôl 1: súper: "
                                     "Ľubica Šťastná (herna.net: lubka), začína: Ján Čierny.")
    assert s.dms("igi") == "**Online KT Bratislava** · V 1. kole máš voľno (e-SP 4.9)."

    s.at(2)
    ex = await s.cmd("janko", "stav")
    assert ex.ephemeral and ex.content.startswith(
        "1. kolo, stôl 1: súper: Ľubica Šťastná (herna.net: lubka), začína: Ján Čierny. "
        "Oficiálny začiatok 21. 11. 2026 18:00, čakacia lehota do 18:10, "
        "časový limit 18:50.")
    ex = await s.cmd("igi", "stav")
    assert ex.ephemeral and ex.content.startswith("V 1. kole máš voľno (e-SP 4.9).")
    # The games begin on herna.net: in progress until they end (the simulator's clock).
    s.sim.add_game(game("5101", "janko", "lubka", (400, 350), (2, 30)))
    s.sim.add_game(game("5102", "simo", "majka", (420, 300), (3, 25), end=EndKind.DRAW))


async def no_show(s: Story) -> None:
    """Žofia reports Peter absent; the waiting period ends; after a sync found no game the
    scheduler's refresh proposes the forfeit, and the head admin approves it with one click."""
    s.at(3)
    ex = await s.cmd("zofka", "nepritomny")
    assert ex.ephemeral and ex.content.startswith(
        "Neprítomnosť súpera (Peter Ľalík) je zaznamenaná a súper dostal upozornenie. Čakacia "
        "lehota končí o 21. 11. 2026 18:10")
    assert "(e-SP 4.3)" in ex.content
    ex = await s.cmd("zofka", "nepritomny")  # twice is once
    assert ex.ephemeral and "(e-SP 4.3)" in ex.content
    assert await evidence_at(s, 1, 3) == [EvidenceKind.ABSENCE]

    s.at(11)
    ex = await s.admin_cmd("synchronizuj")
    assert ex.ephemeral and said(ex).startswith("Synchronizácia turnaja Online KT Bratislava "
                                                "s herna.net je hotová")
    assert "Načítaných partií: 2" in said(ex)  # both games in progress; none at table 3
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 1  # the end of the waiting period (e-SP 4.3)
    assert "Čakacia lehota 1. kola skončila 21. 11. 2026 18:10 (e-SP 4.3)." in s.channel(before)
    assert "Pri vašom stole je nahlásená neprítomnosť: Peter Ľalík" in s.dms("zofka")
    proposed = await result_at(s, 1, 3)
    assert proposed.status is ResultStatus.PROPOSED and proposed.end_kind == "no_show"
    assert "Návrh na schválenie" in s.admin_notes()

    s.at(12)
    before = len(s.h.channel_messages)
    queue = await s.admin_cmd("poradovnik")
    assert "Na rozhodnutie čaká: 1" in said(queue)
    item = item_with(queue, "stôl 3")
    assert "Peter Ľalík – Žofia Kráľová" in item.text
    assert "Žofia Kráľová: hlási, že súper neprišiel" in item.text
    assert "21. 11. 2026 18:03" in item.text  # the absence report's time, in Bratislava
    (approve,) = ids_with(item, "stredisko:admin:schval:")
    await s.h.click(item, s.admin, custom_id=approve)
    assert "Návrh schválený" in item.text and item.components == []
    official = s.channel(before)
    assert official == (  # the approval's own "(e-SP 4.9)" merges into the ruling's rule
        "Výsledok 1. kola, stôl 3: Peter Ľalík – Žofia Kráľová 0:100 (0:1), nedostavenie sa. "
        "Rozhodnutie hlavného administrátora: návrh schválený bez zmeny "
        "(e-SP 4.3, 4.9).")
    approved = await result_at(s, 1, 3)
    assert approved.status is ResultStatus.PROVISIONAL and approved.end_kind == "no_show"
    assert (approved.first_points, approved.second_points) == (0.0, 1.0)
    assert await evidence_at(s, 1, 3) == [EvidenceKind.ABSENCE, EvidenceKind.RULING]


async def agreed_draw(s: Story) -> None:
    """Šimon proposes an agreed draw, Mária confirms with the button before the limit; the
    game ended as a draw on herna.net: ½:½ and both get the lower score (e-SP 3.5)."""
    s.at(26)
    ex = await s.cmd("simo", "remiza")
    assert ex.ephemeral and ex.content.startswith("Návrh remízy je zaznamenaný.")
    [prompt] = ex.followups
    assert prompt in s.h.channel_messages
    assert "každý z vás dostane ½ bodu a nižšie z vašich dvoch skóre" in prompt.content
    assert "Návrh remízy dohodou — Šimon Ďurica" in s.dms("majka")
    own = await s.h.click(prompt, s.users["simo"])  # the proposer cannot confirm for her
    assert own.ephemeral and "nie je pre teba" in said(own) and prompt.buttons
    await s.h.click(prompt, s.users["majka"])
    assert prompt.buttons == [] and "(e-SP 3.5)" in prompt.content
    assert await evidence_at(s, 1, 2) == [EvidenceKind.PLATFORM_GAME,
                                          EvidenceKind.DRAW_CONFIRMATION,
                                          EvidenceKind.DRAW_CONFIRMATION]


async def reports_against_the_record(s: Story) -> None:
    """The finished games come in with a sync; Ján's report agrees with the record, Ľubica's
    does not: a conflict for the head admin, never a silent overwrite."""
    s.at(31)
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("synchronizuj")
    assert "zmenené záznamy 2" in said(ex)
    assert s.channel(before).split("\n") == [  # in the order the games ended (25', 30')
        "Výsledok 1. kola, stôl 2: Šimon Ďurica – Mária Ťažká 300:300 (0,5:0,5), remíza "
        "dohodou. Remíza dohodou, písomne potvrdená hráčmi do časového limitu (e-SP 3.5).",
        "Výsledok 1. kola, stôl 1: Ján Čierny – Ľubica Šťastná 400:350 (1:0), dohraná partia. "
        "Partia riadne skončila (e-SP 3.5).",
    ]
    drawn = await result_at(s, 1, 2)
    assert drawn.end_kind == "agreed_draw" and drawn.status is ResultStatus.PROVISIONAL
    assert (drawn.first_score, drawn.second_score) == (300, 300)

    s.at(32)
    ex = await s.cmd("janko", "vysledok", moje_skore=400, skore_supera=350)
    assert ex.ephemeral and ex.content.startswith(
        "Hlásenie 400:350 (súper: Ľubica Šťastná) je zaznamenané (e-SP 4.6). Partia "
        "riadne skončila (e-SP 3.5).")
    assert (await result_at(s, 1, 1)).status is ResultStatus.PROVISIONAL
    ex = await s.cmd("lubka", "vysledok", moje_skore=410, skore_supera=400)
    assert ex.ephemeral and ex.content == (
        "Hlásenie 410:400 (súper: Ján Čierny) sa nezhoduje so záznamom z herna.net; "
        "rozhodne hlavný administrátor (e-SP 4.7).")
    conflict = await result_at(s, 1, 1)
    assert conflict.status is ResultStatus.PROPOSED
    assert conflict.verdict["code"] == "report_conflicts_record"
    assert "Treba rozhodnúť" in s.admin_notes()
    assert await evidence_at(s, 1, 1) == [EvidenceKind.PLATFORM_GAME, EvidenceKind.PLATFORM_GAME,
                                          EvidenceKind.SCORE_REPORT, EvidenceKind.SCORE_REPORT]


async def dispute(s: Story) -> None:
    """Peter finally links his account and disputes his forfeit in time, with a screenshot."""
    s.at(44)
    await s.h.slash("registracia", user=s.users["peto"], options={"prezyvka": "peto"})
    shot = s.h.attachment("herna-stol.png")
    ex = await s.cmd("peto", "namietka", dovod="Bol som pri stole od 18:05, herna.net mi "
                                                "nenačítala stôl.", snimka=shot)
    assert ex.ephemeral and ex.content == (
        "Reklamácia výsledku 1. kola je zaznamenaná; hlavný administrátor rozhodne (e-SP 4.7).")
    disputed = await result_at(s, 1, 3)
    assert disputed.status is ResultStatus.DISPUTED
    rows = await read(s, list_evidence, (await table(s, 1, 3)).id)
    assert rows[-1].kind is EvidenceKind.DISPUTE
    assert rows[-1].attachment_url == shot.payload()["url"]
    assert shot.payload()["url"] in s.admin_notes()


async def close_round_1(s: Story) -> None:
    """The limit passes; closing is refused with the open results listed first; the head admin
    rules both from the review queue (select + modal, a reason required) and closes."""
    s.at(51)
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 2  # the reminder (nobody needed it) and the limit
    assert s.channel(before) == "Časový limit 1. kola uplynul (e-SP 4.5)."
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("uzavri", kolo=1)
    warning = said(ex)
    assert warning.startswith("1. kolo má 2 neuzavreté výsledky (e-SP 4.9).")
    assert "stôl 1: Ján Čierny – Ľubica Šťastná: čaká na rozhodnutie" in warning
    assert "stôl 3: Peter Ľalík – Žofia Kráľová: námietka čaká na rozhodnutie" in warning
    assert ids_with(ex.followups[-1], "stredisko:admin:aj-tak:uzavri:1")  # "close anyway"
    assert len(s.h.channel_messages) == before  # nothing announced, nothing closed
    assert (await read(s, get_round, s.tournament_id, 1)).closed_at is None

    s.at(53)
    queue = await s.admin_cmd("poradovnik")
    assert "Na rozhodnutie čaká: 2" in said(queue)
    conflict = item_with(queue, "stôl 1")
    # The evidence side by side: the platform record and both reports, with their times.
    assert "400:350, Dohraná partia; začínal(a) Ján Čierny" in conflict.text
    assert "Hlásenie: Ľubica Šťastná\n21. 11. 2026 18:32: 400:410" in conflict.text
    assert "Hlásenie: Ján Čierny\n21. 11. 2026 18:32: 400:350" in conflict.text
    assert not ids_with(conflict, "stredisko:admin:schval:")  # nothing to approve as it is
    (select,) = ids_with(conflict, "stredisko:admin:rozhodni:")
    opened = await s.h.click(conflict, s.admin, custom_id=select, values=["finished"])
    assert opened.modal is not None
    with pytest.raises(DiscordWouldReject):  # Discord's client will not send it empty
        await s.h.submit_modal(opened.modal["custom_id"], {
            "dovod": "", "skore1": "400", "skore2": "350"}, s.admin)
    blank = await s.h.submit_modal(opened.modal["custom_id"], {
        "dovod": "   ", "skore1": "400", "skore2": "350"}, s.admin)
    assert "zdôvodnenie" in said(blank) and "e-SP 2.6" in said(blank)
    assert (await result_at(s, 1, 1)).status is ResultStatus.PROPOSED  # nothing recorded
    opened = await s.h.click(conflict, s.admin, custom_id=select, values=["finished"])
    before = len(s.h.channel_messages)
    await s.h.submit_modal(opened.modal["custom_id"], {  # type: ignore[index]
        "dovod": "Platí záznam z herna.net.", "skore1": "400", "skore2": "350"}, s.admin)
    assert "Platí záznam z herna.net." in conflict.text and conflict.components == []
    assert s.channel(before) == (
        "Výsledok 1. kola, stôl 1: Ján Čierny – Ľubica Šťastná 400:350 (1:0), dohraná "
        "partia. Rozhodnutie hlavného administrátora: Platí záznam z herna.net. (e-SP 3.5).")
    ruled = await result_at(s, 1, 1)
    assert ruled.status is ResultStatus.PROVISIONAL and ruled.verdict["code"] == "ruling"
    assert (ruled.first_score, ruled.second_score) == (400, 350)

    disputed = item_with(queue, "stôl 3")
    assert "Stav: námietka čaká na rozhodnutie." in disputed.text
    assert "21. 11. 2026 18:03 — Žofia Kráľová: hlási, že súper neprišiel" in disputed.text
    assert "Peter Ľalík (21. 11. 2026 18:44): „Bol som pri stole od 18:05" in disputed.text
    assert not ids_with(disputed, "stredisko:admin:schval:")  # a dispute is ruled, not approved
    (select,) = ids_with(disputed, "stredisko:admin:rozhodni:")
    choice = f"no_show:{s.players['peto'].id}"
    opened = await s.h.click(disputed, s.admin, custom_id=select, values=[choice])
    before = len(s.h.channel_messages)
    await s.h.submit_modal(opened.modal["custom_id"], {  # type: ignore[index]
        "dovod": "Herna.net nezaznamenala Petrov príchod; kontumácia platí."}, s.admin)
    assert s.channel(before).endswith(
        "nedostavenie sa. Rozhodnutie hlavného administrátora: Herna.net nezaznamenala Petrov "
        "príchod; kontumácia platí. (e-SP 4.3, 4.9).")
    kept = await result_at(s, 1, 3)
    assert kept.status is ResultStatus.PROVISIONAL and kept.end_kind == "no_show"
    assert await evidence_at(s, 1, 3) == [EvidenceKind.ABSENCE, EvidenceKind.RULING,
                                          EvidenceKind.DISPUTE, EvidenceKind.RULING]

    s.at(55)
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("uzavri", kolo=1)
    standings = [
        "Online KT Bratislava — poradie po 1. kole (e-SP 2.4); neuzavretých výsledkov: 0. "
        "MB = Median Buchholz (body súperov okrem najlepšie a najhoršie postaveného), "
        "B = Buchholz (body všetkých súperov).",
        "1. Ján Čierny: 1 bod, výhry 1, MB 0, B 0, skóre 400",
        "2. Žofia Kráľová: 1 bod, výhry 1, MB 0, B 0, skóre 100",
        "3. Igor Úradník: 1 bod, výhry 1, MB 0, B 0, skóre 20",  # the bye: 1 point, 20:0
        "4. Šimon Ďurica: 0,5 bodu, výhry 0, MB 0, B 0,5, skóre 300",
        "5. Mária Ťažká: 0,5 bodu, výhry 0, MB 0, B 0,5, skóre 300",
        "6. Ľubica Šťastná: 0 bodov, výhry 0, MB 0, B 1, skóre 350",
        "7. Peter Ľalík: 0 bodov, výhry 0, MB 0, B 1, skóre 0",
    ]
    assert said(ex).split("\n") == standings
    assert s.channel(before).split("\n") == standings
    assert (await read(s, get_round, s.tournament_id, 1)).closed_at == s.clock.now()
    bye = await result_at(s, 1, 4)
    assert (bye.end_kind, bye.first_points, bye.first_score) == ("bye", 1.0, 20)
    spectator = s.h.member("Divák", roles=[])  # anyone may look (e-SP 2.6)
    ex = await s.h.slash("poradie", user=spectator)
    assert ex.ephemeral and said(ex).split("\n")[:2] == [
        "Online KT Bratislava — priebežné poradie (e-SP 2.4). MB = Median Buchholz (body "
        "súperov okrem najlepšie a najhoršie postaveného), B = Buchholz (body všetkých súperov).",
        "1. Ján Čierny (janko): 1 bod, výhry 1, MB 0, B 0, skóre 400, kvalifikačné body 40",
    ]


async def withdrawal(s: Story) -> None:
    """Peter withdraws: the consequences first (e-SP 3.6), nothing happens before the click."""
    s.at(56)
    ex = await s.cmd("peto", "odstupit")
    assert ex.ephemeral and ex.content.startswith("Naozaj odstupuješ z turnaja Online KT "
                                                  "Bratislava? Nezískaš kvalifikačné body")
    assert "(e-SP 3.6)" in ex.content
    entry = await read(s, get_entry, s.tournament_id, s.players["peto"].id)
    assert entry.out is None
    before = len(s.h.channel_messages)
    confirm = f"stredisko:odstupit:{s.users['peto'].id}"
    await s.h.click(ex.message, s.users["peto"], custom_id=confirm)  # type: ignore[arg-type]
    assert ex.content == (
        "Tvoje odstúpenie z turnaja Online KT Bratislava je zaznamenané (e-SP 3.6).")
    assert s.channel(before) == "Odstúpenie z turnaja: Peter Ľalík (e-SP 3.6)."
    entry = await read(s, get_entry, s.tournament_id, s.players["peto"].id)
    assert entry.withdrawn_at == s.clock.now()


async def pair_round_2(s: Story) -> None:
    """Pairing round 2 closes round 1's dispute window (e-SP 4.7): its results are confirmed,
    and a late complaint is refused citing the rule. Nobody meets twice (e-SP 2.4)."""
    s.at(65)
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("paruj", kolo=2)
    assert said(ex).startswith("2. kolo je spárované: 3")
    assert s.channel(before) == (
        "Lehota na námietky v 1. kole uplynula: zapísané výsledky sú potvrdené a už sa nemenia "
        "(e-SP 4.7). Partie, ktoré ešte čakajú na rozhodnutie hlavného administrátora (ich "
        "výsledok oznámim, keď rozhodne): 0.")
    for table_no in range(1, 5):
        assert (await result_at(s, 1, table_no)).status is ResultStatus.CONFIRMED
    late = await s.cmd("lubka", "namietka", dovod="Skóre 400:350 je zle, vyhrala som.")
    assert late.ephemeral and late.content == (
        "Lehota na reklamáciu výsledku 1. kola uplynula; výsledok je potvrdený (e-SP 4.7).")
    assert EvidenceKind.DISPUTE not in await evidence_at(s, 1, 1)

    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("zverejni", kolo=2)
    assert s.channel(before).split("\n")[1:] == [
        "stôl 1: **Žofia Kráľová** (zofka) začína – Ján Čierny (janko)",
        # Ľubica went second in round 1, as did Mária: they do not meet, or one of them would
        # reach two more seconds than starts (the pairing's start tier outranks Dutch order)
        "stôl 2: **Mária Ťažká** (majka) začína – Igor Úradník (igi)",
        "stôl 3: **Ľubica Šťastná** (lubka) začína – Šimon Ďurica (simo)",
    ]
    assert "21. 11. 2026 19:30" in s.channel(before)
    first = {frozenset((p.first_id, p.second_id))
             for p in await read(s, pairings_of_round, s.tournament_id, 1)}
    second = await read(s, pairings_of_round, s.tournament_id, 2)
    assert len(second) == 3 and not first & {frozenset((p.first_id, p.second_id))
                                             for p in second}
    assert s.players["peto"].id not in {p.first_id for p in second} | {
        p.second_id for p in second}


async def round_2_and_finish(s: Story) -> None:
    """Round 2 is played on herna.net and synced; its dispute window closes by the timer;
    the head admin closes the round and finishes the tournament."""
    nicks = {p.id: nick for nick, p in s.players.items()}
    for pairing in await read(s, pairings_of_round, s.tournament_id, 2):
        scores = (380 + 10 * pairing.table_no, 360)
        s.sim.add_game(game(f"520{pairing.table_no}", nicks[pairing.first_id],
                            nicks[pairing.second_id], scores, (3, 35), start=ROUND_2))
    s.at(-10, ROUND_2)
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 1  # the reminder before the round
    assert s.channel(before).startswith("O 10 minút (21. 11. 2026 19:30) sa začína 2. kolo.")
    s.at(0, ROUND_2)
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 1  # the start
    assert s.channel(before).startswith("Začína sa 2. kolo! Čakacia lehota do 21. 11. 2026 "
                                        "19:40, časový limit partie 20:20")
    assert s.dms("igi").endswith("2. kolo, stôl 2: súper: Mária Ťažká (herna.net: "
                                 "majka), začína: Mária Ťažká. Čakacia lehota do 21. 11. 2026 "
                                 "19:40, časový limit 20:20.")

    s.at(40, ROUND_2)
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("synchronizuj")
    assert "nové záznamy 3" in said(ex)
    assert sorted(s.channel(before).split("\n")) == [  # in the order herna.net lists them
        "Výsledok 2. kola, stôl 1: Žofia Kráľová – Ján Čierny 390:360 (1:0), dohraná partia. "
        "Partia riadne skončila (e-SP 3.5).",
        "Výsledok 2. kola, stôl 2: Mária Ťažká – Igor Úradník 400:360 (1:0), dohraná partia. "
        "Partia riadne skončila (e-SP 3.5).",
        "Výsledok 2. kola, stôl 3: Ľubica Šťastná – Šimon Ďurica 410:360 (1:0), dohraná partia. "
        "Partia riadne skončila (e-SP 3.5).",
    ]

    s.at(61, ROUND_2)  # the last round's window closes 10 minutes after its limit (e-SP 4.7)
    before = len(s.h.channel_messages)
    assert await s.scheduler.run_due() == 4  # waiting period, reminder, limit, window
    # The bot slept through the whole round: "the waiting period is over" comes after the
    # limit, its moment passed — dropped (audited), never said late. The limit still holds.
    assert s.channel(before).split("\n") == [
        "Časový limit 2. kola uplynul (e-SP 4.5).",
        "Lehota na námietky v 2. kole uplynula: zapísané výsledky sú potvrdené a už sa nemenia "
        "(e-SP 4.7). Partie, ktoré ešte čakajú na rozhodnutie hlavného administrátora (ich "
        "výsledok oznámim, keď rozhodne): 0.",
    ]
    for table_no in range(1, 4):
        assert (await result_at(s, 2, table_no)).status is ResultStatus.CONFIRMED
    ex = await s.admin_cmd("uzavri", kolo=2)
    assert said(ex).split("\n")[:2] == [
        "Online KT Bratislava — poradie po 2. kole (e-SP 2.4); neuzavretých výsledkov: 0. "
        "MB = Median Buchholz (body súperov okrem najlepšie a najhoršie postaveného), "
        "B = Buchholz (body všetkých súperov).",
        "1. Žofia Kráľová: 2 body, výhry 2, MB 0, B 1, skóre 490",
    ]

    s.at(63, ROUND_2)
    before = len(s.h.channel_messages)
    ex = await s.admin_cmd("ukonci")
    final = [
        "Turnaj Online KT Bratislava (sezóna 2026/27) sa skončil. Konečné poradie "
        "s kvalifikačnými bodmi (SP A3) a zmenami online screla (e-SP 2.4, 5; výpočet screla "
            "SSS):",
        "1. Žofia Kráľová: 2 body, kvalifikačné body 40, online screlo 1790 → 1808,2 (+18,2)",
        "2. Mária Ťažká: 1,5 bodu, kvalifikačné body 35, online screlo 1680 → 1692,4 (+12,4)",
        "3. Ján Čierny: 1 bod, kvalifikačné body 32, online screlo 1720 → 1726,8 (+6,8)",
        "4. Ľubica Šťastná: 1 bod, kvalifikačné body 30, online screlo 1905 → 1899,9 (−5,1)",
        "5. Igor Úradník: 1 bod, kvalifikačné body 28, online screlo 1600 → 1588,3 (−11,7)",
        "6. Šimon Ďurica: 0,5 bodu, kvalifikačné body 27, online screlo 1850 → 1839,6 (−10,4)",
        "7. Peter Ľalík: 0 bodov, bez kvalifikačných bodov — odstúpenie z turnaja (e-SP 3.6)",
    ]
    assert said(ex).split("\n") == final
    assert s.channel(before).split("\n")[-len(final):] == final
    t = await read(s, get_tournament_by_slug, SLUG)
    assert t.status is TournamentStatus.FINISHED
    rated = {nick: (await read(s, find_player_by_nick, nick)).screlo for nick in s.players}
    assert rated["zofka"] == pytest.approx(1808.2) and rated["igi"] == pytest.approx(1588.3)
    assert rated["peto"] == 1650  # no rated game: unchanged


CHAPTERS: list[Callable[[Story], Awaitable[None]]] = [
    check_in, pair_and_publish_round_1, round_1_starts, no_show, agreed_draw,
    reports_against_the_record, dispute, close_round_1, withdrawal, pair_round_2,
    round_2_and_finish,
]


async def play_until(s: Story, last: Callable[[Story], Awaitable[None]]) -> None:
    for chapter in CHAPTERS[:CHAPTERS.index(last) + 1]:
        await chapter(s)


async def test_a_tournament_played_through_chat(story: Story) -> None:
    """Check-in, round 1 (a no-show, an agreed draw, reports for and against the record, a
    dispute, a bye), closing it, a withdrawal, round 2 confirming round 1 (e-SP 4.7), the
    finish with qualification points and screlo changes — each chapter asserts as it goes."""
    s = story
    await play_until(s, CHAPTERS[-1])
    # Every interaction was acknowledged (how fast: bench/discord_dispatch.py), nothing
    # logged an error.
    assert len(s.h.exchanges) > 40  # 51 as written
    unanswered = [(ex.kind, ex.user.name) for ex in s.h.exchanges if ex.first_response_s is None]
    assert unanswered == []
    assert s.h.errors == []


# -- what the story found wrong once, kept as regressions ------------------------------------


async def test_messages_name_players_not_store_ids(story: Story) -> None:
    await play_until(story, no_show)
    assert "Neprítomnosť v čakacej lehote: Peter Ľalík" in story.admin_notes()


async def test_a_report_that_agrees_announces_nothing(story: Story) -> None:
    await play_until(story, reports_against_the_record)
    assert "Opravený výsledok" not in story.channel()


async def test_a_played_game_ruled_by_the_head_admin_stays_rated(story: Story) -> None:
    await play_until(story, close_round_1)
    assert (await result_at(story, 1, 1)).rated


async def test_who_starts_is_in_bold(story: Story) -> None:
    await play_until(story, pair_and_publish_round_1)
    assert "stôl 1: **Ján Čierny** (janko) začína" in story.channel()


async def test_a_round_is_confirmed_once(story: Story) -> None:
    await play_until(story, round_2_and_finish)
    assert story.channel().count("Lehota na námietky v 2. kole uplynula") == 1


async def test_counts_use_slovak_plural_forms(story: Story) -> None:
    await play_until(story, check_in)
    assert "1 hráčov" not in story.admin_notes()
    ex = await story.admin_cmd("paruj", kolo=1)
    assert "4 stolov" not in said(ex)
