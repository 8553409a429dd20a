"""Keeping what a pass fetched: each table's records in a transaction of their own — the raw
record (`upsert_platform_record`, every record seen is kept), a `platform_game` evidence row when
it is new or changed, then `lifecycle.refresh_pairing`, which announces new results. A refused
record is kept as evidence marked `refused` and told to the head admin once; a record with no
table is kept and listed for him. Also the payloads kept, and whether a table has a counting game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from bot.services.app import Tx
from bot.services.results.evidence_map import game_payload, is_refused
from bot.services.results.lifecycle import refresh_pairing
from bot.services.results.placement import NOT_PAIRED, NOT_PAIRED_RULE, Placed
from bot.services.results.plan import RoundWindow, SyncSummary
from bot.store import (
    EvidenceKind,
    RecordChange,
    SyncKind,
    TablePairing,
    append_evidence,
    from_text,
    get_pairing,
    get_result,
    list_evidence,
    to_text,
    upsert_platform_record,
)
from bot.store.evidence import mark_unmatched_told, unmatched_told
from bot.store.pairings import tournament_of_pairing
from rules.plausibility import Implausible
from rules.reconcile import FLAG_TEXTS
from scrapers.herna import EndKind, GameRecord, TableSettings


@dataclass(slots=True)
class Stored:
    """What one storing transaction did; added to the summary only once it committed."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    flagged: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    unmatched: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)

    def add_to(self, summary: SyncSummary) -> None:
        summary.added += self.added
        summary.changed += self.changed
        summary.unchanged += self.unchanged
        summary.flagged += self.flagged
        summary.refused += self.refused
        summary.unmatched += self.unmatched
        summary.results += self.results


def store_table(tx: Tx, pairing_id: int, items: list[Placed], kind: SyncKind) -> Stored:
    """One table's records: kept, appended as evidence when new or changed, reconciled.
    (`kind` is unused: the signature is the one `_store` calls every batch with.)"""
    by, stored = tx.by_platform(), Stored()
    before = get_result(tx.db, pairing_id)
    appended = False
    for p in items:
        record = p.record
        change = RecordChange.UNCHANGED  # a held record is not seen again, only placed
        if not p.held:
            change, _ = upsert_platform_record(tx.db, record.game_id,
                                               record_payload(record, p.refused), by)
        payload = evidence_payload(p)
        previous = _latest_payload(tx, pairing_id, record.game_id)
        if payload == previous:
            stored.unchanged += not p.held
            continue
        append_evidence(tx.db, pairing_id, EvidenceKind.PLATFORM_GAME, by, payload=payload,
                        at=record.ended or record.started)
        (stored.added if previous is None else stored.changed).append(record.game_id)
        if p.refused:  # kept as evidence, scored from nothing: the earlier verdict stands
            listing = _listing(p, change) | {"refused": payload["refused"]}
            stored.refused.append(listing)
            _tell_refused(tx, pairing_id, listing)
            continue
        appended = True
        if p.flags:
            stored.flagged.append(_listing(p, change))
    if not appended:
        return stored
    after = refresh_pairing(tx, pairing_id, by)
    if after is not None and (before is None or after.version != before.version):
        pairing = get_pairing(tx.db, pairing_id)
        stored.results.append({"round": pairing.round_no, "table": pairing.table_no,
                               "status": str(after.status), "end": after.end_kind,
                               "version": after.version})
    return stored


def _tell_refused(tx: Tx, pairing_id: int, listing: dict[str, Any]) -> None:
    """One note to the head admin per new refused version of a record (its first reason)."""
    reason = listing["refused"][0]
    tx.to_admin(tournament_of_pairing(tx.db, pairing_id), f"herna.refused.{reason['code']}",
                game_id=listing["game_id"], round=listing["round"], table=listing["table"],
                first=listing["first"], second=listing["second"], value=reason["value"],
                bound=reason["bound"], rule=reason["rule"])


def _latest_payload(tx: Tx, pairing_id: int, game_id: str) -> dict[str, Any] | None:
    rows = [e for e in list_evidence(tx.db, pairing_id)
            if e.kind is EvidenceKind.PLATFORM_GAME and e.payload.get("game_id") == game_id]
    return max(rows, key=lambda e: (e.recorded_at, e.id)).payload if rows else None


def store_loose(tx: Tx, tournament_id: int, items: list[Placed], kind: SyncKind) -> Stored:
    """Records with no table: kept with every record seen (a refused one keeps its mark, so
    the shared record is never rewritten as valid), listed for the admin; each is told to
    the event's head admin once, however often the round poll reads it again (the nightly
    summary lists them all)."""
    by, stored = tx.by_platform(), Stored()
    for p in items:
        change = RecordChange.UNCHANGED
        if not p.held:
            change, _ = upsert_platform_record(tx.db, p.record.game_id,
                                               record_payload(p.record, p.refused), by)
        listing = _listing(p, change)
        told = kind is SyncKind.ROUND and not unmatched_told(tx.db, tournament_id, p.record.game_id)
        if told:
            mark_unmatched_told(tx.db, tournament_id, p.record.game_id, by)
            tell_unmatched(tx, tournament_id, listing)
        if told or not p.held:
            stored.unmatched.append(listing)
    return stored


