"""`stredisko rehearse` end to end on small scenarios: the real services, a real SQLite file,
the herna.net simulator over HTTP on 127.0.0.1 and the real timers on a simulated clock.

`scenarios/small.toml`: five players, three rounds (round 2 paired by stredisko), every event
type. What it should give, worked out by hand from RULES.md:
- round 1: boris–anna 312:365 finished (0:1); cyril–dana a herna.net draw 320:300 confirmed
  by both before the limit → agreed draw 300:300 (½:½, e-SP 3.5); eva has the bye (1, 20).
- round 2 (by stredisko): anna–cyril, cyril ran out of time → anna wins 1:0 (scores as played);
  dana–eva, no record, both report 400:350 for dana, eva disputes, the admin rules
  save_failed with the whole result agreed (e-SP 4.6); boris has the bye. eva withdraws.
- round 3: anna reports dana absent, the waiting period ends → a no-show proposal nobody
  rules, applied at the end (100:0, e-SP 4.3, 4.9); boris–cyril finish at 11:55, after the
  11:50 limit → over the limit, 0:0 (e-SP 4.5); anna's dispute at 12:05 is too late (e-SP 4.7).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.clock import BRATISLAVA
from bot.rehearse.command import run_command
from bot.rehearse.engine import END, EVENT, OPEN, POLL, ROUND, Rehearsal, start_time
from bot.rehearse.scenario import load_scenario
from bot.store import Store, TournamentStatus, get_tournament_by_slug

SCENARIOS = Path(__file__).parent / "scenarios"
SMALL = SCENARIOS / "small.toml"
SLUG = "online-kt-mala-skuska"


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path, Path]:
    """The small scenario run once with --json --db --html: (document, db file, html dir)."""
    folder = tmp_path_factory.mktemp("skuska")
    db, html = folder / "skuska.db", folder / "web"
    out, err = io.StringIO(), io.StringIO()
    code = run_command(str(SMALL), out, err, as_json=True, db=str(db), html=str(html))
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue()), db, html


@pytest.fixture
def doc(ran: tuple[dict[str, Any], Path, Path]) -> dict[str, Any]:
    return ran[0]


def table(doc: dict[str, Any], round_no: int, table_no: int) -> dict[str, Any]:
    results = next(r["results"] for r in doc["rounds"] if r["round"] == round_no)
    return next(row for row in results if row["table"] == table_no)


def lines_with(doc: dict[str, Any], text: str) -> list[str]:
    return [line for line in doc["transcript"] if text in line]


# -- the JSON document -------------------------------------------------------------------


def test_the_json_document_has_the_spec_shape(doc: dict[str, Any]) -> None:
    assert set(doc) == {"tournament", "rounds", "standings", "excluded", "screlo",
                        "proposals", "refusals", "transcript"}
    assert doc["tournament"] == {"name": "Online KT — malá skúška", "slug": SLUG,
                                 "profile": "sss-online", "rounds": 3}
    assert [r["round"] for r in doc["rounds"]] == [1, 2, 3]
    row_keys = {"table", "first", "second", "first_points", "second_points", "first_score",
                "second_score", "end", "rule", "status"}
    for rnd in doc["rounds"]:
        for row in rnd["results"]:
            assert set(row) == row_keys
    standing_keys = {"rank", "player", "points", "wins", "median_buchholz", "buchholz",
                     "score", "out", "qualification_points"}
    assert all(set(s) == standing_keys for s in doc["standings"])
    assert all(isinstance(s["points"], float) and isinstance(s["out"], bool)
               for s in doc["standings"])
    assert all(set(p) == {"round", "table", "first", "second", "code", "proposed", "applied"}
               for p in doc["proposals"])
    assert all(set(r) == {"at", "player", "type", "key", "text"} for r in doc["refusals"])


def test_round_one_as_scripted(doc: dict[str, Any]) -> None:
    assert table(doc, 1, 1) == {
        "table": 1, "first": "boris", "second": "anna", "first_points": 0.0,
        "second_points": 1.0, "first_score": 312, "second_score": 365, "end": "finished",
        "rule": "e-SP 3.5", "status": "confirmed"}
    draw = table(doc, 1, 2)  # both confirmed: the lower score for both (e-SP 3.5)
    assert (draw["end"], draw["first_points"], draw["second_points"]) == ("agreed_draw", .5, .5)
    assert (draw["first_score"], draw["second_score"]) == (300, 300)
    bye = table(doc, 1, 3)
    assert bye["first"] == "eva" and bye["second"] is None and bye["end"] == "bye"
    assert bye["second_points"] is None and bye["second_score"] is None
    assert bye["first_points"] == 1.0


def test_round_two_is_paired_by_stredisko(doc: dict[str, Any]) -> None:
    # no [[round]] 2 in the file: the Swiss pairing seats the leaders and gives boris the bye
    pairs = [(row["first"], row["second"]) for row in doc["rounds"][1]["results"]]
    assert sorted(p for pair in pairs for p in pair if p) == [
        "anna", "boris", "cyril", "dana", "eva"]
    assert ("boris", None) in pairs
    assert ("anna", "cyril") in pairs and ("dana", "eva") in pairs
    assert lines_with(doc, "[09:55] [kanál] Online KT — malá skúška — 2. kolo")


def test_round_two_results(doc: dict[str, Any]) -> None:
    time_loss = table(doc, 2, 1)
    assert (time_loss["end"], time_loss["first_points"], time_loss["second_points"]) == (
        "time_loss", 1.0, 0.0)
    ruled = table(doc, 2, 2)
    assert (ruled["end"], ruled["first_score"], ruled["second_score"]) == (
        "save_failed", 400, 350)
    assert ruled["first_points"] == 1.0 and ruled["rule"] == "e-SP 4.6"
    assert ruled["status"] == "confirmed"


def test_a_game_over_the_limit(doc: dict[str, Any]) -> None:
    late = table(doc, 3, 2)
    assert (late["first"], late["second"], late["end"]) == ("boris", "cyril", "over_limit")
    assert (late["first_points"], late["second_points"]) == (0.0, 0.0)


def test_a_no_show_proposal_is_applied_at_the_end(doc: dict[str, Any]) -> None:
    proposal = next(p for p in doc["proposals"] if (p["round"], p["table"]) == (3, 1))
    assert proposal == {
        "round": 3, "table": 1, "first": "anna", "second": "dana", "code": "no_show",
        "proposed": {"end": "no_show", "first_points": 1.0, "second_points": 0.0,
                     "first_score": 100, "second_score": 0, "rule": "e-SP 4.3, 4.9"},
        "applied": True}
    result = table(doc, 3, 1)
    assert (result["end"], result["first_points"], result["status"]) == (
        "no_show", 1.0, "confirmed")
    # proposed when the waiting period ended (timer at 11:10), applied at the end (12:05)
    assert lines_with(doc, "[11:10] [admin] Návrh na schválenie")
    assert lines_with(doc, "[12:05] [kanál] Výsledok 3. kola, stôl 1: Anna Nováková – "
                           "Dana Žitná 100:0 (1:0), nedostavenie sa. Rozhodnutie hlavného "
                           "administrátora: ")


def test_a_late_dispute_is_refused_and_listed(doc: dict[str, Any]) -> None:
    assert doc["refusals"] == [{
        "at": "2026-11-21 12:05", "player": "anna", "type": "dispute",
        "key": "play.dispute_closed",
        "text": "Lehota na reklamáciu výsledku 3. kola uplynula; výsledok je potvrdený "
                "(e-SP 4.7)."}]


def test_withdrawn_players_are_listed_and_get_no_qualification_points(
        doc: dict[str, Any]) -> None:
    assert doc["excluded"] == {"eva": "odstúpenie z turnaja (e-SP 3.6)"}
    eva = next(s for s in doc["standings"] if s["player"] == "eva")
    assert eva["out"] is True and eva["qualification_points"] == 0
    assert all(row["first"] != "eva" and row["second"] != "eva"
               for row in doc["rounds"][2]["results"])


def test_standings_and_screlo(doc: dict[str, Any]) -> None:
    ranks = [(s["rank"], s["player"], s["points"]) for s in doc["standings"]]
    assert ranks[0] == (1, "anna", 3.0)  # won r1, r2 and the no-show in r3
    assert [r for r, _, _ in ranks] == [1, 2, 3, 4, 5]
    screlo = doc["screlo"]
    # rated games: anna r1, r2 (a no-show is not rated); boris r1 (byes and over-limit not)
    assert screlo["anna"]["games"] == 121 + 2 and screlo["boris"]["games"] == 80 + 1
    assert screlo["anna"]["screlo"] > 1850 > screlo["boris"]["screlo"] - 60
    assert screlo["boris"]["screlo"] < 1790  # lost his only rated game
    assert all(round(v["screlo"], 2) == v["screlo"] for v in screlo.values())


# -- the transcript ----------------------------------------------------------------------


def test_every_line_has_its_time_and_reads_slovak(doc: dict[str, Any]) -> None:
    transcript = doc["transcript"]
    assert all(re.match(r"^\[\d\d:\d\d\] ", line) for line in transcript)
    assert transcript[0].startswith("[08:30] [kanál] Prezentácia")
    assert lines_with(doc, "[09:10] [kanál] Čakacia lehota 1. kola skončila")
    assert lines_with(doc, "[09:50] [kanál] Časový limit 1. kola uplynul")
    assert lines_with(doc, "[09:00] [DM Eva Ľahká] V 1. kole máš voľno")


def test_every_event_type_shows_as_the_players_command(doc: dict[str, Any]) -> None:
    expected = [
        "[08:35] /prezentacia Anna Nováková → Prezentácia prijatá",
        "[09:20] [herna.net] partia č. 1000: cyro – danka 320:300 (remíza)",
        "[09:21] /remiza Dana Žitná → Návrh remízy je zaznamenaný",
        "[09:22] /remiza Cyril Ďurovič → Remíza dohodou je potvrdená oboma stranami (súper: "
        "Dana Žitná)",
        "[10:03] /nepritomny Anna Nováková → Neprítomnosť súpera (Cyril Ďurovič)",
        "[10:06] /pritomny Cyril Ďurovič → Príchod je zaznamenaný",
        "[10:40] /vysledok Dana Žitná 400:350 → Hlásenie 400:350",
        "[10:47] /namietka Eva Ľahká „Server partiu neuložil",
        "[10:52] /admin rozhodni (hlavný administrátor) Eva Ľahká 2. kolo",
        "[10:54] /odstupit Eva Ľahká → Tvoje odstúpenie z turnaja",
    ]
    for text in expected:
        assert lines_with(doc, text), text


def test_results_come_from_the_scraper_after_the_game_appears(doc: dict[str, Any]) -> None:
    # the game of table 1 appears at 09:41; the next poll (every 5 minutes) finds it
    assert lines_with(doc, "[09:41] [herna.net] partia č. 1001")
    official = lines_with(doc, "Výsledok 1. kola, stôl 1: Boris Šťastný – Anna Nováková")
    assert official and official[0].startswith("[09:45]")


# -- files and exit codes ----------------------------------------------------------------


async def test_db_keeps_the_store(ran: tuple[dict[str, Any], Path, Path]) -> None:
    _, db, _ = ran
    store = await Store.open(db)
    try:
        tournament = await store.read(get_tournament_by_slug, SLUG)
    finally:
        await store.close()
    assert tournament.status is TournamentStatus.FINISHED


def test_html_writes_the_results_page(ran: tuple[dict[str, Any], Path, Path]) -> None:
    page = ran[2] / "index.html"
    text = page.read_text(encoding="utf-8")
    assert "Online KT — malá skúška" in text and "Anna Nováková" in text


def test_the_text_output_through_the_cli(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rehearse", str(SMALL), "--html", str(tmp_path / "web")])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("[08:30] ")
    assert any(line.startswith("Online KT — malá skúška — konečné poradie (e-SP 2.4). MB = ")
               for line in lines)
    assert any(line.startswith("  1. Anna Nováková (anna77): 3 body") for line in lines)
    assert lines[-1] == f"Stránka výsledkov zapísaná: {tmp_path / 'web' / 'index.html'}"
    assert list(tmp_path.iterdir()) == [tmp_path / "web"]  # the temporary store is gone


def test_a_scenario_error_exits_2_and_runs_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "zly.toml"
    text = SMALL.read_text(encoding="utf-8").replace('player = "boris"', 'player = "bob"', 1)
    bad.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if 'player = "bob"' in row)
    db = tmp_path / "skuska.db"
    code = main(["rehearse", str(bad), "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip() == f"{bad}:{line}: [[event]] č. 2: player: neznámy hráč „bob“"
    assert not db.exists()


def test_a_round_that_leaves_out_a_playing_player_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # without eva's withdrawal, round 3's [[round]] leaves out a player still in the tournament
    text = SMALL.read_text(encoding="utf-8")
    text = text.replace('type = "withdraw"\nplayer = "eva"', 'type = "arrived"\nplayer = "eva"')
    bad = tmp_path / "bez-odstupenia.toml"
    bad.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "number = 3" in row) - 1
    assert main(["rehearse", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:{line}: [[round]] 3. kolo: chýba hráč") and "eva" in err


def test_an_internal_failure_exits_1(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rehearse", str(SMALL), "--db", str(tmp_path)]) == 1  # a folder, not a file
    assert "skúška zlyhala" in capsys.readouterr().err


def test_an_unreadable_scenario_exits_2(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rehearse", str(tmp_path / "nie-je.toml")]) == 2
    assert "nie-je.toml" in capsys.readouterr().err


# -- the timeline ------------------------------------------------------------------------


def test_the_timeline() -> None:
    scenario = load_scenario(SMALL)
    rehearsal = Rehearsal.__new__(Rehearsal)  # steps() needs only the scenario
    rehearsal.scenario = scenario
    steps = rehearsal.steps()
    assert [s[:3] for s in steps] == sorted(s[:3] for s in steps)

    def local(kind: int) -> list[str]:
        return [f"{s[0].astimezone(BRATISLAVA):%H:%M}" for s in steps if s[1] == kind]

    assert f"{start_time(scenario).astimezone(BRATISLAVA):%H:%M}" == "08:29"
    assert local(OPEN) == ["08:30"]  # check-in: the scenario has checkin events
    assert local(ROUND) == ["08:50", "08:55", "09:55", "10:55"]  # closing, then P_r
    polls = local(POLL)
    # every 5 minutes from the start; rounds 1 and 2 stop before the next round is paired,
    # the last round polls until its limit + 10 minutes
    assert polls[:11] == [f"09:{m:02d}" for m in range(0, 55, 5)]
    assert "09:55" not in polls and polls[-1] == "12:00" and len(polls) == 11 + 11 + 13
    assert local(END) == ["12:05"]  # after the last event (the late dispute)
    assert len(local(EVENT)) == len(scenario.events)
