"""`stredisko duplicate pult SLUG [--dvojite] [--admin MENO]` (issue 41.2): the arbiter's desk —
one process for the whole game, a command a line, read from the terminal (history and
completion by readline) or piped (a prepared file, the tests).

A line is one of the one-shot CLI's actions (`bot.cli.duplicate_hall`) with the event implied,
and the round too where one is open or next:

    start [--seed HEX]          rack AEKLOSV [--oprava --reason …]     draw
    slip cyril 5C PŘIMETÁN 70   cyril 5C PŘIMETÁN 70 (a line not naming an action is a slip)
    slips FILE.csv   close   standings   protest KOLO HRÁČ SLOVO --claim … --reason …
    decide N vyhovieť|zamietnuť --reason …   final   reveal   replay   shootout HRÁČ BODY SEKUNDY
    pomoc   koniec

Each line is answered at once: the receipt, or one Slovak line on stderr; nothing of a refused
line is stored, and the desk reads on. The countdown starts when the rack is entered (the
round's deadline is set then and stored, 003 r. 15): the board (`tabula`) shows it.

`--dvojite`, or the event's `[duplicate] double_entry = true` (double entry, as French halls
have a second arbiter re-check every slip): in an
open round, a slip typed for a player who already has one is its second typing — compared, not
stored. Equal: confirmed. Different: the difference is listed and `close` is refused while any
remains; typing the slip again right (or mending the stored one with `--oprava`) settles it.
The second typings live in the desk's memory: after a restart the round's checks are typed
again (the stored slips are not touched by them).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

import bot.cli.duplicate_hall as duplicate_hall
from bot.cli.args import Parser
from bot.i18n import t
from bot.services.app import App
from bot.services.duplicate.context import DOUBLE_ENTRY_SETTING, event_of, player_by_label
from bot.services.replies import Refusal, Reply, reason_of
from bot.store.duplicate import list_games, list_rounds, list_slips

#: the actions a desk line may name (the one-shot CLI's, the board excepted)
# the desk runs the hall's actions but the two that are programs of their own: the board and
# the desk itself (`pult` typed at the desk started a second desk on the same input)
DESK_ACTIONS = tuple(a for a in duplicate_hall.ACTIONS if a not in ("tabula", "pult"))
HELP = ("pomoc", "help", "?")
QUIT = ("koniec", "quit", "exit")
ROUND_NOW = ("slips", "close")  # the open round implied
ROUND_NEXT = ("rack", "draw")  # the next round implied (rack --oprava: the open one)


@dataclass
class Checks:
    """Double entry's second typings of the open round: player id -> (first, second)."""

    round_id: int | None = None
    differ: dict[int, tuple[str, str, str]] = field(default_factory=dict)  # name, first, 2nd

    def for_round(self, round_id: int) -> None:
        if round_id != self.round_id:
            self.round_id, self.differ = round_id, {}


@dataclass(frozen=True, slots=True)
class RoundsNow:
    open: int | None
    next: int
    open_id: int | None


def rounds_now(db: Any, slug: str) -> RoundsNow:
    event = event_of(db, slug)
    games = list_games(db, event.id)
    rounds = list_rounds(db, games[-1].id) if games else []
    last = rounds[-1] if rounds else None
    if last is not None and last.is_open:
        return RoundsNow(last.number, last.number + 1, last.id)
    return RoundsNow(None, (last.number + 1) if last else 1, None)


def standing_slip(db: Any, round_id: int, label: str, slug: str) -> tuple[int, str, str] | None:
    """The player's standing slip of the round as (player id, name, "8H KOSA 7"); None when
    he has none. Refusal when the label names nobody (as a slip would be refused)."""
    player = player_by_label(db, event_of(db, slug), label)
    mine = [s for s in list_slips(db, round_id) if s.player_id == player.id
            and s.replaced_by is None]
    if not mine:
        return None
    return player.id, player.name, _slip_key(mine[0].text, mine[0].declared)


def player_id_of(db: Any, slug: str, label: str) -> int:
    return player_by_label(db, event_of(db, slug), label).id


def _slip_key(text: str, declared: int | str | None) -> str:
    return " ".join([*text.split(), *([str(declared)] if declared is not None else [])])


