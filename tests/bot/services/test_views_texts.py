"""What the views put in front of readers: a bye's own row, the reason a result waits for the
head admin, the final standings' heading, the pairings' starter in bold, signed screlo changes
— each rendered through the console adapter, in exact Slovak."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from bot.clock import ManualClock
from bot.console import render, render_reply
from bot.services.app import App
from bot.services.tournament.rounds import close_round, finish_tournament
from bot.services.tournament.views import pairings_view, results_view, standings_view

from .conftest import START
from .test_rounds import ADMIN, SLUG, create, pair_publish, play, propozicie


async def test_a_bye_has_its_own_row_in_the_results(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=5))
    await pair_publish(app, 1)
    await play(app, 1, skip=1)
    pending = await results_view(app, SLUG, 1)
    bye = pending.data[-1]
    assert bye["bye"] and bye["key"] == "view.result_bye_pending_row"
    assert render_reply(pending)[-1] == (
        f"  stôl 3: {bye['first']} má voľno, výsledok ešte nie je zapísaný")

    assert not (await close_round(app, SLUG, 1, ADMIN)).ok  # refreshes: the bye is recorded
    results = await results_view(app, SLUG, 1)
    bye = results.data[-1]
    assert bye["key"] == "view.result_bye_row"
    assert render_reply(results)[-1] == (
        f"  stôl 3: {bye['first']} — voľno, 1 bod, 20:0 ({bye['rule']})")
    assert "–  —" not in "\n".join(render_reply(results))  # no "name – —" for a missing opponent


async def test_a_row_carries_the_verdicts_explanation(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=4))
    await pair_publish(app, 1)
    await play(app, 1)
    ruled = (await results_view(app, SLUG, 1)).data[0]
    assert ruled["text"] == "Rozhodnutie hlavného administrátora: zápis z herna.net"


def test_a_result_waiting_for_the_head_admin_says_why() -> None:
    # rows as rounds.open_rows gives them: a proposal has an end, a conflict has none
    rows = [
        {"key": "round.open_proposed_row", "table": 1, "first": "Ján Čierny",
         "second": "Ľubica Šťastná", "how": "",
         "text": "Hlásenie nezodpovedá záznamu partie 5101 (e-SP 4.7)"},
        {"key": "round.open_proposed_row", "table": 3, "first": "Peter Ľalík",
         "second": "Žofia Kráľová", "how": "nedostavenie sa",
         "text": "Neprítomnosť v čakacej lehote; kontumáciu potvrdzuje hlavný administrátor "
                 "(e-SP 4.3, 4.9)"},
    ]
    lines = render("round.close_warnings", {"round": 1, "count": 2, "rule": "e-SP 4.9"}, rows)
    assert lines == [
        "1. kolo má 2 neuzavreté výsledky (e-SP 4.9). Najprv vyrieš otvorené výsledky, alebo "
        "uzavri kolo s --force:",
        "  stôl 1: Ján Čierny – Ľubica Šťastná: čaká na rozhodnutie hlavného administrátora — "
        "Hlásenie nezodpovedá záznamu partie 5101 (e-SP 4.7)",
        "  stôl 3: Peter Ľalík – Žofia Kráľová: čaká na rozhodnutie hlavného administrátora — "
        "Neprítomnosť v čakacej lehote; kontumáciu potvrdzuje hlavný administrátor "
        "(e-SP 4.3, 4.9)",
    ]
    assert "()" not in "\n".join(lines)
    one = render("round.close_warnings", {"round": 2, "count": 1, "rule": "e-SP 4.9"}, [])
    assert one == ["2. kolo má 1 neuzavretý výsledok (e-SP 4.9). Najprv vyrieš otvorené "
                   "výsledky, alebo uzavri kolo s --force:"]


async def test_pairings_name_the_starter_in_bold_but_the_console_prints_it_plain(
        app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=4))
    paired = await pair_publish(app, 1)
    assert render_reply(paired)[0] == (
        f"1. kolo je spárované: 2 stoly ({paired.rule}). Prvý uvedený hráč začína. "
        "Mimo párovania pre nezaplatené štartovné (e-SP 2.2): —.")
    pairings = await pairings_view(app, SLUG, 1)
    first = pairings.data[0]
    lines = render_reply(pairings)
    assert lines[1] == (f"  stôl 1: {first['first']} ({first['first_nick']}) začína – "
                        f"{first['second']} ({first['second_nick']})")
    assert not any("**" in line for line in lines)


async def test_finished_standings_are_final_and_screlo_changes_carry_a_sign(
        app: App, tmp_path: Path, clock: ManualClock) -> None:
    await create(app, tmp_path, propozicie(players=4, rounds=1))
    await pair_publish(app, 1)
    await play(app, 1)
    running = await standings_view(app, SLUG)
    assert render_reply(running)[0] .startswith(
        "Online KT — skúška — priebežné poradie (e-SP 2.4). MB = Median Buchholz")

    clock.set(START + timedelta(minutes=61))  # the round's dispute window is over (e-SP 4.7)
    assert (await close_round(app, SLUG, 1, ADMIN)).ok
    finished = await finish_tournament(app, SLUG, ADMIN)
    assert finished.ok, finished
    rows = render_reply(finished)[1:]
    deltas = [re.search(r"\(([^()]*)\)$", line)[1] for line in rows]  # type: ignore[index]
    assert len(deltas) == 4 and all(re.fullmatch(r"[+−]\d+(,\d+)?", d) for d in deltas), rows
    assert any(d.startswith("+") for d in deltas) and any(d.startswith("−") for d in deltas)

    final = await standings_view(app, SLUG)
    assert final.key == "view.final_standings"
    lines = render_reply(final)
    assert lines[0].startswith("Online KT — skúška — konečné poradie (e-SP 2.4). MB = Median")
    assert lines[1].startswith("  1. Hráč Číslo")  # the rows keep the standings' template
