"""Runs a season rehearsal (issue 37): what ONE bot process serves — several events at once,
each in its own channel — on one store, one App (one outbox), one simulated clock, one
scheduler and one herna.net (the local simulator).

The parts are the classic and duplicate rehearsals' own engines (`engine.Rehearsal`,
`duplicate.DuplicateRehearsal`), stepped on the one clock in time order: at each turn the
earliest step of any event runs, after every stored timer due before it (of whichever event)
fired at its own time. A duplicate game's next step is known only once its round has been
announced by its own timers; until then the timers due next fire. At one moment: the events
created first, then each engine's order (check-in opening, the scenario's events, the poll,
the rounds' pairing, the end), events in the file's order.

The herna.net round poll is the bot's: every 5 minutes it reads the running classic events
afresh (`events.running(db, "classic")`) and polls each one's round in play — an event created
meanwhile is polled from its first round on, with nothing restarted. The transcript says
whenever the set it covers changes.

An event with `created` is created while the others run, by the operator's
`stredisko create FILE` (`setup.create_from_file`), then given its channel. A classic part with
`finish` is finished then instead of at its own end (two events may end in either order).
Finishing a qualifier the season file names recomputes the season (the App's `season_files`),
announces who moved (`season.ladder_moved`) and rewrites `<html>/<stem>/index.html`; the
transcript says whether the page changed.

Each transcript line names its event — `[slug #channel]` — as the chat layer routes it: an
announcement or admin note by its tournament, a player's command and its DMs by the event it
was used in, a timer's DMs by the timer's event.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from bot.clock import ManualClock
from bot.console import render_reply
from bot.i18n import t
from bot.rehearse import duplicate as dup
from bot.rehearse import engine
from bot.rehearse.duplicate_output import Summary, summary_tx
from bot.rehearse.engine import END, EVENT, OPERATOR, POLL, POLL_EVERY, RehearsalError
from bot.rehearse.events import FIRST_GAME_ID
from bot.rehearse.output import document_tx, local_text
from bot.rehearse.scenario import Scenario
from bot.rehearse.season_output import SeasonTranscript
from bot.rehearse.season_scenario import Part, SeasonScenario
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.replies import Reply
from bot.services.results import round_poll
from bot.services.season.file import parse_season
from bot.services.tournament import events, setup, views
from bot.store import Store, Timer, due_timers
from scrapers.herna import Credentials, HernaClient
from scrapers.herna.simulator import Simulator

CREATE = -1  # at one moment, events are created before anything else happens
OPERATOR_LABEL = "[operátor]"
HERNA_LABEL = "[herna.net]"
GAMES_APART = 1000  # each classic event's herna.net game ids start this far from the last's
#: how far the timers may run ahead of the last step while a duplicate game waits on them
MAX_TAIL = timedelta(days=1)


@dataclass
class Running:
    """One part as the run goes: its engine and the steps it has left."""

    part: Part
    classic: engine.Rehearsal | None = None
    duplicate: dup.DuplicateRehearsal | None = None
    classic_steps: list[engine.Step] = field(default_factory=list)
    duplicate_steps: list[dup.TimedStep] = field(default_factory=list)
    created: bool = False
    tag: str = ""
    created_at: str = ""

    @property
    def slug(self) -> str:
        return self.part.slug


@dataclass(frozen=True, slots=True)
class SeasonOutcome:
    document: dict[str, Any]
    transcript: list[str]
    standings: list[str]
    page: Path | None = None


Option = tuple[tuple[datetime, int, int], Callable[[], Awaitable[None]]]


@dataclass
class SeasonRehearsal:
    scenario: SeasonScenario
    app: App
    clock: ManualClock
    sim: Simulator
    herna: HernaClient
    transcript: SeasonTranscript
    names: dict[int, str]
    html: str
    parts: list[Running] = field(default_factory=list)
    scheduler: Scheduler | None = None
    stuck: set[int] = field(default_factory=set)  # timers that failed: never retried here
    poll_moments: list[datetime] = field(default_factory=list)
    covered: list[str] | None = None  # the events the poll covered at its last moment
    season_name: str = ""
    season_events: tuple[str, ...] = ()  # the tournaments the season file names
    pages: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.scheduler = Scheduler(self.app)
        first_game = FIRST_GAME_ID
        for part in self.scenario.parts:
            running = Running(part)
            sc = part.scenario
            if isinstance(sc, Scenario):
                running.classic = engine.Rehearsal(
                    sc, self.app, self.clock, self.sim, self.herna, self.transcript, self.names,
                    first_game_id=first_game)
                running.classic._stuck = self.stuck
                running.classic_steps = _finished_at(running.classic.steps(polls=False),
                                                     part.finish)
                first_game += GAMES_APART
            else:
                running.duplicate = dup.DuplicateRehearsal(
                    sc, self.app, self.clock, self.transcript, self.names,
                    scheduler=self.scheduler, fire_after_game=False)
                running.duplicate._stuck = self.stuck
                running.duplicate_steps = running.duplicate.timed_steps()
            self.parts.append(running)
        classic = self.scenario.classic
        moment = min(p.scenario.propozicie.round_starts[0] for p in classic)
        last = max(p.scenario.last_limit for p in classic if isinstance(p.scenario, Scenario))
        while moment <= last + engine.POLL_AFTER_LIMIT:
            self.poll_moments.append(moment)
            moment += POLL_EVERY
        spec = parse_season(Path(self.scenario.season_file).read_text(encoding="utf-8"))
        self.season_name = spec.name
        self.season_events = tuple(e.tournament.id for e in spec.events if e.tournament)

    # -- the one timeline ---------------------------------------------------------------

    async def run(self) -> None:
        for running in self.parts:
            if running.part.created is None:
                await self._create(running)
        while True:
            options, blocked = await self._options()
            first = min(options, key=lambda o: o[0]) if options else None
            if blocked:
                due = await self._next_due()
                if due is not None and (first is None or due < first[0][0]):
                    await self._fire(due, inclusive=True)
                    continue
                if first is None:
                    raise RehearsalError("duplikátna partia stojí: žiadny časovač ju už "
                                         "neposunie")
            if first is None:
                return
            await first[1]()

    async def _options(self) -> tuple[list[Option], bool]:
        """Every event's next step with its moment; whether a game waits on its timers."""
        options: list[Option] = []
        blocked = False
        for i, r in enumerate(self.parts):
            if not r.created:
                assert r.part.created is not None
                options.append(((r.part.created, CREATE, i), partial(self._create, r)))
            elif r.classic_steps:
                moment, order, _, _ = r.classic_steps[0]
                options.append(((moment, order, i), partial(self._classic_step, r)))
            elif r.duplicate_steps:
                when = await r.duplicate_steps[0][2]()
                if when is None:
                    blocked = True
                else:
                    options.append(((when[0], EVENT, i), partial(self._duplicate_step, r,
                                                                 when[1])))
        if self.poll_moments:
            options.append(((self.poll_moments[0], POLL, len(self.parts)), self._poll))
        return options, blocked

    async def _next_due(self) -> datetime | None:
        limit = self.clock.now() + MAX_TAIL
        due = [t for t in await self.app.store.read(due_timers, limit) if t.id not in self.stuck]
        return due[0].due_at if due else None

    async def _fire(self, moment: datetime, *, inclusive: bool, move: bool = True) -> None:
        """The timers due before `moment` (of every event), each at its own time; a timer's
        DMs are its event's."""
        assert self.scheduler is not None
        try:
            await engine.fire_timers(self.app, self.clock, self.scheduler, self.stuck, moment,
                                     inclusive=inclusive, move=move, each=self._timer_of)
        finally:
            self.transcript.context = None

    def _timer_of(self, timer: Timer) -> None:
        self.transcript.context = self.transcript.tags.get(timer.tournament_id or 0)

    async def _as(self, r: Running, action: Callable[[], Awaitable[Any]]) -> Any:
        self.transcript.context = r.tag
        try:
            return await action()
        finally:
            self.transcript.context = None

    async def _classic_step(self, r: Running) -> None:
        moment, order, _, action = r.classic_steps.pop(0)
        await self._fire(moment, inclusive=order > POLL)
        if order != END:
            await self._as(r, action)
            return
        before = self._page_stamp()
        await self._as(r, action)
        self._page_changes(r, before)

    async def _duplicate_step(self, r: Running, fire_before: datetime) -> None:
        _, action, _ = r.duplicate_steps.pop(0)
        await self._fire(fire_before, inclusive=False, move=False)  # the step moves the clock
        await self._as(r, action)

    # -- events created, and the poll -----------------------------------------------------

    async def _create(self, r: Running) -> None:
        """Create the event (mid-run: the operator's `stredisko create FILE`), give it its
        channel, and from now on serve it."""
        part = r.part
        r.tag = part.slug
        if part.created is not None:
            await self._fire(part.created, inclusive=False)
        if part.created is not None and r.classic is not None:
            path = Path(self.scenario.path).parent / part.file
            reply = await setup.create_from_file(self.app, path, OPERATOR, strict=False)
            self._operator(r, f"stredisko create {part.file}", reply)
            if reply.ok:
                await self._as(r, partial(r.classic.attach, reply.data))
        else:
            make = r.classic._create if r.classic is not None else (
                r.duplicate.create if r.duplicate is not None else None)
            assert make is not None
            reply = await self._as(r, make)
            self._operator(r, f"stredisko create {part.file}", reply)
        if not reply.ok:
            raise RehearsalError(" ".join(render_reply(reply)))
        if part.channel is not None:
            channel = await events.set_channel(self.app, part.slug, part.channel, OPERATOR)
            self._operator(r, f"stredisko channel {part.slug} {part.channel}", channel)
        event = await self.app.store.read(events.named, part.slug)
        assert event is not None
        r.tag = part.slug if event.channel_id is None else f"{part.slug} #{event.channel_id}"
        self.transcript.tags[event.id] = r.tag
        r.created = True
        r.created_at = local_text(self.clock.now())

    def _operator(self, r: Running, command: str, reply: Reply) -> None:
        """The operator's console command and its reply, under the event's label."""
        said = render_reply(reply)
        self.transcript.context = r.tag
        self.transcript.add([f"{OPERATOR_LABEL} {command} → {said[0]}",
                             *(f"    {line}" for line in said[1:])])
        self.transcript.context = None

    async def _poll(self) -> None:
        """The bot's round poll: every running classic event, read afresh."""
        moment = self.poll_moments.pop(0)
        await self._fire(moment, inclusive=False)
        running = await self.app.store.read(events.running, "classic")
        slugs = [e.slug for e in running]
        if slugs != self.covered:
            key = "rehearse.season.poll_covers" if slugs else "rehearse.season.poll_none"
            self.transcript.add([f"{HERNA_LABEL} " + t(key, events=", ".join(slugs))])
            self.covered = slugs
        by_slug = {r.slug: r for r in self.parts if r.created}
        for event in running:
            r = by_slug.get(event.slug)
            if r is None or r.classic is None:  # not the rehearsal's: polled as the bot does
                await round_poll.poll_current_round(self.app, event.slug,
                                              lambda: contextlib.nullcontext(self.herna))
                continue
            n = r.classic.poll_due(self.clock.now())
            if n is not None:
                await self._as(r, partial(r.classic.poll, n))

    # -- the season page ------------------------------------------------------------------

    @property
    def page(self) -> Path:
        return Path(self.html) / Path(self.scenario.season_file).stem / "index.html"

    def _page_stamp(self) -> tuple[int, int] | None:
        """The page file's identity: a rewrite (written beside, renamed over) changes it even
        when the text comes out the same."""
        try:
            found = self.page.stat()
        except FileNotFoundError:
            return None
        return found.st_ino, found.st_mtime_ns

    def _page_changes(self, r: Running, before: tuple[int, int] | None) -> None:
        """After a classic event's end: whether the season page was rewritten."""
        if r.slug not in self.season_events:
            return
        after = self._page_stamp()
        rewritten = after is not None and after != before
        key = "rehearse.season.page_rewritten" if rewritten else "rehearse.season.page_kept"
        self.transcript.context = r.tag
        self.transcript.add([t(key, season=self.season_name, tournament=r.slug,
                               file=str(self.page))])
        self.transcript.context = None
        self.pages.append({"after": r.slug, "at": local_text(self.clock.now()),
                           "file": str(self.page), "rewritten": rewritten})

    # -- what it produced ---------------------------------------------------------------------

    async def part_document(self, r: Running) -> tuple[dict[str, Any], list[str]]:
        """One event's results as its own rehearsal shows them: the JSON, the printed lines."""
        event = await self.app.store.read(events.named, r.slug)
        assert event is not None
        head = {"slug": r.slug, "name": event.name, "channel": event.channel_id,
                "created": r.created_at, "file": r.part.file}
        if r.classic is not None:
            c = r.classic
            document = await self.app.run(document_tx, r.slug, c.file_id)
            assert isinstance(document, dict)
            document["proposals"] = c.proposals
            document["refusals"] = c.events.refusals if c.events else []
            lines = render_reply(await views.standings_view(self.app, r.slug))
            return {**head, "kind": "classic", "polls": c.passes, **document}, lines
        assert r.duplicate is not None
        summary = await self.app.run(summary_tx, r.slug)
        assert isinstance(summary, Summary)
        summary = replace(summary, refusals=tuple(r.duplicate.refusals))
        return {**head, "kind": "duplicate", **summary.document()}, summary.lines()


