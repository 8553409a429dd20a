"""Kill a whole online duplicate game anywhere, restart it, and nothing is lost, repeated or
changed (issue 24.4): the same racks and deadlines, every slip kept and scored once, no round
or top posted twice, the same timers and outbox as a run nobody killed. Each case is a real
process of tests/bot/crash/duplicate_driver.py ended abruptly (os._exit at a crash point, or
SIGKILL from here). `bench/kill_campaign.py --duplicate` runs a larger random campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from .campaign import DUPLICATE, Final, clean_run, planned_campaign

# mid-round (a slip's commit), at the deadline (before the close; the close written but its
# timer not claimed), while posting the board (a rack, a top with the new board), a delivery
# cut short, a SIGKILL midway, and kills in a row during recovery
PLANS: list[list[tuple[str, float] | float]] = [
    [("commit:after", 0.3)],
    [("deadline", 0.0)], [("deadline", 0.6)],
    [("close:after", 0.4)],
    [("board:before", 0.5)], [("board:after", 0.1)],
    [("send:after", 0.7)],
    [0.5],
    [("deadline", 0.2), ("commit:before", 0.05), ("board:after", 0.0)],
    # after the game: as a protest is filed, and as the upheld one is decided (its correction
    # and the round's rescoring): the 132nd and 140th of the clean run's 151 commits
    [("commit:after", 0.874)], [("commit:after", 0.927)],
    # once the end step's timers have ended the game (the 127th commit): the restart repeats the
    # step, which fires no timer again, and must not file the protests before the game's end
    # (driver.resume_clock; before it, 4:40 earlier than the clean run)
    [("commit:after", 0.84)],
]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[Final, dict[str, int], float]:
    final, counts, seconds = clean_run(tmp_path_factory.mktemp("clean"), DUPLICATE)
    assert final.integrity == "ok" and final.state["scores"] and final.delivered
    return final, counts, seconds


def test_a_whole_duplicate_game_survives_kills_anywhere(
        clean: tuple[Final, dict[str, int], float], tmp_path: Path) -> None:
    final, counts, seconds = clean
    for point in DUPLICATE.points:
        assert counts[point] > 0, point  # the clean run passes every point the cases name
    # the clean run itself: each player's scores of a round are versions 1, 2 … (a repeat
    # would add one), and only the upheld protest's correction added a second (004 §5D)
    versions: dict[tuple[int, int], list[int]] = {}
    for round_id, player, version, *_ in final.state["scores"]:
        versions.setdefault((round_id, player), []).append(version)
    assert all(v == list(range(1, len(v) + 1)) for v in versions.values())
    assert sum(len(v) - 1 for v in versions.values()) == len(final.state["corrections"]) == 1
    assert [row[7] for row in final.state["protests"]] == ["upheld", "rejected"]
    # every case really killed, and each ends as the clean run did
    outcomes = planned_campaign(tmp_path, PLANS, counts, seconds, final, DUPLICATE)
    # a board posted just before a kill went out again after the restart: "Discord"
    # recognised its nonce, so no round was posted twice
    assert sum(o.repeats for o in outcomes) >= 1
