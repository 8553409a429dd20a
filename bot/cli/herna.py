"""`stredisko herna check [--config FILE] [--out DIR]`: herna.net first contact.

With the login of the configuration (or HERNA_USER / HERNA_PASSWORD), reads the login form, the
games archive and its newest game, prints one line per expectation of
`scrapers/herna/layout.py` and a summary, and saves the pages read — without cookies, session
ids, hidden form values, the user name and the password — for whoever adapts `layout.py`.
The credentials are never printed or saved.

Exit codes: 0 every expectation holds; 1 some fail; 2 the configuration, the login or the
network kept the check from running (one line says which).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.common import Add, config
from bot.config import Config, ConfigError, HernaConfig
from bot.i18n import t

if TYPE_CHECKING:
    from scrapers.herna.client import HernaClient

ALL_HOLD, SOME_FAIL, NOT_RUN = 0, 1, 2
DEFAULT_FOLDER = "herna-kontrola"


def add_commands(add: Add) -> None:
    """Add `herna check` to the `stredisko` parser (`add(name, help, run)` as in bot.cli);
    the configuration is read as every other command reads it."""
    herna = add("herna", "herna.net: overiť, či stránky zodpovedajú popisu scrapera",
                lambda args: check_command(args, config))
    actions = herna.add_subparsers(dest="herna_action", metavar="AKCIA", required=True)
    check = actions.add_parser(
        "check", help="prihlásiť sa, prečítať archív a jednu partiu, overiť každé očakávanie "
        "zo scrapers/herna/layout.py a uložiť prečítané stránky")
    check.add_argument("--config", default=argparse.SUPPRESS, help="konfiguračný súbor")
    check.add_argument("--out", metavar="PRIEČINOK", default=DEFAULT_FOLDER,
                       help=f"kam uložiť prečítané stránky (predvolene {DEFAULT_FOLDER})")


def check_command(args: argparse.Namespace, config: Callable[[argparse.Namespace], Config]
                  ) -> int:
    # the scraper (httpx, lxml) only for this command: 0.1 s of every other command's start
    from scrapers.herna.client import client_factory

    try:
        herna = config(args).herna
        open_client = client_factory(herna)
    except (ConfigError, ValueError) as exc:
        return _fail(t("herna_check.config", detail=str(exc)))
    if open_client is None:
        return _fail(t("herna_check.no_credentials"))
    return asyncio.run(_check(herna, open_client, Path(args.out)))


async def _check(herna: HernaConfig, open_client: Callable[[], HernaClient],
                 folder: Path) -> int:
    from scrapers.herna.check import SiteCheck, Status, save_pages, scrub_text
    from scrapers.herna.errors import HernaError, LoginFailed

    async with open_client() as client:
        site = SiteCheck(client)

        def clean(text: str) -> str:
            """What the terminal shows is scrubbed as the saved pages are: a redirect's
            Location or the site's refusal may carry the user name or the password."""
            return scrub_text(text, [herna.user, herna.password, *client.cookie_values()])

        try:
            await site.run()
        except LoginFailed as exc:
            says = f" („{clean(exc.site_says)}“)" if exc.site_says else ""
            return _fail(t("herna_check.login_failed", site_says=says, folder=str(folder)))
        except HernaError as exc:
            detail = getattr(exc, "reason", None) or str(exc)
            return _fail(clean(t("herna_check.unavailable", url=client.settings.base_url,
                                 detail=detail)))
        finally:  # what was read before a fault is saved too: it shows what went wrong
            if site.pages:
                save_pages(site.pages, folder,
                           [herna.user, herna.password, *client.cookie_values()])
    for finding in site.findings:
        print(clean(t("herna_check.line",
                      status=t(f"herna_check.status.{finding.status.value}"),
                      name=finding.name, page=t(f"herna_check.page.{finding.page}"),
                      what=finding.what, reason=t(f"herna_check.reason.{finding.reason}",
                                                  **finding.params))))
    counts = {status: sum(f.status is status for f in site.findings) for status in Status}
    print(t("herna_check.summary", holds=counts[Status.HOLDS], total=len(site.findings),
            fails=counts[Status.FAILS], unchecked=counts[Status.UNCHECKED], folder=str(folder)))
    if site.failed:
        names = ", ".join(dict.fromkeys(f.name for f in site.failed))
        print(t("herna_check.some_fail", names=names, folder=str(folder)))
        return SOME_FAIL
    print(t("herna_check.all_hold"))
    return ALL_HOLD


def _fail(line: str) -> int:
    print(line, file=sys.stderr)
    return NOT_RUN
