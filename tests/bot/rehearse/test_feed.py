"""`stredisko simulator FILE`: the games of a rehearsal scenario, of game events beside the
propozície, or of a results CSV (players by propozície id or any herna nick) — served over
real HTTP, new games taken while it runs, a bad file in one line, and a sync practised
against it through the `stredisko` command."""

from __future__ import annotations

import asyncio
import signal
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.rehearse.events import FIRST_GAME_ID, scenario_games
from bot.rehearse.feed import FeedError, load_games
from bot.rehearse.scenario import load_scenario
from scrapers.herna.client import Credentials, HernaClient, HernaSettings
from scrapers.herna.records import EndKind
from scrapers.herna.simulator import Simulator

from ..test_cli_sync import BEFORE, DURING, ROUND_1, ThreadedSimulator, paired_round, sync

EXAMPLES = Path(__file__).parents[3] / "examples"
PROPOZICIE = EXAMPLES / "propozicie.toml"
RESULTS = EXAMPLES / "vysledky.csv"
SCENARIO = EXAMPLES / "rehearsal" / "kt-online-24.toml"
HEADER = "kolo;prvý;druhý;skóre;koniec;na_koho;začiatok;trvanie;ťahy\n"


def test_a_scenarios_games_are_the_rehearsals():
    fed = load_games(SCENARIO)
    scenario = load_scenario(SCENARIO)
    published = scenario_games(scenario.propozicie, scenario.events)
    assert [f.record for f in fed] == [record for _, record in published]
    assert [(f.release_at, f.finish_at) for f in fed] == [(e.started, e.at)
                                                          for e, _ in published]
    assert fed[0].record.game_id == str(FIRST_GAME_ID) and len(fed) == 77


GAMES_TOML = """\
[[event]]
at = "2026-11-21 09:40"
type = "game"
first = "anna"
second = "boris"
score = [402, 371]
end = "time_loss"
on = "anna"
started = "2026-11-21 09:04"
"""


def test_game_events_beside_the_propozicie(tmp_path):
    games = tmp_path / "partie.toml"
    games.write_text(GAMES_TOML, encoding="utf-8")
    (fed,) = load_games(games, PROPOZICIE)
    record = fed.record
    assert (record.first, record.second, record.first_score, record.second_score) == (
        "anna77", "borisk", 402, 371)
    assert (record.end, record.ended_on) == (EndKind.TIME_LOSS, "anna77")
    assert record.started == fed.release_at == datetime(2026, 11, 21, 8, 4, tzinfo=UTC)
    assert record.ended == fed.finish_at == datetime(2026, 11, 21, 8, 40, tzinfo=UTC)
    assert record.settings.tempo == "2x20"  # the propozície's


def test_a_bad_game_event_names_its_own_file_and_line(tmp_path):
    games = tmp_path / "partie.toml"
    games.write_text(GAMES_TOML.replace('end = "time_loss"', 'end = "vyhral"'), encoding="utf-8")
    with pytest.raises(FeedError) as caught:
        load_games(games, PROPOZICIE)
    assert str(caught.value).startswith(f"{games}:7: [[event]] č. 1: end: „vyhral“ nie je známy")


def test_the_example_results_csv():
    fed = load_games(RESULTS, PROPOZICIE)
    assert [f.record.game_id for f in fed] == [str(n) for n in range(1000, 1006)]
    first, time_loss, *_, unfinished = fed
    assert (first.record.first, first.record.second) == ("cyro", "anna77")
    assert (first.record.first_score, first.record.second_score) == (431, 388)
    assert first.record.started == ROUND_1 + timedelta(minutes=3)
    assert first.record.ended == first.finish_at == ROUND_1 + timedelta(minutes=37)
    assert (first.record.first_moves, first.record.second_moves) == (13, 13)
    assert (time_loss.record.end, time_loss.record.ended_on) == (EndKind.TIME_LOSS, "borisk")
    assert unfinished.record.end is EndKind.UNFINISHED and unfinished.record.ended is None
    assert unfinished.finish_at == ROUND_1 + timedelta(hours=1, minutes=50)