def store_settled(tx: Tx, tournament_id: int, items: list[Placed], kind: SyncKind) -> Stored:
    """Records a finished event's pairing explains: kept with every record seen (a refused one
    keeps its mark), neither placed nor told to anyone. (`tournament_id` and `kind` unused:
    the signature every batch is stored with.)"""
    by = tx.by_platform()
    for p in items:
        if not p.held:
            upsert_platform_record(tx.db, p.record.game_id, record_payload(p.record, p.refused),
                                   by)
    return Stored()


def _listing(p: Placed, change: RecordChange) -> dict[str, Any]:
    r = p.record
    return {"game_id": r.game_id, "round": p.round_no,
            "table": None if p.table is None else p.table.table_no,
            "first": r.first, "second": r.second, "started": to_text(r.started),
            "flags": list(p.flags), "change": str(change)}


def tell_unmatched(tx: Tx, tournament_id: int, listing: dict[str, Any]) -> None:
    flag = listing["flags"][0]
    tx.to_admin(tournament_id, f"sync.unmatched.{flag}", game_id=listing["game_id"],
                round=listing["round"], first=listing["first"], second=listing["second"],
                started=_when(listing["started"]), rule=flag_rule(flag))


def flag_rule(flag: str) -> str:
    """The rule a flag touches, as `rules.reconcile.FLAG_TEXTS` cites it."""
    if flag == NOT_PAIRED:
        return NOT_PAIRED_RULE
    found = re.search(r"\((e-SP [\d.]+)\)", FLAG_TEXTS.get(flag, ""))
    return found.group(1) if found else "e-SP 5"


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def has_counting_game(tx: Tx, w: RoundWindow, table: TablePairing) -> bool:
    """A bye, or a finished unflagged game started by the limit whose starter is the one the
    pairing names (a wrong-starter draw waits for the rematch, e-SP 4.2)."""
    if table.second_id is None:
        return True
    latest: dict[str, dict[str, Any]] = {}
    for e in list_evidence(tx.db, table.id):
        if e.kind is EvidenceKind.PLATFORM_GAME and not is_refused(e.payload):
            latest[e.payload["game_id"]] = e.payload
    games = sorted((g for g in latest.values() if _when(g["started"]) <= w.limit_at),
                   key=lambda g: g["started"])
    if not games:
        return False
    last = games[-1]
    return (last["ended"] is not None and not last["flags"]
            and not (last["end"] == EndKind.DRAW and last["first"] != table.first_id))


def record_payload(record: GameRecord, refused: Sequence[Implausible] = ()) -> dict[str, Any]:
    """A herna.net record as kept in `platform_records` (nicks, as the site shows them); a
    refused one names its reasons, so the round poll fetches it again."""
    return _with_refused(refused, {
        "game_id": record.game_id, "first": record.first, "second": record.second,
        "first_score": record.first_score, "second_score": record.second_score,
        "end": str(record.end), "ended_on": record.ended_on,
        "started": to_text(record.started),
        "ended": None if record.ended is None else to_text(record.ended),
        "first_moves": record.first_moves, "second_moves": record.second_moves,
        "settings": asdict(record.settings),
    })


def record_of(payload: Mapping[str, Any]) -> GameRecord:
    """A record kept by `record_payload`, read back (its "refused" mark is not part of it)."""
    ended = payload["ended"]
    return GameRecord(
        game_id=str(payload["game_id"]), first=payload["first"], second=payload["second"],
        first_score=int(payload["first_score"]), second_score=int(payload["second_score"]),
        end=EndKind(payload["end"]), ended_on=payload["ended_on"],
        started=from_text(payload["started"]),
        ended=None if ended is None else from_text(ended),
        first_moves=int(payload["first_moves"]), second_moves=int(payload["second_moves"]),
        settings=TableSettings(**payload["settings"]))


def _with_refused(refused: Sequence[Implausible], payload: dict[str, Any]) -> dict[str, Any]:
    # only a refused payload has the key: valid ones stay as they were stored before it existed
    return payload | {"refused": [i.as_dict() for i in refused]} if refused else payload


def evidence_payload(p: Placed) -> dict[str, Any]:
    """The `platform_game` evidence payload (`evidence_map.game_payload`, store ids), plus
    the raw nicks and table settings so the admin sees what herna.net showed."""
    if p.ids is None:
        raise ValueError(f"game {p.record.game_id} has no table to be evidence for")
    r = p.record
    first, second = p.ids
    on = None if r.ended_on is None else (first if r.ended_on == r.first else second)
    payload = game_payload(
        game_id=r.game_id, first=first, second=second, first_score=r.first_score,
        second_score=r.second_score, end=str(r.end), started=r.started, ended=r.ended, on=on,
        moves={first: r.first_moves, second: r.second_moves}, flags=p.flags,
    )
    return _with_refused(p.refused, {**payload, "nicks": [r.first, r.second],
                                     "settings": asdict(r.settings)})
