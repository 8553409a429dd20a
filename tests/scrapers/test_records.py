"""GameRecord refuses half-filled or inconsistent data; layout helpers convert times."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from scrapers.herna import layout
from scrapers.herna.errors import LayoutChanged
from scrapers.herna.records import EndKind

from .conftest import MAKE_PAGES

GOOD = MAKE_PAGES.SAMPLES["game_resigned"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"second": "Ľubo_Š"}, "two different nicks"),
        ({"first": ""}, "two different nicks"),
        ({"game_id": ""}, "no game id"),
        ({"first_moves": -1}, "negative number of moves"),
        ({"ended_on": None}, "must name one of the players"),
        ({"ended_on": "Fero"}, "must name one of the players"),
        ({"end": EndKind.FINISHED}, "names no player"),
        ({"end": EndKind.UNFINISHED, "ended_on": None}, "exactly when the game is not unfinished"),
        ({"started": datetime(2026, 3, 7, 9, 0)}, "start time must be timezone-aware UTC"),
        ({"ended": GOOD.started.astimezone(timezone(timedelta(hours=1)))}, "end time must be"),
    ],
)
def test_inconsistent_records_are_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        replace(GOOD, **changes)


def test_accessors():
    assert GOOD.nicks == ("Ľubo_Š", "Žofka&Co<3") and GOOD.starter == "Ľubo_Š"
    assert GOOD.score_of("Žofka&Co<3") == 389 and GOOD.moves_of("Ľubo_Š") == 12
    with pytest.raises(ValueError, match="did not play"):
        GOOD.score_of("Fero")


@pytest.mark.parametrize(
    ("utc", "shown"),
    [
        (datetime(2026, 1, 15, 18, 0, 0, tzinfo=UTC), "15.01.2026 19:00:00"),  # CET
        (datetime(2026, 7, 15, 18, 0, 0, tzinfo=UTC), "15.07.2026 20:00:00"),  # CEST
        (datetime(2026, 3, 29, 1, 0, 0, tzinfo=UTC), "29.03.2026 03:00:00"),  # spring forward
        (datetime(2026, 10, 25, 0, 30, 0, tzinfo=UTC), "25.10.2026 02:30:00"),  # 1st of two 2:30s
    ],
)
def test_page_times_are_local_and_read_back_as_utc(utc, shown):
    assert layout.page_time(utc) == shown
    assert layout.read_time(shown, "t") == utc


def test_the_repeated_autumn_hour_is_read_as_summer_time():
    # 01:30 UTC is the second 02:30 local; without an offset the page cannot say so.
    second = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)
    assert layout.read_time(layout.page_time(second), "t") == second - timedelta(hours=1)


@pytest.mark.parametrize("text", ["", "7.3.2026", "32.01.2026 10:00:00", "zajtra"])
def test_bad_times_raise_layout_changed(text):
    with pytest.raises(LayoutChanged, match="is not"):
        layout.read_time(text, "Začiatok")


def test_status_texts_round_trip():
    for kind in EndKind:
        nick = (
            "Ľubo: druhý"
            if kind in {EndKind.RESIGNED, EndKind.TIME_LOSS, EndKind.DISCONNECTED}
            else None
        )
        assert layout.read_status(layout.status_text(kind, nick)) == (kind, nick)
    with pytest.raises(LayoutChanged, match="nick is missing"):
        layout.read_status("vzdanie")
    with pytest.raises(LayoutChanged, match="unexpected"):
        layout.read_status("dohraná: Ľubo")


def test_urls():
    assert layout.history_url() == "/partie?strana=1"
    assert layout.history_url("Ľubo Š", 3) == "/partie?hrac=%C4%BDubo+%C5%A0&strana=3"
    assert layout.game_url("42") == "/partia/42"
    assert layout.is_login_url("https://www.herna.net/prihlasenie?dalej=/partie")
    assert layout.is_login_url("/prihlasenie")
    assert not layout.is_login_url("/partie?x=/prihlasenie")