@pytest.mark.parametrize(("rows", "message"), [
    ("1;anna;;1:2;finished\n", ":2: stĺpec druhý: „“ nie je hráč z propozícií ani prezývka"),
    ("1;anna;anna77;1:2;finished\n", ":2: stĺpec druhý: hráč „anna77“ nemôže hrať sám so sebou"),
    ("4;anna;boris;1:2;finished\n", ":2: stĺpec kolo: „4“: očakáva sa celé číslo 1–3"),
    ("1;anna;boris;412-380;finished\n", ":2: stĺpec skóre: „412-380“: očakávajú sa dve"),
    ("1;anna;boris;1:2;vyhral\n", ":2: stĺpec koniec: „vyhral“ nie je známy koniec"),
    ("1;anna;boris;1:2;resigned\n", ":2: stĺpec na_koho: koniec „resigned“ potrebuje hráča"),
    ("1;anna;boris;1:2;finished;anna\n", ":2: stĺpec na_koho: pri konci „finished“ sa nepíše"),
    ("# ok\n1;anna;boris;1:2;finished\n2;cyril;dana;1:x;finished\n", ":4: stĺpec skóre:"),
    # issue 20.8: superscripts and other digits str.isdigit takes, a 5,000-digit score
    ("1;anna;boris;4¹²:380;finished\n", ":2: stĺpec skóre: „4¹²:380“: očakávajú sa dve celé"),
    ("¹;anna;boris;1:2;finished\n", ":2: stĺpec kolo: „¹“: očakáva sa celé číslo"),
    ("1;anna;boris;٣:2;finished\n", ":2: stĺpec skóre: „٣:2“"),
    (f"1;anna;boris;{'9' * 5000}:2;finished\n", ":2: stĺpec skóre: „99999"),
    ('1;anna;boris;"1:2;finished\n2;cyril;dana;1:2;finished\n',
     ":2: úvodzovky (\") otvorené na tomto riadku sa nikde nezatvárajú"),
    ('1;anna;boris;1:2;finished\n2;cyril;dana;"1:2;finished\n',
     ":3: úvodzovky (\") otvorené na tomto riadku sa nikde nezatvárajú"),
    (f"1;anna;boris;1:2;{'x' * 200_000}\n", ":2: pole je dlhšie ako 131072 znakov"),
])
def test_a_bad_results_row_is_one_line_naming_it(tmp_path, rows, message):
    path = tmp_path / "vysledky.csv"
    path.write_text(HEADER + rows, encoding="utf-8")
    with pytest.raises(FeedError) as caught:
        load_games(path, PROPOZICIE)
    assert str(caught.value).startswith(f"{path}{message}"), caught.value
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 400


@pytest.mark.parametrize(("header", "message"), [
    ("kolo;prvý;druhý;skóre\n", "chýba stĺpec „koniec“"),
    ("kolo;prvý;druhý;skóre;koniec;víťaz\n", "neznámy stĺpec „víťaz“"),
])
def test_a_bad_header_is_named(tmp_path, header, message):  # before "no games"
    path = tmp_path / "vysledky.csv"
    path.write_text(header, encoding="utf-8")
    with pytest.raises(FeedError, match=f":1: {message}"):
        load_games(path, PROPOZICIE)


@pytest.mark.parametrize(("content", "message"), [
    ("", ":1: súbor nemá ani hlavičku, ani jednu partiu"),
    ("# len komentár\n\n", ":1: súbor nemá ani hlavičku, ani jednu partiu"),
    (HEADER, ":1: súbor má len hlavičku, ani jednu partiu"),
    ("# vysledky\n" + HEADER + "\n", ":2: súbor má len hlavičku, ani jednu partiu"),
])
def test_an_empty_and_a_header_only_file_are_both_refused(tmp_path, content, message):
    path = tmp_path / "vysledky.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FeedError) as caught:
        load_games(path, PROPOZICIE)
    assert str(caught.value) == f"{path}{message}"


def test_a_file_the_system_refuses_is_said_in_slovak(tmp_path):
    with pytest.raises(FeedError) as caught:
        load_games(tmp_path)  # a folder
    assert str(caught.value) == f"{tmp_path}: súbor sa nedá prečítať (je to priečinok, nie súbor)."


def test_a_csv_without_propozicie_is_refused():
    with pytest.raises(FeedError, match="potrebujú aj propozície"):
        load_games(RESULTS)


def test_a_player_not_in_the_propozicie_is_served_under_his_herna_nick(tmp_path):
    """Players imported from a CSV are in the database, not in the propozície."""
    path = tmp_path / "vysledky.csv"
    path.write_text(HEADER + "1;anna;Zora_K;412:300;finished\n", encoding="utf-8")
    (fed,) = load_games(path, PROPOZICIE)
    assert (fed.record.first, fed.record.second) == ("anna77", "Zora_K")


async def _simulator(*args: str, watch: float | None = None) -> asyncio.subprocess.Process:
    """`stredisko simulator` in a process of its own; `watch`: its file-watch interval in
    seconds instead of WATCH_SECONDS (a test waiting for a change then waits less)."""
    setup = f"import bot.rehearse.simulate as s; s.WATCH_SECONDS = {watch!r}; " if watch else ""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", f"import sys; {setup}from bot.cli import main; sys.exit(main())",
        "simulator", *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def test_the_simulator_serves_the_file_and_prints_its_login():
    proc = await _simulator(str(RESULTS), "--propozicie", str(PROPOZICIE),
                            "--clock", "2026-11-21 12:00", "--user", "klub",
                            "--password", "tajné")
    try:
        url = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode().strip()
        login = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert "prihlasovacie meno: klub, heslo: tajné" in login
        settings = HernaSettings(base_url=url, max_concurrent=None, per_second=None)
        async with HernaClient(Credentials("klub", "tajné"), settings) as client:
            records = [r async for r in client.records(ROUND_1)]
    finally:
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.wait(), 20)
    assert sorted(records, key=lambda r: r.game_id) == [
        f.record for f in load_games(RESULTS, PROPOZICIE)]


