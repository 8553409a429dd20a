"""The `stredisko` command: one subcommand per task, a module per group of them.

Each subcommand is a function taking the parsed arguments and returning the exit code. Errors
the user can fix end in one clear line on stderr and a non-zero exit, never a traceback.
Tournament commands run a use case of `bot.services` on the store (`--db`, default from
config.toml or stredisko.db) as the head administrator `--admin` (default: the OS user); the
replies and the messages the use case sends are printed in Slovak (`bot.cli.common`).
"""

from __future__ import annotations

import argparse
import functools
import os
import sqlite3
import sys
from collections.abc import Sequence

from bot.cli import args as arg
from bot.cli import (
    duplicate,
    examples,
    export,
    herna,
    identity,
    lexicon,
    outbox,
    programs,
    rulings,
    season,
    tournament,
    views,
)
from bot.cli.common import Command
from bot.config import ConfigError
from bot.i18n import t
from bot.os_errors import os_error
from bot.store import StoreError

DB_HELP = "súbor databázy (predvolene z config.toml, inak stredisko.db)"


def _common(db_help: str = DB_HELP) -> argparse.ArgumentParser:
    common = arg.Parser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help=db_help)
    common.add_argument("--config", default=argparse.SUPPRESS, help="konfiguračný súbor")
    common.add_argument("--admin", default=argparse.SUPPRESS,
                        help="hlavný administrátor, ktorý koná (predvolene používateľ OS)")
    return common


# Built once per process: a process that calls main() many times (the tests: ~500 calls of
# ~15 ms each, issue 21.3) builds it once. Safe because parsing leaves nothing in the parser:
# every default is immutable (no list default, no "append" action), the types and `run`
# functions keep no state, and errors and help are written to sys.stderr/stdout as they are
# at the call.
@functools.cache
def _parser() -> argparse.ArgumentParser:
    common = _common()
    parser = arg.Parser(
        prog="stredisko", parents=[common],
        description="Riadiace stredisko online turnajov Slovenského spolku SCRABBLE.",
    )
    commands = parser.add_subparsers(dest="command", metavar="PRÍKAZ", required=True)

    def add(name: str, help_text: str, run: Command, *,
            db_help: str | None = None) -> argparse.ArgumentParser:
        # a command whose --db means something else (a rehearsal's own store) says so
        sub = commands.add_parser(name, help=help_text,
                                  parents=[common if db_help is None else _common(db_help)])
        sub.set_defaults(run=run)
        return sub

    for register in (
        programs.add_demo, tournament.add_setup, tournament.add_rounds, views.add_publish,
        tournament.add_finish, views.add_show, rulings.add_rule, rulings.add_approve,
        export.add_command,
        views.add_publish_page, tournament.add_sync, programs.add_rehearse,
        programs.add_simulator, programs.add_run,
        identity.add_commands, herna.add_commands, tournament.add_decay, season.add_command,
        lexicon.add_commands, outbox.add_command, duplicate.add_command, examples.add_command,
    ):
        register(add)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    options = words[:words.index("--")] if "--" in words else words  # after "--": words
    arg.JSON_ERRORS.set("--json" in options)
    try:
        # the parser too: its choices come from the bundled profiles (an incomplete install)
        args = _parser().parse_args(argv)
        run: Command = args.run
        return run(args)
    except BrokenPipeError:  # `stredisko … | head` stopped reading: nothing left to say
        # (the Python docs' way: no second error when the interpreter flushes stdout)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a file or folder the system refused: its reason in Slovak
        print(t("cli.error", reason=os_error(exc)), file=sys.stderr)
        return 1
    except (ValueError, ConfigError, StoreError, sqlite3.Error) as exc:
        # ProfileError, invalid rule input, a database that cannot be opened: say what
        print(t("cli.error", reason=str(exc) or type(exc).__name__), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
