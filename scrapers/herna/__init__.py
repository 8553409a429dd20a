"""herna.net: the client, the page parsers and the plain records they produce.

The simulator (`scrapers.herna.simulator`) is imported on its own: it needs aiohttp.
"""

from scrapers.herna.client import Credentials, HernaClient, HernaSettings, Scrape, client_factory
from scrapers.herna.errors import (
    DeadlinePassed,
    HernaError,
    HernaUnavailable,
    LayoutChanged,
    LoginFailed,
    PageMissing,
    PageTooLarge,
    RateLimited,
    ReadLimit,
    TooManyPages,
)
from scrapers.herna.parser import parse_game, parse_history
from scrapers.herna.records import EndKind, GameRecord, HistoryEntry, HistoryPage, TableSettings

__all__ = [
    "Credentials",
    "DeadlinePassed",
    "EndKind",
    "GameRecord",
    "HernaClient",
    "HernaError",
    "HernaSettings",
    "HernaUnavailable",
    "HistoryEntry",
    "HistoryPage",
    "LayoutChanged",
    "LoginFailed",
    "PageMissing",
    "PageTooLarge",
    "RateLimited",
    "ReadLimit",
    "Scrape",
    "TableSettings",
    "TooManyPages",
    "client_factory",
    "parse_game",
    "parse_history",
]
