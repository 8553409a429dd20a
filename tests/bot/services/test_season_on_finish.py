"""The ladder when a tournament ends (issue 37.3), on real SQLite files: finishing a tournament
that configured season files name (`tournament = "SLUG"`) rewrites each one's page and queues
one announcement of who moved into and out of the qualifying places; a season not naming it is
left alone; a broken file does not block the finish (the head admin gets one line). Also
through `stredisko finish` with a config."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.cli import main
from bot.clock import ManualClock
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.season.on_finish import SEASON_CHANNEL
from bot.services.tournament.rounds import finish_tournament
from bot.store import Store, get_tournament_by_slug
from bot.store.outbox import list_outbox

from ..test_cli_season import season_file
from .conftest import ADMIN_ID, SLUG, START, make_world, sent

HEAD = '[season]\nname = "{name}"\ncompetition = "sss-msr"\n'
ONLINE = ('[[event]]\nname = "Online KT"\nkind = "online-qt"\ndate = 2026-11-21\n'
          f'tournament = "{SLUG}"\n')
OTHER = ('[[player]]\nid = "jano"\nname = "Ján Novák"\n'
         '[[event]]\nname = "KT Nitra"\nkind = "live-qt"\ndate = 2026-10-10\n'
         'places = ["jano"]\n')
# the four online players (kt-test-hrac1 … 4: 40, 35, 32, 30 points) take four of the 31 seats
# left after the champion p34. Before, p01 … p30 held 30 and p33 (2 points) the 31st; now
# p01 … p26 and one of p27/p28 (11 each: the larger field decides for p28, A3 7.1) keep 27
MOVED_IN = ("Ďuro Ďurkovič (kt-test-hrac1), Žofia Šťastná (kt-test-hrac2), "
            "Ľubomír Čierny (kt-test-hrac3), Šimon Ťažký (kt-test-hrac4)")
# live-only players ([[player]]) by their names: their ids are the file's, no nick (issue 44)
MOVED_OUT = "Hráč p27, Hráč p29, Hráč p30, Hráč p33"
TOURNAMENT = "Kvalifikačný turnaj online"


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


async def finish(app: App) -> Any:
    await make_world(app)
    reply = await finish_tournament(app, SLUG, ADMIN_ID, force=True)
    assert reply.ok, reply
    return reply


def moved(notifier: RecordingNotifier) -> list[str]:
    return [text for _, key, text in sent(notifier, "channel")
            if key.startswith("season.ladder_moved")]


def rows_of(page: Path) -> int:
    return page.read_text(encoding="utf-8").count("<tr")


async def test_finishing_rewrites_the_page_and_announces_who_moved(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    msr = str(season_file(tmp_path))
    untouched = write(tmp_path, "ina.toml", HEAD.format(name="Iná") + OTHER)
    web = tmp_path / "web"
    (web / "ina").mkdir(parents=True)
    (web / "ina" / "index.html").write_text("stará stránka", encoding="utf-8")
    app.season_files, app.season_html_dir = (msr, untouched), str(web)

    await finish(app)

    page = (web / "sezona" / "index.html").read_text(encoding="utf-8")
    assert "kt-test-hrac1" in page and "M-SR test" in page  # the ladder with the online event
    assert page.count('class="qualified cut"') == 1
    assert [text for text in moved(notifier)] == [
        f"Rebríček sezóny M-SR test po turnaji {TOURNAMENT} (SP A3 7.1): 4 hráči sa dostali na "
        f"postupové miesta: {MOVED_IN}; 4 hráči vypadli z nich: {MOVED_OUT}. Hranica postupu: "
        "postupuje 32 hráčov; posledný postupujúci: 31. miesto, 11 bodov"]
    # the season that does not name the tournament: neither its page nor a word
    assert (web / "ina" / "index.html").read_text(encoding="utf-8") == "stará stránka"
    assert sent(notifier, "admin") == []

    again = await finish_tournament(app, SLUG, ADMIN_ID)  # a repeat: announced once
    assert again.ok and len(moved(notifier)) == 1


async def test_two_seasons_two_pages_two_announcements_in_their_channels(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    msr = str(season_file(tmp_path))
    own = write(tmp_path, "liga.toml", HEAD.format(name="Liga") + "channel_id = 4242\n" + ONLINE)
    app.season_files, app.season_html_dir = (msr, own), str(tmp_path / "web")

    await finish(app)

    assert (tmp_path / "web" / "sezona" / "index.html").exists()
    liga = tmp_path / "web" / "liga" / "index.html"
    assert rows_of(liga) >= 4 and "Liga" in liga.read_text(encoding="utf-8")
    announced = [m for w, _, m in notifier.sent if m.key.startswith("season.ladder_moved")]
    assert [m.params["season"] for m in announced] == ["M-SR test", "Liga"]
    assert [m.params.get(SEASON_CHANNEL) for m in announced] == [None, 4242]
    # nobody qualified before (no other event): all four moved in, nobody out
    assert announced[1].params["moved_in"] == MOVED_IN and announced[1].params["moved_out"] == "—"


async def test_no_change_in_the_qualifying_places_rewrites_the_page_quietly(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    live = ('[[event]]\nname = "KT Nitra"\nkind = "live-qt"\ndate = 2026-10-10\n'
            'places = ["kt-test-hrac4", "kt-test-hrac3", "kt-test-hrac2", "kt-test-hrac1"]\n')
    path = write(tmp_path, "tichá.toml", HEAD.format(name="Tichá") + live + ONLINE)
    app.season_files, app.season_html_dir = (path,), str(tmp_path / "web")

    await finish(app)

    assert "Online KT" in (tmp_path / "web" / "tichá" / "index.html").read_text(encoding="utf-8")
    assert moved(notifier) == [] and sent(notifier, "admin") == []


async def test_a_broken_season_file_does_not_block_the_finish(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    broken = write(tmp_path, "zla.toml", HEAD.format(name="Zlá") + "channel_id = \"x\"\n" + ONLINE)
    missing = str(tmp_path / "nie-je.toml")
    good = write(tmp_path, "liga.toml", HEAD.format(name="Liga") + ONLINE)
    app.season_files, app.season_html_dir = (broken, missing, good), str(tmp_path / "web")

    await finish(app)

    t = await app.store.read(get_tournament_by_slug, SLUG)
    assert t.status.value == "finished"
    admin = [text for _, key, text in sent(notifier, "admin")]
    assert admin[0] == (f"Turnaj {TOURNAMENT} je ukončený, ale rebríček sezóny sa neprepočítal — "
                        f"súbor sezóny {broken}, riadok 4: [season]: channel_id: očakáva sa id "
                        "kanála Discordu (celé číslo bez úvodzoviek, v Discorde „Kopírovať ID "
                        "kanála“), je tam 'x'")
    assert len(admin) == 2 and missing in admin[1]
    assert len(moved(notifier)) == 1 and (tmp_path / "web" / "liga" / "index.html").exists()


def test_stredisko_finish_with_a_config_rewrites_the_pages_and_queues_the_news(
        tmp_path: Path, capsys: Any) -> None:
    db = tmp_path / "stredisko.db"

    async def build() -> None:
        store = await Store.open(db)
        try:
            app = App(store, ManualClock(START), RecordingNotifier())
            await make_world(app)
        finally:
            await store.close()

    asyncio.run(build())
    season_file(tmp_path)
    write(tmp_path, "liga.toml", HEAD.format(name="Liga") + ONLINE)
    write(tmp_path, "ina.toml", HEAD.format(name="Iná") + OTHER)
    config = write(tmp_path, "config.toml", f'[store]\npath = "{db.name}"\n[season]\n'
                   'file = ["sezona.toml", "liga.toml", "ina.toml"]\nhtml_dir = "web"\n')

    code = main(["finish", SLUG, "--force", "--config", config])
    assert code == 0, capsys.readouterr().err

    assert sorted(p.parent.name for p in (tmp_path / "web").glob("*/index.html")) == [
        "liga", "sezona"]

    async def queued() -> list[dict[str, Any]]:
        store = await Store.open(db)
        try:
            rows = await store.read(list_outbox)
        finally:
            await store.close()
        return [r.params for r in rows if r.message_key.startswith("season.ladder_moved")]

    news = asyncio.run(queued())
    assert [(n["season"], n["moved_in"], n["moved_out"]) for n in news] == [
        ("M-SR test", MOVED_IN, MOVED_OUT), ("Liga", MOVED_IN, "—")]
