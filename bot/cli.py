"""The `stredisko` command: one subcommand per task (demo; set-up, rounds, views, exports).

Each subcommand is a function taking the parsed arguments and returning the exit code. Errors
the user can fix end in one clear line on stderr and a non-zero exit, never a traceback.
Tournament commands run a use case of `bot.services` on the store (`--db`, default from
config.toml or stredisko.db) as the head administrator `--admin` (default: the OS user); the
replies and the messages the use case sends are printed in Slovak.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sqlite3
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from bot import cli_args as arg
from bot import cli_export
from bot.cli_herna import add_commands as add_herna_commands
from bot.cli_identity import add_commands as add_identity_commands
from bot.cli_notes import database_error
from bot.cli_season import add_command as add_season_command
from bot.clock import SystemClock
from bot.config import Config, ConfigError, load_config
from bot.console import ConsoleNotifier, render_reply
from bot.i18n import SLOVAK, t
from bot.os_errors import os_error
from bot.services import admin, lookup, rounds, setup, views
from bot.services.app import App, Tx
from bot.services.policy import Actor
from bot.services.replies import Refusal, Reply, done
from bot.store import Store, StoreError, get_player, list_audit, pairings_of_round
from rules import End, Profile

Command = Callable[[argparse.Namespace], int]
UseCase = Callable[[App], Awaitable[Any]]
#: how many audit rows `show audit` prints at most
AUDIT_LIMIT = 10_000


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import render  # imported on use: other subcommands need not load it

    print(render(Profile.load(args.profil)))
    return 0


# -- running a use case on the store --------------------------------------------------------


def _config(args: argparse.Namespace) -> Config:
    """config.toml (or --config) when there is one, always with the environment applied."""
    given = getattr(args, "config", None)
    path = Path(given or "config.toml")
    return load_config(path if given or path.exists() else None)


def _db_path(args: argparse.Namespace) -> Path:
    if getattr(args, "db", None):
        return Path(args.db)
    return Path(_config(args).store.path)


def _admin(args: argparse.Namespace) -> Actor:
    """The CLI operator: trusted by the admin policy (he holds the database), audited by name."""
    name = (getattr(args, "admin", None) or getpass.getuser()).strip()
    if not name:
        raise ValueError(t("cli.admin_missing"))
    return Actor.operator(name)


def _progress(text: str) -> None:
    print(f"stredisko: {text} …", file=sys.stderr, flush=True)


def _run(args: argparse.Namespace, use_case: UseCase) -> Any:
    async def go() -> Any:
        path = _db_path(args)
        try:
            store = await Store.open(path)
        except sqlite3.OperationalError as exc:  # sqlite says only "unable to open …"
            raise ValueError(database_error(path, exc)) from None
        try:
            # No Discord here: messages stay queued for the bot, the console shows them.
            app = App(store, SystemClock(), ConsoleNotifier(), delivery="queue")
            value = await use_case(app)
            if app.queued_for_bot:
                print(t("outbox.queued", SLOVAK, n=app.queued_for_bot), file=sys.stderr)
            return value
        finally:
            await store.close()

    return asyncio.run(go())


def _show(reply: Reply) -> int:
    """Print a reply (with its rows); a refusal goes to stderr and exits with 1."""
    out = sys.stdout if reply.ok else sys.stderr
    for line in render_reply(reply):
        print(line, file=out)
    return 0 if reply.ok else 1


def _reply_command(factory: Callable[[argparse.Namespace, Actor], UseCase],
                   progress: str | None = None) -> Command:
    def command(args: argparse.Namespace) -> int:
        # Build the use case first: a configuration error must not follow a progress line.
        use_case = factory(args, _admin(args))
        if progress:
            _progress(progress)
        return _show(_run(args, use_case))

    return command


# -- the commands -----------------------------------------------------------------------------


def _create(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: setup.create_from_file(app, a.file, who)


def _import_players(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: setup.import_players_csv(app, a.slug, a.file, who)


def _import_screlo(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: setup.import_screlo_list(app, a.file, who)


def _checkin(a: argparse.Namespace, who: Actor) -> UseCase:
    fn = setup.open_checkin if a.action == "open" else setup.close_checkin
    return lambda app: fn(app, a.slug, who)


def _pair(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.pair_round(app, a.slug, a.round, who, force=a.force)


def _publish(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.publish_round(app, a.slug, a.target, who)


def _close(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.close_round(app, a.slug, a.round, who, force=a.force)


def _finish(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: rounds.finish_tournament(app, a.slug, who, force=a.force)


def _decay(a: argparse.Namespace, who: Actor) -> UseCase:
    return lambda app: setup.decay_season(app, a.season, who)


def _audit_tx(tx: Tx, slug: str) -> Reply:
    tournament = lookup.tournament(tx, slug)
    rows = [
        {"at": a.at, "actor": f"{a.actor_kind}{':' + a.actor_id if a.actor_id else ''}",
         "action": a.action, "subject": a.subject or "", "reason": a.reason or ""}
        for a in list_audit(tx.db, tournament_id=tournament.id, limit=AUDIT_LIMIT)
    ]
    return done("cli.audit", data=rows, tournament=tournament.name, count=len(rows))


def _show_command(a: argparse.Namespace, who: Actor) -> UseCase:
    if a.what == "pairings":  # without a round: the current one
        return lambda app: views.pairings_view(app, a.slug, a.round)
    if a.what == "results":
        return lambda app: views.results_view(app, a.slug, a.round)
    if a.what == "standings":
        return lambda app: views.standings_view(app, a.slug)
    return lambda app: app.run(_audit_tx, a.slug)


# Ends after which, by default, both players made a move (a ruling may say otherwise: --moved)
_PLAYED = {End.FINISHED, End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED, End.OVER_LIMIT,
           End.SAVE_FAILED, End.AGREED_DRAW}


def _pairing_tx(tx: Tx, slug: str, round_no: int, table: int) -> tuple[int, dict[str, int]]:
    """The pairing at `table` of round `round_no` and its players by herna nick (casefold)."""
    tournament = lookup.tournament(tx, slug)
    for p in pairings_of_round(tx.db, tournament.id, round_no):
        if p.table_no == table:
            ids = [pid for pid in (p.first_id, p.second_id) if pid is not None]
            return p.id, {get_player(tx.db, pid).herna_nick.casefold(): pid for pid in ids}
    raise Refusal("cli.no_pairing", round=round_no, table=table)


def _rule(a: argparse.Namespace, who: Actor) -> UseCase:

    async def use_case(app: App) -> Reply:
        found = await app.run(_pairing_tx, a.slug, a.round, a.table)
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


def _sync(a: argparse.Namespace, who: Actor) -> UseCase:
    """Read the tournament's games from herna.net now (the same pass the bot runs)."""
    from bot.progress import Progress
    from bot.services.sync import sync_command
    from scrapers.herna import client_factory

    overrides = {"base_url": a.base_url} if a.base_url else {}
    open_client = client_factory(_config(a).herna, **overrides)
    if open_client is None:
        raise ConfigError("chýba prihlásenie na herna.net: nastavte HERNA_USER a "
                          "HERNA_PASSWORD (alebo [herna] user/password v config.toml)")

    progress = Progress("stredisko: herna.net", sys.stderr)

    async def use_case(app: App) -> Reply:
        async with open_client() as client:
            return await sync_command(app, a.slug, client, progress)

    return use_case


