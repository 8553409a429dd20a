"""Kill the control centre anywhere in a whole small tournament, restart it, and nothing is lost,
doubled or left behind (issue: "Nothing lost"). Each case is a real process of
tests/bot/crash/driver.py ended abruptly (os._exit at a crash point, or SIGKILL from here),
restarted until the tournament is over, then compared with a run that was never killed.
bench/kill_campaign.py runs a larger random campaign and prints its figures."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .campaign import Final, clean_run, killed_run

# Every crash point early, midway and late in the first process, a SIGKILL at a moment, and
# chains of kills in the restarted processes (a crash during recovery).
CASES: list[list[str | float]] = [
    ["commit:before:25"], ["commit:before:210"], ["commit:before:380"],
    ["commit:after:3"], ["commit:after:150"], ["commit:after:390"],
    ["send:before:1"], ["send:before:40"],
    ["send:after:12"], ["send:after:62"],
    ["http:2"], ["http:60"],
    [1.5],
    ["commit:after:100", "send:after:1", "http:4", "commit:before:2"],
]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[Final, dict[str, int]]:
    final, counts, _ = clean_run(tmp_path_factory.mktemp("clean"))
    assert final.integrity == "ok" and final.results and final.delivered
    return final, counts


def test_a_whole_tournament_survives_kills_anywhere(
        clean: tuple[Final, dict[str, int]], tmp_path: Path) -> None:
    final, counts = clean
    for point in ("commit:before", "commit:after", "send:before", "send:after", "http"):
        assert counts[point] > 0, point  # the clean run passes every point the cases name
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda n: killed_run(tmp_path / f"case{n}", CASES[n], final),
                                 range(len(CASES))))
    unkilled = [CASES[n] for n, o in enumerate(outcomes) if o.kills < 1]
    assert unkilled == []  # every case really was killed
    failing = [f"{CASES[n]}: {o.comparison}" for n, o in enumerate(outcomes)
               if not o.comparison.clean]
    assert not failing, "\n".join(failing)
    # a message delivered just before a kill went out again after the restart: Discord (the
    # sink) recognised its nonce, so it is not a second copy
    assert sum(o.repeats for o in outcomes) >= 1
    # a kill during a herna.net read left its sync run "running": the next run closed it as
    # failed and told the head admin (once per cut-short run)
    assert sum(o.notices for o in outcomes) >= 1
