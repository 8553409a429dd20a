"""A fork server for the kill campaign (tests/bot/crash/campaign.py): it imports the drivers
once, then forks one process per run asked of it.

    python zygote.py    (requests on stdin, answers on stdout, one JSON line each)

Each run is still a process of its own, started from the unpatched, just-imported drivers:
it opens its store, simulator and sockets after the fork, arms its crash, patches its crash
points in and ends as a driver started from the shell would (its `main`'s exit code, os._exit
at the crash point, or SIGKILL from the campaign). What the fork saves is Python's start-up
and ~1.3 s of imports per process — about half of each run's CPU (issue 21).

A request is `{"driver": "driver.py" | "duplicate_driver.py" | "hall_driver.py" |
"two_events_driver.py", "argv": [...], "stderr": PATH}`.
The zygote answers `{"ready": true}` once the drivers are imported, then per request
`{"pid": N}` at once and `{"code": C}` when the run has ended (C as `subprocess` gives it: the
exit code, or minus the signal that ended it). Runs are one at a time; the campaign keeps a
zygote per concurrent run. End of stdin ends the zygote.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))  # as for `python driver.py`: `import driver`

import driver
import duplicate_driver
import hall_driver
import two_events_driver

DRIVERS: dict[str, ModuleType] = {"driver.py": driver, "duplicate_driver.py": duplicate_driver,
                                  "hall_driver.py": hall_driver,
                                  "two_events_driver.py": two_events_driver}


def _answer(**fields: Any) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def _child(request: dict[str, Any]) -> None:
    """In the forked process: stdin and stdout to /dev/null (they are the zygote's channel),
    stderr to the request's file; run the driver and exit as its script does."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(err, 2)
    sys.argv = [request["driver"], *request["argv"]]
    sys.exit(DRIVERS[request["driver"]].main(request["argv"]))


def main() -> None:
    # a fork copies only the calling thread: a thread started by an import would be missing
    # in every run (and could hold a lock there)
    assert threading.active_count() == 1, threading.enumerate()
    _answer(ready=True)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)  # never returns: SystemExit ends the child's interpreter
        _answer(pid=pid)
        _, status = os.waitpid(pid, 0)
        _answer(code=os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
