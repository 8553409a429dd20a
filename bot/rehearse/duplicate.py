"""Runs a duplicate rehearsal (issue 24.7): a scripted online duplicate game played offline
through the duplicate services, the real store and the real timers, on a clock that only moves
forward and never sleeps; messages go to the classic rehearsal's offline Discord stand-in
(`output.Transcript`, rendered by `bot.console`).

The timeline: the event is created a minute before the propozície's start, the game started
at it with the scenario's seed (round 1 opens at once); from then on the event's own timers
drive it — the 30-second warning, the deadline (the round is closed and scored), the next
round after the pause — each fired at its own due time. A player's event runs `after` its
round's announcement, after every timer due before that moment. When the scenario's events
are done the timers run on until the game is over (the tiles run out or no move is left); the
scenario's protests are filed a minute apart while the preliminary results stand, the head
admin decides each a minute apart (003 r. 27–29), and then announces the final results.

`steps()` lists what the run does, one resumable step at a time: the kill campaign's driver
(tests/bot/crash/duplicate_driver.py) runs them one by one and re-runs the one a kill cut
short, so each must be safe to repeat (a slip or a protest already stored is not handed in
again: Discord delivers an interaction once; a decided protest is not decided again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from bot.cli.duplicate_hall import receipt_line
from bot.clock import ManualClock
from bot.console import render_reply
from bot.publish.duplicate_page import write_duplicate_page
from bot.publish.duplicate_report import DuplicateReport
from bot.rehearse import duplicate_api as api
from bot.rehearse.duplicate_output import Summary, summary_tx
from bot.rehearse.duplicate_scenario import DupEvent, DuplicateScenario, ProtestSpec
from bot.rehearse.events import ADMIN_ID, discord_id
from bot.rehearse.output import Transcript, command_name
from bot.scheduler import Scheduler
from bot.services import policy
from bot.services.app import App
from bot.services.duplicate.feed import page_report
from bot.services.duplicate.protests import VERDICT_WORDS
from bot.services.duplicate.slips import SlipReceipt
from bot.services.policy import Actor
from bot.services.replies import Reply
from bot.services.tournament import setup
from bot.services.tournament.propozicie import SetupError
from bot.store import Store, Tournament, due_timers

OPERATOR = Actor.operator("skúška")
BEFORE_START = timedelta(minutes=1)
#: a game outlives its last event by at most this long (every round's timers included)
MAX_TAIL = timedelta(days=1)
#: a slip received this long after the deadline is still handed in before the close runs
IN_FLIGHT = timedelta(seconds=5)
SLIP_COMMAND = "tah"  # the players' slash command (issue 24.2)
PROTEST_COMMAND = "namietka"  # and the protest's (003 r. 27)
DECIDE_COMMAND = "duplikat rozhodnutie"  # the head admin's decision (003 r. 29)
ADMIN_NAME = "hlavný rozhodca"  # who decides, as the transcript names him
HALL_COMMAND = "[sála] stredisko duplicate"  # the arbiter's console in a hall game
#: protests are filed, and then decided, this far apart after the game ends
PROTEST_GAP = timedelta(minutes=1)


class RehearsalError(Exception):
    """The rehearsal could not go on (a service refused what the engine itself needs)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    slug: str
    summary: Summary
    transcript: list[str]
    page: Path | None = None  # the duplicate results page, when `--html DIR` asked for it

    @property
    def document(self) -> dict[str, Any]:
        return {**self.summary.document(), "transcript": self.transcript}

    @property
    def standings(self) -> list[str]:
        """What is printed after the transcript: rounds, parts, the final results."""
        return self.summary.lines()


Step = tuple[str, Callable[[], Awaitable[None]]]
#: when a step is due: its moment, and until when the timers fire before it
When = tuple[datetime, datetime]
TimedStep = tuple[str, Callable[[], Awaitable[None]], Callable[[], Awaitable[When | None]]]


