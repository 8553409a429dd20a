"""A whole duplicate game in a live hall, run from the arbiter's console by a process that may be
killed anywhere (the kill campaign, hall mode).

    python hall_driver.py SCENARIO DB SINK PROGRESS [--crash POINT:N[@STEP]] [--counts FILE]

SCENARIO is an online duplicate scenario (duplicate-small.toml) played in a hall: `mode =
"hall"`, round 1's rack typed as drawn from the bag (003 r. 11), the others drawn from the seed
(`stredisko duplicate draw`). The steps are the hall rehearsal's (`DuplicateRehearsal.steps`:
start, each round opened, its slips, its close, the rounds left until the game ends, the
protests, the decisions, the final results), but every step is what the arbiter TYPES: a
`stredisko duplicate …` command line parsed by the hall CLI's own parser and run by its own
handlers (`bot/cli/duplicate_hall.py`) on the services, the real store and the simulated clock.
A step a kill cut short is typed again in full, as an arbiter unsure whether it was taken
would, without looking first: the services must recognise a command already taken (answer
alike, store and say nothing twice). The step that draws and closes the rounds left until the
game ends (the hall rehearsal's loop, by the game's state) types first, after a restart, the
command it was typing when killed (TYPING, next to SINK).

What the console printed goes to CONSOLE (next to SINK): one JSON line per command typed
(`step`, `argv`, exit `code`, `lines`), written with one write(2). The campaign compares every
answer with the clean run's (campaign.console_rows).

Crash points: those of duplicate_driver.py that a hall passes (`commit:…`, `send:…`,
`board:…`; no timer closes a round in a hall), and two of the console's own:
- `typed:after` — the command has run (committed, its messages handed over), its answer is not
  yet on the screen;
- `print:after` — the answer is on the screen, the step not yet noted as done.
Either way the next process types the command again. (A kill placed by a commit's number within
a step is not exact: the outbox's marks commit in the background, in between.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import driver
from driver import _patch_store
from duplicate_driver import _patch_board, play_game

from bot.cli import duplicate_hall
from bot.cli.args import USAGE_ERROR
from bot.i18n import t
from bot.rehearse import duplicate_api as api
from bot.rehearse.duplicate import (
    PROTEST_GAP,
    DuplicateRehearsal,
    RehearsalError,
    Step,
    game_start,
)
from bot.rehearse.duplicate_scenario import (
    DupEvent,
    DuplicateScenario,
    ProtestSpec,
    parse_duplicate_scenario,
)
from bot.rehearse.events import discord_id
from bot.services.app import App
from bot.services.duplicate.protests import CLAIM_WORDS, VERDICT_WORDS
from bot.services.replies import Reply, reason_of

#: round 1's rack as the arbiter drew it from the bag (the seed would draw the same tiles)
HALL_RACK = '\n[[event]]\ntype = "rack"\nround = 1\nrack = "ŤRKNIÁA"\n'
ARBITER = "hlavný rozhodca"
CONSOLE = "console"  # the console file's name, next to SINK
TYPING = "typing"  # the command being typed (its step and argv), next to SINK


def hall_scenario(path: Path) -> DuplicateScenario:
    """The online scenario at `path` played in a hall (its word list stays beside it), with
    the bot running there: everything goes to Discord (`discord = "all"`; a hall's default
    sends nothing, issue 35), so the kills meet the deliveries too."""
    text = path.read_text(encoding="utf-8").replace(
        'mode = "online"', 'mode = "hall"\ndiscord = "all"', 1)
    return parse_duplicate_scenario(text + HALL_RACK, str(path))


def _parser() -> argparse.ArgumentParser:
    """`stredisko duplicate`'s hall actions, exactly as the CLI registers them."""
    parser = argparse.ArgumentParser(prog="stredisko duplicate")
    duplicate_hall.add_actions(parser.add_subparsers(dest="duplicate_action", required=True))
    return parser


PARSER = _parser()


async def answer(app: App, argv: list[str]) -> tuple[int, list[str]]:
    """Run a typed hall command as `duplicate_hall.run_action` does, on `app`: its exit code
    and the lines it printed (a refusal: its one `cli.error` line, exit 2)."""
    args = PARSER.parse_args([*argv, "--admin", ARBITER])
    try:
        outcome = await duplicate_hall.handle(app, args)
    except ValueError as exc:
        return USAGE_ERROR, [t("cli.error", reason=str(exc))]
    if isinstance(outcome, Reply):
        return USAGE_ERROR, [t("cli.error", reason=reason_of(outcome))]
    return 0, list(outcome)


