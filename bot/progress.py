"""A progress bar for the console: redrawn in place on a terminal, one line a step in a log.

`stredisko sync` shows how many herna.net records it has read; a pipe or a log file (CI, cron)
gets plain lines instead of carriage returns.
"""

from __future__ import annotations

from typing import TextIO

WIDTH = 24


def bar(done: int, total: int, width: int = WIDTH) -> str:
    """`[#########---------------]  9/24` (an empty total counts as complete)."""
    filled = width if total <= 0 else min(width, done * width // total)
    return f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total}"


class Progress:
    """Call it with (done, total) after each step."""

    def __init__(self, label: str, out: TextIO) -> None:
        self.label = label
        self.out = out
        self.live = out.isatty()

    def __call__(self, done: int, total: int) -> None:
        if self.live:
            end = "\n" if done >= total else ""
            print(f"\r{self.label} {bar(done, total)}", end=end, file=self.out, flush=True)
        else:
            print(f"{self.label} {done}/{total}", file=self.out, flush=True)
