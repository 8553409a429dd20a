"""The rehearsal shows herna.net and the timers as the live bot would meet them.

- herna.net lists a game from the moment it starts: until it ends it is "in progress".
- At one moment the polls run before the timers due then: a game that ended two minutes
  before the 10-minutes-before-limit reminder is already known when the reminder goes out.

The scenario (the small scenario's five players, one round 09:00, limit 09:50, eva has the
bye; worked out by hand from RULES.md):
- table 1 anna–boris: started 09:37, boris resigned at 09:38 → anna wins (row 3, e-SP 3.5);
  the 09:40 poll finds it, so the 09:40 reminder skips them.
- table 2 cyril–dana: started 09:45, ended 09:55 after the limit → at 09:50 the game is on
  herna.net in progress, so the limit proposes over_limit 0:0 (row 7, e-SP 4.5, 4.9), not
  both_no_show; they had no game at 09:40 and get the reminder.
- anna–cyril (no such table) started 09:51 and never ends: shown in progress for ever.

The engine leaves out a poll that cannot change anything (`skip_idle_polls`); the outcome must
be the same as with every poll.
"""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from bot.clock import ManualClock
from bot.rehearse.command import run_command
from bot.rehearse.engine import rehearse
from bot.rehearse.events import Events
from bot.rehearse.output import Transcript
from bot.rehearse.scenario import load_scenario
from bot.services.app import App
from rules import End
from rules.scoring import END_NAMES_SK
from scrapers.herna import EndKind
from scrapers.herna.simulator import Simulator

SMALL = Path(__file__).parent / "scenarios" / "small.toml"
# the players of the small scenario (anna, boris, cyril, dana, eva), as its file has them
_SMALL_TEXT = SMALL.read_text(encoding="utf-8")
PLAYERS = _SMALL_TEXT[_SMALL_TEXT.index("\n[[player]]\n"):_SMALL_TEXT.index("\n[[round]]\n")]
SCENARIO = """
[tournament]
name = "Online KT — vernosť skúšky"
rounds = 1
round_starts = ["2026-11-21 09:00"]
waiting_minutes = 10
game_limit_minutes = 50

""" + PLAYERS + """
[[round]]
number = 1
pairings = [["anna", "boris"], ["cyril", "dana"], ["eva"]]

[[event]]
at = "2026-11-21 09:38"
type = "game"
first = "anna"
second = "boris"
score = [120, 80]
end = "resigned"
on = "boris"
moves = [3, 3]
started = "2026-11-21 09:37"

[[event]]
at = "2026-11-21 09:55"
type = "game"
first = "cyril"
second = "dana"
score = [380, 350]
end = "finished"
started = "2026-11-21 09:45"

[[event]]
at = "2026-11-21 09:56"
type = "game"
first = "anna"
second = "cyril"
score = [40, 30]
end = "unfinished"
started = "2026-11-21 09:51"
"""


@pytest.fixture(scope="module")
def scenario_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vernost") / "vernost.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def doc(scenario_file: Path) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(scenario_file), out, err, as_json=True) == 0, err.getvalue()
    return json.loads(out.getvalue())


def _utc(hh_mm: str) -> datetime:
    hours, minutes = map(int, hh_mm.split(":"))
    return datetime(2026, 11, 21, hours - 1, minutes, tzinfo=UTC)  # Bratislava is UTC+1


def test_a_game_is_listed_from_its_start_and_in_progress_until_its_end(
        scenario_file: Path) -> None:
    scenario = load_scenario(scenario_file)
    sim = Simulator({"x": "y"})
    clock = ManualClock(_utc("09:00"))
    events = Events(scenario, cast(App, None), sim, Transcript(clock, str), "slug", {})
    events.publish_games()

    def shown(hh_mm: str) -> dict[tuple[str, str], tuple[EndKind, int]]:
        return {r.nicks: (r.end, r.first_score) for r in sim.visible(_utc(hh_mm))}

    assert shown("09:36") == {}
    assert shown("09:37") == {("anna77", "borisko"): (EndKind.UNFINISHED, 0)}
    assert shown("09:38")[("anna77", "borisko")] == (EndKind.RESIGNED, 120)
    assert shown("09:50")[("cyro", "danka")][0] is EndKind.UNFINISHED
    assert shown("09:55")[("cyro", "danka")] == (EndKind.FINISHED, 380)
    # an unfinished game stays in progress for ever, with the score it reached
    assert shown("23:00")[("anna77", "cyro")] == (EndKind.UNFINISHED, 40)
    # ids follow the events' order, as the transcript prints them
    assert sorted(int(r.game_id) for r in sim.visible(_utc("23:00"))) == [1000, 1001, 1002]


def test_the_poll_at_a_moment_runs_before_its_reminder(doc: dict[str, Any]) -> None:
    reminded = {line.split("]")[1].removeprefix(" [DM ")
                for line in doc["transcript"] if line.startswith("[09:40] [DM ")}
    assert reminded == {"Cyril Ďurovič", "Dana Žitná"}
    table1 = next(r for r in doc["rounds"][0]["results"] if r["table"] == 1)
    assert (table1["end"], table1["first_points"], table1["rule"]) == (
        "resigned", 1.0, "e-SP 3.5")


def test_a_game_in_progress_at_the_limit_is_proposed_as_over_the_limit(
        doc: dict[str, Any]) -> None:
    proposed = [line for line in doc["transcript"]
                if line.startswith("[09:50] [admin] ") and "stôl 2" in line]
    assert len(proposed) == 1
    assert END_NAMES_SK[End.OVER_LIMIT] in proposed[0]
    assert END_NAMES_SK[End.BOTH_NO_SHOW] not in proposed[0]
    table2 = next(r for r in doc["rounds"][0]["results"] if r["table"] == 2)
    assert (table2["end"], table2["first_points"], table2["second_points"],
            table2["rule"]) == ("over_limit", 0.0, 0.0, "e-SP 4.5, 4.9")


# -- idle polls left out change nothing but the sync-run log --------------------------------


def _sync_runs(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM sync_runs").fetchone()[0])


@pytest.mark.parametrize("which", ["small", "vernost"])
async def test_skipping_idle_polls_gives_the_same_rehearsal(
        which: str, scenario_file: Path, tmp_path: Path) -> None:
    scenario = load_scenario(SMALL if which == "small" else scenario_file)
    every = await rehearse(scenario, tmp_path / "every.db", skip_idle_polls=False)
    skipped = await rehearse(scenario, tmp_path / "skipped.db")
    assert skipped.document == every.document  # transcript, results, proposals, refusals
    assert skipped.standings == every.standings
    assert _sync_runs(tmp_path / "skipped.db") < _sync_runs(tmp_path / "every.db")