class Desk:
    """Reads lines, answers each (see the module)."""

    def __init__(self, app: App, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
        self.app, self.args, self.out, self.err = app, args, out, err
        self.slug = args.slug
        self.double = bool(args.dvojite)
        self.checks = Checks()
        self.failed = 0
        parser = Parser(prog="pult", add_help=False)
        duplicate_hall.add_actions(parser.add_subparsers(dest="duplicate_action"))
        self.parser = parser

    async def line(self, text: str) -> bool:
        """Answer one line; False when it ends the desk."""
        try:
            words = shlex.split(text, comments=True)
        except ValueError as exc:  # an unclosed quote
            return self._error(t("duplicate.desk.unreadable", reason=str(exc)))
        if not words:
            return True
        head = words[0].lower()
        if head in QUIT:
            return False
        if head in HELP:
            print(t("duplicate.desk.help"), file=self.out, flush=True)
            return True
        try:
            now = await self.app.store.read(rounds_now, self.slug)
            argv = self._argv(head, words, now)
            if argv[0] == "slip" and self.double and now.open_id is not None \
                    and "--oprava" not in argv and "--correction" not in argv:
                checked = await self._second_typing(argv, now.open_id)
                if checked is not None:
                    print(checked, file=self.out, flush=True)
                    return True
            if argv[0] == "close" and self.double and now.open_id is not None:
                self.checks.for_round(now.open_id)
                if self.checks.differ:
                    return self._error(t("duplicate.desk.differ", n=len(self.checks.differ),
                                         rows="; ".join(f"{n}: {a} ≠ {b}" for n, a, b
                                                        in self.checks.differ.values())))
            try:
                ns = self.parser.parse_args(argv)
            except SystemExit:  # argparse said it in one Slovak line on stderr
                self.failed += 1
                return True
            for name in ("db", "config", "admin"):
                if getattr(self.args, name, None) is not None:
                    setattr(ns, name, getattr(self.args, name))
            outcome = await duplicate_hall.handle(self.app, ns)
        except Refusal as refusal:
            return self._error(reason_of(refusal.reply))
        except (ValueError, OSError) as exc:
            return self._error(str(exc))
        if isinstance(outcome, Reply):
            return self._error(reason_of(outcome))
        if argv[0] == "slip" and self.double and now.open_id is not None:
            # a slip stored (a first typing or a correction) settles the player's difference:
            # it waits for its own second typing
            who = await self.app.store.read(player_id_of, self.slug, argv[3])
            self.checks.differ.pop(who, None)
        for printed in outcome:
            print(printed, file=self.out, flush=True)
        return True

    def _error(self, reason: str) -> bool:
        self.failed += 1
        print(t("cli.error", reason=reason), file=self.err, flush=True)
        return True

    def _argv(self, head: str, words: list[str], now: RoundsNow) -> list[str]:
        """The one-shot CLI's argv of a desk line: the event and the round filled in."""
        if head not in DESK_ACTIONS:
            return self._slip_argv(words, now)
        rest = words[1:]
        if head == "slip":
            return self._slip_argv(rest, now)
        if head in ROUND_NOW + ROUND_NEXT and not (rest and rest[0].isdecimal()):
            fixing = head == "rack" and ("--oprava" in rest or "--correction" in rest)
            number = now.open if head in ROUND_NOW or fixing else now.next
            if number is None:
                raise Refusal("duplicate.online.no_open_round")
            rest = [str(number), *rest]
        return [head, self.slug, *rest]

    def _slip_argv(self, words: list[str], now: RoundsNow) -> list[str]:
        """`cyril 5C PŘIMETÁN 70 [--late] [--oprava]` (or the move quoted, or with a
        direction: `cyril H8 V SLOVO 70`) as `slip SLUG ROUND cyril "5C PŘIMETÁN" --declared
        70 …`."""
        flags = [w for w in words if w.startswith("--")]
        plain = [w for w in words if not w.startswith("--")]
        if now.open is None:
            raise Refusal("duplicate.online.no_open_round")
        if len(plain) < 2:
            raise Refusal("duplicate.desk.slip_short")
        declared: list[str] = []
        if plain[-1].isdecimal() and (len(plain) >= 4 or (
                len(plain) == 3 and len(plain[1].split()) > 1)):
            declared = ["--declared", plain.pop()]
        return ["slip", self.slug, str(now.open), plain[0], " ".join(plain[1:]), *declared,
                *flags]

    async def _second_typing(self, argv: list[str], round_id: int) -> str | None:
        """Double entry: a typing of a player who already has a slip in the round is its
        check (None: he has none — this one is stored as usual)."""
        self.checks.for_round(round_id)
        label = argv[3]
        first = await self.app.store.read(standing_slip, round_id, label, self.slug)
        if first is None:
            return None
        player_id, name, stored = first
        declared = argv[argv.index("--declared") + 1] if "--declared" in argv else None
        typed = _slip_key(argv[4], declared)
        if typed == stored:
            self.checks.differ.pop(player_id, None)
            return t("duplicate.desk.confirmed", name=name, slip=stored)
        self.checks.differ[player_id] = (name, stored, typed)
        self.failed += 1
        return t("duplicate.desk.mismatch", name=name, first=stored, second=typed)


def lines_of(stream: TextIO, prompt: str) -> Iterator[str]:
    """The desk's input: readline's prompt, history and completion on a terminal, else the
    stream's lines."""
    if not stream.isatty():
        yield from (line.rstrip("\n") for line in stream)
        return
    import readline  # a terminal only: history (↑) and Tab completion of the actions

    words = [*DESK_ACTIONS, *HELP[:1], *QUIT[:1]]
    readline.set_completer(lambda text, i: ([w for w in words if w.startswith(text)] + [None])[i])
    readline.parse_and_bind("tab: complete")
    while True:
        try:
            yield input(prompt)
        except EOFError:
            return


async def run_desk(app: App, args: argparse.Namespace) -> list[str] | Reply:
    """The desk over stdin until `koniec` or the input ends."""
    try:
        event = await app.store.read(event_of, args.slug)
    except Refusal as refusal:
        return refusal.reply
    desk = Desk(app, args, sys.stdout, sys.stderr)
    desk.double = desk.double or bool(event.tournament.settings.get(DOUBLE_ENTRY_SETTING))
    if sys.stdin.isatty():
        print(t("duplicate.desk.welcome", slug=args.slug,
                double=t("duplicate.desk.double_on" if desk.double
                         else "duplicate.desk.double_off")), flush=True)
    for text in lines_of(sys.stdin, t("duplicate.desk.prompt", slug=args.slug)):
        if not await desk.line(text):
            break
    return [t("duplicate.desk.bye", failed=desk.failed)]


duplicate_hall.register("pult", run_desk)
