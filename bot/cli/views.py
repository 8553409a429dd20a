"""`stredisko show` (pairings, results, standings, the audit log), `publish` (a round, or the
results page into a folder) and `publish-page`."""

from __future__ import annotations

import argparse

import bot.cli.args as arg
from bot.cli.common import Add, UseCase, reply_command, run, show
from bot.cli.tournament import publish_round
from bot.i18n import t
from bot.services import lookup
from bot.services.app import Tx
from bot.services.policy import Actor
from bot.services.replies import Reply, done
from bot.services.tournament import views
from bot.services.tournament.audit_text import audit_rows

#: how many audit rows `show audit` prints at most
AUDIT_LIMIT = 10_000


def _audit_tx(tx: Tx, slug: str) -> Reply:
    tournament = lookup.tournament(tx, slug)
    rows = audit_rows(tx, tournament.id, AUDIT_LIMIT)
    return done("cli.audit", data=rows, tournament=tournament.name, count=len(rows))


def _show_command(a: argparse.Namespace, who: Actor) -> UseCase:
    if a.what == "pairings":  # without a round: the current one
        return lambda app: views.pairings_view(app, a.slug, a.round)
    if a.what == "results":
        return lambda app: views.results_view(app, a.slug, a.round)
    if a.what == "standings":
        return lambda app: views.standings_view(app, a.slug)
    return lambda app: app.run(_audit_tx, a.slug)


def _publish_page(args: argparse.Namespace) -> int:
    from bot.publish import write_results_page
    from bot.publish.duplicate_page import write_duplicate_page
    from bot.publish.duplicate_report import DuplicateReport
    from bot.services.duplicate.feed import page_report

    # issue 24.6: a duplicate event (format = "duplicate") gets the duplicate results page
    report = run(args, lambda app: page_report(app, args.slug))
    if isinstance(report, Reply):
        return show(report)
    if isinstance(report, DuplicateReport):
        path = write_duplicate_page(report, args.target)
    else:
        path = write_results_page(report, args.target)
    print(t("cli.page_written", file=str(path)))
    return 0


def _publish_either(args: argparse.Namespace) -> int:
    """`publish SLUG 3` publishes round 3; `publish SLUG DIR` writes the results page there."""
    if isinstance(args.target, int):
        return reply_command(publish_round)(args)
    return _publish_page(args)


def add_publish(add: Add) -> None:
    sub = add("publish", "zverejniť spárované kolo (číslo kola) alebo zapísať stránku výsledkov "
              "turnaja (priečinok)", _publish_either)
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("target", metavar="KOLO|PRIEČINOK", type=arg.round_or_folder)


def add_show(add: Add) -> None:
    sub = add("show", "zobraziť párovanie, výsledky, poradie alebo záznam zmien",
              reply_command(_show_command))
    sub.add_argument("what", type=arg.SHOW, help=t("cli.choices", choices=arg.SHOW.help()))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("round", type=arg.round_no, nargs="?")


def add_publish_page(add: Add) -> None:
    sub = add("publish-page", "zapísať stránku výsledkov (index.html)", _publish_page)
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("target", metavar="PRIEČINOK")
