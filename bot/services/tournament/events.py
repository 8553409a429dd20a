"""The events one bot serves (issue 37): every tournament in the database that is not finished,
classic and duplicate side by side, each in its own Discord channel.

Read afresh at each question — an event created (or given its channel) while the bot runs is
served at its next command, no restart and no cache to go stale. The chat layer asks
`for_channel` which event a command used in a channel is about, `of_user` which events to offer
someone in a DM (autocomplete), `named` whether an event he typed exists. `set_channel` is the
operator's act (`stredisko channel`, `stredisko create --channel`): two unfinished events may
not share a channel (e-SP 2.6: each event's control centre is its one official source).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlite_utils import Database

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.policy import CONTROL_RULE, AdminRef, actor_of
from bot.services.replies import Refusal, Reply, done
from bot.store import (
    Tournament,
    TournamentStatus,
    find_player_by_discord,
    get_entry,
    list_tournaments,
    update_tournament,
)
from bot.store.duplicate import get_event

Kind = Literal["classic", "duplicate"]
#: how many events an autocomplete offers (Discord's limit for choices)
CHOICES = 25


@dataclass(frozen=True, slots=True)
class Event:
    """One event as the chat layer routes to it."""

    id: int
    slug: str
    name: str
    kind: Kind
    channel_id: int | None  # None: the guild's control channel (`[discord] channel`)
    finished: bool
    admin_role_id: int | None
    admin_ids: tuple[int, ...]

    @property
    def label(self) -> str:
        """What an autocomplete shows: the name, the short name, and whether it ended."""
        mark = " (ukončená)" if self.finished else ""
        return f"{self.name} · {self.slug}{mark}"[:100]


def _event(db: Database, t: Tournament) -> Event:
    kind: Kind = "duplicate" if get_event(db, t.id) is not None else "classic"
    return Event(t.id, t.slug, t.name, kind, t.channel_id,
                 t.status is TournamentStatus.FINISHED, t.admin_role_id, tuple(t.admin_ids))


def running(db: Database, kind: Kind | None = None) -> list[Event]:
    """Every event not finished (oldest first), or only those of one kind."""
    found = [_event(db, t) for t in list_tournaments(db)
             if t.status is not TournamentStatus.FINISHED]
    return [e for e in found if kind is None or e.kind == kind]


def named(db: Database, slug: str) -> Event | None:
    """The event of that short name, finished or not; None when there is none."""
    for t in list_tournaments(db):
        if t.slug == slug:
            return _event(db, t)
    return None


def by_id(db: Database, event_id: int) -> Event | None:
    """The event a button's custom_id names; None when there is none."""
    for t in list_tournaments(db):
        if t.id == event_id:
            return _event(db, t)
    return None


def for_channel(db: Database, channel_id: int | None, control_channel_id: int | None
                ) -> list[Event]:
    """The events whose channel this is: the unfinished ones that name it (or, in the guild's
    control channel, those that name none); when none is open there, the newest finished one
    (its results and standings stay where they were). More than one only if the control
    channel holds several events without a channel of their own: the caller asks."""
    if channel_id is None:
        return []
    every = [_event(db, t) for t in list_tournaments(db)]

    def here(e: Event) -> bool:
        return e.channel_id == channel_id or (e.channel_id is None
                                              and channel_id == control_channel_id)

    open_here = [e for e in every if here(e) and not e.finished]
    if open_here:
        return open_here
    ended = [e for e in every if here(e)]
    return ended[-1:]


def of_user(db: Database, discord_id: int, typed: str = "") -> list[Event]:
    """The events someone takes part in — entered as a player, or named head administrator —
    whose short name or name contains `typed`; unfinished first, newest first."""
    player = find_player_by_discord(db, discord_id)
    needle = typed.strip().casefold()
    mine = []
    for t in reversed(list_tournaments(db)):
        entered = player is not None and get_entry(db, t.id, player.id) is not None
        if not (entered or discord_id in t.admin_ids):
            continue
        if needle and needle not in t.slug.casefold() and needle not in t.name.casefold():
            continue
        mine.append(_event(db, t))
    mine.sort(key=lambda e: e.finished)  # stable: newest first within each group
    return mine[:CHOICES]


# -- the operator's act ----------------------------------------------------------------------


def _set_channel(tx: Tx, slug: str, channel_id: int | None, operator: AdminRef) -> Reply:
    t = lookup.tournament(tx, slug)
    actor = actor_of(operator)
    if actor.kind != "operator":  # where an event lives is decided by whoever holds the file
        raise Refusal("policy.operator_only", tournament=t.name, rule=CONTROL_RULE)
    if channel_id is not None:
        check_channel_free(tx.db, channel_id, t.id)
    if channel_id != t.channel_id:
        update_tournament(tx.db, t.id, tx.by_admin(actor, "kanál udalosti"), channel_id=channel_id)
    if channel_id is None:
        return done("events.channel_cleared", tournament=t.name, rule=CONTROL_RULE)
    return done("events.channel_set", tournament=t.name, channel=channel_id, rule=CONTROL_RULE)


def check_channel_free(db: Database, channel_id: int, own_id: int | None = None) -> None:
    """Refuses a channel another unfinished event already lives in (e-SP 2.6)."""
    for other in running(db):
        if other.channel_id == channel_id and other.id != own_id:
            raise Refusal("events.channel_taken", channel=channel_id, other=other.name,
                          slug=other.slug, rule=CONTROL_RULE)


async def set_channel(app: App, slug: str, channel_id: int | None, operator: AdminRef) -> Reply:
    """Give the event its Discord channel (None: back to the guild's control channel)."""
    return await app.run(_set_channel, slug, channel_id, operator)
