"""The `stredisko` commands about who is who: the tournament's head administrators on Discord
(`admins`) and the players' Discord accounts (`link`, `unlink`, `link-requests`,
`link-approve`, `link-reject`). They run as the CLI operator (`--admin`), whom the admin
policy trusts (`bot.services.policy`); every change is audited under his name and needs a
reason where the chat's would. The account commands take `--as DISCORD_ID`: a head admin at
the console acts with his Discord rights, no more — e.g. a relink of a player who also plays
in an event he does not run is refused (issue 44.4), as in the chat."""

from __future__ import annotations

import argparse

from bot.cli.common import Add, UseCase, reply_command
from bot.services import policy
from bot.services.identity import accounts as identity
from bot.services.policy import Actor


def discord_id(text: str) -> int:
    """argparse type: a Discord account id (17–20 digits)."""
    if not (text.isdecimal() and identity.is_discord_id(int(text))):
        raise argparse.ArgumentTypeError(f"„{text}“ nie je číslo Discord účtu (17 – 20 číslic)")
    return int(text)


def _admins(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: policy.set_admins(app, a.slug, who, a.add or (), a.remove or ())


def _acting(a: argparse.Namespace, who: Actor) -> Actor:
    """The operator, or the head admin whose Discord account `--as` names."""
    return who if a.as_discord is None else Actor.discord(a.as_discord)


def _link(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: identity.link(app, a.slug, _acting(a, who), a.nick, a.discord_id,
                                     a.reason)


def _unlink(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: identity.unlink(app, a.slug, _acting(a, who), a.nick, a.reason)


def _requests(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: identity.link_requests(app, a.slug, _acting(a, who))


def _approve(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: identity.approve_request(app, a.slug, _acting(a, who), a.request,
                                                a.reason)


def _reject(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: identity.reject_request(app, a.slug, _acting(a, who), a.request,
                                               a.reason)


def _as_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--as", dest="as_discord", type=discord_id, metavar="DISCORD_ID",
                     help="konať ako hlavný administrátor s týmto Discord účtom (s jeho "
                          "právami ako v Discorde)")


def add_commands(add: Add) -> None:
    """Add the commands to the `stredisko` parser (`add(name, help, run)` as in bot.cli)."""
    sub = add("admins", "hlavní administrátori turnaja v Discorde: zoznam, pridať, odobrať "
              "(e-SP 2.5)", reply_command(_admins))
    sub.add_argument("slug")
    sub.add_argument("--add", type=discord_id, nargs="+", metavar="DISCORD_ID")
    sub.add_argument("--remove", type=discord_id, nargs="+", metavar="DISCORD_ID")
    sub = add("link", "prepojiť hráča s Discord účtom, aj zmeniť doterajší (e-SP 5)",
              reply_command(_link))
    sub.add_argument("slug")
    sub.add_argument("nick", metavar="PREZÝVKA")
    sub.add_argument("discord_id", type=discord_id, metavar="DISCORD_ID")
    sub.add_argument("--reason", required=True, help="zdôvodnenie (povinné)")
    _as_option(sub)
    sub = add("unlink", "zrušiť prepojenie hráča s Discord účtom (e-SP 5)",
              reply_command(_unlink))
    sub.add_argument("slug")
    sub.add_argument("nick", metavar="PREZÝVKA")
    sub.add_argument("--reason", required=True, help="zdôvodnenie (povinné)")
    _as_option(sub)
    sub = add("link-requests", "žiadosti o prepojenie Discord účtu, ktoré čakajú na "
              "rozhodnutie", reply_command(_requests))
    sub.add_argument("slug")
    _as_option(sub)
    for name, help_text, factory, required in (
        ("link-approve", "schváliť žiadosť o prepojenie", _approve, False),
        ("link-reject", "zamietnuť žiadosť o prepojenie", _reject, True),
    ):
        sub = add(name, help_text, reply_command(factory))
        sub.add_argument("slug")
        sub.add_argument("request", type=int, metavar="ČÍSLO")
        sub.add_argument("--reason", required=required,
                         help="zdôvodnenie" + (" (povinné)" if required else ""))
        _as_option(sub)
