"""Typing a round's 64 slips at hall speed (issue 41.2): through the arbiter's desk (`stredisko
duplicate pult`, one process, a slip a line) against 64 one-shot `stredisko duplicate slip`
processes, in the same run, on copies of the same database (a hall event, ČAS profile, round 1
open).

Measured: the desk fed a line at a time, each line's time until its receipt (and the desk's
start-up, waited once a game); each one-shot process's wall time (its interpreter start-up and
imports are what the arbiter would wait every slip). Verdict: the
desk answers a slip faster than a hall arbiter types the next one — under 0.2 s a line (a slip
of "12 8H KOSA 7" takes a trained typist about 3 s) — and faster than a one-shot process.

Run: .venv/bin/python bench/duplicate_desk.py [--slips 64]   (numbers are printed)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the tests' hall is importable

from tests.bot.cli.test_duplicate_hall import write_hall  # noqa: E402

STREDISKO = str(ROOT / ".venv" / "bin" / "stredisko")
TARGET_S = 0.2  # per desk line: well under the time to type the next slip


def hall(folder: Path, players: int) -> Path:
    """The hall event of the CLI's tests with `players` entrants (the three of the tests and
    more), game 1 started and round 1 open; its database."""
    prop = write_hall(folder) / "propozicie.toml"
    more = "".join(f'\n[[player]]\nid = "{i}"\nname = "Hráč {i:02d}"\n'
                   for i in range(4, players + 1))
    prop.write_text(prop.read_text(encoding="utf-8") + more, encoding="utf-8")
    db = folder / "sala.db"
    for argv in (["create", str(prop)], ["duplicate", "start", "sala", "--seed", "3f" * 32],
                 ["duplicate", "rack", "sala", "1", "AEKLOSV"]):
        subprocess.run([STREDISKO, "--db", str(db), *argv], check=True, cwd=folder,
                       capture_output=True)
    return db


def desk_lines(db: Path, lines: list[str]) -> tuple[float, list[float], int]:
    """The desk fed a line at a time, as an arbiter types: its start-up (until it answers a
    first `pomoc`), then each line's time until its receipt; the receipts counted."""
    proc = subprocess.Popen([STREDISKO, "--db", str(db), "duplicate", "pult", "sala"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            encoding="utf-8", cwd=db.parent, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    start = time.perf_counter()
    proc.stdin.write("pomoc\n")
    proc.stdin.flush()
    while "koniec" not in proc.stdout.readline():  # the help's last line
        pass
    startup = time.perf_counter() - start
    times: list[float] = []
    received = 0
    for line in lines:
        start = time.perf_counter()
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        received += "Lístok prijatý" in proc.stdout.readline()
        times.append(time.perf_counter() - start)
    proc.stdin.write("koniec\n")
    proc.stdin.close()
    proc.wait(60)
    return startup, times, received


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slips", type=int, default=64)
    n = parser.parse_args().slips
    with tempfile.TemporaryDirectory(prefix="desk-bench-") as tmp:
        base = hall(Path(tmp), n)
        desk_db, shot_db = (base.with_name(f"{name}.db") for name in ("desk", "oneshot"))
        for copy in (desk_db, shot_db):
            shutil.copy(base, copy)
        slips = [f"{i} 8H KOSA 7" for i in range(1, n + 1)]
        startup, times, received = desk_lines(desk_db, slips)
        per_line = statistics.median(times)
        each: list[float] = []
        for i in range(1, n + 1):
            start = time.perf_counter()
            subprocess.run([STREDISKO, "--db", str(shot_db), "duplicate", "slip", "sala", "1",
                            str(i), "8H KOSA", "--declared", "7"], check=True,
                           capture_output=True, cwd=base.parent)
            each.append(time.perf_counter() - start)
    print(f"desk: {n} slips typed into one process: {sum(times):.2f} s in all, median "
          f"{per_line * 1000:.1f} ms, max {max(times) * 1000:.1f} ms a line (start-up "
          f"{startup:.2f} s, once a game); receipts {received}")
    print(f"one-shot: {n} `stredisko duplicate slip` processes: {sum(each):.2f} s in all, "
          f"median {statistics.median(each) * 1000:.0f} ms, max {max(each) * 1000:.0f} ms "
          f"a slip")
    ratio = statistics.median(each) / per_line if per_line > 0 else float("inf")
    ok = received == n and per_line < TARGET_S and per_line < statistics.median(each)
    print(f"verdict: {'OK' if ok else 'NOT MET'} — the desk answers a slip in "
          f"{per_line * 1000:.0f} ms (target < {TARGET_S * 1000:.0f} ms), {ratio:.0f}× faster "
          f"than a one-shot process")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