def _run_bot(args: argparse.Namespace) -> int:
    from bot.discord.runner import run

    return run(getattr(args, "config", None), args.sync_commands)


def _export(args: argparse.Namespace) -> int:
    reply = _run(args, cli_export.use_case(args.what, args.slug))
    if not reply.ok:
        return _show(reply)
    cli_export.write(reply, args.output)
    return 0


def _rehearse(args: argparse.Namespace) -> int:
    from bot.rehearse.command import run_command  # loads the simulator: only on use

    return run_command(args.scenario, sys.stdout, sys.stderr, as_json=args.json,
                       db=getattr(args, "db", None), html=args.html)


def _publish_page(args: argparse.Namespace) -> int:
    from bot.publish import write_results_page

    report = _run(args, lambda app: views.report(app, args.slug))
    if isinstance(report, Reply):
        return _show(report)
    path = write_results_page(report, args.target)
    print(t("cli.page_written", file=str(path)))
    return 0


def _publish_either(args: argparse.Namespace) -> int:
    """`publish SLUG 3` publishes round 3; `publish SLUG DIR` writes the results page there."""
    if isinstance(args.target, int):
        return _reply_command(_publish)(args)
    return _publish_page(args)


# -- the parser -------------------------------------------------------------------------------


def _common() -> argparse.ArgumentParser:
    common = arg.Parser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS,
                        help="súbor databázy (predvolene z config.toml, inak stredisko.db)")
    common.add_argument("--config", default=argparse.SUPPRESS, help="konfiguračný súbor")
    common.add_argument("--admin", default=argparse.SUPPRESS,
                        help="hlavný administrátor, ktorý koná (predvolene používateľ OS)")
    return common


