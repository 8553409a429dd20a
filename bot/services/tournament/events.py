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
    NotFoundError,
    Tournament,
    TournamentStatus,
    find_player_by_discord,
    get_entry,
    get_tournament,
    get_tournament_by_slug,
    list_tournaments,
    update_tournament,
)
from bot.store.duplicate import get_event

Kind = Literal["classic", "duplicate"]
#: how many events an autocomplete offers (Discord's limit for choices)
CHOICES = 25
#: the longest short name: what the chat's `udalost` option takes (a longer one could never
#: be typed there)
SLUG_MAX = 64
#: the audit's actions of a tournament's status and settings (`bot.store.tournaments`)
STATUS_ACTION, UPDATE_ACTION = "tournament.status", "tournament.update"


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
    try:
        return _event(db, get_tournament_by_slug(db, slug))
    except NotFoundError:
        return None


def by_id(db: Database, event_id: int) -> Event | None:
    """The event a button's custom_id names; None when there is none (a forged id beyond
    SQLite's integers too: the store's reads find no row for one)."""
    try:
        return _event(db, get_tournament(db, event_id))
    except NotFoundError:
        return None


def for_channel(db: Database, channel_id: int | None, control_channel_id: int | None
                ) -> list[Event]:
    """The events whose channel this is: the unfinished ones that name it (or, in the guild's
    control channel, those that name none); when none is open there, the finished one that
    lived there last (its results and standings stay where they were) — unless an event moved
    away from the channel after it finished: the channel then answers for nobody (issue 44.5;
    it was the moved event's, and is no longer the finished one's). More than one only if the
    control channel holds several events without a channel of their own: the caller asks."""
    if channel_id is None:
        return []
    control = channel_id == control_channel_id
    here = [t for t in list_tournaments(db) if t.channel_id == channel_id
            or (t.channel_id is None and control)]
    open_here = [t for t in here if t.status is not TournamentStatus.FINISHED]
    if open_here or not here:
        return [_event(db, t) for t in open_here]
    finished = {t.id: _finished_row(db, t.id) for t in here}
    last = max(here, key=lambda t: (finished[t.id], t.id))
    if _moved_away(db, {channel_id, None} if control else {channel_id}, finished[last.id]):
        return []
    return [_event(db, last)]


def _finished_row(db: Database, tournament_id: int) -> int:
    """The audit row from which a finished event holds its channel: its finish (its last
    status change: a status only moves forward), or a later change of its channel; 0 when
    none was recorded."""
    row = db.execute(
        "SELECT max(id) FROM audit WHERE tournament_id = ? AND (action = ? OR (action = ? "
        "AND json_type(data, '$.after.channel_id') IS NOT NULL))",
        [tournament_id, STATUS_ACTION, UPDATE_ACTION]).fetchone()
    return int(row[0] or 0)


def _moved_away(db: Database, channels: set[int | None], since_row: int) -> bool:
    """Whether an event's channel was changed away from one of `channels` after the audit row
    `since_row` (`stredisko channel`; None: the guild's control centre)."""
    moves = db.execute(
        "SELECT json_extract(data, '$.before.channel_id') FROM audit WHERE id > ? "
        "AND action = ? AND json_type(data, '$.before.channel_id') IS NOT NULL",
        [since_row, UPDATE_ACTION])
    return any(before in channels for (before,) in moves)


def _matches(t: Tournament, typed: str) -> bool:
    """Whether what someone typed into the event option fits: part of its short name or name."""
    needle = typed.strip().casefold()
    return not needle or needle in t.slug.casefold() or needle in t.name.casefold()


def of_user(db: Database, discord_id: int, typed: str = "", *, acting: bool = False
            ) -> list[Event]:
    """The events someone takes part in — entered as a player, or named head administrator —
    that `typed` fits; unfinished first, newest first. `acting`: not those he withdrew from or
    was excluded from (he acts there no more; their standings he may still look at)."""
    player = find_player_by_discord(db, discord_id)
    mine = []
    for t in reversed(list_tournaments(db)):
        entry = get_entry(db, t.id, player.id) if player is not None else None
        entered = entry is not None and not (acting and entry.out is not None)
        if (entered or discord_id in t.admin_ids) and _matches(t, typed):
            mine.append(_event(db, t))
    mine.sort(key=lambda e: e.finished)  # stable: newest first within each group
    return mine[:CHOICES]


def registrable(db: Database, discord_id: int, typed: str = "") -> list[Event]:
    """The unfinished events someone is not in (yet) that `typed` fits, oldest first: those
    he may register for (`/registracia`); never offered as his own."""
    player = find_player_by_discord(db, discord_id)
    return [_event(db, t) for t in list_tournaments(db)
            if t.status is not TournamentStatus.FINISHED and _matches(t, typed)
            and discord_id not in t.admin_ids
            and (player is None or get_entry(db, t.id, player.id) is None)][:CHOICES]


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
