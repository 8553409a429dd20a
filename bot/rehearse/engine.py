"""Runs a rehearsal: a scripted online qualifier through the real services, the real store,
the real scraper against the local herna.net simulator (over HTTP on 127.0.0.1) and the real
timers, on a simulated clock that only moves forward and never sleeps.

The timeline (see the spec): the tournament is created at T0; check-in (only when the scenario
has `checkin` events); round r paired and published 5 minutes before its start (after a last
sync and the close of round r−1); polls every 5 minutes during a round; the scenario's events;
every stored timer fired at its own due time; and the end: the last sync, the last round
closed, the review queue listed and its forfeit proposals applied, the tournament finished.
At one moment: check-in opening, then the events (in file order), the polls, then the timers
due at that moment (so a game that ended just before a deadline is already known when the
deadline's reminder or proposal goes out), the rounds' pairing and check-in closing, and last
the end. Timers due between two moments fire before the later one, each at its own time.
A poll that cannot change anything (herna.net shows what the round's last pass saw, as far as
the rules read it, and no deadline lies between) is left out: the outcome is the same as with
every poll (`skip_idle_polls=False`) with a quarter fewer passes (bench/rehearse.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.clock import ManualClock
from bot.console import render_reply
from bot.rehearse.events import ADMIN_ID, FIRST_GAME_ID, Events, discord_id
from bot.rehearse.output import (
    ADMIN_LABEL,
    Transcript,
    document_tx,
    proposal_entry,
)
from bot.rehearse.scenario import Event, Scenario
from bot.scheduler import Scheduler
from bot.services import lookup, policy
from bot.services.app import App, Tx
from bot.services.policy import Actor
from bot.services.replies import Reply
from bot.services.results import round_poll, sync
from bot.services.results.lifecycle import apply_proposal
from bot.services.results.plan import SyncRefused
from bot.services.tournament import admin, checkin, play, rounds, setup, views
from bot.services.tournament.propozicie import SetupError
from bot.store import (
    Store,
    SyncOutcome,
    Timer,
    Tournament,
    due_timers,
    list_entries,
    pairings_of_round,
)
from scrapers.herna import Credentials, EndKind, GameRecord, HernaClient, HernaSettings
from scrapers.herna.simulator import Simulator

ADMIN = Actor.discord(ADMIN_ID)
OPERATOR = Actor.operator("skúška")  # who creates the tournament (as `stredisko create`)
SIM_USER, SIM_PASSWORD = "stredisko", "skúška"
PUBLISH_BEFORE = timedelta(minutes=5)
POLL_EVERY = timedelta(minutes=5)
POLL_AFTER_LIMIT = timedelta(minutes=10)
BEFORE_START = timedelta(minutes=30)
END_REASON = "skúška: návrh uplatnený na konci skúšky, e-SP 4.9"
# at one moment, in this order
OPEN, EVENT, POLL, ROUND, END = range(5)


class RehearsalError(Exception):
    """The rehearsal could not go on (a service refused what the engine itself needs)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a rehearsal produced."""

    slug: str
    document: dict[str, Any]  # the spec's JSON document (with the transcript)
    transcript: list[str]
    standings: list[str]  # the final standings as `stredisko show standings` prints them
    page: Path | None = None  # the results page, with `html`


Step = tuple[datetime, int, int, Callable[[], Awaitable[None]]]


@dataclass
class Rehearsal:
    scenario: Scenario
    app: App
    clock: ManualClock
    sim: Simulator
    herna: HernaClient
    transcript: Transcript
    names: dict[int, str]  # store id -> name (filled at creation; the transcript's DMs)
    slug: str = ""
    store_id: dict[str, int] = field(default_factory=dict)  # file id -> store id
    file_id: dict[int, str] = field(default_factory=dict)
    events: Events | None = None  # the scenario's events (once the tournament exists)
    proposals: list[dict[str, Any]] = field(default_factory=list)
    skip_idle_polls: bool = True  # leave out polls that cannot change anything (`_idle`)
    first_game_id: int = FIRST_GAME_ID  # its games' herna.net ids (a season shares the simulator)
    passes: int = 0  # the polls that went to herna.net (not left out as idle)
    _stuck: set[int] = field(default_factory=set)  # timers that failed: never retried here
    # round -> when its last clean pass ran and what herna.net showed it
    _seen: dict[int, tuple[datetime, list[GameRecord]]] = field(default_factory=dict)
    _tables: dict[int, frozenset[frozenset[str]]] = field(default_factory=dict)  # `_tables_tx`

    # -- the timeline -------------------------------------------------------------------

    def steps(self, *, polls: bool = True) -> list[Step]:
        """The run's steps in time order; `polls=False` leaves the round polls out (a season
        rehearsal polls every running classic event from one place: `poll_due`)."""
        sc = self.scenario
        starts = sc.round_starts
        out: list[Step] = []

        def at(moment: datetime, order: int, action: Callable[[], Awaitable[None]]) -> None:
            out.append((moment, order, len(out), action))

        if sc.has_checkin:
            opens, closes = sc.checkin_window()
            at(opens, OPEN, self._open_checkin)
            at(closes, ROUND, self._close_checkin)
        for event in sc.events:
            at(event.at, EVENT, self._bind(self._event, event))
        for n, start in enumerate(starts, start=1):
            at(start - PUBLISH_BEFORE, ROUND, self._bind(self._pair, n))
            until = start + sc.limit + POLL_AFTER_LIMIT
            moment = start
            while polls and self._in_poll_window(n, moment, until):
                at(moment, POLL, self._bind(self._poll, n))
                moment += POLL_EVERY
        at(end_of(sc), END, self._end)
        return sorted(out, key=lambda s: s[:3])

    def _in_poll_window(self, n: int, moment: datetime, until: datetime) -> bool:
        """Round n is polled from its start until its limit + 10 minutes, and no longer
        once the next round is about to be paired."""
        starts = self.scenario.round_starts
        return moment <= until and (n == len(starts) or moment < starts[n] - PUBLISH_BEFORE)

    def poll_due(self, now: datetime) -> int | None:
        """The round a poll at `now` is for (the one whose poll window holds `now`), if any:
        a season rehearsal's one poll asks each running classic event this."""
        for n, start in enumerate(self.scenario.round_starts, start=1):
            until = start + self.scenario.limit + POLL_AFTER_LIMIT
            if start <= now and self._in_poll_window(n, now, until):
                return n
        return None

    async def poll(self, n: int) -> None:
        """One poll of round n (left out when it cannot change anything, `_idle`)."""
        await self._poll(n)

    @staticmethod
    def _bind(fn: Callable[[Any], Awaitable[None]], arg: Any) -> Callable[[], Awaitable[None]]:
        return lambda: fn(arg)

    async def run(self) -> None:
        await self._create()
        scheduler = Scheduler(self.app)
        for moment, order, _, action in self.steps():
            # timers due at this very moment wait for its events and polls (a record that
            # appeared by then is known to the reminder), not for its pairing or the end
            await self._advance(scheduler, moment, inclusive=order > POLL)
            await action()

    async def _advance(self, scheduler: Scheduler, moment: datetime, *,
                       inclusive: bool) -> None:
        await fire_timers(self.app, self.clock, scheduler, self._stuck, moment,
                          inclusive=inclusive)

    # -- set-up -------------------------------------------------------------------------

    async def _create(self) -> Reply:
        """Create the tournament (as `stredisko create` does) and attach to it; its reply."""
        sc = self.scenario
        prop = sc.propozicie
        if sc.has_checkin:  # the window must be known for players to check in
            opens, closes = sc.checkin_window()
            prop = replace(prop, checkin_opens=opens, checkin_closes=closes)
        # the registry knows each player's (synthetic) Discord account, as propozície may
        prop = replace(prop, players=[replace(p, discord_id=discord_id(sc, p.file_id))
                                      for p in prop.players])
        created = await setup.create(self.app, prop, OPERATOR)
        self._need(created, "create")
        await self.attach(created.data)
        return created

    async def attach(self, tournament: Tournament) -> None:
        """Know the created tournament (file ids, names), name its head admin, link every
        player's Discord account and put the games on the simulator. Safe to do again on a
        restarted process: naming and linking what is already so changes nothing."""
        sc = self.scenario
        prop = sc.propozicie
        self.slug = tournament.slug
        # the head admin acts from his Discord account, named by whoever holds the database
        self._need(await policy.set_admins(self.app, self.slug, OPERATOR, add=[ADMIN_ID]),
                   "admins")
        self.store_id = dict(tournament.settings["file_ids"])
        self.file_id = {v: k for k, v in self.store_id.items()}
        for spec in prop.players:
            self.names[self.store_id[spec.file_id]] = spec.name
            reply = await play.register(self.app, self.slug, discord_id(sc, spec.file_id),
                                        spec.file_id, spec.herna)
            self._need(reply, "register")
        self.events = Events(sc, self.app, self.sim, self.transcript, self.slug, self.store_id,
                             first_game_id=self.first_game_id)
        self.events.publish_games()

    async def _event(self, event: Event) -> None:
        assert self.events is not None
        await self.events.run(event)

    def _need(self, reply: Reply, what: str) -> None:
        if not reply.ok:
            raise RehearsalError(f"{what}: " + " ".join(render_reply(reply)))

    def _admin_reply(self, reply: Reply, command: str) -> None:
        """The head admin's own steps print only when they did not simply go through."""
        if not reply.ok:
            self.transcript.command(f"admin {command}", ADMIN_LABEL, "", reply)

    async def _open_checkin(self) -> None:
        self._admin_reply(await checkin.open_checkin(self.app, self.slug, ADMIN), "otvor")

    async def _close_checkin(self) -> None:
        self._admin_reply(await checkin.close_checkin(self.app, self.slug, ADMIN), "zatvor")

    # -- rounds and the sync --------------------------------------------------------------

    async def _pair(self, n: int) -> None:
        if n > 1:
            await self._sync(n - 1)
            closed = await rounds.close_round(self.app, self.slug, n - 1, ADMIN, force=True)
            self._admin_reply(closed, "uzavri")
        # paired before a restart (the kill campaign repeats a step cut short): the head
        # admin publishes the pairing he has, he does not pair again
        if not await self.app.run(self._paired_tx, n):
            await self._pair_anew(n)
        self._need(await rounds.publish_round(self.app, self.slug, n, ADMIN), f"publish {n}")
        self._tables[n] = await self.app.run(self._tables_tx, n)

    async def _pair_anew(self, n: int) -> None:
        spec = self.scenario.rounds.get(n)
        if spec is None:
            self._need(await rounds.pair_round(self.app, self.slug, n, ADMIN, force=True),
                       f"round {n}")
        else:
            nick = self.scenario.nicks
            tables = [(nick[a], None if b is None else nick[b]) for a, b in spec.pairings]
            reply = await rounds.import_pairings(self.app, self.slug, n, tables, ADMIN,
                                                 force=True)
            if not reply.ok:  # e.g. a player withdrawn or excluded by then (e-SP 3.6)
                raise SetupError(spec.line, f"[[round]] {n}. kolo: "
                                            + " ".join(render_reply(reply)))
            await self._check_round(n)

    async def _check_round(self, n: int) -> None:
        """A [[round]] must seat every player still in the tournament once the pairing has
        confirmed the previous round (which may exclude someone, e-SP 3.6): a scenario
        error found at run time."""
        spec = self.scenario.rounds[n]
        entries = await self.app.run(self._entries_tx)
        playing = {self.file_id[e.player_id] for e in entries if e.out is None and e.paid}
        seated = {p for pair in spec.pairings for p in pair if p is not None}
        missing = sorted(playing - seated)
        if missing:
            raise SetupError(spec.line, f"[[round]] {n}. kolo: chýba hráč, ktorý ešte hrá: "
                                        f"{', '.join(missing)}")

    def _paired_tx(self, tx: Tx, n: int) -> bool:
        return bool(pairings_of_round(tx.db, lookup.tournament(tx, self.slug).id, n))

    def _entries_tx(self, tx: Tx) -> list[Any]:
        return list_entries(tx.db, lookup.tournament(tx, self.slug).id)

    async def _sync(self, n: int) -> None:
        try:
            await sync.sync_round(self.app, self.slug, n, self.herna)
        except SyncRefused as refused:
            self._admin_reply(refused.reply, "synchronizuj")

    async def _poll(self, n: int) -> None:
        """A poll, unless it cannot change anything (`skip_idle_polls`): see `_idle`."""
        now = self.clock.now()
        shown = self._as_read(n, now)
        if self.skip_idle_polls and self._idle(n, now, shown):
            return
        summary = await round_poll.poll_round(self.app, self.slug, n, self.herna)
        self.passes += summary is not None
        if summary is not None and summary.outcome is SyncOutcome.OK:
            self._seen[n] = (now, shown)

    def _idle(self, n: int, now: datetime, shown: list[GameRecord]) -> bool:
        """herna.net shows what round n's last clean pass saw, as far as the rules read it,
        and no deadline the rules compare the last check of herna.net with (the waiting
        period's end, the game limit) lies between that pass and now. Such a pass would reach
        the same verdicts and messages; leaving it out changes only the sync-run log and how
        many snapshots of a game in progress the evidence keeps."""
        last = self._seen.get(n)
        if last is None or last[1] != shown:
            return False
        return not any(last[0] < deadline <= now for deadline in self._deadlines(n))

    def _as_read(self, n: int, now: datetime) -> list[GameRecord]:
        """The simulator's listing as the rules read it before round n's limit: of a game at
        one of its tables still in progress only that it is being played (its scores and moves
        count only after the limit, e-SP 4.5). Any other game (one with no table is told to
        the admin whenever it changes) and every game after the limit: exactly."""
        records = self.sim.visible(now)
        if now >= self._deadlines(n)[1]:
            return records
        tables = self._tables.get(n, frozenset())
        return [replace(r, first_score=0, second_score=0, first_moves=0, second_moves=0)
                if r.end is EndKind.UNFINISHED and frozenset(r.nicks) in tables else r
                for r in records]

    def _deadlines(self, n: int) -> tuple[datetime, datetime]:
        """Round n's end of the waiting period and its game limit."""
        start = self.scenario.round_starts[n - 1]
        waiting = timedelta(minutes=self.scenario.propozicie.waiting_minutes)
        return start + waiting, start + self.scenario.limit

    def _tables_tx(self, tx: Tx, n: int) -> frozenset[frozenset[str]]:
        """The herna.net nick pairs seated at round n's tables (byes left out)."""
        t = lookup.tournament(tx, self.slug)
        nick = self.scenario.nicks
        return frozenset(
            frozenset((nick[self.file_id[p.first_id]], nick[self.file_id[p.second_id]]))
            for p in pairings_of_round(tx.db, t.id, n) if p.second_id is not None)

    async def _end(self) -> None:
        last = len(self.scenario.round_starts)
        await self._sync(last)
        # the head admin rules what is still open before he closes the last round, so its
        # standings are final and no result changes after them (issue 19.6)
        queue = await admin.review_queue(self.app, self.slug, ADMIN)
        self._need(queue, "review queue")
        for item in queue.data["results"]:
            applied = False
            if (item.get("verdict") or {}).get("kind") == "proposal":
                applied = await self.app.run(self._apply_tx, item["pairing_id"])
            self.proposals.append(proposal_entry(item, self.file_id, applied))
        for item in queue.data["discrepancies"]:
            self.proposals.append(proposal_entry(item, self.file_id, False, "discrepancy"))
        self._admin_reply(await rounds.close_round(self.app, self.slug, last, ADMIN,
                                                   force=True), "uzavri")
        finished = await rounds.finish_tournament(self.app, self.slug, ADMIN, force=True)
        self._need(finished, "finish")

    @staticmethod
    def _apply_tx(tx: Tx, pairing_id: int) -> bool:
        by = tx.by_admin(ADMIN_ID, END_REASON)
        return apply_proposal(tx, pairing_id, END_REASON, by) is not None

