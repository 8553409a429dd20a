"""The herna.net client: log in, fetch politely, parse, hand each record over as soon as it is
parsed. Credentials come from the caller and never reach a log or a repr."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from functools import partial
from types import TracebackType
from typing import Any, Protocol, Self, TypeVar

import httpx

import scrapers.herna.layout as layout
import scrapers.herna.parser as parser
from scrapers.herna.errors import (
    DeadlinePassed,
    HernaError,
    HernaUnavailable,
    LayoutChanged,
    LoginFailed,
    PageMissing,
    PageTooLarge,
    RateLimited,
    TooManyPages,
)
from scrapers.herna.politeness import Throttle
from scrapers.herna.records import GameRecord, HistoryEntry

log = logging.getLogger("scrapers.herna")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Credentials:
    user: str = field(repr=False)
    password: str = field(repr=False)


class _ConfigLike(Protocol):
    base_url: str
    max_concurrent: int
    per_second: float
    timeout_seconds: float
    retries: int
    max_pages: int
    read_deadline_seconds: float
    max_page_bytes: int


@dataclass(frozen=True, slots=True)
class HernaSettings:
    """Politeness and fault handling. None (or 0) switches a politeness limit off."""

    base_url: str = "https://www.herna.net/"
    max_concurrent: int | None = 2
    per_second: float | None = 1.0
    timeout: float = 15.0  # seconds for one whole request, body included
    retries: int = 3  # after the first attempt, on timeouts, connection errors and 5xx
    backoff: float = 1.0  # seconds before the first retry; doubles each time
    backoff_max: float = 30.0
    max_pages: int = 200  # history pages one read follows at most (an endless pager stops)
    # One read = a history call and the record fetches that follow it; it ends by then.
    read_deadline: float = 900.0
    max_page_bytes: int = 4_000_000  # a larger page is refused, never read whole
    retry_after_max: float = 120.0  # the longest Retry-After (429) we wait

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"herna base_url must start with http:// or https://: {self.base_url!r}"
            )
        if self.timeout <= 0 or self.retries < 0 or self.backoff < 0:
            raise ValueError("herna timeout must be > 0, retries and backoff >= 0")
        if (self.max_concurrent or 0) < 0 or (self.per_second or 0) < 0:
            raise ValueError("herna max_concurrent and per_second must be >= 0 (0 = off)")
        if min(self.max_pages, self.read_deadline, self.max_page_bytes) <= 0:
            raise ValueError("herna max_pages, read_deadline and max_page_bytes must be > 0")
        if self.retry_after_max < 0:
            raise ValueError("herna retry_after_max must be >= 0")

    @classmethod
    def from_config(cls, config: _ConfigLike, **overrides: Any) -> HernaSettings:
        """From the application's [herna] config section (bot.config.HernaConfig)."""
        values: dict[str, Any] = {
            "base_url": config.base_url,
            "max_concurrent": config.max_concurrent or None,
            "per_second": config.per_second or None,
            "timeout": config.timeout_seconds,
            "retries": config.retries,
            "max_pages": config.max_pages,
            "read_deadline": config.read_deadline_seconds,
            "max_page_bytes": config.max_page_bytes,
        }
        return cls(**(values | overrides))


@dataclass(frozen=True, slots=True)
class Scrape:
    """What one batch fetched, and the error that stopped it (None when complete)."""

    records: tuple[GameRecord, ...]
    error: HernaError | None

    @property
    def complete(self) -> bool:
        return self.error is None


class _SessionLost(Exception):
    """The page redirected to the login form (internal: triggers one re-login)."""


