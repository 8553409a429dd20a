"""A heartbeat file for health checks: the bot's event loop rewrites it every few seconds.

A supervisor (systemd, Docker HEALTHCHECK, cron) calls
`python -m bot.discord.heartbeat FILE --max-age 120`: exit 0 when the file is fresh, 1 when it
is stale or missing. The file is written from the event loop itself, so a blocked loop (the
thing that makes a bot miss Discord's gateway heartbeats) shows up as a stale file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

log = logging.getLogger("stredisko.heartbeat")

DEFAULT_INTERVAL_S = 30.0


def write_heartbeat(path: Path, now: datetime) -> None:
    """Write `now` (UTC ISO-8601) atomically: a reader never sees a half-written file."""
    if now.tzinfo is None:
        raise ValueError("heartbeat time must be timezone-aware")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(now.astimezone(UTC).isoformat() + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_heartbeat(path: Path) -> datetime | None:
    """The last beat, or None when the file is missing or unreadable."""
    try:
        moment = datetime.fromisoformat(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
    return moment if moment.tzinfo is not None else None


def is_fresh(path: Path, max_age: timedelta, now: datetime) -> bool:
    beat = read_heartbeat(path)
    return beat is not None and now - beat <= max_age


class Heartbeat:
    """Writes the file at start, every `interval` seconds, and never crashes the bot."""

    def __init__(
        self,
        path: Path,
        interval: float = DEFAULT_INTERVAL_S,
        *,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.path = path
        self.interval = interval
        self._now = now
        self._task: asyncio.Task[None] | None = None

    def beat(self) -> None:
        try:
            write_heartbeat(self.path, self._now())
        except OSError as exc:  # a full disk must not take the bot down; the check will fail
            log.warning("heartbeat %s not written: %s", self.path, exc)

    async def _loop(self) -> None:
        while True:
            self.beat()
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="stredisko-heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Kontrola, či riadiace stredisko žije.")
    parser.add_argument("file", type=Path, help="súbor so srdcovým tepom")
    parser.add_argument("--max-age", type=float, default=120.0, help="najvyšší vek v sekundách")
    args = parser.parse_args(argv)
    if is_fresh(args.file, timedelta(seconds=args.max_age), datetime.now(UTC)):
        return 0
    print(f"stredisko: srdcový tep {args.file} chýba alebo je starší ako {args.max_age:g} s",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
