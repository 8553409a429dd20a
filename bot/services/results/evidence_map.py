"""Stored evidence rows ↔ the items `rules.evidence` reasons about.

The store keeps evidence as (kind, actor, time, JSON payload); `rules` wants typed items keyed
by the rules' player ids (`lookup.rules_id`). This module is the one place that knows both
shapes, so a payload written by one service (the sync, a player, the admin) is read back the
same way by the lifecycle.

Payloads by kind (players are named by their store id):
- platform_game: `game_payload(...)` — the herna.net record, already mapped from nicks to ids;
  with a non-empty "refused" list (`rules.plausibility`) it is kept but never read as a game;
- score_report: {"own": int, "opponent": int} (the actor is the reporting player);
- absence / arrival / draw_confirmation: {} (the actor is the player);
- dispute: {"text": str};
- ruling: {"case": case_to_dict(case), "reason": str} (the actor is the head admin, or the
  scheduler when a proposal was applied automatically).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from bot.services.lookup import rules_id
from bot.store import (
    Evidence,
    EvidenceKind,
    TablePairing,
    Tournament,
    from_text,
    last_ok_start,
    list_evidence,
    to_text,
)
from rules.evidence import (
    AbsenceReport,
    Arrival,
    Dispute,
    DrawConfirmation,
    EvidenceError,
    PairingEvidence,
    PlatformGame,
    Ruling,
    ScoreReport,
)
from rules.model import Case, End

#: Before any sync of herna.net ran, the platform counts as checked up to "never".
NEVER_CHECKED = datetime(1970, 1, 1, tzinfo=UTC)


# -- Case <-> JSON ------------------------------------------------------------------------


def case_to_dict(case: Case) -> dict[str, Any]:
    return {
        "end": str(case.end),
        "first": case.first,
        "second": case.second,
        "first_score": case.first_score,
        "second_score": case.second_score,
        "loser": case.loser,
        "winner": case.winner,
        "moved": sorted(case.moved),
        "agreed": case.agreed,
        "round": case.round,
    }


def case_from_dict(data: Mapping[str, Any]) -> Case:
    try:
        return Case(
            End(data["end"]),
            str(data["first"]),
            None if data.get("second") is None else str(data["second"]),
            int(data.get("first_score", 0)),
            int(data.get("second_score", 0)),
            loser=_id_or_none(data.get("loser")),
            winner=_id_or_none(data.get("winner")),
            moved=frozenset(str(p) for p in data.get("moved", ())),
            agreed=bool(data.get("agreed", False)),
            round=int(data.get("round", 0)),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise EvidenceError(f"neplatný zápis prípadu {dict(data)!r}: {error}") from None


def _id_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


# -- platform records ---------------------------------------------------------------------


def game_payload(
    *,
    game_id: str,
    first: int,
    second: int,
    first_score: int,
    second_score: int,
    end: str,
    started: datetime,
    ended: datetime | None,
    on: int | None = None,
    moves: Mapping[int, int] | None = None,
    flags: Iterable[str] = (),
) -> dict[str, Any]:
    """The evidence payload of a herna.net game between two of our players (store ids);
    `first` is who actually started. The sync appends it with `at` = the end (the start while
    unfinished)."""
    return {
        "game_id": game_id,
        "first": first,
        "second": second,
        "first_score": first_score,
        "second_score": second_score,
        "end": end,
        "started": to_text(started),
        "ended": None if ended is None else to_text(ended),
        "on": on,
        "moves": {str(k): v for k, v in (moves or {}).items()},
        "flags": list(flags),
    }


def is_refused(payload: Mapping[str, Any]) -> bool:
    """A platform record kept as evidence but refused at the boundary (`refused`: the reasons
    of `rules.plausibility`): never scored, superseded by a later valid version."""
    return bool(payload.get("refused"))


def _game(row: Evidence) -> PlatformGame:
    p = row.payload
    try:
        return PlatformGame(
            id=row.id,
            game_id=str(p["game_id"]),
            first=rules_id(int(p["first"])),
            second=rules_id(int(p["second"])),
            first_score=p["first_score"],
            second_score=p["second_score"],
            end=p["end"],
            started=from_text(p["started"]),
            ended=None if p.get("ended") is None else from_text(p["ended"]),
            on=_id_or_none(p.get("on")),
            moves={str(k): v for k, v in p.get("moves", {}).items()},
            flags=tuple(p.get("flags", ())),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, EvidenceError):
            raise
        raise EvidenceError(f"záznam partie #{row.id}: chybný obsah ({error})") from None


# -- rows -> items ------------------------------------------------------------------------


def _actor(row: Evidence) -> str:
    if row.actor_id is None:
        raise EvidenceError(f"dôkaz #{row.id} ({row.kind}) nemá autora")
    return row.actor_id


def to_item(row: Evidence) -> Any:
    """One stored evidence row as a `rules.evidence` item."""
    kind = row.kind
    if kind is EvidenceKind.PLATFORM_GAME:
        return _game(row)
    if kind is EvidenceKind.RULING:
        return Ruling(id=row.id, admin=row.actor_id or str(row.actor_kind), at=row.at,
                      case=case_from_dict(row.payload.get("case", {})),
                      reason=str(row.payload.get("reason", "")))
    player = _actor(row)
    if kind is EvidenceKind.SCORE_REPORT:
        try:
            own, opponent = int(row.payload["own"]), int(row.payload["opponent"])
        except (KeyError, TypeError, ValueError):
            raise EvidenceError(f"hlásenie výsledku #{row.id}: chýba skóre") from None
        return ScoreReport(id=row.id, player=player, at=row.at, own=own, opponent=opponent)
    if kind is EvidenceKind.ABSENCE:
        return AbsenceReport(id=row.id, reporter=player, at=row.at)
    if kind is EvidenceKind.ARRIVAL:
        return Arrival(id=row.id, player=player, at=row.at)
    if kind is EvidenceKind.DRAW_CONFIRMATION:
        return DrawConfirmation(id=row.id, player=player, at=row.at)
    return Dispute(id=row.id, player=player, at=row.at, text=str(row.payload.get("text", "")))


_FIELD_OF = {
    PlatformGame: "games",
    ScoreReport: "reports",
    AbsenceReport: "absences",
    Arrival: "arrivals",
    DrawConfirmation: "confirmations",
    Dispute: "disputes",
    Ruling: "rulings",
}


def player_names(db: Database, player_ids: Iterable[int | None]) -> dict[str, str]:
    """Rules id -> name of the given players, in one query: verdict and exclusion texts name
    players by the names people know (`PairingEvidence.names`, `rules.exclusions`). bot.store
    has no reader for it yet (asked for in the report), so this small query lives here."""
    wanted = sorted({int(p) for p in player_ids if p is not None})
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    found = db.execute(f"SELECT id, name FROM players WHERE id IN ({marks})", wanted)
    return {rules_id(player_id): name for player_id, name in found.fetchall()}


def build_evidence(
    pairing: TablePairing, rows: Iterable[Evidence], platform_checked: datetime | None,
    names: Mapping[str, str] | None = None,
) -> PairingEvidence:
    """A pairing's evidence for `rules.reconcile`. A herna.net game seen several times (an
    unfinished game later finished) counts once, as last recorded. `names` (rules id -> name,
    `player_names`) is how the verdict's texts name the players."""
    items: dict[str, list[Any]] = {name: [] for name in _FIELD_OF.values()}
    games: dict[str, Evidence] = {}
    for row in sorted(rows, key=lambda r: (r.recorded_at, r.id)):
        if row.kind is EvidenceKind.PLATFORM_GAME:
            # Only a game's latest usable version is read: a refused one is no evidence, and
            # an unreadable version a later one superseded must not block the verdict.
            if not is_refused(row.payload):
                games[str(row.payload.get("game_id", f"#{row.id}"))] = row
            continue
        item = to_item(row)
        items[_FIELD_OF[type(item)]].append(item)
    items["games"] = [_game(row) for row in games.values()]
    return PairingEvidence(
        round=pairing.round_no,
        first=rules_id(pairing.first_id),
        second=None if pairing.second_id is None else rules_id(pairing.second_id),
        platform_checked=platform_checked,
        names={} if names is None else names,
        **items,
    )


def platform_checked(db: Database, tournament: Tournament) -> datetime | None:
    """Up to when herna.net was searched for this tournament's games: the start of the last
    successful round sync (or nightly sync). A tournament whose records are entered by hand
    (settings `platform_sync = false`, e.g. a rehearsal without the scraper) answers None:
    the records present are all there are."""
    if not tournament.settings.get("platform_sync", True):
        return None
    started = last_ok_start(db, tournament.id)
    return NEVER_CHECKED if started is None else started


def pairing_evidence(db: Database, pairing: TablePairing, tournament: Tournament,
                     names: Mapping[str, str] | None = None
                     ) -> tuple[PairingEvidence, list[Evidence]]:
    """The pairing's evidence as `rules` sees it (its texts naming the players: `names`, or
    read here in one query), and the stored rows it came from."""
    rows = list_evidence(db, pairing.id)
    if names is None:
        names = player_names(db, (pairing.first_id, pairing.second_id))
    return build_evidence(pairing, rows, platform_checked(db, tournament), names), rows
