"""The live hall's duplicate commands (issue 24 items 5, 9; 003 "opisované scrabble"): the
arbiter runs the game from the console on the same services and database as the bot.

    stredisko duplicate start SLUG [--seed HEX]
    stredisko duplicate rack SLUG ROUND "AEK?RSÝ"        the physically drawn rack (003 r. 11)
    stredisko duplicate rack SLUG ROUND "AEKLOSV" --oprava --reason …
                                                         the open round's mistyped rack mended
    stredisko duplicate draw SLUG ROUND                  a rack drawn from the game's seed
    stredisko duplicate slip SLUG ROUND PLAYER "8H SLOVO" [--declared N] [--late] [--oprava]
                                                         --oprava: it mends the arbiter's typo
                                                         of the player's latest entry (003 r. 42)
    stredisko duplicate slips SLUG ROUND FILE.csv        a round's slips: hráč,ťah[,body]
    stredisko duplicate close SLUG ROUND                 the top and every slip's score
    stredisko duplicate standings SLUG
    stredisko duplicate protest SLUG ROUND PLAYER WORD --claim prijaté|odmietnuté --reason …
    stredisko duplicate decide SLUG PROTEST vyhovieť|zamietnuť --reason …
    stredisko duplicate final SLUG                       final results, the seed revealed
    stredisko duplicate reveal SLUG / replay SLUG        the seed; the racks re-drawn from it
    stredisko duplicate tabula SLUG [--host H] [--port N]  the projector's board (issue 41.1)
    stredisko duplicate pult SLUG [--dvojite]            the arbiter's desk (issue 41.2)
    stredisko duplicate shootout SLUG PLAYER SCORE SECONDS [--word "8H SLOVO"] [--reason …]
                                                         003 r. 49's result of a level player

PLAYER is the player's number (003 r. 38), name or nick; SECONDS "95", "95,5" or "1:35". Bad
input — a slip for a closed round, a player not in the event, a coordinate or word that cannot
be read, 10,000 characters, a rack of 8 letters or letters not in the bag, a shoot-out for a
player level with nobody or before the last game ended — is one Slovak line on stderr and
exit 2; nothing is stored. `--game N` picks a game other than the latest.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bot.cli.duplicate_board as duplicate_board
from bot.cli.args import USAGE_ERROR
from bot.cli.common import admin, config, run
from bot.i18n import t
from bot.os_errors import os_error
from bot.services.app import App, Tx
from bot.services.duplicate import close, game, protests, results, shootout, slips
from bot.services.duplicate.context import event_of, players_of
from bot.services.duplicate.game import GameEnded, RoundOpened, rack_values
from bot.services.replies import Reply, reason_of

ACTIONS = ("start", "rack", "draw", "slip", "slips", "close", "standings", "protest", "decide",
           "final", "reveal", "replay", "shootout", "tabula", "pult")
CLAIMS = protests.CLAIM_WORDS  # as the arbiter writes them (a rehearsal scenario too)
VERDICTS = protests.VERDICT_WORDS
FILE_LIMIT = 1_000_000  # bytes of a slips CSV


def add_actions(actions: Any) -> None:
    """Register the hall's actions on `stredisko duplicate`'s subparsers."""
    def action(name: str, help_text: str, *slots: tuple[str, str], game: bool = True
               ) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help_text)
        sub.add_argument("slug", metavar="TURNAJ")
        for dest, metavar in slots:
            sub.add_argument(dest, metavar=metavar)
        if game:
            sub.add_argument("--game", type=int, default=None, metavar="N",
                             help="partia (predvolene posledná začatá)")
        for option, text in (("--db", "súbor databázy"), ("--config", "konfiguračný súbor"),
                             ("--admin", "hlavný rozhodca, ktorý koná")):
            sub.add_argument(option, default=argparse.SUPPRESS, help=text)
        return sub

    start = action("start", "začať ďalšiu partiu (zverejní odtlačok semena zásobníkov)")
    start.add_argument("--seed", default=None, help="semeno (hex, na skúšku; inak náhodné)")
    rack = action("rack", "otvoriť kolo so zásobníkom vylosovaným v sále (003 r. 11)",
                  ("round", "KOLO"), ("rack", "ZÁSOBNÍK"))
    rack.add_argument("--oprava", "--correction", dest="correction", action="store_true",
                      help="oprava zle zapísaného zásobníka otvoreného kola: lístky sa posúdia "
                           "podľa opraveného, limit začne znova (003 r. 15)")
    rack.add_argument("--reason", default=None, help="dôvod opravy zásobníka (do auditu)")
    action("draw", "otvoriť kolo so zásobníkom vylosovaným zo semena partie", ("round", "KOLO"))
    slip = action("slip", "zapísať lístok hráča (003 r. 38)", ("round", "KOLO"),
                  ("player", "HRÁČ"), ("move", "ŤAH"))
    slip.add_argument("--declared", default=None, metavar="BODY",
                      help="bodová hodnota napísaná na lístku (003 r. 45)")
    slip.add_argument("--late", action="store_true",
                      help="lístok odovzdaný po limite (003 r. 19: 0 bodov)")
    slip.add_argument("--oprava", "--correction", dest="correction", action="store_true",
                      help="oprava vlastného preklepu rozhodcu: nahradí posledný zápis lístka "
                           "hráča, hráč odovzdal jeden lístok (003 r. 42)")
    action("slips", "zapísať lístky kola zo súboru CSV (hráč,ťah[,body])", ("round", "KOLO"),
           ("file", "SÚBOR.csv"))
    action("close", "uzavrieť kolo: najlepší ťah a hodnotenie každého lístka",
           ("round", "KOLO"))
    action("standings", "priebežné poradie (003 r. 46–48)")
    protest = action("protest", "námietka proti slovu kola (003 r. 27)", ("round", "KOLO"),
                     ("player", "HRÁČ"), ("word", "SLOVO"))
    protest.add_argument("--claim", required=True, choices=sorted(CLAIMS),
                         help="slovo bolo neprávom prijaté alebo neprávom odmietnuté")
    protest.add_argument("--reason", required=True, help="zdôvodnenie")
    decide = action("decide", "rozhodnutie hlavného rozhodcu o námietke (003 r. 29)",
                    ("protest", "NÁMIETKA"), ("verdict", "ROZHODNUTIE"))
    decide.add_argument("--reason", required=True, help="zdôvodnenie")
    action("final", "konečné výsledky partie a zverejnenie semena (003 r. 29)")
    action("reveal", "semeno zásobníkov skončenej partie")
    action("replay", "znova vylosovať zásobníky zo zverejneného semena a porovnať ich")
    shoot = action("shootout", "výsledok rozstrelu hráča v zhode po poslednej partii (003 r. 49)",
                   ("player", "HRÁČ"), ("score", "BODY"), ("seconds", "SEKUNDY"), game=False)
    shoot.add_argument("--word", default=None, metavar="ŤAH",
                       help="ťah rozstrelu ako na lístku, napr. „8H SLOVO“")
    shoot.add_argument("--reason", default=None,
                       help="dôvod opravy už zapísaného výsledku (prvý zápis zostane)")
    duplicate_board.add_board_options(action(
        "tabula", "demonštračná tabuľa pre projektor v sále a jej stav /stav.json "
        "(003 r. 14–26, 32)", game=False))
    desk = action("pult", "stôl rozhodcu: celá partia v jednom procese, príkaz na riadok (aj "
                  "zo súboru cez rúru)", game=False)
    desk.add_argument("--dvojite", action="store_true",
                      help="dvojité zadávanie: druhé zapísanie lístka hráča v kole sa porovná "
                           "s prvým; kolo sa neuzavrie, kým sa nejaké líšia")


def run_action(args: argparse.Namespace) -> int:
    """Run one hall action; refusals and bad input: one Slovak line, exit 2."""
    try:
        outcome = run(args, lambda app: handle(app, args))
    except ValueError as exc:  # a damaged database file, an unreadable CSV
        return _fail(str(exc))
    except OSError as exc:
        return _fail(os_error(exc))
    if isinstance(outcome, Reply):
        return _fail(reason_of(outcome))
    for line in outcome:
        print(line)
    return 0


async def handle(app: App, args: argparse.Namespace) -> list[str] | Reply:
    """One parsed hall action on `app`: the lines to print, or the refusal (the CLI runs it on
    its own store and clock; the kill campaign on its simulated ones)."""
    return await _HANDLERS[args.duplicate_action](app, args)


def _admin(a: argparse.Namespace) -> str:
    """Who acts (audited): --admin, else the OS user."""
    return admin(a).ident


def _fail(line: str) -> int:
    print(t("cli.error", reason=line), file=sys.stderr)
    return USAGE_ERROR


def _number(text: str, what: str) -> int:
    if not text.isdecimal() or len(text) > 6:
        raise ValueError(t("duplicate.hall.not_number", what=what, value=text[:20]))
    return int(text)


async def _start(app: App, a: argparse.Namespace) -> list[str] | Reply:
    started = await app.run(game.start_game, a.slug, seed=a.seed, admin=_admin(a))
    if isinstance(started, Reply):
        return started
    lines = [t("duplicate.online.started", game=started.game, commitment=started.commitment)]
    if started.opened is not None:
        lines += await opened_lines(app, a.slug, started.opened)
    return lines


async def _open(app: App, a: argparse.Namespace) -> list[str] | Reply:
    rack = a.rack if a.duplicate_action == "rack" else None
    if rack is not None and getattr(a, "correction", False):
        return await _fix_rack(app, a)
    opened = await app.run(game.open_round, a.slug, rack=rack,
                           round_no=_number(a.round, "kolo"), game=a.game, admin=_admin(a))
    if isinstance(opened, Reply):
        return opened
    return await opened_lines(app, a.slug, opened)


async def _fix_rack(app: App, a: argparse.Namespace) -> list[str] | Reply:
    fixed = await app.run(game.correct_rack, a.slug, _number(a.round, "kolo"), a.rack,
                          a.reason or "", game=a.game, admin=_admin(a))
    if isinstance(fixed, Reply):
        return fixed
    opened = fixed.opened
    if not fixed.changed:
        return [t("duplicate.online.rack_fixed_same", round=opened.round, rack=opened.rack)]
    event = await app.store.read(event_of, a.slug)
    return [t("duplicate.online.rack_fixed_cli", round=opened.round, was=fixed.was,
              rack=opened.rack, values=rack_values(event, opened.rack),
              deadline=opened.deadline, slips=fixed.slips), opened.board.rstrip("\n")]


async def opened_lines(app: App, slug: str, opened: RoundOpened | GameEnded) -> list[str]:
    """What the arbiter is shown when a round opens (the rack, its values, the board) or the
    draw ends the game (the CLI's and the hall rehearsal's lines)."""
    if isinstance(opened, GameEnded):
        return [t("duplicate.online.ended", game=opened.game, round=opened.after_round,
                  why=t(f"duplicate.online.why_{opened.reason}"), rule=opened.rule)]
    event = await app.store.read(event_of, slug)
    return [t("duplicate.online.opened", game=opened.game, round=opened.round,
              rack=opened.rack, values=rack_values(event, opened.rack),
              deadline=opened.deadline), opened.board.rstrip("\n")]


async def _slip(app: App, a: argparse.Namespace) -> list[str] | Reply:
    receipt = await app.run(slips.submit_slip, a.slug, a.move, received_at=app.clock.now(),
                            round_no=_number(a.round, "kolo"), player=a.player,
                            declared=a.declared, source="arbiter", late=a.late,
                            correction=a.correction, admin=_admin(a))
    if isinstance(receipt, Reply):
        return receipt
    return [receipt_line(receipt)]


def receipt_line(receipt: slips.SlipReceipt) -> str:
    key = "duplicate.online.slip_received_late" if receipt.late \
        else "duplicate.online.slip_received"
    line = f"{receipt.player}: {t(key, round=receipt.round, line=receipt.line)}"
    if receipt.corrects is not None:  # the arbiter's typo mended: one slip (003 r. 42)
        line += " " + t("duplicate.online.slip_fixed", was=receipt.corrects, rule=slips.FIX_RULE)
    elif receipt.replaced:  # what a second slip does: the setting that applied (003 r. 41–42)
        key = "duplicate.online.slip_several_none" if receipt.several == "none" \
            else "duplicate.online.slip_replaced"
        line += " " + t(key, rule=receipt.several_rule)
    return line


async def _slips(app: App, a: argparse.Namespace) -> list[str] | Reply:
    path = Path(a.file)
    if path.stat().st_size > FILE_LIMIT:
        raise ValueError(t("duplicate.online.csv_too_long", n=path.stat().st_size))
    content = path.read_text(encoding="utf-8-sig")
    receipts = await app.run(slips.submit_csv, a.slug, _number(a.round, "kolo"), content,
                             received_at=app.clock.now(), admin=_admin(a))
    if isinstance(receipts, Reply):
        return receipts
    return [receipt_line(r) for r in receipts]


async def _close(app: App, a: argparse.Namespace) -> list[str] | Reply:
    directory = Path(config(a).lexicon.dir)
    closed = await close.close_round(app, a.slug, _number(a.round, "kolo"), game=a.game,
                                     lexicon_dir=directory, admin=_admin(a))
    if isinstance(closed, Reply):
        return closed
    return closed_lines(closed, await app.store.read(entrant_names, a.slug))


def closed_lines(closed: close.RoundClosed, names: dict[int, str]) -> list[str]:
    """What the arbiter is shown when a round closes: the top, who found it, every player's
    score with its reason and rule, the board after the top."""
    lines = [] if closed.closed_now else [t("duplicate.online.closed_already",
                                            round=closed.round)]
    if closed.top:
        top = f"{closed.top['coord']} {closed.top['word']} ({closed.top['score']})"
        lines.append(t("duplicate.online.closed", round=closed.round, top=top,
                       found=closed.found_top, n=closed.players))
    else:  # no move, not "no slip" (issue 35)
        lines.append(t("duplicate.online.closed_no_top", round=closed.round,
                       rule=closed.no_top_rule))
    for score in closed.scores:
        lines.append(t("duplicate.online.score_line", name=names.get(score.player_id, "?"),
                       move=score.move or t("duplicate.online.no_move"), points=score.points,
                       why=results.why_text(score.outcome, score.reason, close.finding_of(score)),
                       rule=score.rule))
    lines.append(closed.board_after.rstrip("\n"))
    return lines


def entrant_names(tx_db: Any, slug: str) -> dict[int, str]:
    event = event_of(tx_db, slug)
    return {p.id: p.name for _, p in players_of(tx_db, event)}


async def _standings(app: App, a: argparse.Namespace) -> list[str] | Reply:
    def body(tx: Tx) -> list[str]:
        event = event_of(tx.db, a.slug)
        rows = results.standing_lines(tx.db, event, results.event_standings(tx.db, event))
        return [t("duplicate.online.standing_line", **row) for row in rows]

    return await app.run(body)


async def _protest(app: App, a: argparse.Namespace) -> list[str] | Reply:
    filed = await app.run(protests.file_protest, a.slug, _number(a.round, "kolo"), a.word,
                          CLAIMS[a.claim], a.reason, player=a.player, game=a.game)
    if isinstance(filed, Reply):
        return filed
    return [t("duplicate.online.filed", id=filed.id)]


async def _decide(app: App, a: argparse.Namespace) -> list[str] | Reply:
    if a.verdict not in VERDICTS:
        raise ValueError(t("duplicate.hall.verdict", choices=", ".join(VERDICTS)))
    decided = await app.run(protests.decide_protest, a.slug, _number(a.protest, "námietka"),
                            VERDICTS[a.verdict], a.reason, _admin(a))
    if isinstance(decided, Reply):
        return decided
    return [t("duplicate.online.decided", id=decided.protest.id,
              verdict=t("duplicate.online.protest_upheld" if decided.protest.status == "upheld"
                        else "duplicate.online.protest_rejected"), changed=decided.changed)]


async def _final(app: App, a: argparse.Namespace) -> list[str] | Reply:
    fn = results.finalize_game if a.duplicate_action == "final" else results.reveal
    revealed = await app.run(fn, a.slug, a.game)
    if isinstance(revealed, Reply):
        return revealed
    return [t("duplicate.online.revealed", game=revealed.game, seed=revealed.seed,
              commitment=revealed.commitment)]


async def _replay(app: App, a: argparse.Namespace) -> list[str] | Reply:
    checked = await app.run(results.replay_game, a.slug, a.game)
    if isinstance(checked, Reply):
        return checked
    verified, rows = checked
    lines = [t("duplicate.hall.commitment_ok" if verified else "duplicate.hall.commitment_bad")]
    if rows and all(source == "arbiter" for *_, source in rows):
        lines.append(t("duplicate.hall.replay_none"))
    # a rack typed in the hall is taken as typed: comparing it with itself proves nothing
    return lines + [t("duplicate.hall.replay_typed", round=r, stored=s) if source == "arbiter"
                    else t("duplicate.hall.replay_line", round=r, stored=s, drawn=d,
                           verdict=t("duplicate.hall.same" if s == d
                                     else "duplicate.hall.differs"))
                    for r, s, d, source in rows]


async def _shootout(app: App, a: argparse.Namespace) -> list[str] | Reply:
    entered = await app.run(shootout.enter_shoot_out, a.slug, a.player,
                            _number(a.score, "body"), _seconds(a.seconds), word=a.word,
                            admin=_admin(a), reason=a.reason)
    if isinstance(entered, Reply):
        return entered
    return [t(key, **params) for key, params in shootout.told(entered)]


def _seconds(text: str) -> float:
    """Seconds as an arbiter writes them: "95", "95,5", "95.5" or minutes "1:35"."""
    minutes, _, rest = text.strip().rpartition(":")
    number = rest.replace(",", ".")
    parts = number.split(".")
    if (minutes and not (minutes.isdecimal() and parts[0].isdecimal() and int(parts[0]) < 60)) \
            or len(parts) > 2 or len(text) > 12 or not parts[0] \
            or not all(p.isdecimal() for p in parts if p):
        raise ValueError(t("duplicate.shoot_out.not_number", what="sekundy", value=text[:20]))
    return int(minutes or 0) * 60 + float(number)


async def _tabula(app: App, a: argparse.Namespace) -> list[str] | Reply:
    return await duplicate_board.serve_board(app, a.slug, a.host, a.port)


Handler = Callable[[App, argparse.Namespace], Any]
_HANDLERS: dict[str, Handler] = {
    "start": _start, "rack": _open, "draw": _open, "slip": _slip, "slips": _slips,
    "close": _close, "standings": _standings, "protest": _protest, "decide": _decide,
    "final": _final, "reveal": _final, "replay": _replay, "shootout": _shootout,
    "tabula": _tabula,
}


def register(name: str, handler: Handler) -> None:
    """Add an action's handler defined by a module that itself builds on this one (the
    desk, `bot.cli.duplicate_desk`, runs these actions: it cannot be imported here)."""
    _HANDLERS[name] = handler
