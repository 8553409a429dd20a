"""Shared test settings, and the order the tests are handed to the workers in."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# A run started in the background by a non-interactive shell inherits SIGINT ignored, and so
# would every subprocess a test stops with SIGINT (the simulator, `stredisko … simulator`):
# they would not stop and the test fails after its wait. Python's own disposition back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# No wall-clock deadlines in property tests: CI machines are shared; speed lives in bench/.
settings.register_profile(
    "stredisko", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("stredisko")

#: The files with the longest tests (issue 21, measured: 5–25 s of CPU each), and the bundled
#: rehearsal every `kt24` user waits for: run first, so that under `--dist worksteal` both
#: workers end on short tests instead of one finishing a long one while the other idles.
LONG_FIRST = (
    "tests/bot/services/test_export_demo.py",  # its first test runs the `kt24` rehearsal
    "tests/test_installed_wheel.py",  # builds, installs and runs the wheel (~15 s of CPU)
    "tests/rules/duplicate/test_generate.py",
    "tests/bot/crash/",
    "tests/bot/publish/test_browser.py",
    "tests/bot/publish/test_duplicate_page_browser.py",
    "tests/bot/hall/test_browser.py",
    "tests/bot/discord/test_lease.py",
    "tests/bot/discord/test_lease_fencing.py",
    "tests/rules/test_pairing.py",
    "tests/rules/test_pairing_optimal.py",
)


def _rank(item: pytest.Item) -> int:
    return next((n for n, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)),
                len(LONG_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):  # a serial run keeps the collection order
        items.sort(key=_rank)  # stable: within a file and among the rest, the order stays


# -- Discord's spec: how many requests the harness checked (issue 34.1) ----------------------

_HARNESS = "tests.bot.discord.harness.contract"
_TALLY_FIELDS = ("requests", "bodies", "violating", "violations", "seconds")


def _tally() -> dict[str, float]:
    contract = sys.modules.get(_HARNESS)  # loaded only where Discord tests ran
    tally = getattr(contract, "TALLY", None)
    return {name: getattr(tally, name, 0) for name in _TALLY_FIELDS}


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the tally to the controller
        workeroutput["discord_spec"] = _tally()


_from_workers: dict[str, float] = dict.fromkeys(_TALLY_FIELDS, 0)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    for name, count in getattr(node, "workeroutput", {}).get("discord_spec", {}).items():
        _from_workers[name] += count


def pytest_terminal_summary(terminalreporter: Any) -> None:
    # the order this run took (pytest-randomly, issue 43.1), printed even under -q: a failure
    # that hangs on the order is repeated with the same seed
    seed = getattr(terminalreporter.config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(
            f"Test order: random, seed {seed} (the same order again: "
            f"--randomly-seed={seed}; the files' own order: -p no:randomly)")
    tally = {name: count + _from_workers[name] for name, count in _tally().items()}
    if tally["requests"]:
        terminalreporter.write_line(
            f"Discord's OpenAPI spec: {tally['requests']} requests validated "
            f"({tally['bodies']} with a body) in {tally['seconds']:.2f} s of CPU, "
            f"{tally['violating']} violating ({tally['violations']} violations)")
