"""The verdict block every benchmark ends with: each target, whether it was met, and the figure
measured against it (issue 21: a benchmark says what it measured against what target)."""

from __future__ import annotations


class Verdicts:
    def __init__(self) -> None:
        self.lines: list[tuple[str, bool, str]] = []

    def add(self, target: str, ok: bool, figure: str) -> None:
        self.lines.append((target, ok, figure))

    def print(self, note: str = "") -> None:
        print(f"\nVerdict{f' ({note})' if note else ''}")
        for target, ok, figure in self.lines:
            print(f"  {'met   ' if ok else 'MISSED'}  {target}: {figure}")
