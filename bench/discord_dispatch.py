"""64 players issue a slash command at the same moment, through discord.py's real dispatch.

Prints the time to first response (median, p99, max) per command and the process's RSS.
The HTTP side is the offline harness (no network), so this measures the bot's own work:
payload parsing, the command tree, transformers, checks, the reply and the recorder.

    .venv/bin/python bench/discord_dispatch.py [--users 64] [--bursts 5]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import resource
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.discord.client import StrediskoBot  # noqa: E402
from bot.discord.testkit import DiscordHarness, Exchange, FakeUser  # noqa: E402

RESULT = {"moje_skore": 420, "skore_supera": 300, "dovod": "server neuložil partiu"}


def _sample_cog() -> ModuleType:
    # The sample cog lives with the tests (tests/ is not a package): load it by path.
    path = ROOT / "tests" / "bot" / "discord" / "sample_cog.py"
    spec = importlib.util.spec_from_file_location("stredisko_sample_cog", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _rss_mib() -> tuple[float, float]:
    """Current and peak resident set size, MiB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    current = pages * resource.getpagesize() / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return current, peak


def _report(label: str, exchanges: list[Exchange], wall: float) -> None:
    times = sorted(ex.first_response_s * 1000 for ex in exchanges if ex.first_response_s)
    missing = len(exchanges) - len(times)
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(
        f"{label:<31} n={len(times):>4}  first response ms: median {statistics.median(times):7.2f}"
        f"  p99 {p99:7.2f}  max {times[-1]:7.2f}  |  burst wall {wall * 1000:7.1f} ms"
        + (f"  UNANSWERED {missing}" if missing else "")
    )


async def _burst(
    h: DiscordHarness, users: list[FakeUser], command: str, options: dict[str, object]
) -> tuple[list[Exchange], float]:
    started = time.perf_counter()
    exchanges = await asyncio.gather(*(h.slash(command, user=u, options=options) for u in users))
    return list(exchanges), time.perf_counter() - started


async def main(n_users: int, bursts: int) -> None:
    sample = _sample_cog()
    rss_before, _ = _rss_mib()
    bot = StrediskoBot(cogs=[lambda b: sample.SampleCog(b, service_delay=0.02)])
    async with DiscordHarness(bot) as h:
        users = [h.member(f"Hráč {i:02d}") for i in range(n_users)]
        await _burst(h, users[:4], "vysledok", RESULT)  # warm-up: imports, caches
        for command, options, label in (
            ("vysledok", RESULT, "/vysledok (immediate reply)"),
            ("stav", {}, "/stav (defer, 20 ms, followup)"),
        ):
            collected: list[Exchange] = []
            walls = []
            for _ in range(bursts):
                exchanges, wall = await _burst(h, users, command, options)
                collected += exchanges
                walls.append(wall)
            _report(label, collected, statistics.median(walls))
    rss, peak = _rss_mib()
    print(f"users per burst {n_users}, bursts {bursts}, python {sys.version.split()[0]}")
    print(f"RSS: before bot {rss_before:.1f} MiB, now {rss:.1f} MiB, peak {peak:.1f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=64)
    parser.add_argument("--bursts", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.users, args.bursts))
