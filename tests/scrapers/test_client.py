"""The client against respx: retries, timeouts, giving up, re-login, partial batches, secrets."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from types import SimpleNamespace

import httpx
import pytest
import respx

from bot.config import Config
from scrapers.herna import layout
from scrapers.herna.client import Credentials, HernaClient, HernaSettings
from scrapers.herna.errors import HernaUnavailable, LoginFailed, PageMissing

BASE = "https://herna.test"
PASSWORD = "Tajné-heslo-42"
SINCE = datetime(2026, 3, 7, 7, 0, tzinfo=UTC)
LOGGED_IN = httpx.Response(303, headers={"location": "/", "set-cookie": "herna_sid=abc; Path=/"})
TO_LOGIN = httpx.Response(302, headers={"location": "/prihlasenie?dalej=/partia/700101"})


class Sleeps(list):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client(sleeps: Sleeps | None = None, **settings) -> HernaClient:
    values = {"max_concurrent": None, "per_second": None, "retries": 3, "backoff": 1.0}
    return HernaClient(
        Credentials("sss", PASSWORD),
        HernaSettings(base_url=BASE, **(values | settings)),
        sleep=sleeps if sleeps is not None else Sleeps(),
    )


def html(text: bytes) -> httpx.Response:
    return httpx.Response(200, content=text, headers={"content-type": "text/html; charset=utf-8"})


@pytest.fixture
def site(saved):
    with respx.mock(base_url=BASE, assert_all_called=False) as mock:
        mock.post(layout.LOGIN_PATH, name="login").mock(return_value=LOGGED_IN)
        mock.get(layout.game_url("700101"), name="game").mock(
            return_value=html(saved("game_finished"))
        )
        yield mock


async def test_login_keeps_the_session_cookie(site, samples):
    async with client() as herna:
        assert await herna.record("700101") == samples["game_finished"]
    assert site["login"].call_count == 1
    assert site["game"].calls.last.request.headers["cookie"] == "herna_sid=abc"
    form = site["login"].calls.last.request.content.decode()
    assert "meno=sss" in form and "heslo=" in form


async def test_500s_then_success(site, saved, samples):
    site["game"].mock(
        side_effect=[httpx.Response(500), httpx.Response(502), html(saved("game_finished"))]
    )
    sleeps = Sleeps()
    async with client(sleeps) as herna:
        assert await herna.record("700101") == samples["game_finished"]
    assert site["game"].call_count == 3 and sleeps == [1.0, 2.0]


async def test_500s_until_giving_up(site):
    site["game"].mock(return_value=httpx.Response(503))
    sleeps = Sleeps()
    async with client(sleeps, backoff_max=3.0) as herna:
        with pytest.raises(HernaUnavailable) as caught:
            await herna.record("700101")
    assert (caught.value.attempts, caught.value.reason) == (4, "HTTP 503")
    assert site["game"].call_count == 4 and sleeps == [1.0, 2.0, 3.0]  # capped backoff


async def test_timeouts_and_connection_errors_are_retried(site, saved, samples):
    site["game"].mock(
        side_effect=[
            httpx.ReadTimeout("slow"),
            httpx.ConnectError("refused"),
            html(saved("game_finished")),
        ]
    )
    async with client() as herna:
        assert await herna.record("700101") == samples["game_finished"]


async def test_connection_errors_until_giving_up(site):
    site["game"].mock(side_effect=httpx.ConnectError("refused"))
    async with client(retries=1) as herna:
        with pytest.raises(HernaUnavailable, match=r"failed 2× \(last: ConnectError: refused\)"):
            await herna.record("700101")


async def test_a_slow_page_hits_the_timeout(site, saved, samples):
    calls = 0

    async def slow_then_fast(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if calls == 1:
            await asyncio.sleep(5)
        return html(saved("game_finished"))

    site["game"].mock(side_effect=slow_then_fast)
    async with client(timeout=0.05) as herna:
        assert await herna.record("700101") == samples["game_finished"]
    assert calls == 2


async def test_always_slow_gives_up_with_a_clear_reason(site):
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200)

    site["game"].mock(side_effect=slow)
    async with client(timeout=0.05, retries=1) as herna:
        with pytest.raises(HernaUnavailable, match=r"no answer within 0\.05 s"):
            await herna.record("700101")


async def test_redirect_to_login_logs_in_once_more(site, saved, samples):
    site["game"].mock(side_effect=[TO_LOGIN, html(saved("game_finished"))])
    async with client() as herna:
        assert await herna.record("700101") == samples["game_finished"]
    assert site["login"].call_count == 2


async def test_login_form_shown_in_place_logs_in_once_more(site, saved, samples):
    site["game"].mock(side_effect=[html(saved("login")), html(saved("game_finished"))])
    async with client() as herna:
        assert await herna.record("700101") == samples["game_finished"]
    assert site["login"].call_count == 2


async def test_still_the_login_form_after_a_new_login_fails(site):
    site["game"].mock(return_value=TO_LOGIN)
    async with client() as herna:
        with pytest.raises(LoginFailed, match="again right after a new login"):
            await herna.record("700101")
    assert site["login"].call_count == 2


async def test_refused_login_says_why_without_the_password(site, saved):
    site["login"].mock(return_value=html(saved("login_refused")))
    async with client() as herna:
        with pytest.raises(LoginFailed, match="Nesprávne meno alebo heslo") as caught:
            await herna.record("700101")
    assert PASSWORD not in str(caught.value)


async def test_missing_page(site):
    site["game"].mock(return_value=httpx.Response(404))
    async with client() as herna:
        with pytest.raises(PageMissing, match="HTTP 404"):
            await herna.record("700101")


async def test_history_follows_pages_and_stops_before_since(site, saved):
    for n in (1, 2, 3):
        site.get(layout.HISTORY_PATH, params={"strana": str(n)}, name=f"h{n}").mock(
            return_value=html(saved(f"history_{n}"))
        )
    async with client() as herna:
        everything = await herna.history(SINCE)
        recent = await herna.history(datetime(2026, 7, 1, tzinfo=UTC))
    assert len(everything) == 6
    assert [e.game_id for e in recent] == ["700104"]  # the only summer game, on page 1
    assert site["h3"].call_count == 1  # the second call stopped on page 1


def one_history_page(site, saved) -> None:
    """Page 1 lists 700104 and 700107; page 2 is empty."""
    site.get(layout.HISTORY_PATH, params={"strana": "1"}).mock(
        return_value=html(saved("history_1"))
    )
    site.get(layout.HISTORY_PATH, params={"strana": "2"}).mock(
        return_value=html(saved("history_empty"))
    )


async def test_a_failed_record_keeps_what_was_fetched(site, saved, samples):
    one_history_page(site, saved)
    site.get(layout.game_url("700104")).mock(return_value=httpx.Response(500))
    site.get(layout.game_url("700107")).mock(return_value=html(saved("game_unfinished")))
    got = []
    async with client(retries=1) as herna:
        with pytest.raises(HernaUnavailable) as caught:
            async for record in herna.records(SINCE):
                got.append(record)
        scrape = await herna.scrape(SINCE)
    assert got == [samples["game_unfinished"]]
    assert caught.value.pending == ("700104",)
    assert scrape.records == (samples["game_unfinished"],) and not scrape.complete


async def test_skip_and_unfinished(site, saved, samples):
    one_history_page(site, saved)
    unfinished = site.get(layout.game_url("700107")).mock(
        return_value=html(saved("game_unfinished"))
    )
    async with client() as herna:
        scrape = await herna.scrape(SINCE, skip={"700104"})
    assert scrape.complete and scrape.records == (samples["game_unfinished"],)
    assert not scrape.records[0].finished and unfinished.call_count == 1


async def test_the_password_never_reaches_a_log_or_repr(site, saved, caplog):
    caplog.set_level(logging.DEBUG)
    site["game"].mock(side_effect=[TO_LOGIN, httpx.Response(500), html(saved("game_finished"))])
    herna = client()
    async with herna:
        await herna.record("700101")
    site["login"].mock(return_value=html(saved("login_refused")))
    async with client() as refused:
        with pytest.raises(LoginFailed):
            await refused.login()
    assert "relácia vypršala" in caplog.text  # the log is captured at all
    assert PASSWORD not in caplog.text
    assert PASSWORD not in repr(herna) and PASSWORD not in repr(herna._credentials)
    assert "sss" not in repr(herna._credentials)


def test_settings_from_the_application_config():
    config = SimpleNamespace(
        base_url="https://www.herna.net/",
        max_concurrent=0,
        per_second=0.5,
        timeout_seconds=9.0,
        retries=2,
        max_pages=7,
        read_deadline_seconds=60.0,
        max_page_bytes=1000,
    )
    settings = HernaSettings.from_config(config, backoff=0.0)
    assert (settings.max_concurrent, settings.per_second) == (None, 0.5)
    assert (settings.timeout, settings.retries, settings.backoff) == (9.0, 2, 0.0)
    assert (settings.max_pages, settings.read_deadline, settings.max_page_bytes) == (7, 60, 1000)
    assert HernaSettings.from_config(Config().herna).max_pages == 200  # the shipped default
    with pytest.raises(ValueError, match="max_pages"):
        HernaSettings(max_pages=0)
    with pytest.raises(ValueError, match="must start with http"):
        HernaSettings(base_url="herna.net")
