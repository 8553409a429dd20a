"""The season's ladder in the chat (issue 14) through discord.py's real dispatch over a real
store: `/rebricek` shows the asking player his own row and the cut line, ephemerally, and says
why when it cannot; after `/admin ukonci` (the command and its "finish anyway" button) the head
admin is offered the ladder with the finished tournament's players' new ranks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord.utils import escape_markdown

from bot.discord.cogs.season import SeasonCog

from ..conftest import add_game
from .conftest import said

FORCE = "stredisko:admin:aj-tak:ukonci:0"
HEAD = '[season]\nname = "M-SR 2026/27"\ncompetition = "sss-msr"\n'
LIVE = ('[[player]]\nid = "jano"\nname = "Ján Novák"\n'
        '[[event]]\nname = "KT Nitra"\nkind = "live-qt"\ndate = 2026-10-10\n'
        'places = ["jano", "kt-test-hrac3", "kt-test-hrac1"]\n')
ONLINE = '[[event]]\nname = "Online KT"\nkind = "online-qt"\ndate = 2026-11-21\n' \
         'tournament = "kt-test"\n'


async def with_season(env: Any, tmp_path: Path, text: str | None) -> Path:
    """Load the season cog as the runner does, with `text` as the configured file (None: no
    file configured)."""
    path = tmp_path / "sezona.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    await env.h.bot.add_cog(SeasonCog(env.h.bot, env.app, str(path) if text else ""))
    return path


async def test_a_player_sees_his_row_and_the_cut_line(env: Any, tmp_path: Path) -> None:
    await with_season(env, tmp_path, HEAD + LIVE)
    ex = await env.h.slash("rebricek", user=env.players[0])
    assert ex.ephemeral and said(ex) == (
        "Rebríček sezóny M-SR 2026/27 (kvalifikácia na M-SR, SP A3 7.1) — podujatia: 1, hráči: 3.\n"
        "3. Ďuro Ďurkovič (kt-test-hrac1): 32 bodov — postupuje (M-SR)\n"
        "    započítané: KT Nitra 32 bodov × 1 = 32 (živý kvalifikačný turnaj)\n"
        "hranica postupu: postupuje 3 hráči; posledný postupujúci: 3. miesto, "
        "32 bodov")
    assert env.h.channel_messages == []  # nothing public


async def test_in_english_for_an_english_client(env: Any, tmp_path: Path) -> None:
    await with_season(env, tmp_path, HEAD + LIVE)
    ex = await env.h.slash("rebricek", user=env.players[2], locale="en-US")
    assert said(ex).splitlines()[1] == (
        "2. Ľubomír Čierny (kt-test-hrac3): 35 points — qualifies (M-SR)")


@pytest.mark.parametrize(("text", "player", "expected"), [
    pytest.param(HEAD + LIVE, 1, "V rebríčku sezóny M-SR 2026/27 zatiaľ nie si: nemáš body zo "
                 "žiadneho podujatia, alebo tvoj Discord účet nie je prepojený s hráčom v "
                 "registri.", id="no points"),
    pytest.param(None, 0, "Rebríček sezóny nie je nastavený: v config.toml chýba [season] "
                 "file = „…“.", id="no file configured"),
    pytest.param(HEAD + LIVE.replace("kt-test-hrac3", "nikto"), 0, "Súbor sezóny {path}, "
                 "riadok 11: neznámy hráč „nikto“: nie je v registri ani v [[player]]",
                 id="a bad file"),  # the path as typed: Markdown's _ escaped
])
async def test_a_refusal_says_why(env: Any, tmp_path: Path, text: str | None, player: int,
                                  expected: str) -> None:
    path = await with_season(env, tmp_path, text)
    ex = await env.h.slash("rebricek", user=env.players[player])
    assert ex.ephemeral and said(ex) == expected.format(path=escape_markdown(str(path)))


@pytest.mark.admin_world(published=True)
async def test_finishing_offers_the_updated_ladder(env: Any, tmp_path: Path) -> None:
    await with_season(env, tmp_path, HEAD + LIVE + ONLINE)
    await add_game(env.app, env.world.tables[0], 400, 300)  # table 2 stays open
    ex = await env.admin_cmd("ukonci")  # warnings first: nothing is offered yet
    assert "Rebríček sezóny" not in said(ex)

    clicked = await env.h.click(FORCE, env.admin)  # "finish anyway"
    offer = clicked.followups[-1]
    assert offer.ephemeral
    lines = offer.text.splitlines()
    assert lines[0] == ("Rebríček sezóny M-SR 2026/27 (kvalifikácia na M-SR, SP A3 7.1) — "
                        "podujatia: 2, hráči: 5.")
    # the tournament's four players with their new ranks (online: Ďurkovič 1st, Šťastná 2nd,
    # Čierny 3rd, Ťažký 4th); Novák (live only, 40) is 3rd but not one of them
    assert [line.split(" (")[0] for line in lines[1:5]] == [
        "1. Ďuro Ďurkovič", "2. Ľubomír Čierny", "4. Žofia Šťastná", "5. Šimon Ťažký"]
    assert lines[1] == "1. Ďuro Ďurkovič (kt-test-hrac1): 72 bodov — postupuje (M-SR)"
    assert lines[-1].startswith("hranica postupu: postupuje 5 hráčov")

    again = await env.admin_cmd("ukonci")  # the command itself (a repeat answers the same)
    assert again.followups[-1].text == offer.text


@pytest.mark.admin_world(published=True)
async def test_a_season_file_without_the_tournament_says_so(env: Any, tmp_path: Path) -> None:
    await with_season(env, tmp_path, HEAD + LIVE)
    await env.h.click((await env.admin_cmd("ukonci")).message, env.admin, custom_id=FORCE)
    ex = await env.admin_cmd("ukonci")
    assert ("Súbor sezóny zatiaľ neuvádza tento turnaj: doplň doň podujatie s tournament = "
            "„kt-test“.") in ex.followups[-1].text


async def test_every_configured_season_file_counts(env: Any, tmp_path: Path) -> None:
    """Issue 44.8: with two season files configured, `/rebricek` shows the player's row in
    each, and the ladder after `/admin ukonci` is the one of the file naming the tournament —
    the second file here, not the first."""
    first = tmp_path / "pohar.toml"
    first.write_text(HEAD.replace("M-SR 2026/27", "Pohár 2026/27") + LIVE, encoding="utf-8")
    second = tmp_path / "sezona.toml"
    second.write_text(HEAD + LIVE + ONLINE, encoding="utf-8")
    await env.h.bot.add_cog(SeasonCog(env.h.bot, env.app, [str(first), str(second)]))

    ex = await env.h.slash("rebricek", user=env.players[0])
    blocks = said(ex).split("\n\n")
    assert [b.splitlines()[0].split(" (")[0] for b in blocks] == [
        "Rebríček sezóny Pohár 2026/27", "Rebríček sezóny M-SR 2026/27"]
    # the online tournament is named but running: not counted yet, said so
    assert blocks[1].splitlines()[1] == ("Ešte sa nezapočítava (podujatie sa neskončilo): "
                                         "Online KT")


@pytest.mark.admin_world(published=True)
async def test_the_ladder_after_the_finish_is_the_file_naming_it(env: Any, tmp_path: Path
                                                                  ) -> None:
    first = tmp_path / "pohar.toml"
    first.write_text(HEAD.replace("M-SR 2026/27", "Pohár 2026/27") + LIVE, encoding="utf-8")
    second = tmp_path / "sezona.toml"
    second.write_text(HEAD + LIVE + ONLINE, encoding="utf-8")
    await env.h.bot.add_cog(SeasonCog(env.h.bot, env.app, [str(first), str(second)]))

    clicked = await env.h.click((await env.admin_cmd("ukonci")).message, env.admin,
                                custom_id=FORCE)
    lines = clicked.followups[-1].text.splitlines()
    assert lines[0].startswith("Rebríček sezóny M-SR 2026/27 ") and "podujatia: 2" in lines[0]
    assert lines[1] == "1. Ďuro Ďurkovič (kt-test-hrac1): 72 bodov — postupuje (M-SR)"
