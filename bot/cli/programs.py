"""`stredisko demo`, `rehearse` and `run`: the programs the command starts rather than a use
case (the demo table, an offline rehearsal with the simulator, the Discord bot)."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from bot.cli.common import Add
from bot.cli.examples import scenario_names, scenario_path
from rules import Profile


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import render  # imported on use: other subcommands need not load it

    print(render(Profile.load(args.profil)))
    return 0


def _rehearse(args: argparse.Namespace) -> int:
    from bot.rehearse.command import run_command  # loads the simulator: only on use

    return run_command(scenario_path(args.scenario), sys.stdout, sys.stderr, as_json=args.json,
                       db=getattr(args, "db", None), html=args.html)


def _simulator(args: argparse.Namespace) -> int:
    from bot.rehearse.simulate import run

    return run(args)


def _run_bot(args: argparse.Namespace) -> int:
    from bot.discord.runner import run

    return run(getattr(args, "config", None), args.sync_commands)


def add_demo(add: Add) -> None:
    demo = add("demo", "poradie malého ukážkového turnaja vyhodnoteného podľa pravidiel", _demo)
    demo.add_argument(
        "--profil", default="sss-online", help="profil pravidiel (predvolený: sss-online)"
    )


def add_rehearse(add: Add) -> None:
    sub = add("rehearse", "skúška: odohrať scenár turnaja offline so simulátorom herna.net",
              _rehearse, db_help="databáza skúšky (predvolene dočasná, po skúške zmazaná; "
                                 "so --db zostane na prezretie)")
    names = ", ".join(scenario_names())
    sub.add_argument("scenario", help=f"scenár: súbor TOML, alebo meno pribaleného ({names}; "
                                      "skopíruje ich stredisko examples PRIEČINOK)")
    sub.add_argument("--json", action="store_true", help="výsledky ako jeden dokument JSON")
    sub.add_argument("--html", metavar="PRIEČINOK", help="zapísať stránku výsledkov")


def _clock(text: str) -> datetime:
    """--clock "RRRR-MM-DD HH:MM" (the simulator is loaded only when a command needs it)."""
    from scrapers.herna.simulator import local_time

    return local_time(text)


def add_simulator(add: Add) -> None:
    sub = add("simulator", "lokálny simulátor herna.net s partiami zo súboru (nové partie v "
              "súbore pridá počas behu)", _simulator)
    sub.add_argument("games", metavar="PARTIE",
                     help='scenár skúšky, TOML s [[event]] type = "game" alebo výsledky CSV '
                          "(s --propozicie); hráči podľa id z propozícií alebo prezývky na "
                          "herna.net")
    sub.add_argument("--propozicie", metavar="SÚBOR",
                     help="propozície turnaja: začiatky kôl (a hráči) pre PARTIE")
    sub.add_argument("--port", type=int, default=0, help="port (0 = voľný)")
    sub.add_argument("--clock", metavar='"RRRR-MM-DD HH:MM"', type=_clock,
                     help="simulovaný čas pri štarte (čas Bratislavy), ďalej plynie; "
                          "predvolene skutočný")
    sub.add_argument("--user", default="sss", metavar="MENO", help="prihlasovacie meno")
    sub.add_argument("--password", default="heslo", metavar="HESLO", help="heslo")


def add_run(add: Add) -> None:
    sub = add("run", "spustiť bota riadiaceho strediska na Discorde", _run_bot)
    sub.add_argument("--sync-commands", action="store_true",
                     help="zaregistrovať lomkové príkazy na Discorde (len keď sa zmenili)")
