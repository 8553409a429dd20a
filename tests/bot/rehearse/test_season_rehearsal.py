"""The season rehearsal (issue 37, done-when): `stredisko rehearse examples/rehearsal/sezona.toml`
runs the 24-player online qualifier, the online duplicate game moved onto its day (its rounds
while the qualifier's 4th round is open) and a small qualifier the operator creates at 11:40,
in ONE bot — one store, one App, one clock, one scheduler, one herna.net poll over the running
classic events read afresh — and rewrites the season page when the qualifier finishes.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as cli_main
from bot.i18n import Catalogue
from bot.rehearse.command import run_command

ROOT = Path(__file__).parents[3]
SEASON = ROOT / "examples" / "rehearsal" / "sezona.toml"
TAG = re.compile(r"^\[\d\d:\d\d\] \[(kt-online-24 #1001|duplikat-skuska #1002|kt-popoludnie "
                 r"#1003|kt-online-24|duplikat-skuska|kt-popoludnie|herna\.net)\] ")


def _cli(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(["rehearse", str(SEASON), *args]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two text runs and two JSON runs, each on a fresh database (the first JSON run's kept),
    the page into the same folder, emptied between them."""
    folder = tmp_path_factory.mktemp("season")
    html = folder / "web"
    first = _cli("--html", str(html))
    page = (html / "msr-2026-27" / "index.html").read_text(encoding="utf-8")
    shutil.rmtree(html)
    second = _cli("--html", str(html))
    shutil.rmtree(html)
    db = folder / "sezona.db"
    document = json.loads(_cli("--json", "--db", str(db), "--html", str(html)))
    shutil.rmtree(html)
    again = json.loads(_cli("--json", "--html", str(html)))
    return {"text": first, "again": second, "page": page, "json": document, "db": db,
            "json_again": again}


def _transcript(text: str) -> list[str]:
    return text.split("\n\n— ", 1)[0].splitlines()


def _index(lines: list[str], *parts: str) -> int:
    return next(i for i, line in enumerate(lines) if all(p in line for p in parts))


def test_two_runs_print_the_same(runs: dict[str, Any]) -> None:
    assert runs["text"] == runs["again"]
    assert runs["json"] == runs["json_again"]
    # the JSON run's transcript is the text run's, line for line
    assert runs["json"]["transcript"] == _transcript(runs["text"])


def test_one_database_serves_every_event(runs: dict[str, Any]) -> None:
    with contextlib.closing(sqlite3.connect(runs["db"])) as db:
        rows = db.execute("SELECT slug, status, channel_id FROM tournaments ORDER BY id").fetchall()
        # one person, one registry player: Anna of the duplicate is the qualifier's Anna
        annas = db.execute("SELECT id FROM players WHERE name = 'Anna Nováková'").fetchall()
    assert rows == [("kt-online-24", "finished", 1001), ("duplikat-skuska", "finished", 1002),
                    ("kt-popoludnie", "finished", 1003)]
    assert len(annas) == 1
    kinds = [(e["slug"], e["kind"], e["created"]) for e in runs["json"]["events"]]
    assert kinds == [("kt-online-24", "classic", "2026-11-21 08:29"),
                     ("duplikat-skuska", "duplicate", "2026-11-21 08:29"),
                     ("kt-popoludnie", "classic", "2026-11-21 11:40")]


def test_every_line_names_its_event_and_channel(runs: dict[str, Any]) -> None:
    lines = _transcript(runs["text"])
    assert all(TAG.match(line) for line in lines), [ln for ln in lines if not TAG.match(ln)][:3]
    # the DMs too: a timer's by the timer's event, a command's by the event it was used in
    assert any(line.startswith("[12:10] [kt-online-24 #1001] [DM ") for line in lines)
    assert any(re.match(r"\[12:13\] \[duplikat-skuska #1002\] \[DM Anna Nováková\]", line)
               for line in lines)


def test_the_duplicate_game_runs_while_the_qualifier_round_is_open(runs: dict[str, Any]) -> None:
    lines = _transcript(runs["text"])
    round_4 = _index(lines, "[kt-online-24 #1001] [kanál] Začína sa 4. kolo")
    game = _index(lines, "[duplikat-skuska #1002] [kanál] Začína sa 1. partia")
    limit_4 = _index(lines, "[kt-online-24 #1001] [kanál] Časový limit 4. kola uplynul")
    final = _index(lines, "[duplikat-skuska #1002]", "Konečné výsledky")
    assert lines[round_4].startswith("[12:00]") and lines[game].startswith("[12:10]")
    assert round_4 < game < limit_4 < final
    # interleaved on the one clock: qualifier results come in between the game's rounds
    between = lines[game:limit_4]
    assert any("[kt-online-24 #1001] [kanál] Výsledok 4. kola" in line for line in between)
    assert any("[duplikat-skuska #1002] /tah" in line for line in between)
    times = [line[1:6] for line in lines]
    assert times == sorted(times)  # one clock, only forward


