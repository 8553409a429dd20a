"""The services' context and the shape of one use case.

A use case is a plain function `fn(tx, *args)` that runs inside ONE store transaction on the
store's owner thread: it reads, decides (with `rules`), writes, and queues the messages it
wants sent. `App.run` commits, then delivers the queued messages through the `Notifier` — so a
refused or failed use case changes nothing and says nothing, and a committed one is announced.
A `Refusal` raised inside rolls everything back and comes out as the refusal `Reply`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlite_utils import Database

from bot.clock import Clock
from bot.services.notifier import Message, Notifier
from bot.services.replies import Refusal, Reply
from bot.store import Change, Store
from rules import Profile

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(slots=True)
class Tx:
    """What a use case sees: the database (inside its transaction), the time, the profiles,
    and an outbox for messages that go out only if the transaction commits."""

    db: Database
    now: datetime
    app: App
    outbox: list[tuple[str, int, Message]] = field(default_factory=list)

    def profile(self, name: str) -> Profile:
        return self.app.profile(name)

    def announce(self, tournament_id: int, key: str, **params: Any) -> None:
        self.outbox.append(("channel", tournament_id, Message(key, params)))

    def direct(self, player_id: int, key: str, **params: Any) -> None:
        self.outbox.append(("dm", player_id, Message(key, params)))

    def to_admin(self, tournament_id: int, key: str, **params: Any) -> None:
        self.outbox.append(("admin", tournament_id, Message(key, params)))

    # who does it — each store write helper takes one of these (it is audited)
    def by_player(self, player_id: int, reason: str | None = None) -> Change:
        return Change.player(player_id, self.now, reason)

    def by_admin(self, admin_id: int | str, reason: str | None = None) -> Change:
        return Change.admin(admin_id, self.now, reason)

    def by_scheduler(self, reason: str | None = None) -> Change:
        return Change.scheduler(self.now, reason)

    def by_platform(self, reason: str | None = None) -> Change:
        return Change.platform(self.now, reason)


@dataclass(slots=True)
class App:
    store: Store
    clock: Clock
    notifier: Notifier
    _profiles: dict[str, Profile] = field(default_factory=dict)

    def profile(self, name: str) -> Profile:
        """Rule profiles are immutable: load each once."""
        if name not in self._profiles:
            self._profiles[name] = Profile.load(name)
        return self._profiles[name]

    async def run(
        self, fn: Callable[Concatenate[Tx, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T | Reply:
        """Run one use case in one transaction; deliver its messages after the commit.

        Returns what `fn` returns, or the refusal `Reply` if it raised `Refusal`.
        """
        now = self.clock.now()
        holder: list[Tx] = []

        def body(db: Database) -> T:
            tx = Tx(db, now, self)
            holder.append(tx)
            return fn(tx, *args, **kwargs)

        try:
            value = await self.store.call(body)
        except Refusal as refusal:
            return refusal.reply
        await self.deliver(holder[-1].outbox if holder else [])
        return value

    async def deliver(self, outbox: list[tuple[str, int, Message]]) -> None:
        for where, target, message in outbox:
            if where == "channel":
                await self.notifier.announce(target, message)
            elif where == "dm":
                await self.notifier.direct(target, message)
            else:
                await self.notifier.to_admin(target, message)
