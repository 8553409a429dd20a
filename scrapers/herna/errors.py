"""What can go wrong when reading herna.net, as exceptions the caller can tell apart."""

from __future__ import annotations


class HernaError(Exception):
    """Base of every error the herna.net scraper raises.

    `pending` lists the game ids not fetched when the error stopped a batch, so the caller knows
    what to ask for again; every record fetched before the error was already handed over.
    """

    pending: tuple[str, ...] = ()


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

    The message never contains the credentials.
    """
