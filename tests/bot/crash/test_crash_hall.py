"""Kill the arbiter's console in a live hall's duplicate game, and he types the cut-short command
again as he would when unsure it was taken: it is recognised, answered alike, nothing stored or
said twice, and the game ends as a run nobody killed — racks, slips, scores, protests,
corrections, outbox, messages and every answer the console printed (campaign.HALL). Each kill
ends a real process of tests/bot/crash/hall_driver.py by os._exit inside the step it names
(checked: the step's command was taken); `bench/kill_campaign.py --hall` runs a larger random
campaign."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t

from .campaign import HALL, KILLED, Final, clean_run, killed_run, run

# (the kill, the command it cuts short, what the store holds when it comes: it was taken)
CASES: list[tuple[str, str, str, Any]] = [
    # Boris's slip of round 1 taken (committed), its receipt not yet printed
    ("typed:after:1@slip:1:1", "slip", "SELECT COUNT(*) FROM dup_slips", 2),
    # round 2's close written and said, its scores not yet on the screen
    ("typed:after:1@close:2", "close",
     "SELECT COUNT(*) FROM dup_rounds WHERE closed_at IS NOT NULL", 2),
    # the rounds left: round 5's close (the draws' loop's 2nd command) ended the game, not yet
    # on the screen — typed again first after the restart, before the loop looks at the game
    ("typed:after:2@end", "close", "SELECT state FROM dup_games", "preliminary"),
    # the upheld protest's verdict on the screen, the step not yet noted as done
    ("print:after:1@decide:0", "decide", "SELECT status FROM dup_protests WHERE id = 1", "upheld"),
]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[Final, dict[str, int], float]:
    final, counts, seconds = clean_run(tmp_path_factory.mktemp("clean"), HALL)
    assert final.integrity == "ok" and final.state["scores"] and final.delivered
    return final, counts, seconds


def _typed(folder: Path, kill: str, command: str) -> list[dict[str, Any]]:
    """What the console printed for `command` in the step `kill` names."""
    lines = (folder / "console").read_text(encoding="utf-8").splitlines()
    return [e for e in map(json.loads, lines)
            if e["step"] == kill.split("@")[1] and e["argv"][0] == command]


def test_a_hall_game_survives_kills_and_commands_typed_again(
        clean: tuple[Final, dict[str, int], float], tmp_path: Path) -> None:
    final, counts, _ = clean
    for point in HALL.points:
        assert counts[point] > 0, point  # the clean run passes every point
    assert [row[7] for row in final.state["protests"]] == ["upheld", "rejected"]
    # one game, killed in each case's step in turn: each restarted process types the cut-short
    # command again and goes on until the next case's step
    for kill, command, sql, taken in CASES:
        assert run(tmp_path, kill, game=HALL) == KILLED, kill
        db = sqlite3.connect(tmp_path / "db")
        try:
            assert db.execute(sql).fetchone()[0] == taken, kill  # the command was taken …
        finally:
            db.close()
        # … and its answer printed only when killed past `print:after`
        assert len(_typed(tmp_path, kill, command)) == kill.startswith("print:after"), kill
    outcome = killed_run(tmp_path, [], final, HALL)
    # every answer the console printed is the clean run's (campaign.console_rows), the ones
    # typed again after a restart too; nothing stored, said or delivered twice
    assert outcome.comparison.clean, outcome.comparison
    for kill, command, *_ in CASES:  # typed again (twice on screen if killed past the answer)
        typed = _typed(tmp_path, kill, command)
        assert [e["code"] for e in typed] == [0] * (1 + kill.startswith("print:after")), kill
    # the close typed again says first that the round was closed before, then the same scores
    assert _typed(tmp_path, "@close:2", "close")[0]["lines"][0] == t(
        "duplicate.online.closed_already", round=2)
