"""The services' context and the shape of one use case.

A use case is a plain function `fn(tx, *args)` that runs inside ONE store transaction on the
store's owner thread: it reads, decides (with `rules`), writes, and queues the messages it
wants sent. The messages are outbox rows written in that same transaction (DESIGN.md 4), so a
refused or failed use case changes nothing and says nothing, and a committed one cannot lose
what it has to say. After the commit `App.run` hands them on:
- `delivery="send"` (the bot, the rehearsal, tests): the `Sender` delivers the outbox and marks
  each message sent (`bot.services.delivery.outbox`). The caller is answered once they are
  delivered — or, with `answer_first` (the bot), right after the commit while the delivery goes on:
  a post to Discord is a network round trip and rate-limited, and a busy round's reports would each
  wait for every message of the pass (64 reports at once, 100 ms a post: 6.5 s each). The
  outbox still holds each message until it is marked sent, so a crash meanwhile loses none;
- `delivery="queue"` (the CLI, which has no Discord connection): the messages stay pending for
  the bot, which delivers them when it runs (or drops them if their moment passed); the
  notifier only shows the operator what was queued.
A `Refusal` raised inside rolls everything back and comes out as the refusal `Reply`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from sqlite_utils import Database

from bot.clock import Clock
from bot.i18n import Term
from bot.services import bounds
from bot.services.delivery.lease import Holding
from bot.services.delivery.outbox import Sender, Timely, deliver
from bot.services.notifier import Message, Notifier
from bot.services.replies import Refusal, Reply
from bot.store import Change, Store
from bot.store.outbox import Destination, queue_message
from rules import Profile

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(slots=True)
class Tx:
    """What a use case sees: the database (inside its transaction), the time, the profiles,
    and the outbox: messages written with the change, delivered only if it commits.

    `timely` binds a message to its moment (its round still open, or a time): one that could
    not go out in time is dropped, never sent late. `local`: the message is for whoever runs
    the use case at the console and never goes to Discord (no outbox row; a duplicate hall
    event's announcements, issue 35)."""

    db: Database
    now: datetime
    app: App
    queued: list[tuple[Destination, int, Message]] = field(default_factory=list)
    local: list[tuple[Destination, int, Message]] = field(default_factory=list)

    def profile(self, name: str) -> Profile:
        return self.app.profile(name)

    def announce(self, tournament_id: int, key: str, *, timely: Timely | None = None,
                 local: bool = False, **params: Any) -> None:
        self._queue(Destination.CHANNEL, tournament_id, key, params, timely, tournament_id,
                    local)

    def direct(self, player_id: int, key: str, *, event: int | None = None,
               timely: Timely | None = None, local: bool = False, **params: Any) -> None:
        """A DM about `event` (a tournament's id; `timely` names it too): the outbox row
        carries it, so the DM names its event and only that event's head admin handles it
        (issue 44.5). None: about no event (the registry's, e.g. a season's decay)."""
        self._queue(Destination.DM, player_id, key, params, timely, event, local)

    def to_admin(self, tournament_id: int, key: str, *, timely: Timely | None = None,
                 local: bool = False, **params: Any) -> None:
        self._queue(Destination.ADMIN, tournament_id, key, params, timely, tournament_id,
                    local)

    def _queue(self, destination: Destination, target: int, key: str, params: dict[str, Any],
               timely: Timely | None, tournament_id: int | None, local: bool) -> None:
        if timely is not None:
            tournament_id = timely.tournament_id
        if local:
            self.local.append((destination, target,
                               Message(key, params, local=True, tournament_id=tournament_id)))
            return
        ref = queue_message(
            self.db, destination, target, key, params, self.now, tournament_id=tournament_id,
            round_no=timely.round_no if timely else None,
            valid_until=timely.until if timely else None)
        self.queued.append((destination, target,
                            Message(key, params, ref=ref, tournament_id=tournament_id)))

    # who does it — each store write helper takes one of these (it is audited). A person's
    # reason passes the one character rule (`rules.free_text`) here too: an entry point that
    # forgot it still stores no ESC or bidi override (issue 36.2).
    def by_player(self, player_id: int, reason: str | None = None) -> Change:
        return Change.player(player_id, self.now, _typed(reason))

    def by_admin(self, admin_id: int | str, reason: str | None = None) -> Change:
        return Change.admin(admin_id, self.now, _typed(reason))

    def by_scheduler(self, reason: str | None = None) -> Change:
        return Change.scheduler(self.now, reason)

    def by_platform(self, reason: str | None = None) -> Change:
        return Change.platform(self.now, reason)


def _typed(reason: str | None) -> str | None:
    if reason:
        bounds.refuse_characters(reason, Term("input.what.reason"), lines=True)
    return reason


@dataclass(slots=True)
class App:
    store: Store
    clock: Clock
    notifier: Notifier
    delivery: Literal["send", "queue"] = "send"
    answer_first: bool = False  # "send" mode: answer after the commit, deliver meanwhile
    queued_for_bot: int = 0  # "queue" mode: messages left pending for the bot
    #: the bot's hold on the database's lease: each delivery is claimed under it (issue 36.1)
    lease: Holding | None = None
    # `Tx`'s local messages (never for Discord) are handed to the notifier: the console's and
    # the rehearsal's show them; the bot's (Discord) never gets them
    show_local: bool = False
    #: config.toml's `[season] file` (each a path) and `html_dir` ("" = no page): finishing a
    #: tournament a season names recomputes it (issue 37.3, `bot.services.season.on_finish`)
    season_files: tuple[str, ...] = ()
    season_html_dir: str = ""
    _profiles: dict[str, Profile] = field(default_factory=dict)
    _sender: Sender | None = None
    _delivering: set[asyncio.Task[None]] = field(default_factory=set)  # `answer_first`'s

    def profile(self, name: str) -> Profile:
        """Rule profiles are immutable: load each once."""
        if name not in self._profiles:
            self._profiles[name] = Profile.load(name)
        return self._profiles[name]

    @property
    def sender(self) -> Sender:
        if self._sender is None:
            self._sender = Sender(self)
        return self._sender

    async def run(
        self, fn: Callable[Concatenate[Tx, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T | Reply:
        """Run one use case in one transaction; after the commit, deliver (or, in "queue"
        mode, show) the messages it queued.

        Returns what `fn` returns, or the refusal `Reply` if it raised `Refusal`.
        """
        now = self.clock.now()
        holder: list[Tx] = []
        sender = self.sender if self.delivery == "send" else None  # made on the loop's thread
        transactions: list[int] = []

        def body(db: Database) -> T:
            tx = Tx(db, now, self)
            holder.append(tx)
            value = fn(tx, *args, **kwargs)
            if tx.queued and sender is not None:  # the outbox for the pass after the commit
                sender.snapshot_at_commit(now)
                transactions.append(self.store.transaction)
            return value

        try:
            value = await self.store.call(body)
        except Refusal as refusal:
            return refusal.reply
        queued = holder[-1].queued if holder else []
        if self.show_local and holder:
            for destination, target, message in holder[-1].local:
                await deliver(self.notifier, destination, target, message)
        if queued:
            delivery = self.after_commit(queued, transactions[-1] if transactions else None)
            if self.answer_first and self.delivery == "send":
                task = asyncio.ensure_future(delivery)
                self._delivering.add(task)
                task.add_done_callback(self._delivered)
            else:
                await delivery
        return value

    def _delivered(self, task: asyncio.Task[None]) -> None:
        self._delivering.discard(task)
        if not task.cancelled() and task.exception() is not None:  # pending: the next pass's
            log.error("delivery after a commit failed: %s", task.exception())

    async def settle(self) -> None:
        """Wait for the deliveries `answer_first` left running (a stop, a test)."""
        while self._delivering:
            await asyncio.gather(*self._delivering, return_exceptions=True)

    async def after_commit(self, queued: list[tuple[Destination, int, Message]],
                           transaction: int | None = None) -> None:
        """Deliver what a committed use case queued; `transaction`: the store's transaction
        it ran in, whose outbox snapshot the pass may use (`Sender.flush`)."""
        if self.delivery == "send":
            await self.sender.flush((message.ref for _, _, message in queued if message.ref),
                                    transaction=transaction)
            return
        for destination, target, message in queued:  # shown to the operator, left pending
            await deliver(self.notifier, destination, target, message)
        self.queued_for_bot += len(queued)