def _finished_at(steps: list[engine.Step], finish: datetime | None) -> list[engine.Step]:
    """A classic part's steps with its end moved to the [[part]]'s `finish` (checked to be
    no earlier than its own)."""
    if finish is None:
        return steps
    return sorted(((finish, order, n, action) if order == END else (moment, order, n, action)
                   for moment, order, n, action in steps), key=lambda s: s[:3])


# -- running it ---------------------------------------------------------------------------


async def rehearse_season(scenario: SeasonScenario, db: Path, *, html: str | None = None
                          ) -> SeasonOutcome:
    """Run the season rehearsal on the store at `db` (created; the caller decides whether to
    keep it); the season page goes to `html` (else the scenario's folder)."""
    store = await Store.open(db)
    try:
        names: dict[int, str] = {}
        clock = ManualClock(start_time(scenario))
        transcript = SeasonTranscript(clock, lambda pid: names.get(pid, str(pid)))
        folder = html or scenario.html
        app = App(store, clock, transcript, show_local=True,
                  season_files=(scenario.season_file,), season_html_dir=folder)
        sim = Simulator({engine.SIM_USER: engine.SIM_PASSWORD}, clock=clock.now)
        async with sim.serve() as url, HernaClient(
                Credentials(engine.SIM_USER, engine.SIM_PASSWORD),
                engine._polite_off(url)) as herna:
            season = SeasonRehearsal(scenario, app, clock, sim, herna, transcript, names,
                                     folder)
            await season.run()
        documents, standings = [], []
        for r in season.parts:
            document, lines = await season.part_document(r)
            documents.append(document)
            standings += [t("rehearse.season.standings_of", tournament=document["name"],
                            slug=r.slug), *lines, ""]
        document = {"season": {"name": season.season_name, "file": scenario.season_shown,
                               "pages": season.pages},
                    "events": documents, "transcript": transcript.lines}
        page = season.page if season.page.is_file() else None
        return SeasonOutcome(document, transcript.lines, standings[:-1], page)
    finally:
        await store.close()


def start_time(scenario: SeasonScenario) -> datetime:
    """T0: when the first of the events that exist from the start is created (as its own
    rehearsal would create it); a minute before the first one created mid-run if none."""
    firsts = [engine.start_time(p.scenario) if isinstance(p.scenario, Scenario)
              else dup.start_time(p.scenario) for p in scenario.parts if p.created is None]
    later = [p.created - timedelta(minutes=1) for p in scenario.parts if p.created is not None]
    return min(firsts or later)
