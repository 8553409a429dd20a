"""`stredisko outbox [list|resend ČÍSLO [--again]|drop ČÍSLO --reason …]`: the head
administrator's view of the messages the bot sends
(`bot.services.delivery.outbox_admin`): what waits, what an outage made the bot drop or give up;
send one again (a second time only with --again) or drop one, audited under the operator's name."""

from __future__ import annotations

import argparse
import sys

import bot.cli.args as arg
from bot.cli.common import Add, UseCase, reply_command
from bot.i18n import t
from bot.services.delivery import outbox_admin
from bot.services.policy import Actor

ACTIONS = ("list", "resend", "drop")


def _use_case(a: argparse.Namespace, who: Actor) -> UseCase:
    if a.action == "list":
        return lambda app: outbox_admin.list_messages(app, None, who, a.all)
    if a.action == "resend":
        return lambda app: outbox_admin.resend(app, None, who, a.number, a.again)
    return lambda app: outbox_admin.drop(app, None, who, a.number, a.reason or "")


_run = reply_command(_use_case)


def _command(a: argparse.Namespace) -> int:
    """Checks what argparse cannot say per action: resend and drop need a number, drop a
    reason; one Slovak line and exit 2 otherwise."""
    if a.action != "list" and a.number is None:
        print(t("input.cli_usage", prog="stredisko outbox",
                reason=t("cli.outbox_number", action=a.action)), file=sys.stderr)
        return arg.USAGE_ERROR
    if a.action == "drop" and not (a.reason or "").strip():
        print(t("input.cli_usage", prog="stredisko outbox", reason=t("cli.outbox_reason")),
              file=sys.stderr)
        return arg.USAGE_ERROR
    return _run(a)


def _number(text: str) -> int:
    if not (text.isascii() and text.isdecimal()) or len(text) > 12:
        raise argparse.ArgumentTypeError(t("cli.outbox_bad_number", value=text[:20]))
    return int(text)


def add_command(add: Add) -> None:
    sub = add("outbox", "odchádzajúce správy bota: zoznam, poslať znova, zahodiť (DESIGN 4)",
              _command)
    sub.add_argument("action", nargs="?", default="list", choices=ACTIONS, metavar="AKCIA",
                     help="list (predvolené), resend ČÍSLO, drop ČÍSLO --reason …")
    sub.add_argument("number", nargs="?", type=_number, metavar="ČÍSLO")
    sub.add_argument("--all", action="store_true", help="aj doručené správy")
    sub.add_argument("--again", action="store_true",
                     help="pri resend: poslať znova aj správu, ktorá už raz znova odišla")
    sub.add_argument("--reason", type=arg.reason, help="dôvod zahodenia (pri drop povinný)")