@dataclass
class DuplicateRehearsal:
    scenario: DuplicateScenario
    app: App
    clock: ManualClock
    transcript: Transcript
    names: dict[int, str]  # store id -> name (the transcript's DMs)
    slug: str = ""
    store_id: dict[str, int] = field(default_factory=dict)  # file id -> store id
    refusals: list[dict[str, Any]] = field(default_factory=list)
    #: one scheduler for every event (a season rehearsal's); None: one per firing
    scheduler: Scheduler | None = None
    #: after the game, fire what it leaves due (alone on the clock); a season rehearsal's
    #: one timeline fires every event's timers in time order instead
    fire_after_game: bool = True
    _stuck: set[int] = field(default_factory=set)  # timers that failed: never retried here

    def steps(self) -> list[Step]:
        return [(name, action) for name, action, _ in self.timed_steps()]

    def timed_steps(self) -> list[TimedStep]:
        """`steps()` with, for each, when it is due (`_when`): what lets a season rehearsal
        interleave the game with other events on one clock. Online games only."""
        out: list[TimedStep] = [("start", self._start, self._when_start)]
        sc = self.scenario
        now = self._when_now
        if sc.hall:  # the arbiter opens each round, types its slips, closes it
            for number in range(1, sc.last_round + 1):
                out.append((f"open:{number}", partial(self._open_hall, number), now))
                out += [(f"{e.type}:{e.round}:{e.index}", partial(self._event, e), now)
                        for e in sc.of_round(number) if e.type != "rack"]
                out.append((f"close:{number}", partial(self._close_hall, number), now))
        else:
            out += [(f"{e.type}:{e.round}:{e.index}", partial(self._event, e),
                     partial(self._when_event, e)) for e in sc.events]
        out.append(("end", self._end, self._when_over))
        gap = self._when_gap
        out += [(f"protest:{p.index}", partial(self._protest, p), gap) for p in sc.protests]
        out += [(f"decide:{p.index}", partial(self._decide, p), gap) for p in sc.protests]
        out.append(("final", self._final, now))
        return out

    # -- when each step is due: (its moment, the timers to fire before it) or None while
    # -- only the game's own timers can bring it (a round not yet announced, the game on)

    async def _when_now(self) -> When:
        return self.clock.now(), self.clock.now()

    async def _when_start(self) -> When:
        return game_start(self.scenario), game_start(self.scenario)

    async def _when_gap(self) -> When:
        return self.clock.now() + PROTEST_GAP, self.clock.now() + PROTEST_GAP

    async def _when_over(self) -> When | None:
        return None if await api.game_running(self.app, self.slug) else await self._when_now()

    async def _when_event(self, e: DupEvent) -> When | None:
        opened = await api.round_opened_at(self.app, self.slug, e.round)
        if opened is None:  # not yet announced; or never (the step says so: a scenario error)
            return None if await api.game_running(self.app, self.slug) else (
                await self._when_now())
        moment = max(opened + e.after, self.clock.now())
        limit = await api.deadline(self.app, self.slug, e.round)
        if e.type == "slip" and limit is not None and limit < moment <= limit + IN_FLIGHT:
            return moment, limit  # in flight: handed in before the deadline's timer runs
        return moment, moment

    async def run(self) -> None:
        await self.create()
        for _, action in self.steps():
            await action()

    # -- set-up -------------------------------------------------------------------------

    def lexicon_source(self) -> str:
        """The [duplicate] lexicon: a file next to the scenario (a small word list, or a built
        lexicon) by its full path; anything else (a built lexicon's id) as written."""
        name = self.scenario.settings.lexicon
        beside = Path(self.scenario.path).parent / name
        return str(beside.resolve()) if beside.is_file() else str(name)

    async def create(self) -> Reply:
        sc = self.scenario
        prop = sc.propozicie
        dup = replace(sc.settings, lexicon=self.lexicon_source())
        prop = replace(prop, duplicate=dup,
                       players=[replace(p, discord_id=discord_id(sc, p.file_id))
                                for p in prop.players])
        created = await setup.create(self.app, prop, OPERATOR)
        self._need(created, "create")
        await self.attach(created.data)
        return created

    async def attach(self, tournament: Tournament) -> None:
        """Know the created event and name its head admin: safe to do again on a restarted
        process. The players' Discord accounts came with the propozície (no herna.net nick
        to register in a duplicate event)."""
        self.slug = tournament.slug
        self._need(await policy.set_admins(self.app, self.slug, OPERATOR, add=[ADMIN_ID]),
                   "admins")
        self.store_id = dict(tournament.settings["file_ids"])
        for spec in self.scenario.propozicie.players:
            self.names[self.store_id[spec.file_id]] = spec.name

    def _need(self, reply: Reply, what: str) -> None:
        if not reply.ok:
            raise RehearsalError(f"{what}: " + " ".join(render_reply(reply)))

    # -- the timeline ---------------------------------------------------------------------

    async def _start(self) -> None:
        """At the propozície's start the head admin starts the game with the scenario's seed
        (a real event draws a secret one)."""
        await self._advance(game_start(self.scenario))
        if await api.game_started(self.app, self.slug):  # a restart after the step's commit
            return
        self._need(await api.start(self.app, self.slug, seed=self.scenario.seed), "start")

    async def _event(self, e: DupEvent) -> None:
        opened = await self._until_open(e.round)
        if opened is None:  # found only at run time: a scenario error all the same
            raise SetupError(e.line, f"[[event]] č. {e.index + 1}: {e.round}. kolo sa nehrá, "
                                     "partia sa skončila skôr (003 r. 3; 004 §5B)")
        await self._advance_to(e, opened + e.after)
        me = discord_id(self.scenario, e.player)
        name = self.scenario.name_of(e.player)
        if e.type == "leave":
            reply = await api.leave(self.app, self.slug, me)
            self._said(e, reply, "app.odstupit", name, "")
            return
        assert e.move is not None
        received = self.clock.now()
        if await api.slip_stored(self.app, self.slug, me, e.round, received):
            return  # handed in before a restart: Discord delivers an interaction once
        if self.scenario.hall:
            await self._hall_slip(e, name, received)
            return
        reply = await api.slip(self.app, self.slug, me, e.move, e.declared, received)
        said = e.move if e.declared is None else f"{e.move} {e.declared}"
        self._said(e, reply, SLIP_COMMAND, name, said)

    async def _end(self) -> None:
        """The timers run on until the game is over (and whatever it leaves due); in a hall
        the arbiter draws and closes the rounds left until a draw ends it."""
        limit = self.clock.now() + MAX_TAIL
        while await api.game_running(self.app, self.slug):
            if self.scenario.hall:
                last = await api.last_round(self.app, self.slug)
                number = 1 if last is None else last.number
                await (self._close_hall(number) if last is not None and last.is_open
                       else self._open_hall(number + (last is not None)))
            elif not await self._fire_next(limit):
                raise RehearsalError("hra neskončila: žiadny časovač ju už neposunie")
            if self.clock.now() > limit:
                raise RehearsalError("hra neskončila ani po dni hry")
        if self.fire_after_game:
            await self._fire_all(limit)

    # -- a hall game (003 "opisované scrabble"): the arbiter at the console ------------------

    async def _open_hall(self, number: int) -> None:
        """The arbiter opens round `number` with the rack he typed (003 r. 11–13), or one
        drawn from the seed, after the pause (round 1 at the game's start)."""
        if number > 1:
            pause = timedelta(seconds=self.scenario.settings.pause_seconds)
            await self._advance(self.clock.now() + pause)
        if await api.round_opened_at(self.app, self.slug, number) is not None:
            return  # opened before a restart
        typed = self.scenario.rack_of(number)
        rack = typed.move if typed else None
        lines, refused = await api.open_hall(self.app, self.slug, number, rack)
        args = f"rack {self.slug} {number} „{rack}“" if rack else f"draw {self.slug} {number}"
        self._console(args, refused, lines)
        if refused is None:
            return
        said = " ".join(render_reply(refused))
        if typed is not None:  # the scenario's rack cannot be: its line says so
            raise SetupError(typed.line, f"[[event]] č. {typed.index + 1}: {said}")
        raise RehearsalError(f"{number}. kolo: {said}")

    async def _hall_slip(self, e: DupEvent, name: str, received: datetime) -> None:
        """A slip the arbiter collected, typed as he received it (late past the limit)."""
        assert e.move is not None
        said = await api.hall_slip(self.app, self.slug, name, e.round, e.move, e.declared,
                                   received)
        declared = "" if e.declared is None else f" --declared {e.declared}"
        late = " --late" if isinstance(said, SlipReceipt) and said.late else ""
        args = f"slip {self.slug} {e.round} „{name}“ „{e.move}“{declared}{late}"
        refused = said if isinstance(said, Reply) else None
        self._console(args, refused, [] if refused else [receipt_line(said)])
        if refused is not None:
            self._record(render_reply(refused), refused, e.round, e.player, e.type,
                         int(e.after.total_seconds()))

    async def _close_hall(self, number: int) -> None:
        """At the limit the arbiter closes the round: the top, every slip's score."""
        deadline = await api.deadline(self.app, self.slug, number)
        if deadline is not None:
            await self._advance(max(deadline, self.clock.now()))
        rnd = await api.last_round(self.app, self.slug)
        if rnd is None or rnd.number != number or not rnd.is_open:
            return  # closed before a restart
        said = await api.close_hall(self.app, self.slug, number)
        refused = said if isinstance(said, Reply) else None
        self._console(f"close {self.slug} {number}", refused, [] if refused else said)
        if refused is not None:
            raise RehearsalError(f"{number}. kolo: " + " ".join(render_reply(refused)))

    def _console(self, args: str, refused: Reply | None, lines: list[str]) -> None:
        """The arbiter's console command and what it printed, in the transcript."""
        shown = render_reply(refused) if refused is not None else lines
        self.transcript.add([f"{HALL_COMMAND} {args} → {shown[0] if shown else ''}",
                             *(f"    {line}" for text in shown[1:] for line in text.split("\n"))])

    async def _protest(self, spec: ProtestSpec) -> None:
        """A player's protest while the preliminary results stand (003 r. 27)."""
        self.clock.set(self.clock.now() + PROTEST_GAP)  # from the step's start: a re-run too
        me = discord_id(self.scenario, spec.player)
        if await api.filed_protest(self.app, self.slug, me, spec.round, spec.word) is not None:
            return  # filed before a restart
        reply = await api.protest(self.app, self.slug, me, spec.round, spec.word, spec.claim,
                                  spec.reason)
        said = f"{spec.round}. kolo {spec.word}: {spec.reason}"
        self._record(self.transcript.command(PROTEST_COMMAND, self.scenario.name_of(spec.player),
                                             said, reply), reply, spec.round, spec.player,
                     "protest", 0)

    async def _decide(self, spec: ProtestSpec) -> None:
        """The head admin's decision on it (003 r. 29; upheld: 004 §5D's correction)."""
        self.clock.set(self.clock.now() + PROTEST_GAP)
        me = discord_id(self.scenario, spec.player)
        filed = await api.filed_protest(self.app, self.slug, me, spec.round, spec.word)
        if filed is None:  # its filing was refused (in the transcript): nothing to decide
            return
        if filed.status != "pending":
            return  # decided before a restart
        reply = await api.decide(self.app, self.slug, filed.id, spec.upheld, spec.decision,
                                 ADMIN_ID)
        verdict = next(word for word, upheld in VERDICT_WORDS.items() if upheld is spec.upheld)
        self._record(self.transcript.command(DECIDE_COMMAND, ADMIN_NAME,
                                             f"{filed.id} {verdict}: {spec.decision}", reply),
                     reply, spec.round, spec.player, "decide", 0)

    async def _final(self) -> None:
        """Every protest decided: the head admin announces the final results (003 r. 29)."""
        self._need(await api.finalize(self.app, self.slug), "finalize")

    def _said(self, e: DupEvent, reply: Reply, key: str, who: str, args: str) -> None:
        command = command_name(key) if "." in key else key
        said = self.transcript.command(command, who, args, reply)
        self._record(said, reply, e.round, e.player, e.type, int(e.after.total_seconds()))

    def _record(self, said: list[str], reply: Reply, number: int, player: str, kind: str,
                after: int) -> None:
        """A refused act in the run's summary (the transcript shows every act)."""
        if not reply.ok:
            self.refusals.append({"round": number, "after": after, "player": player,
                                  "type": kind, "key": reply.key, "text": " ".join(said)})

    # -- the clock and the timers -----------------------------------------------------------

    async def _until_open(self, number: int) -> datetime | None:
        """Fire timers until round `number` has been announced; when it was (None: the game
        ended before it)."""
        limit = self.clock.now() + MAX_TAIL
        while True:
            opened = await api.round_opened_at(self.app, self.slug, number)
            if opened is not None:
                return opened
            if not await api.game_running(self.app, self.slug):
                return None
            if not await self._fire_next(limit):
                return None

    async def _advance_to(self, e: DupEvent, moment: datetime) -> None:
        """To the event's moment; a slip Discord received at most `IN_FLIGHT` after its round's
        deadline reaches the bot before the deadline's timer is handled (it is judged late by
        when Discord received it, 003 r. 19)."""
        limit = await api.deadline(self.app, self.slug, e.round)
        if e.type == "slip" and limit is not None and limit < moment <= limit + IN_FLIGHT:
            await self._advance(limit)
            self.clock.set(moment)
            return
        await self._advance(moment)

    async def _advance(self, moment: datetime) -> None:
        """Fire every stored timer due before `moment`, each at its own time; then move the
        clock there."""
        while await self._fire_next(moment, inclusive=False):
            pass
        if moment > self.clock.now():
            self.clock.set(moment)

    async def _fire_next(self, limit: datetime, *, inclusive: bool = True) -> bool:
        """Fire the timers due at the earliest pending moment (not after `limit`)."""
        due = [t for t in await self.app.store.read(due_timers, limit)
               if t.id not in self._stuck and (inclusive or t.due_at < limit)]
        if not due:
            return False
        self.clock.set(max(due[0].due_at, self.clock.now()))
        await (self.scheduler or Scheduler(self.app)).run_due()
        self._stuck |= {t.id for t in await self.app.store.read(due_timers, self.clock.now())}
        return True

    async def _fire_all(self, limit: datetime) -> None:
        while await self._fire_next(limit):
            pass