def _parser() -> argparse.ArgumentParser:
    common = _common()
    parser = arg.Parser(
        prog="stredisko", parents=[common],
        description="Riadiace stredisko online turnajov Slovenského spolku SCRABBLE.",
    )
    commands = parser.add_subparsers(dest="command", metavar="PRÍKAZ", required=True)

    def add(name: str, help_text: str, run: Command) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, parents=[common])
        sub.set_defaults(run=run)
        return sub

    demo = add("demo", "poradie malého ukážkového turnaja vyhodnoteného podľa pravidiel", _demo)
    demo.add_argument(
        "--profil", default="sss-online", help="profil pravidiel (predvolený: sss-online)"
    )
    add("create", "založiť turnaj z propozícií (TOML)",
        _reply_command(_create, "zakladám turnaj")).add_argument("file")
    sub = add("import-players", "prihlásiť hráčov zo súboru CSV",
              _reply_command(_import_players, "importujem hráčov"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("file")
    add("import-screlo", "aktualizovať online screlo zo zoznamu CSV",
        _reply_command(_import_screlo, "importujem zoznam screla")).add_argument("file")
    sub = add("checkin", "otvoriť alebo uzavrieť prezentáciu", _reply_command(_checkin))
    sub.add_argument("action", choices=("open", "close"))
    sub.add_argument("slug", type=arg.slug)
    for name, help_text, factory, forced, note in (
        ("pair", "spárovať kolo (e-SP 2.4)", _pair, True, "párujem kolo"),
        ("close", "uzavrieť kolo a vyhlásiť poradie", _close, True, "uzatváram kolo"),
    ):
        sub = add(name, help_text, _reply_command(factory, note))
        sub.add_argument("slug", type=arg.slug)
        sub.add_argument("round", type=arg.round_no)
        if forced:
            sub.add_argument("--force", action="store_true", help="pokračovať napriek varovaniam")
    sub = add("publish", "zverejniť spárované kolo (číslo kola) alebo zapísať stránku výsledkov "
              "turnaja (priečinok)", _publish_either)
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("target", metavar="KOLO|PRIEČINOK", type=arg.round_or_folder)
    sub = add("finish", "ukončiť turnaj: konečné poradie a online screlo",
              _reply_command(_finish, "ukončujem turnaj a počítam online screlo"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("--force", action="store_true", help="pokračovať napriek varovaniam")
    sub = add("show", "zobraziť párovanie, výsledky, poradie alebo záznam zmien",
              _reply_command(_show_command))
    sub.add_argument("what", choices=("pairings", "results", "standings", "audit"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("round", type=arg.round_no, nargs="?")
    sub = add("rule", "rozhodnutie hlavného administrátora o partii (e-SP 4.9, 5)",
              _reply_command(_rule))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("round", type=arg.round_no)
    sub.add_argument("table", type=arg.table_no)
    sub.add_argument("end", choices=[e.value for e in End])
    sub.add_argument("--score", type=arg.score, nargs=2, metavar=("PRVÝ", "DRUHÝ"))
    sub.add_argument("--loser", metavar="PREZÝVKA", type=arg.nick)
    sub.add_argument("--winner", metavar="PREZÝVKA", type=arg.nick)
    sub.add_argument("--moved", nargs="*", metavar="PREZÝVKA", type=arg.nick,
                     help="kto urobil aspoň jeden ťah (predvolene podľa spôsobu konca)")
    sub.add_argument("--agreed", action="store_true",
                     help="zlyhalo uloženie: hráči sa zhodli na celom výsledku (e-SP 4.6)")
    sub.add_argument("--reason", required=True, type=arg.reason, help="zdôvodnenie (povinné)")
    sub = add("export", "export: výsledky CSV, TSH (.t a config.tsh), FIDE TRF, zoznam online "
              "screla", _export)
    sub.add_argument("what", choices=cli_export.WHAT)
    sub.add_argument("slug", nargs="?", type=arg.slug)
    sub.add_argument("-o", "--output", "--out", metavar="SÚBOR",
                     help="súbor (pri tsh sa vedľa neho zapíše aj config.tsh)")
    sub = add("publish-page", "zapísať stránku výsledkov (index.html)", _publish_page)
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("target", metavar="PRIEČINOK")
    sub = add("sync", "načítať partie turnaja z herna.net a vyhodnotiť ich",
              _reply_command(_sync, "čítam partie z herna.net"))
    sub.add_argument("slug", type=arg.slug)
    sub.add_argument("--base-url", help="iná adresa herna.net (napr. lokálny simulátor)")
    sub = add("rehearse", "skúška: odohrať scenár turnaja offline so simulátorom herna.net",
              _rehearse)
    sub.add_argument("scenario", help="scenár (TOML)")
    sub.add_argument("--json", action="store_true", help="výsledky ako jeden dokument JSON")
    sub.add_argument("--html", metavar="PRIEČINOK", help="zapísať stránku výsledkov")
    sub = add("run", "spustiť bota riadiaceho strediska na Discorde", _run_bot)
    sub.add_argument("--sync-commands", action="store_true",
                     help="zaregistrovať lomkové príkazy na Discorde (len keď sa zmenili)")
    add_identity_commands(add, _reply_command)
    add_herna_commands(add, _config)
    sub = add("decay", "pokles online screla za neaktivitu na začiatku sezóny (e-SP 2.4)",
              _reply_command(_decay))
    sub.add_argument("season", type=arg.season, help="začínajúca sezóna, napr. 2026/27")
    add_season_command(add, _db_path)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    run: Command = args.run
    try:
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