def test_an_event_created_mid_run_is_served_from_its_creation(runs: dict[str, Any]) -> None:
    lines = _transcript(runs["text"])
    created = _index(lines, "[11:40] [kt-popoludnie] [operátor] stredisko create "
                            "kt-popoludnie.toml → Turnaj Online KT — popoludnie")
    assert "[kt-popoludnie] [operátor] stredisko channel kt-popoludnie 1003 →" in lines[created + 1]
    covered = _index(lines, "[11:40] [herna.net]", "kt-online-24, kt-popoludnie")
    checkin = _index(lines, "[11:41] [kt-popoludnie #1003] /prezentacia Oto Kalina → "
                            "Prezentácia prijatá")
    assert _index(lines, "kt-popoludnie") == created  # nothing of it before it exists
    assert created < covered < checkin
    # its timers run on the one scheduler, its games come from the one herna.net poll
    assert _index(lines, "[13:30] [kt-popoludnie #1003] [kanál] Začína sa 1. kolo")
    assert _index(lines, "[kt-popoludnie #1003] [kanál] Výsledok 1. kola")
    events = {e["slug"]: e for e in runs["json"]["events"]}
    assert events["kt-popoludnie"]["polls"] > 0
    results = [r for rnd in events["kt-popoludnie"]["rounds"] for r in rnd["results"]]
    assert len(results) == 6 and all(r["status"] == "confirmed" for r in results)
    # once it has finished, the poll covers only what still runs
    assert _index(lines, "[15:35] [herna.net]", "turnaje: kt-online-24.") > _index(
        lines, "[kt-popoludnie #1003] [kanál] Turnaj Online KT — popoludnie", "sa skončil")


def test_the_season_page_is_rewritten_when_the_qualifier_finishes(runs: dict[str, Any]) -> None:
    lines = _transcript(runs["text"])
    finished = _index(lines, "[kt-online-24 #1001] [kanál] Turnaj Online KT — skúška "
                             "(24 hráčov)", "sa skončil")
    moved = _index(lines, "[kt-online-24 #1001] [kanál] Rebríček sezóny Kvalifikácia na "
                          "M-SR 2026/27 po turnaji Online KT — skúška (24 hráčov)")
    rewritten = _index(lines, "[kt-online-24 #1001] Rebríček sezóny Kvalifikácia na M-SR "
                              "2026/27 prepočítaný po skončení kt-online-24: stránka",
                       "msr-2026-27/index.html prepísaná")
    assert finished < moved < rewritten
    assert "Ľubomír Štefánik (lubos)" in lines[moved]  # moved into the qualifying places
    # the small qualifier is not in the season: its end leaves the page alone
    assert not any("po skončení kt-popoludnie" in line for line in lines)
    for player in ("Filip Čierny", "Ľubomír Štefánik", "Cyril Ďurica"):
        assert player in runs["page"]
    assert runs["json"]["season"]["pages"] == [
        {"after": "kt-online-24", "at": "2026-11-21 16:02",
         "file": str(runs["db"].parent / "web" / "msr-2026-27" / "index.html"),
         "rewritten": True}]


def test_the_season_messages_exist_in_both_languages() -> None:
    catalogue = Catalogue.load()
    sk, en = (catalogue.languages[code].messages for code in ("sk", "en"))
    used = set(re.findall(r'"(rehearse\.season\.[a-z_]+)"',
                          (ROOT / "bot" / "rehearse" / "season.py").read_text(encoding="utf-8")))
    assert len(used) >= 5
    assert used <= set(sk) and used <= set(en)


@pytest.mark.parametrize(("change", "line", "reason"), [
    (("channel = 1002", "channel = 1001"), 24, "kanál 1001 už má udalosť na riadku 20"),
    (('file = "kt-online-24.toml"\n', 'file = "kt-online-24.toml"\nstart = "2026-11-21 09:00"\n'),
     22, "posunúť začiatok sa dá len duplikátnej partii"),
    (('created = "2026-11-21 11:40"', 'created = "2026-11-21 11:41"'), 31,
     "udalosť treba vytvoriť najneskôr 2026-11-21 11:40"),
])
def test_a_bad_part_is_a_scenario_error_on_its_line(tmp_path: Path, change: tuple[str, str],
                                                   line: int, reason: str) -> None:
    text = SEASON.read_text(encoding="utf-8")
    assert change[0] in text
    folder = tmp_path / "rehearsal"
    shutil.copytree(SEASON.parent, folder)
    shutil.copytree(ROOT / "examples" / "season", tmp_path / "season")
    scenario = folder / "sezona.toml"
    scenario.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(scenario), out, err) == 2
    assert err.getvalue().startswith(f"{scenario}:{line}: "), err.getvalue()
    assert reason in err.getvalue()
    assert out.getvalue() == ""


def test_the_page_named_at_the_end_is_the_seasons_ladder(runs: dict[str, Any]) -> None:
    """Issue 44 wording: the season's page is its ladder, not an event's results page."""
    last = runs["text"].rstrip("\n").splitlines()[-1]
    assert last.startswith("Stránka rebríčka sezóny zapísaná: ") and last.endswith(
        "msr-2026-27/index.html")
