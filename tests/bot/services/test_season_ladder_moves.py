"""The ladder moves at every finish (issue 44.2), on real SQLite files: a season naming two
qualifiers is announced when the FIRST finishes (the other pending) and, at the second, the
moves since that announcement — in either order; the page is owed in the finish's transaction,
so a process killed between the commit and the page leaves it owed and the next finish,
`stredisko season --html` or `finish` typed again writes it; the announcement's words (number
agreement, no empty clause, the cut line a sentence, live-only players by name)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.clock import ManualClock
from bot.console import render_reply
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.season.ladder import load
from bot.services.tournament.rounds import finish_tournament
from bot.store import Store
from bot.store.outbox import list_outbox

from ..conftest import SLUG, START, make_world, sent
from ..test_cli_season import season_file
from .conftest import ADMIN_ID

ROOT = Path(__file__).resolve().parents[3]
OTHER = "kt-b"  # the second qualifier (its players kt-b-hrac1 … 4)
SECOND = ('[[event]]\nname = "Online KT B"\nkind = "online-qt"\ndate = 2026-11-28\n'
          f'tournament = "{OTHER}"\n')
TOURNAMENT = "Kvalifikačný turnaj online"
# at the first finish, whichever it is: the qualifier's four players (40, 35, 32, 30 points)
# take four of the 31 seats after the champion; p27, p29, p30 and p33 lose theirs (as in
# test_season_on_finish) — live-only players, named by their names alone
FIRST_OUT = "Hráč p27, Hráč p29, Hráč p30, Hráč p33"
CUT_AFTER_FIRST = "Hranica postupu: postupuje 32 hráčov; posledný postupujúci: 31. miesto, 11 bodov"


def _four(slug: str) -> str:
    names = ["Ďuro Ďurkovič", "Žofia Šťastná", "Ľubomír Čierny", "Šimon Ťažký"]
    return ", ".join(f"{name} ({slug}-hrac{n})" for n, name in enumerate(names, start=1))


def moved(notifier: RecordingNotifier) -> list[str]:
    return [text for _, key, text in sent(notifier, "channel")
            if key.startswith("season.ladder_moved")]


def _qualified(view: Any) -> list[str]:
    return [row.player for row in view.ladder.rows if row.qualified]


async def two_qualifiers(app: App, tmp_path: Path) -> Path:
    await make_world(app)
    await make_world(app, slug=OTHER)
    path = season_file(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + SECOND, encoding="utf-8")
    app.season_files, app.season_html_dir = (str(path),), str(tmp_path / "web")
    return path


@pytest.mark.parametrize("first", [SLUG, OTHER])
async def test_each_finish_announces_the_moves_since_the_last_announcement(
        app: App, notifier: RecordingNotifier, tmp_path: Path, first: str) -> None:
    path = await two_qualifiers(app, tmp_path)
    second = OTHER if first == SLUG else SLUG
    page = tmp_path / "web" / "sezona" / "index.html"

    reply = await finish_tournament(app, first, ADMIN_ID, force=True)

    # the FIRST finish moves the ladder: announced with its movers, the other one pending
    assert reply.ok and moved(notifier) == [
        f"Rebríček sezóny M-SR test po turnaji {TOURNAMENT} (SP A3 7.1): 4 hráči sa dostali na "
        f"postupové miesta: {_four(first)}; 4 hráči vypadli z nich: {FIRST_OUT}. "
        f"{CUT_AFTER_FIRST}"]
    pending = "Ešte sa nezapočítava (podujatie sa neskončilo): "
    pending += "Online KT B" if second == OTHER else "Online KT"
    assert pending in page.read_text(encoding="utf-8")
    assert render_reply(reply)[-1] == f"  Stránka rebríčka sezóny M-SR test prepísaná: {page}"
    announced = _qualified(await load(path, app.store))

    await finish_tournament(app, second, ADMIN_ID, force=True)

    final = _qualified(await load(path, app.store))
    out = [p for p in announced if p not in final]
    assert out == ["p24", "p25", "p26", "p28"]  # none of the first qualifier's four
    # relative to the first announcement: the second qualifier's four in, four others out;
    # the first one's movers are not named again
    assert moved(notifier)[1] == (
        f"Rebríček sezóny M-SR test po turnaji {TOURNAMENT} (SP A3 7.1): 4 hráči sa dostali na "
        f"postupové miesta: {_four(second)}; 4 hráči vypadli z nich: "
        "Hráč p24, Hráč p25, Hráč p26, Hráč p28. Hranica postupu: postupuje 32 hráčov; "
        "posledný postupujúci: 31. miesto, 20 bodov")
    text = page.read_text(encoding="utf-8")
    assert "Ešte sa nezapočítava" not in text and f"{second}-hrac1" in text


async def test_one_player_in_one_out_in_the_singular(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    await make_world(app, players=1)  # one player: 1st place, 40 points
    app.season_files = (str(season_file(tmp_path)),)

    await finish_tournament(app, SLUG, ADMIN_ID, force=True)

    assert moved(notifier) == [
        f"Rebríček sezóny M-SR test po turnaji {TOURNAMENT} (SP A3 7.1): 1 hráč sa dostal na "
        "postupové miesta: Ďuro Ďurkovič (kt-test-hrac1); 1 hráč vypadol z nich: Hráč p33. "
        "Hranica postupu: postupuje 32 hráčov; posledný postupujúci: 31. miesto, 6 bodov"]


async def test_nobody_dropping_out_leaves_the_clause_out(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    await make_world(app)
    path = tmp_path / "liga.toml"
    path.write_text('[season]\nname = "Liga"\ncompetition = "sss-msr"\n[[event]]\n'
                    'name = "Online KT"\nkind = "online-qt"\ndate = 2026-11-21\n'
                    f'tournament = "{SLUG}"\n', encoding="utf-8")
    app.season_files = (str(path),)

    await finish_tournament(app, SLUG, ADMIN_ID, force=True)

    assert moved(notifier) == [
        f"Rebríček sezóny Liga po turnaji {TOURNAMENT} (SP A3 7.1): 4 hráči sa dostali na "
        f"postupové miesta: {_four(SLUG)}. Hranica postupu: postupuje 4 hráči; posledný "
        "postupujúci: 4. miesto, 30 bodov"]


async def test_finish_typed_again_says_so_and_rewrites_the_page(
        app: App, notifier: RecordingNotifier, tmp_path: Path) -> None:
    await make_world(app)
    app.season_files, app.season_html_dir = (str(season_file(tmp_path)),), str(tmp_path / "web")
    page = tmp_path / "web" / "sezona" / "index.html"
    await finish_tournament(app, SLUG, ADMIN_ID, force=True)
    page.unlink()

    again = await finish_tournament(app, SLUG, ADMIN_ID)

    lines = render_reply(again)
    assert again.ok and lines[0].startswith(
        f"Turnaj {TOURNAMENT} (sezóna 2024/2025) je už ukončený — nič som nemenil ani znova "
        "neoznamoval.")
    assert lines[1].startswith("  1. Ďuro Ďurkovič: ")  # the final standings, as at the finish
    assert lines[-1] == f"  Stránka rebríčka sezóny M-SR test prepísaná: {page}"
    assert "kt-test-hrac1" in page.read_text(encoding="utf-8")
    assert len(moved(notifier)) == 1  # nothing announced twice


# -- a process killed between the finish's commit and the page -----------------------------

KILLED = 9
DRIVER = """
    import os, sys
    import bot.publish.season_page as page

    def killed(*args, **kwargs):  # the process dies where the page would be written
        os._exit(KILLED)

    page.write_season_page = killed
    from bot.cli import main
    sys.exit(main(sys.argv[1:]))
