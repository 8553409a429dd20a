"""A progress bar for the console: redrawn in place on a terminal, one line a step in a log.

`stredisko sync` shows how many herna.net records it has read; `stredisko lexicon build` and
`lexicon standin` show which of their steps runs (`2/4`) and how far it is. A pipe or a log
file (CI, cron) gets plain lines instead of carriage returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

WIDTH = 24
#: a long count is drawn at most this many times (and at its end): a log of a 3-million-line
#: list gets ~50 lines, not 3 million
PARTS = 50

#: (done, total) after each unit of work
Counter = Callable[[int, int], None]
#: starts the next named step of a job and returns its counter
StepStart = Callable[[str], Counter]


def bar(done: int, total: int, width: int = WIDTH) -> str:
    """`[#########---------------]  9/24` (an empty total counts as complete)."""
    filled = width if total <= 0 else min(width, done * width // total)
    return f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total}"


class Progress:
    """Call it with (done, total) after each step. With `parts`, a call is drawn only when
    `done` has moved by total/parts since the last one drawn (the last call always is)."""

    def __init__(self, label: str, out: TextIO, parts: int = 0) -> None:
        self.label = label
        self.out = out
        self.live = out.isatty()
        self.parts = parts
        self._next = 0
        self.open = False  # a bar drawn in place that no newline has ended yet

    def begin(self) -> None:
        """Show the label alone (`LABEL …`) until the first count."""
        self.open = self.live
        start, end = ("\r", "") if self.live else ("", "\n")
        print(f"{start}{self.label} …", end=end, file=self.out, flush=True)

    def __call__(self, done: int, total: int) -> None:
        if self.parts and done < total:
            if done < self._next:
                return
            self._next = done + max(1, total // self.parts)
        if self.live:
            self.open = done < total
            end = "" if self.open else "\n"
            print(f"\r{self.label} {bar(done, total)}", end=end, file=self.out, flush=True)
        else:
            print(f"{self.label} {done}/{total}", file=self.out, flush=True)


class Steps:
    """A job of `count` named steps, each with its own bar: `LABEL 2/4 zostavujem graf
    [#####---] 1200/3000`. Call it with the next step's name; it returns that step's
    counter."""

    def __init__(self, label: str, count: int, out: TextIO, parts: int = PARTS) -> None:
        self.label = label
        self.count = count
        self.out = out
        self.parts = parts
        self.started = 0
        self.current: Progress | None = None

    def __call__(self, name: str) -> Progress:
        self.stop()
        self.started += 1
        self.current = Progress(f"{self.label} {self.started}/{self.count} {name}", self.out,
                                self.parts)
        self.current.begin()  # the step shows as soon as it starts, before any count
        return self.current

    def stop(self) -> None:
        """End a bar left unfinished (the step failed), so what follows starts a line."""
        if self.current is not None and self.current.open:
            print(file=self.out, flush=True)
            self.current.open = False
