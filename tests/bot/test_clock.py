"""Times: UTC inside, Bratislava time for people; a manual clock never goes back."""

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import ManualClock, local, parse_local, to_utc


def test_parse_local_winter_and_summer_time() -> None:
    assert parse_local("2026-11-21 09:00") == datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
    assert parse_local("2026-07-04 09:00") == datetime(2026, 7, 4, 7, 0, tzinfo=UTC)
    assert local(datetime(2026, 11, 21, 8, 0, tzinfo=UTC)).hour == 9


def test_parse_local_refuses_garbage() -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD HH:MM"):
        parse_local("21.11.2026 9:00")


def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        to_utc(datetime(2026, 11, 21, 9, 0))


def test_manual_clock_moves_forward_only() -> None:
    clock = ManualClock(datetime(2026, 11, 21, 8, 0, tzinfo=UTC))
    clock.advance(timedelta(minutes=10))
    assert clock.now() == datetime(2026, 11, 21, 8, 10, tzinfo=UTC)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.set(datetime(2026, 11, 21, 8, 0, tzinfo=UTC))
