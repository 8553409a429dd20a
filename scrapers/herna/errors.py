"""What can go wrong when reading herna.net, as exceptions the caller can tell apart."""

from __future__ import annotations

from typing import Any


class HernaError(Exception):
    """Base of every error the herna.net scraper raises.

    `pending` lists the game ids not fetched when the error stopped a batch, so the caller knows
    what to ask for again; every record fetched before the error was already handed over.
    """

    pending: tuple[str, ...] = ()
    #: the history entries read before the error stopped a history read (its partial result)
    entries: tuple[Any, ...] = ()


class LayoutChanged(HernaError):
    """A page does not look the way `layout.py` describes; `what` names the missing piece.

    Raised instead of returning a half-filled record: the parser or the layout must be updated.
    """

    def __init__(self, what: str, page: str = "") -> None:
        self.what = what
        self.page = page
        where = f" ({page})" if page else ""
        super().__init__(f"herna.net page layout changed{where}: {what}")


class HernaUnavailable(HernaError):
    """herna.net did not answer usefully after the last retry (timeouts, connection, 5xx)."""

    def __init__(self, url: str, attempts: int, reason: str) -> None:
        self.url = url
        self.attempts = attempts
        self.reason = reason
        super().__init__(f"herna.net unavailable: {url} failed {attempts}× (last: {reason})")


class PageMissing(HernaError):
    """The site answered 4xx for a page we expected to exist (e.g. a game id it listed)."""


class LoginFailed(HernaError):
    """The login was refused (wrong credentials, or the session is dropped right after login).

    The message never contains the credentials. `site_says` is the refusal the login page
    showed (e.g. "Nesprávne meno alebo heslo."), when it showed one.
    """

    def __init__(self, message: str, site_says: str | None = None) -> None:
        super().__init__(message)
        self.site_says = site_says


class RateLimited(HernaError):
    """herna.net kept answering 429 Too Many Requests (its Retry-After honoured each time)."""

    def __init__(self, url: str, attempts: int, why: str) -> None:
        self.url = url
        self.attempts = attempts
        super().__init__(f"herna.net limits our requests: {url} answered HTTP 429 "
                         f"{attempts}× ({why})")


class ReadLimit(HernaError):
    """A read stopped at one of its bounds; what it read so far was handed over."""


class TooManyPages(ReadLimit):
    """The history kept offering a next page beyond the page cap (an endless pager)."""

    def __init__(self, pages: int) -> None:
        self.pages = pages
        super().__init__(f"the history still has a next page after {pages} pages (the cap)")


class DeadlinePassed(ReadLimit):
    """The read's total deadline passed (or a wait would pass it)."""

    def __init__(self, seconds: float, url: str) -> None:
        self.seconds = seconds
        self.url = url
        super().__init__(f"the read did not finish within {seconds:g} s (at {url})")


class PageTooLarge(HernaError):
    """A page larger than the size cap, refused without reading it all."""

    def __init__(self, url: str, limit: int) -> None:
        self.url = url
        self.limit = limit
        super().__init__(f"{url} is larger than {limit} bytes")