@dataclass
class HallArbiter(DuplicateRehearsal):
    """The hall rehearsal with every arbiter's step typed at the console, never checked first."""

    console: Path = Path(CONSOLE)
    step: str = ""

    def steps(self) -> list[Step]:
        return [(name, partial(self._named, name, action)) for name, action in super().steps()]

    async def _named(self, name: str, action: Any) -> None:
        self.step = name
        await action()

    async def _type(self, *argv: str) -> int:
        """Type one command; what it printed goes to the console file. Its exit code."""
        typing = self.console.with_name(TYPING)  # what he is typing: a restart types it again
        tmp = typing.with_suffix(".tmp")
        tmp.write_text(json.dumps({"step": self.step, "argv": argv}), encoding="utf-8")
        os.replace(tmp, typing)
        code, lines = await answer(self.app, list(argv))
        driver.CRASH.hit("typed:after")
        entry = {"step": self.step, "argv": list(argv), "code": code, "lines": lines}
        fd = os.open(self.console, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:  # one write(2): a kill leaves whole lines only
            os.write(fd, (json.dumps(entry, ensure_ascii=False) + "\n").encode())
        finally:
            os.close(fd)
        driver.CRASH.hit("print:after")
        return code

    async def _start(self) -> None:
        await self._advance(game_start(self.scenario))
        await self._type("start", self.slug, "--seed", self.scenario.seed)

    async def _end(self) -> None:
        """The rounds left, drawn and closed until the game ends (the rehearsal's loop, which
        looks at the game's state): first, on a restart, the command this step was typing when
        the kill came, typed again."""
        typing = self.console.with_name(TYPING)
        cut = json.loads(typing.read_text(encoding="utf-8")) if typing.exists() else None
        if cut is not None and cut["step"] == self.step:
            action, number = cut["argv"][0], int(cut["argv"][2])
            await (self._close_hall(number) if action == "close" else self._open_hall(number))
        await super()._end()

    async def _open_hall(self, number: int) -> None:
        if number > 1:  # after the pause (from the step's start: a re-run too)
            pause = timedelta(seconds=self.scenario.settings.pause_seconds)
            await self._advance(self.clock.now() + pause)
        typed = self.scenario.rack_of(number)
        argv = (("rack", self.slug, str(number), typed.move) if typed and typed.move
                else ("draw", self.slug, str(number)))
        if await self._type(*argv) and await api.game_running(self.app, self.slug) \
                and await api.round_opened_at(self.app, self.slug, number) is None:
            raise RehearsalError(f"{number}. kolo sa neotvorilo")  # the clean run's end loop

    async def _event(self, e: DupEvent) -> None:
        if e.type != "slip":  # a player who leaves does it himself (`/odstupit`)
            await super()._event(e)
            return
        opened = await self._until_open(e.round)
        if opened is None:
            raise RehearsalError(f"{e.round}. kolo sa nehrá")
        await self._advance_to(e, opened + e.after)
        limit = await api.deadline(self.app, self.slug, e.round)
        assert e.move is not None
        argv = ["slip", self.slug, str(e.round), self.scenario.name_of(e.player), e.move]
        if e.declared is not None:
            argv += ["--declared", str(e.declared)]
        if limit is not None and self.clock.now() > limit:
            argv.append("--late")  # it came after the limit (003 r. 19)
        await self._type(*argv)

    async def _close_hall(self, number: int) -> None:
        limit = await api.deadline(self.app, self.slug, number)
        if limit is not None:
            await self._advance(max(limit, self.clock.now()))
        await self._type("close", self.slug, str(number))

    async def _protest(self, spec: ProtestSpec) -> None:
        self.clock.set(self.clock.now() + PROTEST_GAP)
        claim = next(word for word, claim in CLAIM_WORDS.items() if claim == spec.claim)
        await self._type("protest", self.slug, str(spec.round), self.scenario.name_of(spec.player),
                         spec.word, "--claim", claim, "--reason", spec.reason)

    async def _decide(self, spec: ProtestSpec) -> None:
        self.clock.set(self.clock.now() + PROTEST_GAP)
        # its number, as the protest's receipt showed it (a refused one has none)
        me = discord_id(self.scenario, spec.player)
        filed = await api.filed_protest(self.app, self.slug, me, spec.round, spec.word)
        if filed is None:
            return
        verdict = next(word for word, upheld in VERDICT_WORDS.items() if upheld is spec.upheld)
        await self._type("decide", self.slug, str(filed.id), verdict, "--reason", spec.decision)

    async def _final(self) -> None:
        await self._type("final", self.slug)
        await self._type("standings", self.slug)


def _arbiter(scenario: DuplicateScenario, app: App, clock: Any, transcript: Any,
             names: dict[int, str], sink: Path) -> DuplicateRehearsal:
    return HallArbiter(scenario, app, clock, transcript, names, console=sink.with_name(CONSOLE))


async def play(scenario_path: Path, db: Path, sink: Path, progress: Path) -> None:
    await play_game(hall_scenario(scenario_path), _arbiter, db, sink, progress)


def main(argv: list[str]) -> int:
    return driver.run_driver(argv, play, (_patch_store, _patch_board))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

