"""The verdict block every benchmark ends with: each target, whether it was met, and the figure
measured against it (issue 21: a benchmark says what it measured against what target); and the
process's resident memory, which several targets bound."""

from __future__ import annotations

from pathlib import Path


class Verdicts:
    def __init__(self) -> None:
        self.lines: list[tuple[str, bool, str]] = []

    def add(self, target: str, ok: bool, figure: str) -> None:
        self.lines.append((target, ok, figure))

    def print(self, note: str = "") -> None:
        print(f"\nVerdict{f' ({note})' if note else ''}")
        for target, ok, figure in self.lines:
            print(f"  {'met   ' if ok else 'MISSED'}  {target}: {figure}")


def rss_mib() -> tuple[float, float]:
    """Current (VmRSS) and peak (VmHWM) resident set size of this process, MiB. Both from one
    read of /proc/self/status: ru_maxrss is counted apart (lazily) and read a peak below the
    current figure; a peak is never below the current one."""
    found = {"VmRSS:": 0.0, "VmHWM:": 0.0}
    for line in Path("/proc/self/status").read_text().splitlines():
        name = line.split(maxsplit=1)[0] if line else ""
        if name in found:
            found[name] = int(line.split()[1]) / 1024
    return found["VmRSS:"], max(found["VmHWM:"], found["VmRSS:"])
