"""`stredisko rule` and `approve`: the head administrator's ruling on one game (e-SP 4.9, 5)
or his approval of its proposal as it stands, the pairing named by round and table and the
players by their herna.net nicks."""

from __future__ import annotations

import argparse
from typing import Any

import bot.cli.args as arg
from bot.cli.common import Add, UseCase, reply_command
from bot.i18n import t
from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.policy import Actor
from bot.services.replies import Refusal, Reply
from bot.services.tournament import admin
from bot.store import get_player, pairings_of_round
from rules import End

# Ends after which, by default, both players made a move (a ruling may say otherwise: --moved)
_PLAYED = {End.FINISHED, End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED, End.OVER_LIMIT,
           End.SAVE_FAILED, End.AGREED_DRAW}


def pairing_tx(tx: Tx, slug: str, round_no: int, table: int) -> tuple[int, dict[str, int]]:
    """The pairing at `table` of round `round_no` and its players by herna nick (casefold)."""
    tournament = lookup.tournament(tx, slug)
    for p in pairings_of_round(tx.db, tournament.id, round_no):
        if p.table_no == table:
            ids = [pid for pid in (p.first_id, p.second_id) if pid is not None]
            return p.id, {get_player(tx.db, pid).herna_nick.casefold(): pid for pid in ids}
    raise Refusal("cli.no_pairing", round=round_no, table=table)


def _rule(a: argparse.Namespace, who: Actor) -> UseCase:

    async def use_case(app: App) -> Reply:
        found = await app.run(pairing_tx, a.slug, a.round, a.table)
        if isinstance(found, Reply):
            return found
        pairing_id, nicks = found

        def player(nick: str) -> int:
            if nick.casefold() not in nicks:
                raise Refusal("cli.unknown_nick", nick=nick, table=a.table, round=a.round)
            return nicks[nick.casefold()]

        try:
            end = End(a.end)
            params: dict[str, Any] = {}
            if a.score:
                params["first_score"], params["second_score"] = a.score
            if a.loser:
                params["loser"] = player(a.loser)
            if a.winner:
                params["winner"] = player(a.winner)
            if a.agreed:
                params["agreed"] = True
            moved = a.moved if a.moved is not None else (
                list(nicks) if end in _PLAYED else [])
            params["moved"] = [player(n) for n in moved]
        except Refusal as refusal:
            return refusal.reply
        return await admin.rule(app, a.slug, who, pairing_id, (end, params), a.reason)

    return use_case


def _approve(a: argparse.Namespace, who: Actor) -> UseCase:

    async def use_case(app: App) -> Reply:
        found = await app.run(pairing_tx, a.slug, a.round, a.table)
        if isinstance(found, Reply):
            return found
        return await admin.approve(app, a.slug, who, found[0], a.reason)

    return use_case


def _at_table(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """SLUG ROUND TABLE: the game a ruling or an approval is about."""
    sub.add_argument("slug", type=arg.slug, help="skratka turnaja (slug z propozícií)")
    sub.add_argument("round", type=arg.round_no, help="číslo kola")
    sub.add_argument("table", type=arg.table_no, help="číslo stola v kole")
    return sub


def add_approve(add: Add) -> None:
    sub = _at_table(add("approve", "schváliť návrh výsledku pri stole tak, ako je (e-SP 4.9)",
                        reply_command(_approve)))
    sub.add_argument("--reason", type=arg.reason, help="zdôvodnenie (nepovinné)")


def add_rule(add: Add) -> None:
    sub = _at_table(add("rule", "rozhodnutie hlavného administrátora o partii (e-SP 4.9, 5)",
                        reply_command(_rule)))
    sub.add_argument("end", type=arg.END, help=t("cli.choices", choices=arg.END.help()))
    sub.add_argument("--score", type=arg.score, nargs=2, metavar=("PRVÝ", "DRUHÝ"),
                     help="skóre: najprv hráča, ktorý začínal (bez --score sa vezme skóre "
                          "návrhu)")
    sub.add_argument("--loser", metavar="PREZÝVKA", type=arg.nick,
                     help="kto prehral (pri prehra-na-cas, vzdanie, odpojenie, nedostavenie)")
    sub.add_argument("--winner", metavar="PREZÝVKA", type=arg.nick,
                     help="zlyhalo-ulozenie: víťaz, na ktorom sa hráči zhodli (e-SP 4.6)")
    sub.add_argument("--moved", nargs="*", metavar="PREZÝVKA", type=arg.nick,
                     help="kto urobil aspoň jeden ťah (predvolene podľa spôsobu konca)")
    sub.add_argument("--agreed", action="store_true",
                     help="zlyhalo uloženie: hráči sa zhodli na celom výsledku (e-SP 4.6)")
    sub.add_argument("--reason", required=True, type=arg.reason, help="zdôvodnenie (povinné)")