async def test_a_bad_file_stops_the_simulator_with_one_line(tmp_path):
    path = tmp_path / "vysledky.csv"
    path.write_text(HEADER + "1;anna;;1:2;finished\n", encoding="utf-8")
    proc = await _simulator(str(path), "--propozicie", str(PROPOZICIE))
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 2 and out == b""
    assert err.decode().splitlines() == [
        f"{path}:2: stĺpec druhý: „“ nie je hráč z propozícií ani prezývka na herna.net"]


async def test_games_added_to_the_file_are_served_while_it_runs(tmp_path):
    path = tmp_path / "vysledky.csv"
    path.write_text(HEADER + "1;anna;borisk;412:380;finished\n", encoding="utf-8")
    proc = await _simulator(str(path), "--propozicie", str(PROPOZICIE),
                            "--clock", "2026-11-21 12:00", watch=0.1)
    try:
        url = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode().strip()
        for _ in range(2):  # the login line, the games line
            await asyncio.wait_for(proc.stdout.readline(), 20)
        with path.open("a", encoding="utf-8") as more:  # the next table's result, and a bad row
            more.write("1;cyro;zora;300:401;finished\n")
        added = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        assert "pridané partie 1, podávané spolu 2" in added
        settings = HernaSettings(base_url=url, max_concurrent=None, per_second=None)
        async with HernaClient(Credentials("sss", "heslo"), settings) as client:
            records = [r async for r in client.records(ROUND_1)]
        assert {(r.first, r.second) for r in records} == {("anna77", "borisk"), ("cyro", "zora")}
        with path.open("a", encoding="utf-8") as bad:
            bad.write("1;anna;;1:2;finished\n")
        said = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        assert ":4: stĺpec druhý" in said and "podávané partie ostávajú: 2" in said
    finally:
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.wait(), 20)


def test_practising_a_sync_against_results_from_a_file(tmp_path, monkeypatch, capsys):
    """README: create the tournament, pair round 1, write its results for the tables shown,
    serve them with the simulator, `stredisko sync` with its login."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERNA_USER", "sss")
    monkeypatch.setenv("HERNA_PASSWORD", "heslo")
    db = str(tmp_path / "cvik.db")

    def cli(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", db, "--admin", "hlavny"])
        out, err = capsys.readouterr()
        return code, out, err

    tables = paired_round(cli)
    known = {"anna77", "borisk", "cyro", "danka", "emilz", "fifo"}  # the propozície's
    rows = [f"1;{first};{second};40{n}:37{n};finished\n" for n, (first, second)
            in sorted(tables.items()) if {first, second} <= known]
    assert rows
    results = tmp_path / "vysledky.csv"
    results.write_text(HEADER + "".join(rows), encoding="utf-8")
    sim = Simulator({"sss": "heslo"}, clock=lambda: DURING)
    for fed in load_games(results, PROPOZICIE):
        sim.add_game(fed.record, release_at=fed.release_at, finish_at=fed.finish_at)
    config = tmp_path / "config.toml"
    config.write_text("[herna]\nmax_concurrent = 0\nper_second = 0\nretries = 0\n",
                      encoding="utf-8")
    assert BEFORE < ROUND_1 < DURING
    with ThreadedSimulator(sim) as url:
        code, out, err = sync(cli, url, str(config))
    assert code == 0, err
    assert f"Načítaných partií: {len(rows)}, nové záznamy {len(rows)}" in out


class _CountingText(str):
    """A file's text that counts how often it is scanned whole (`count`)."""

    scans = 0

    def count(self, *args, **kwargs) -> int:  # type: ignore[override]
        type(self).scans += 1
        return super().count(*args, **kwargs)


def test_a_big_results_file_is_scanned_once_not_once_per_row():
    """Issue 36.4: each row recounted the whole file's newlines — 16,000 rows took 27 s,
    200,000 never loaded. The text is scanned a fixed number of times, whatever its size."""
    from bot.rehearse.feed import _rows

    rows = "".join(f"1;anna;boris;{300 + i % 90}:350;finished\n" for i in range(2_000))
    text = _CountingText(HEADER + rows)
    found = _rows(text, "vysledky.csv")
    assert len(found) == 2_001 and found[-1][0] == 2_001  # every row, with its line
    assert _CountingText.scans <= 2