async def fire_timers(app: App, clock: ManualClock, scheduler: Scheduler, stuck: set[int],
                      moment: datetime, *, inclusive: bool, move: bool = True,
                      each: Callable[[Timer], None] | None = None) -> None:
    """Fire every stored timer due before `moment` (`inclusive`: also those due at it), each
    at its own due time, then (`move`) move the clock there. A timer that failed is `stuck`:
    never retried here. With `each`, the timers due at a moment fire one at a time, `each`
    told of every one before it fires (whose event its messages are)."""
    while True:
        due = [t for t in await app.store.read(due_timers, moment)
               if t.id not in stuck and (inclusive or t.due_at < moment)]
        if not due:
            break
        clock.set(max(due[0].due_at, clock.now()))
        if each is None:
            await scheduler.run_due()
        for timer in [] if each is None else [t for t in due if t.due_at <= clock.now()]:
            each(timer)
            await scheduler.fire(timer)
        stuck |= {t.id for t in await app.store.read(due_timers, clock.now())}
    if move and moment > clock.now():
        clock.set(moment)


# -- running it ---------------------------------------------------------------------------


async def rehearse(scenario: Scenario, db: Path, *, html: Path | None = None,
                   skip_idle_polls: bool = True) -> Outcome:
    """Run `scenario` on the store at `db` (created; the caller decides whether to keep it);
    with `html`, write the results page there. `skip_idle_polls=False` polls every 5 minutes
    even when herna.net shows nothing new (the same outcome, slower: see `bench/rehearse.py`)."""
    store = await Store.open(db)
    try:
        names: dict[int, str] = {}
        clock = ManualClock(start_time(scenario))

        def name_of(player_id: int) -> str:
            return names.get(player_id, str(player_id))

        transcript = Transcript(clock, name_of)
        app = App(store, clock, transcript, show_local=True)
        sim = Simulator({SIM_USER: SIM_PASSWORD}, clock=clock.now)
        async with sim.serve() as url, HernaClient(
                Credentials(SIM_USER, SIM_PASSWORD), _polite_off(url)) as herna:
            rehearsal = Rehearsal(scenario, app, clock, sim, herna, transcript, names,
                                  skip_idle_polls=skip_idle_polls)
            await rehearsal.run()
        document = await app.run(document_tx, rehearsal.slug, rehearsal.file_id)
        assert isinstance(document, dict)
        document["proposals"] = rehearsal.proposals
        document["refusals"] = rehearsal.events.refusals if rehearsal.events else []
        document["transcript"] = transcript.lines
        standings = render_reply(await views.standings_view(app, rehearsal.slug))
        page = None
        if html is not None:
            from bot.publish import write_results_page

            report = await views.report(app, rehearsal.slug)
            if isinstance(report, Reply):
                raise RehearsalError(" ".join(render_reply(report)))
            page = write_results_page(report, html)
        return Outcome(rehearsal.slug, document, transcript.lines, standings, page)
    finally:
        await store.close()


def end_of(scenario: Scenario) -> datetime:
    """When the rehearsal finishes the tournament: 10 minutes after the last round's limit,
    or at its last event if later."""
    last_event = max((e.at for e in scenario.events), default=scenario.last_limit)
    return max(scenario.last_limit + POLL_AFTER_LIMIT, last_event)


def start_time(scenario: Scenario) -> datetime:
    """T0: a minute before the first thing that happens."""
    first = [scenario.round_starts[0] - BEFORE_START]
    first += [scenario.events[0].at] if scenario.events else []
    first += [scenario.checkin_window()[0]] if scenario.has_checkin else []
    return min(first) - timedelta(minutes=1)


def _polite_off(url: str) -> HernaSettings:
    """The simulator is ours and local: no politeness limits, no waiting between retries."""
    return HernaSettings(base_url=url, max_concurrent=None, per_second=None, backoff=0.0,
                         timeout=10.0, retries=1)
