"""Run a script with the stredisko packages imported from another checkout (side-by-side
measurement: an older commit's tree against this one's, both on this venv).

    git worktree add --detach /tmp/old <commit>
    .venv/bin/python tools/run_with.py /tmp/old bench/reports.py --repeat 2
    .venv/bin/python tools/run_with.py .       bench/reports.py --repeat 2

The venv's editable install puts this checkout's packages on the path for every script, and
a script's own folder comes first: the tree given here is put before both, and the editable
finder is dropped, so `bot`, `rules` and `scrapers` really come from that tree (print a
module's `__file__` to check). The bench's own folder stays importable for its helpers.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit("použitie: run_with.py STROM SKRIPT [ARGUMENTY…]")
    tree, script, *args = sys.argv[1:]
    sys.meta_path[:] = [finder for finder in sys.meta_path
                        if "editable" not in repr(finder).lower()]
    sys.path[:0] = [str(Path(tree).resolve()), str(Path(script).resolve().parent)]
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
