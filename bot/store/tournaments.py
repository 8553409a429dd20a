"""Tournaments (the propozície settings) and their rounds."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.cache import cached
from bot.store.rows import Change, DuplicateError, Round, StoreError, Tournament, TournamentStatus
from bot.store.sql import check_columns, insert, must, one, rows, update

EDITABLE = (
    "name", "profile", "season", "waiting_minutes", "game_limit_minutes", "checkin_opens_at",
    "checkin_closes_at", "tempo", "language_version", "channel_id", "admin_role_id",
    "admin_ids", "auto_apply_forfeits_after_minutes", "settings",
)
ROUND_EDITABLE = (
    "starts_at", "limit_at", "paired_at", "published_at", "closed_at", "dispute_closes_at",
)
_ORDER = list(TournamentStatus)


def create_tournament(
    db: Database,
    *,
    slug: str,
    name: str,
    season: str,
    round_starts: Sequence[datetime],
    waiting_minutes: int,
    game_limit_minutes: int,
    by: Change,
    profile: str = "sss-online",
    **options: Any,
) -> Tournament:
    """Create a tournament in `draft` with one round per official start time.

    Each round's game time limit is its start + `game_limit_minutes` (e-SP 4.5). Further
    keywords are the optional `EDITABLE` columns (tempo, channel_id, …).
    """
    if options:
        check_columns(options, EDITABLE, "create_tournament")
    if not round_starts:
        raise ValueError("a tournament needs at least one round start time")
    if any(later <= earlier for earlier, later in pairwise(round_starts)):
        raise ValueError("round start times must be strictly increasing")
    if one(db, Tournament, "SELECT * FROM tournaments WHERE slug = ?", [slug]) is not None:
        raise DuplicateError(f"a tournament with the short name {slug!r} already exists")
    tournament_id = insert(
        db,
        "tournaments",
        {
            "slug": slug,
            "name": name,
            "season": season,
            "profile": profile,
            "rounds_planned": len(round_starts),
            "waiting_minutes": waiting_minutes,
            "game_limit_minutes": game_limit_minutes,
            "created_at": by.at,
            **options,
        },
    )
    limit = timedelta(minutes=game_limit_minutes)
    for number, starts_at in enumerate(round_starts, start=1):
        insert(db, "rounds", {"tournament_id": tournament_id, "number": number,
                              "starts_at": starts_at, "limit_at": starts_at + limit})
    record(db, by, "tournament.create", tournament_id=tournament_id, subject=slug,
           data={"name": name, "rounds": len(round_starts), **options})
    return get_tournament(db, tournament_id)


def get_tournament(db: Database, tournament_id: int) -> Tournament:
    return cached(db, ("tournament", tournament_id), lambda: must(
        one(db, Tournament, "SELECT * FROM tournaments WHERE id = ?", [tournament_id]),
        f"tournament {tournament_id}"))


def get_tournament_by_slug(db: Database, slug: str) -> Tournament:
    # a miss raises, so is not cached: the cache holds only tournaments that exist
    return cached(db, ("tournament slug", slug), lambda: must(
        one(db, Tournament, "SELECT * FROM tournaments WHERE slug = ?", [slug]),
        f"tournament {slug!r}"))


def list_tournaments(db: Database, status: TournamentStatus | None = None) -> list[Tournament]:
    if status is None:
        return rows(db, Tournament, "SELECT * FROM tournaments ORDER BY id")
    return rows(db, Tournament, "SELECT * FROM tournaments WHERE status = ? ORDER BY id",
                [status])


def unfinished_in_channel(db: Database, channel_id: int, default_channel_id: int | None
                          ) -> list[Tournament]:
    """The unfinished tournaments announcing in `channel_id` — their own channel, or the
    default one (`default_channel_id`) for those without."""
    return rows(db, Tournament,
                "SELECT * FROM tournaments WHERE status <> ? AND (channel_id = ? OR "
                "(channel_id IS NULL AND ? = ?)) ORDER BY id",
                [TournamentStatus.FINISHED, channel_id, default_channel_id, channel_id])


def update_tournament(db: Database, tournament_id: int, by: Change, **changes: Any) -> Tournament:
    """Change propozície settings (the `EDITABLE` columns). Round times: `update_round`."""
    check_columns(changes, EDITABLE, "update_tournament")
    diff = update(db, "tournaments", "id = ?", [tournament_id], changes)
    record(db, by, "tournament.update", tournament_id=tournament_id, data=diff)
    return get_tournament(db, tournament_id)


def set_status(
    db: Database, tournament_id: int, status: TournamentStatus, by: Change
) -> Tournament:
    """Move forward draft → checkin → running → finished (steps may be skipped, never undone)."""
    current = get_tournament(db, tournament_id)
    status = TournamentStatus(status)
    if _ORDER.index(status) <= _ORDER.index(current.status):
        raise StoreError(f"tournament {current.slug!r} is {current.status}; "
                         f"it cannot go to {status}")
    diff = update(db, "tournaments", "id = ?", [tournament_id], {"status": status})
    record(db, by, "tournament.status", tournament_id=tournament_id, subject=current.slug,
           data=diff)
    return get_tournament(db, tournament_id)


def list_rounds(db: Database, tournament_id: int) -> list[Round]:
    return rows(db, Round, "SELECT * FROM rounds WHERE tournament_id = ? ORDER BY number",
                [tournament_id])


def classic_rounds_between(db: Database, since: datetime, until: datetime, *,
                           besides: int) -> list[Round]:
    """The rounds of the running and finished classic tournaments (duplicate ones play on no
    herna.net) but `besides` that are under way at some moment of `since` … `until`: limit
    not before `since`, start not after `until`; by tournament, then number."""
    return rows(db, Round,
                "SELECT r.* FROM rounds r JOIN tournaments t ON t.id = r.tournament_id "
                "WHERE r.tournament_id <> ? AND t.status IN (?, ?) "
                "AND NOT EXISTS (SELECT 1 FROM dup_events d WHERE d.tournament_id = t.id) "
                "AND r.limit_at >= ? AND r.starts_at <= ? ORDER BY t.id, r.number",
                [besides, TournamentStatus.RUNNING, TournamentStatus.FINISHED, since, until])


def last_published_round(db: Database, tournament_id: int) -> Round | None:
    """The round being played: the highest-numbered published one (None before round 1)."""
    return cached(db, ("last published round", tournament_id), lambda: one(
        db, Round, "SELECT * FROM rounds WHERE tournament_id = ? AND published_at IS NOT NULL "
        "ORDER BY number DESC LIMIT 1", [tournament_id]))


def get_round(db: Database, tournament_id: int, number: int) -> Round:
    return cached(db, ("round", tournament_id, number), lambda: must(
        one(db, Round, "SELECT * FROM rounds WHERE tournament_id = ? AND number = ?",
            [tournament_id, number]),
        f"round {number} of tournament {tournament_id}"))


def update_round(
    db: Database, tournament_id: int, number: int, by: Change, **changes: datetime | None
) -> Round:
    """Set a round's times (`ROUND_EDITABLE`), e.g. `published_at=now`."""
    check_columns(changes, ROUND_EDITABLE, "update_round")
    diff = update(db, "rounds", "tournament_id = ? AND number = ?", [tournament_id, number],
                  changes)
    record(db, by, "round.update", tournament_id=tournament_id, subject=f"round:{number}",
           data=diff)
    return get_round(db, tournament_id, number)