"""


def _build(db: Path, *slugs: str) -> None:
    async def build() -> None:
        store = await Store.open(db)
        try:
            app = App(store, ManualClock(START), RecordingNotifier())
            for slug in slugs:
                await make_world(app, slug=slug)
        finally:
            await store.close()

    asyncio.run(build())


def killed_at_the_page(tmp_path: Path, *slugs: str) -> tuple[Path, Path]:
    """`stredisko finish kt-test` in a process of its own, killed (os._exit, as the kill
    campaign cuts a run) after its commit, where the season page would be written. The
    config (written unless there is one) names the season file and the pages' folder."""
    db = tmp_path / "stredisko.db"
    _build(db, *slugs)
    season_file(tmp_path)
    config = tmp_path / "config.toml"
    if not config.exists():
        config.write_text(f'[store]\npath = "{db.name}"\n[season]\nfile = ["sezona.toml"]\n'
                          'html_dir = "web"\n', encoding="utf-8")
    driver = tmp_path / "driver.py"
    driver.write_text(textwrap.dedent(DRIVER).replace("KILLED", str(KILLED)), encoding="utf-8")
    done = subprocess.run([sys.executable, str(driver), "finish", SLUG, "--force", "--config",
                           str(config)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == KILLED, done.stderr
    page = tmp_path / "web" / "sezona" / "index.html"
    assert not page.exists()

    return config, page


def _still_owed(config: Path) -> list[Any]:
    from bot.store.seasons import owed_pages  # the store's record of it (issue 44.2)

    async def read() -> list[Any]:
        async with await Store.open(config.parent / "stredisko.db") as store:
            return await store.read(owed_pages)

    return asyncio.run(read())


def test_killed_before_the_page_finish_typed_again_writes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, page = killed_at_the_page(tmp_path, SLUG)

    assert main(["finish", SLUG, "--config", str(config)]) == 0

    out = capsys.readouterr().out
    assert f"Stránka rebríčka sezóny M-SR test prepísaná: {page}" in out
    assert "kt-test-hrac1" in page.read_text(encoding="utf-8") and _still_owed(config) == []


def test_killed_before_the_page_the_next_finish_writes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, page = killed_at_the_page(tmp_path, SLUG, OTHER)  # kt-b: not in the season

    assert main(["finish", OTHER, "--force", "--config", str(config)]) == 0

    out = capsys.readouterr().out
    assert ("Stránka rebríčka sezóny M-SR test zapísaná (chýbala po prerušenom zápise): "
            f"{page}") in out
    assert "kt-test-hrac1" in page.read_text(encoding="utf-8") and _still_owed(config) == []


def test_killed_before_the_page_season_html_writes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, page = killed_at_the_page(tmp_path, SLUG)

    assert main(["season", str(tmp_path / "sezona.toml"), "--config", str(config),
                 "--html", str(tmp_path / "inde")]) == 0

    err = capsys.readouterr().err
    assert ("Stránka rebríčka sezóny M-SR test zapísaná (chýbala po prerušenom zápise): "
            f"{page}") in err
    assert "kt-test-hrac1" in page.read_text(encoding="utf-8") and _still_owed(config) == []


def test_killed_before_the_page_the_debt_and_the_announcement_survive(tmp_path: Path) -> None:
    """The commit the kill followed holds the announcement, queued once for the bot, and the
    page owed where it goes."""
    config, page = killed_at_the_page(tmp_path, SLUG)
    assert [o.page_dir for o, _ in _still_owed(config)] == [str(page.parent)]

    async def queued() -> list[str]:
        async with await Store.open(config.parent / "stredisko.db") as store:
            return [r.message_key for r in await store.read(list_outbox)
                    if r.message_key.startswith("season.")]

    assert asyncio.run(queued()) == ["season.ladder_moved"]
