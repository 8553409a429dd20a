"""The client's bounds against respx: 429 with Retry-After (seconds, HTTP date, none, capped,
past the deadline), the history's page cap and total deadline (the partial result kept), and
the page size cap. Sleeps and the monotonic clock are fakes: nothing really waits."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest
import respx

from scrapers.herna import layout, pages
from scrapers.herna.client import Credentials, HernaClient, HernaSettings
from scrapers.herna.errors import (
    DeadlinePassed,
    LoginFailed,
    PageTooLarge,
    RateLimited,
    TooManyPages,
)

from .test_client import BASE, LOGGED_IN, PASSWORD, SINCE, html


@dataclass
class FakeTime:
    now: float = 0.0
    step: float = 0.0  # each reading of the clock moves it on (a slow site)
    slept: list[float] = field(default_factory=list)

    def clock(self) -> float:
        self.now += self.step
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def client(fake: FakeTime, **settings) -> HernaClient:
    values = {"max_concurrent": None, "per_second": None, "retries": 3, "backoff": 1.0}
    return HernaClient(Credentials("sss", PASSWORD),
                       HernaSettings(base_url=BASE, **(values | settings)),
                       sleep=fake.sleep, clock=fake.clock)


@pytest.fixture
def site():
    with respx.mock(base_url=BASE, assert_all_called=False) as mock:
        mock.post(layout.LOGIN_PATH, name="login").mock(return_value=LOGGED_IN)
        yield mock


def too_many(**headers: str) -> httpx.Response:
    return httpx.Response(429, headers=headers)


RETRY_AFTER = [
    ("seconds", {"Retry-After": "3"}, {}, [3.0, 3.0, 3.0]),
    ("http date", {"Date": "Sat, 07 Mar 2026 08:00:00 GMT",
                   "Retry-After": "Sat, 07 Mar 2026 08:00:45 GMT"}, {}, [45.0, 45.0, 45.0]),
    ("date already past", {"Date": "Sat, 07 Mar 2026 08:00:00 GMT",
                           "Retry-After": "Sat, 07 Mar 2026 07:59:00 GMT"}, {}, [0.0, 0.0, 0.0]),
    ("none: backoff", {}, {}, [1.0, 2.0, 4.0]),
    ("unreadable: backoff", {"Retry-After": "soon"}, {}, [1.0, 2.0, 4.0]),
    ("capped", {"Retry-After": "99999"}, {"retry_after_max": 60.0}, [60.0, 60.0, 60.0]),
]


@pytest.mark.parametrize(("headers", "settings", "slept"), [r[1:] for r in RETRY_AFTER],
                         ids=[r[0] for r in RETRY_AFTER])
async def test_429_honours_retry_after_and_is_reported_as_rate_limiting(
        site, headers, settings, slept) -> None:
    game = site.get(layout.game_url("700101")).mock(return_value=too_many(**headers))
    fake = FakeTime()
    async with client(fake, **settings) as herna:
        with pytest.raises(RateLimited, match="HTTP 429 4×"):
            await herna.record("700101")
    assert fake.slept == slept and game.call_count == 4


async def test_429_then_the_page(site, saved, samples) -> None:
    site.get(layout.game_url("700101")).mock(
        side_effect=[too_many(**{"Retry-After": "5"}), html(saved("game_finished"))])
    fake = FakeTime()
    async with client(fake) as herna:
        assert await herna.record("700101") == samples["game_finished"]
    assert fake.slept == [5.0]


async def test_a_429_at_login_is_rate_limiting_not_a_refused_login(site) -> None:
    site["login"].mock(return_value=too_many(**{"Retry-After": "2"}))
    async with client(FakeTime(), retries=1) as herna:
        with pytest.raises(RateLimited) as caught:
            await herna.login()
    assert not isinstance(caught.value, LoginFailed)
    assert "login" not in str(caught.value) and "429" in str(caught.value)


async def test_never_waits_past_the_reads_deadline(site) -> None:
    site.get(layout.HISTORY_PATH).mock(return_value=too_many(**{"Retry-After": "50"}))
    fake = FakeTime()
    async with client(fake, read_deadline=60.0, retry_after_max=100.0) as herna:
        with pytest.raises(RateLimited, match="past the read's deadline"):
            await herna.history(SINCE)
    assert fake.slept == [50.0]  # a second wait of 50 s would end after the deadline


def endless_pager(samples) -> object:
    """Every page "n of 99999" links page n + 1 and lists the same recent game."""
    def page(request: httpx.Request) -> httpx.Response:
        n = int(request.url.params.get(layout.HISTORY_PAGE_PARAM, "1"))
        return html(pages.history_page([samples["game_finished"]], n, 99_999).encode())
    return page


@pytest.mark.parametrize(("settings", "error", "requests"), [
    ({"max_pages": 7}, TooManyPages, 7),
    ({"read_deadline": 100.0, "step": 4.0}, DeadlinePassed, None),
], ids=["page cap", "deadline"])
async def test_an_endless_pager_ends_with_the_pages_read(
        site, samples, settings, error, requests) -> None:
    history = site.get(layout.HISTORY_PATH).mock(side_effect=endless_pager(samples))
    fake = FakeTime(step=settings.pop("step", 0.0))
    async with client(fake, **settings) as herna:
        with pytest.raises(error) as caught:
            await herna.history(SINCE)
    assert [e.game_id for e in caught.value.entries] == [samples["game_finished"].game_id]
    if requests is not None:
        assert history.call_count == requests
    else:  # each request reads the clock a few times (4 s each): 100 s last < 25 requests
        assert 1 < history.call_count < 25


async def _chunks(total: int, sent: list[int]) -> AsyncIterator[bytes]:
    for _ in range(total):
        sent.append(1)
        yield b"x" * 65_536


class Chunked(httpx.AsyncByteStream):
    def __init__(self, total: int, sent: list[int]) -> None:
        self.total, self.sent = total, sent

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in _chunks(self.total, self.sent):
            yield chunk


async def test_a_huge_page_is_refused_by_its_declared_length(site) -> None:
    site.get(layout.game_url("700101")).mock(
        return_value=httpx.Response(200, content=b"x" * 200_000))
    async with client(FakeTime(), max_page_bytes=100_000) as herna:
        with pytest.raises(PageTooLarge, match="larger than 100000 bytes"):
            await herna.record("700101")


async def test_a_huge_page_without_a_length_is_refused_without_reading_it_all(site) -> None:
    sent: list[int] = []
    site.get(layout.game_url("700101")).mock(
        return_value=httpx.Response(200, stream=Chunked(1000, sent)))  # 64 MB, chunked
    async with client(FakeTime(), max_page_bytes=1_000_000) as herna:
        with pytest.raises(PageTooLarge):
            await herna.record("700101")
    assert len(sent) < 20  # stopped after ~1 MB of the 64


async def test_a_compressed_page_is_read_once_decoded(site, saved, samples) -> None:
    site.get(layout.game_url("700101")).mock(return_value=httpx.Response(
        200, content=gzip.compress(saved("game_finished")),
        headers={"content-encoding": "gzip", "content-type": "text/html; charset=utf-8"}))
    async with client(FakeTime()) as herna:
        assert await herna.record("700101") == samples["game_finished"]
