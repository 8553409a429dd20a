"""`stredisko export results|tsh|trf|screlo [SLUG] [-o SÚBOR] [--format excel|stroj]`: which
use case makes the file and how it is written. A TSH export is two files: the `.t` at SÚBOR
and `config.tsh` beside it (tsh finds its division files through config.tsh); without -o the
`.t` goes to stdout. The CSV exports are for Slovak Excel unless `--format stroj`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import bot.cli.args as arg
from bot.cli.common import Add, run, show
from bot.console import render_reply
from bot.i18n import t
from bot.services.app import App
from bot.services.exports import association as exports
from bot.services.exports import trf as export_trf
from bot.services.exports import tsh as export_tsh
from bot.services.exports.tsh import TshExport
from bot.services.replies import Reply

UseCase = Callable[[App], Awaitable[Any]]
WHAT = ("results", "tsh", "trf", "screlo")
_BY_SLUG = {"tsh": export_tsh.tsh_files, "trf": export_trf.trf_file}
TSH_CONFIG = "config.tsh"


CSV = ("results", "screlo")


def use_case(what: str, slug: str | None, form: str | None = None) -> UseCase:
    """`form`: a CSV export's format (exports.FORMATS, default "excel"); other exports have
    none."""
    csv_form = form or exports.EXCEL
    if what == "screlo":
        return lambda app: exports.screlo_list_csv(app, csv_form)
    if not slug:
        raise ValueError(t("export.needs_slug", what=what))
    if what == "results":
        return lambda app: exports.results_csv(app, slug, csv_form)
    return lambda app: _BY_SLUG[what](app, slug)


def _write_tsh(data: TshExport, output: str | None) -> None:
    if not output:
        sys.stdout.write(data.text)
        print(t("export.tsh_config_needs_output"), file=sys.stderr)
        return
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)  # tsh keeps an event in its own folder
    path.write_text(data.text, encoding="utf-8")
    config = path.with_name(TSH_CONFIG)
    config.write_text(data.config(path.name), encoding="utf-8")
    print(t("export.tsh_written", file=str(path), config=str(config)), file=sys.stderr)


def write(reply: Reply, output: str | None) -> None:
    """Write a successful export's file(s), then its summary on stderr."""
    if isinstance(reply.data, TshExport):
        _write_tsh(reply.data, output)
    elif output:  # newline="": a CSV's CRLF stays as written
        Path(output).write_text(reply.data, encoding="utf-8", newline="")
        print(t("cli.written", file=output), file=sys.stderr)
    else:
        sys.stdout.write(reply.data)
    for line in render_reply(reply):
        print(line, file=sys.stderr)


def _export(args: argparse.Namespace) -> int:
    if args.format is not None and args.what not in CSV:  # a usage error: exit 2
        print(t("cli.error", reason=t("export.format_csv_only", what=args.what)),
              file=sys.stderr)
        return 2
    reply = run(args, use_case(args.what, args.slug, args.format))
    if not reply.ok:
        return show(reply)
    write(reply, args.output)
    return 0


def add_command(add: Add) -> None:
    sub = add("export", "export: výsledky CSV, TSH (.t a config.tsh), FIDE TRF, zoznam online "
              "screla", _export)
    sub.add_argument("what", type=arg.EXPORT, help=t("cli.choices", choices=arg.EXPORT.help()))
    sub.add_argument("slug", nargs="?", type=arg.slug)
    sub.add_argument("-o", "--output", "--out", metavar="SÚBOR",
                     help="súbor (pri tsh sa vedľa neho zapíše aj config.tsh)")
    sub.add_argument("--format", choices=exports.FORMATS, default=None,
                     help="CSV (results, screlo): excel = pre Excel v slovenských Windows "
                          "(UTF-8 s BOM, „;“, desatinná čiarka, slovenské hlavičky; "
                          "predvolené), stroj = pôvodný strojový formát (UTF-8, „,“, bodka, "
                          "anglické hlavičky) pre iné programy")
