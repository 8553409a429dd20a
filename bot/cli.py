"""The `stredisko` command: one subcommand per task (today `demo`; later rehearse, sync, run).

Each subcommand is a function taking the parsed arguments and returning the exit code. Errors
the user can fix end in one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rules import Profile

Command = Callable[[argparse.Namespace], int]


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import render  # imported on use: other subcommands need not load it

    print(render(Profile.load(args.profil)))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stredisko",
        description="Riadiace stredisko online turnajov Slovenského spolku SCRABBLE.",
    )
    commands = parser.add_subparsers(dest="command", metavar="PRÍKAZ", required=True)
    demo = commands.add_parser(
        "demo", help="poradie malého ukážkového turnaja vyhodnoteného podľa pravidiel"
    )
    demo.add_argument(
        "--profil", default="sss-online", help="profil pravidiel (predvolený: sss-online)"
    )
    demo.set_defaults(run=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    run: Command = args.run
    try:
        return run(args)
    except ValueError as exc:  # ProfileError and invalid rule input: the message says what
        print(f"stredisko: chyba: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
