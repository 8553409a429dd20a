"""The throttle spaces request starts and bounds concurrency (on a fake clock)."""

from __future__ import annotations

import asyncio

from scrapers.herna.politeness import Throttle


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds
        await asyncio.sleep(0)


async def test_starts_are_spaced_by_the_rate():
    t = FakeTime()
    throttle = Throttle(None, 2.0, clock=t.clock, sleep=t.sleep)
    starts = []

    async def one() -> None:
        async with throttle.slot():
            starts.append(t.now)

    await asyncio.gather(*(one() for _ in range(5)))
    assert starts == [100.0, 100.5, 101.0, 101.5, 102.0]


async def peak(throttle: Throttle, tasks: int) -> int:
    """How many of `tasks` were inside the throttle at once, at most."""
    inside, most = 0, 0

    async def one() -> None:
        nonlocal inside, most
        async with throttle.slot():
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.001)
            inside -= 1

    await asyncio.gather(*(one() for _ in range(tasks)))
    return most


async def test_concurrency_is_bounded():
    assert await peak(Throttle(2, None), 8) == 2


async def test_off_means_no_waiting_and_no_bound():
    t = FakeTime()
    assert await peak(Throttle(None, None, clock=t.clock, sleep=t.sleep), 6) == 6
    assert t.sleeps == []