class HernaClient:
    """Use as `async with HernaClient(credentials, settings) as herna: ...`."""

    def __init__(
        self,
        credentials: Credentials,
        settings: HernaSettings | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._credentials = credentials
        self.settings = settings or HernaSettings()
        self._transport = transport
        self._sleep = sleep
        self._clock = clock
        self._deadline: float | None = None  # of the current read (`history` starts one)
        self._throttle = Throttle(
            self.settings.max_concurrent, self.settings.per_second, sleep=sleep
        )
        self._http: httpx.AsyncClient | None = None
        self._cookies_seen: set[str] = set()  # secrets to scrub, whether kept or deleted
        self._login_lock = asyncio.Lock()
        self._session = 0  # counts logins; 0 = not logged in
        self.requests = 0  # HTTP requests sent, retries included

    def __repr__(self) -> str:
        return f"HernaClient({self.settings.base_url!r}, logged_in={self._session > 0})"

    async def __aenter__(self) -> Self:
        self._http = httpx.AsyncClient(
            base_url=self.settings.base_url,
            follow_redirects=False,
            timeout=httpx.Timeout(self.settings.timeout),
            transport=self._transport,
            headers={"User-Agent": "stredisko (Slovensky spolok SCRABBLE)"},
        )
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    # --- the public calls --------------------------------------------------------------------
    async def login(self) -> None:
        """Log in (again); the session cookie is kept by the HTTP client."""
        form = {
            layout.LOGIN_USER_FIELD: self._credentials.user,
            layout.LOGIN_PASSWORD_FIELD: self._credentials.password,
        }
        response = await self._request("POST", layout.LOGIN_PATH, data=form)
        if layout.login_accepted(response.is_redirect, response.headers.get("location", "")):
            self._session += 1
            log.info("herna.net: prihlásenie úspešné")
            return
        site_says = parser.login_error(response.text) if response.status_code == 200 else None
        reason = site_says or "the login form came back"
        if response.status_code != 200:
            reason = f"HTTP {response.status_code}"
        raise LoginFailed(f"herna.net refused the login: {reason}", site_says)

    async def history(self, since: datetime, *, nick: str | None = None) -> list[HistoryEntry]:
        """Games started at or after `since` (newest first), following the pagination; one
        player's with `nick`, else the whole archive the account sees."""
        since = _utc(since)
        self._deadline = self._clock() + self.settings.read_deadline  # a new read begins
        entries: dict[str, HistoryEntry] = {}  # pages shift as games arrive: keep the first
        try:
            await self._read_history(since, nick, entries)
        except HernaError as exc:
            exc.entries = tuple(entries.values())  # the partial result goes with the error
            raise
        return list(entries.values())

    async def _read_history(
        self, since: datetime, nick: str | None, entries: dict[str, HistoryEntry]
    ) -> None:
        url: str | None = layout.history_url(nick)
        visited: set[str] = set()
        while url is not None:
            if url in visited:
                raise LayoutChanged(f"the pagination returns to {url}", "history")
            if len(visited) >= self.settings.max_pages:
                raise TooManyPages(len(visited))
            visited.add(url)
            page = await self._page(url, parser.parse_history)
            for entry in page.entries:
                if entry.started >= since:
                    entries.setdefault(entry.game_id, entry)
            if not page.entries or page.entries[-1].started < since:
                break
            url = page.next_url

    async def record(self, game_id: str) -> GameRecord:
        """One game's record; a game in progress comes back as EndKind.UNFINISHED. Part of the
        read the last `history` call began: it ends by that read's deadline."""
        return await self._page(
            layout.game_url(game_id), partial(parser.parse_game, game_id=game_id)
        )

    async def records(
        self, since: datetime, *, skip: Collection[str] = (), nick: str | None = None
    ) -> AsyncIterator[GameRecord]:
        """The records of the games in the history since `since`, except the ids in `skip`,
        each yielded as soon as it is parsed. On an error, the records already fetched are
        yielded first, then the error is raised with `pending` = the ids not fetched."""
        wanted = [e.game_id for e in await self.history(since, nick=nick) if e.game_id not in skip]
        tasks = {asyncio.create_task(self.record(game_id)): game_id for game_id in wanted}
        handed: set[str] = set()
        try:
            for next_done in asyncio.as_completed(tasks):
                try:
                    record = await next_done
                except HernaError as exc:
                    for task, game_id in tasks.items():
                        if game_id not in handed and _succeeded(task):
                            handed.add(game_id)
                            yield task.result()
                    exc.pending = tuple(g for g in wanted if g not in handed)
                    raise
                handed.add(record.game_id)
                yield record
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def scrape(
        self, since: datetime, *, skip: Collection[str] = (), nick: str | None = None
    ) -> Scrape:
        """`records` collected: the partial list together with the error, if one stopped it."""
        got: list[GameRecord] = []
        try:
            async for record in self.records(since, skip=skip, nick=nick):
                got.append(record)
        except HernaError as exc:
            log.warning("herna.net: zber prerušený po %d záznamoch: %s", len(got), exc)
            return Scrape(tuple(got), exc)
        return Scrape(tuple(got), None)

    async def fetch(self, url: str, *, logged_in: bool = True) -> bytes:
        """A page's body as sent (for `stredisko herna check`): logged in like any page read,
        or without a session (the login form)."""
        if logged_in:
            return await self._page(url, bytes)
        response = await self._request("GET", url)
        if response.status_code != 200:
            raise PageMissing(f"herna.net answered {url} with HTTP {response.status_code}")
        return response.content

    def cookie_values(self) -> list[str]:
        """The values of every cookie the site set, those it deleted since (at login) too:
        secrets to keep out of any saved page."""
        held = [cookie.value for cookie in self._http.cookies.jar if cookie.value] if (
            self._http is not None) else []
        return sorted({*held, *self._cookies_seen})

    # --- fetching ----------------------------------------------------------------------------
    async def _page(self, url: str, parse: Callable[[bytes], T]) -> T:
        """A logged-in page, parsed; one re-login when the session is gone."""
        session = await self._ensure_session(stale=None)
        try:
            return await self._logged_in_page(url, parse)
        except _SessionLost:
            log.info("herna.net: relácia vypršala, prihlasujem znova")
            await self._ensure_session(stale=session)
        try:
            return await self._logged_in_page(url, parse)
        except _SessionLost:
            msg = f"herna.net sent {url} to the login form again right after a new login"
            raise LoginFailed(msg) from None

    async def _ensure_session(self, stale: int | None) -> int:
        # One login for many concurrent fetches that found the same session gone.
        async with self._login_lock:
            if self._session == 0 or self._session == stale:
                await self.login()
            return self._session

    async def _logged_in_page(self, url: str, parse: Callable[[bytes], T]) -> T:
        response = await self._request("GET", url)
        if response.is_redirect:
            location = response.headers.get("location", "")
            if layout.is_login_url(location):
                raise _SessionLost
            raise LayoutChanged(f"{url} redirects to {location[:80]!r}")
        if response.status_code != 200:
            raise PageMissing(f"herna.net answered {url} with HTTP {response.status_code}")
        try:
            return parse(response.content)
        except LayoutChanged:
            # Some sites show the login form in place; checked only on failure, as it costs
            # a second parse.
            if parser.is_login_page(response.content):
                raise _SessionLost from None
            raise

    async def _request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """One request with politeness, a whole-request timeout, a size cap, retries with
        backoff (Retry-After on 429), all within the read's deadline."""
        if self._http is None:
            raise RuntimeError("use HernaClient inside `async with`")
        attempts = self.settings.retries + 1
        reason, timeout = "", self.settings.timeout
        for attempt in range(1, attempts + 1):
            delay = min(self.settings.backoff * 2 ** (attempt - 1), self.settings.backoff_max)
            limited = False
            try:
                async with self._throttle.slot():
                    self.requests += 1
                    timeout = min(self.settings.timeout, self._time_left(url))
                    async with asyncio.timeout(timeout):
                        response = await self._fetch(method, url, **kwargs)
                if response.status_code == 429:
                    limited, asked = True, _retry_after(response)
                    reason = "no Retry-After" if asked is None else f"Retry-After {asked:g} s"
                    delay = delay if asked is None else min(asked, self.settings.retry_after_max)
                elif response.status_code < 500:
                    return response
                else:
                    reason = f"HTTP {response.status_code}"
            except (TimeoutError, httpx.TimeoutException):
                reason = f"no answer within {timeout:g} s"
            except httpx.TransportError as exc:
                reason = f"{type(exc).__name__}: {exc}"
            if attempt == attempts:
                break
            if delay >= self._time_left(url):  # never wait past the deadline
                if limited:
                    raise RateLimited(url, attempt, f"{reason}, past the read's deadline")
                raise DeadlinePassed(self.settings.read_deadline, url)
            log.warning("herna.net %s %s: %s; pokus %d/%d, ďalší o %.1f s",
                        method, url, reason, attempt, attempts, delay)
            await self._sleep(delay)
        if limited:
            raise RateLimited(url, attempts, reason)
        raise HernaUnavailable(url, attempts, reason)

    async def _fetch(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """The response with its body read, refused unread beyond `max_page_bytes`."""
        assert self._http is not None
        limit = self.settings.max_page_bytes
        async with self._http.stream(method, url, **kwargs) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdecimal() and int(declared) > limit:
                raise PageTooLarge(url, limit)
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > limit:
                    raise PageTooLarge(url, limit)
        # the body is decoded already: the new response must not decode it again
        headers = [(k, v) for k, v in response.headers.multi_items()
                   if k.lower() not in ("content-encoding", "content-length",
                                        "transfer-encoding")]
        for cookie in response.cookies.jar:  # every value ever set, even one deleted later
            if cookie.value:
                self._cookies_seen.add(cookie.value)
        return httpx.Response(response.status_code, headers=headers, content=bytes(body),
                              request=response.request)

    def _time_left(self, url: str) -> float:
        """Seconds left of the current read (inf outside one); DeadlinePassed when none."""
        if self._deadline is None:
            return math.inf
        left = self._deadline - self._clock()
        if left <= 0:
            raise DeadlinePassed(self.settings.read_deadline, url)
        return left


def _succeeded(task: asyncio.Task[GameRecord]) -> bool:
    return task.done() and not task.cancelled() and task.exception() is None


def _retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds: a number, or an HTTP date (measured against the response's own
    Date header, so the two clocks' skew does not matter); None when absent or unreadable."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdecimal():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
        sent = response.headers.get("date")
        now = parsedate_to_datetime(sent) if sent else datetime.now(UTC)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None or now.tzinfo is None:
        return None
    return max(0.0, (when - now).total_seconds())


def _utc(when: datetime) -> datetime:
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"naive datetime {when.isoformat()}: give a time zone (UTC)")
    return when.astimezone(UTC)


class _LoginConfigLike(_ConfigLike, Protocol):
    user: str
    password: str


def client_factory(config: _LoginConfigLike, **overrides: Any
                   ) -> Callable[[], HernaClient] | None:
    """Clients with the configured login and settings ([herna] of config.toml, `overrides` on
    top); None when no login is configured (the caller says what that means for it)."""
    if not config.user or not config.password:
        return None
    credentials = Credentials(config.user, config.password)
    settings = HernaSettings.from_config(config, **overrides)
    return lambda: HernaClient(credentials, settings)
