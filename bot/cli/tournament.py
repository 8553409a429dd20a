"""`stredisko` commands that run a tournament: create it, sign players up, check-in, pair,
publish and close rounds, finish, the season's screlo decay, and a sync with herna.net."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import bot.cli.args as arg
from bot.cli.common import Add, UseCase, config, reply_command
from bot.config import ConfigError
from bot.services.app import App
from bot.services.identity.accounts import is_discord_id
from bot.services.policy import Actor
from bot.services.replies import Reply
from bot.services.tournament import (
    checkin,
    decay,
    events,
    payments,
    player_import,
    rounds,
    screlo_import,
    setup,
)


def _create(a: argparse.Namespace, who: Actor) -> UseCase:
    directory = Path(config(a).lexicon.dir)  # a duplicate event's lexicon id is found there
    return lambda app: setup.create_from_file(app, a.file, who, lexicon_dir=directory,
                                              channel_id=a.channel)


def channel_id(text: str) -> int:
    """argparse type: a Discord channel id (17–20 digits, as every Discord id)."""
    if not (text.isdecimal() and is_discord_id(int(text))):
        raise argparse.ArgumentTypeError(f"„{text[:40]}“ nie je číslo Discord kanála "
                                         "(17 – 20 číslic)")
    return int(text)


def _channel(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: events.set_channel(app, a.slug, None if a.clear else a.channel, who)


def _import_players(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: player_import.import_players_csv(app, a.slug, a.file, who)


def _import_screlo(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: screlo_import.import_screlo_list(app, a.file, who)


def _payment(paid: bool) -> Callable[[argparse.Namespace, Actor], UseCase]:
    def factory(a: argparse.Namespace, who: Actor) -> UseCase:
        return lambda app: payments.set_payment(app, a.slug, who, a.nicks, paid)
    return factory


def _checkin(a: argparse.Namespace, who: Actor) -> UseCase:
    fn = checkin.open_checkin if a.action == "open" else checkin.close_checkin
    return lambda app: fn(app, a.slug, who)


def _pair(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.pair_round(app, a.slug, a.round, who, force=a.force)


def publish_round(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.publish_round(app, a.slug, a.target, who)


def _close(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.close_round(app, a.slug, a.round, who, force=a.force)


def _finish(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.finish_tournament(app, a.slug, who, force=a.force)


def _decay(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: decay.decay_season(app, a.season, who)


def _sync(a: argparse.Namespace, who: Actor) -> UseCase:
    """Read the tournament's games from herna.net now (the same pass the bot runs)."""
    from bot.progress import Progress
    from bot.services.results.sync import sync_command
    from scrapers.herna import client_factory

    overrides = {"base_url": a.base_url} if a.base_url is not None else {}
    open_client = client_factory(config(a).herna, **overrides)
    if open_client is None:
        raise ConfigError("chýba prihlásenie na herna.net: nastavte HERNA_USER a "
                          "HERNA_PASSWORD (alebo [herna] user/password v config.toml)")

    progress = Progress("stredisko: herna.net", sys.stderr)

    async def use_case(app: App) -> Reply:
        async with open_client() as client:
            return await sync_command(app, a.slug, client, progress)

    return use_case


def add_setup(add: Add) -> None:
    sub = add("create", "založiť turnaj z propozícií (TOML)",
              reply_command(_create, "zakladám turnaj"))
    sub.add_argument("file")
    sub.add_argument("--channel", type=channel_id, metavar="ID_KANÁLA",
                     help="kanál udalosti v Discorde: príkazy v ňom sa týkajú jej (issue 37)")
    sub = add("channel", "nastaviť udalosti jej kanál v Discorde (dve udalosti nezdieľajú kanál)",
              reply_command(_channel))
    sub.add_argument("slug", type=arg.slug)
    which = sub.add_mutually_exclusive_group(required=True)
    which.add_argument("channel", nargs="?", type=channel_id, metavar="ID_KANÁLA")
    which.add_argument("--clear", action="store_true",
                       help="bez vlastného kanála: oznamy idú do riadiaceho strediska servera")
    sub = add("import-players", "prihlásiť hráčov zo súboru CSV",
              reply_command(_import_players, "importujem hráčov"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("file")
    add("import-screlo", "aktualizovať online screlo zo zoznamu CSV",
        reply_command(_import_screlo, "importujem zoznam screla")).add_argument("file")
    for name, paid, help_text in (
        ("paid", True, "zapísať zaplatené štartovné (e-SP 2.2: párujú sa len tí, čo zaplatili)"),
        ("unpaid", False, "zapísať nezaplatené štartovné (hráč sa nepáruje, e-SP 2.2)"),
    ):
        sub = add(name, help_text, reply_command(_payment(paid)))
        sub.add_argument("slug", type=arg.slug)
        sub.add_argument("nicks", nargs="+", metavar="PREZÝVKA", type=arg.nick)
    sub = add("checkin", "otvoriť alebo uzavrieť prezentáciu", reply_command(_checkin))
    sub.add_argument("action", choices=("open", "close"))
    sub.add_argument("slug", type=arg.slug)


def add_rounds(add: Add) -> None:
    """pair and close (publish is registered with the page it shares its name with)."""
    for name, help_text, factory, note in (
        ("pair", "spárovať kolo (e-SP 2.4)", _pair, "párujem kolo"),
        ("close", "uzavrieť kolo a vyhlásiť poradie", _close, "uzatváram kolo"),
    ):
        sub = add(name, help_text, reply_command(factory, note))
        sub.add_argument("slug", type=arg.slug)
        sub.add_argument("round", type=arg.round_no)
        sub.add_argument("--force", action="store_true", help="pokračovať napriek varovaniam")


def add_finish(add: Add) -> None:
    sub = add("finish", "ukončiť turnaj: konečné poradie a online screlo",
              reply_command(_finish, "ukončujem turnaj a počítam online screlo"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("--force", action="store_true", help="pokračovať napriek varovaniam")


def add_sync(add: Add) -> None:
    sub = add("sync", "načítať partie turnaja z herna.net a vyhodnotiť ich",
              reply_command(_sync, "čítam partie z herna.net"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("--base-url", type=arg.base_url,
                     help="iná adresa herna.net (napr. lokálny simulátor), http(s)://…")


def add_decay(add: Add) -> None:
    sub = add("decay", "pokles online screla za neaktivitu na začiatku sezóny (e-SP 2.4)",
              reply_command(_decay))
    sub.add_argument("season", type=arg.season, help="začínajúca sezóna, napr. 2026/27")