# -- running it ---------------------------------------------------------------------------


async def rehearse_duplicate(scenario: DuplicateScenario, db: Path,
                             html: Path | None = None) -> Outcome:
    """Run `scenario` on the store at `db` (created; the caller decides whether to keep it);
    with `html`, write the event's results page there (the page `publish-page` writes)."""
    store = await Store.open(db)
    try:
        names: dict[int, str] = {}
        clock = ManualClock(start_time(scenario))
        transcript = Transcript(clock, lambda pid: names.get(pid, str(pid)))
        app = App(store, clock, transcript, show_local=True)
        rehearsal = DuplicateRehearsal(scenario, app, clock, transcript, names)
        await rehearsal.run()
        summary = await app.run(summary_tx, rehearsal.slug)
        assert isinstance(summary, Summary)
        summary = replace(summary, refusals=tuple(rehearsal.refusals))
        page = None
        if html is not None:
            report = await page_report(app, rehearsal.slug)
            assert isinstance(report, DuplicateReport)
            page = write_duplicate_page(report, html)
        return Outcome(rehearsal.slug, summary, transcript.lines, page)
    finally:
        await store.close()


def game_start(scenario: DuplicateScenario) -> datetime:
    """When the game starts: the propozície's first start."""
    starts = scenario.settings.starts
    if not starts:
        raise RehearsalError("[duplicate] starts: skúška potrebuje čas začiatku hry")
    return starts[0]


def start_time(scenario: DuplicateScenario) -> datetime:
    """T0: the event is created a minute before the game's start."""
    return game_start(scenario) - BEFORE_START
