"""Per-user command rate limit: a player hammering a command gets a polite refusal, and the
store is not flooded with transactions by one impatient click-finger.

A sliding window per user: at most `limit` commands in any `per` seconds. Monotonic time is a
parameter, so tests move it by hand.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

DEFAULT_LIMIT = 5
DEFAULT_PER_SECONDS = 10.0


class RateLimiter:
    def __init__(
        self,
        limit: int = DEFAULT_LIMIT,
        per: float = DEFAULT_PER_SECONDS,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if limit < 1 or per <= 0:
            raise ValueError("rate limit needs limit >= 1 and per > 0")
        self.limit = limit
        self.per = per
        self._clock = clock
        self._hits: dict[int, deque[float]] = {}

    def hit(self, user_id: int) -> float | None:
        """Count one command of `user_id`; None if allowed, else seconds until the next one is.

        A refused attempt is not counted, so waiting the given time always helps.
        """
        now = self._clock()
        hits = self._hits.setdefault(user_id, deque())
        while hits and hits[0] <= now - self.per:
            hits.popleft()
        if len(hits) >= self.limit:
            return hits[0] + self.per - now
        hits.append(now)
        self._forget_idle(now)
        return None

    def _forget_idle(self, now: float) -> None:
        # Keep memory bounded over a long tournament: drop users idle for a whole window.
        if len(self._hits) > 1000:
            idle = [u for u, h in self._hits.items() if not h or h[-1] <= now - self.per]
            for user_id in idle:
                del self._hits[user_id]


def whole_seconds(seconds: float) -> int:
    """What the refusal shows: never "0 s" while the user must still wait."""
    return max(1, math.ceil(seconds))
