"""Pairings, evidence, platform records, results and discrepancies."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.store import (
    Change,
    EvidenceKind,
    FrozenError,
    NotFoundError,
    RecordChange,
    ResultFields,
    ResultStatus,
    Store,
    StoreError,
    VersionConflictError,
    add_discrepancy,
    append_evidence,
    find_pairing,
    get_result,
    list_audit,
    list_discrepancies,
    list_evidence,
    list_results,
    pairings_of_round,
    put_result,
    replace_pairings,
    resolve_discrepancy,
    result_history,
    upsert_platform_record,
)

from .conftest import START, Seeded


def test_replace_pairings_and_find_a_players_table(store: Store, seeded: Seeded,
                                                   admin: Change) -> None:
    t, (a, b, c, d) = seeded.tournament.id, seeded.players
    tables = store.call_sync(replace_pairings, t, 2, [(1, a, c), (2, d, None)], admin)
    assert [(p.table_no, p.first_id, p.second_id) for p in tables] == [(1, a, c), (2, d, None)]
    redone = store.call_sync(replace_pairings, t, 2, [(1, c, a), (2, b, d)], admin)
    assert store.read_sync(pairings_of_round, t, 2) == redone
    assert store.read_sync(find_pairing, t, 2, a) == redone[0]  # as second player
    assert store.read_sync(find_pairing, t, 2, b) == redone[1]
    assert store.read_sync(find_pairing, t, 3, a) is None
    with pytest.raises(StoreError, match=r"players \[2\] are at more than one table"):
        store.call_sync(replace_pairings, t, 3, [(1, a, b), (2, b, c)], admin)
    with pytest.raises(StoreError, match=r"players \[99\] are not registered"):
        store.call_sync(replace_pairings, t, 3, [(1, a, 99)], admin)
    with pytest.raises(NotFoundError, match="round 9"):
        store.call_sync(replace_pairings, t, 9, [(1, a, b)], admin)
    assert store.read_sync(pairings_of_round, t, 3) == []  # the failed calls left nothing


def test_pairings_with_evidence_are_frozen(store: Store, seeded: Seeded, admin: Change) -> None:
    t, (a, b, c, d) = seeded.tournament.id, seeded.players
    store.call_sync(append_evidence, seeded.tables[0].id, EvidenceKind.ABSENCE,
                    Change.player(a, START))
    with pytest.raises(FrozenError, match="can no longer be replaced"):
        store.call_sync(replace_pairings, t, 1, [(1, a, c), (2, b, d)], admin)


def test_evidence_is_listed_in_the_order_it_happened(store: Store, seeded: Seeded) -> None:
    pairing, (a, b, *_) = seeded.tables[0].id, seeded.players
    late = Change.player(a, START + timedelta(minutes=20))
    store.call_sync(append_evidence, pairing, EvidenceKind.ABSENCE, late,
                    payload={"absent": b}, attachment_url="https://example.invalid/s.png")
    store.call_sync(append_evidence, pairing, EvidenceKind.ARRIVAL,
                    Change.player(b, START + timedelta(minutes=25)),
                    at=START + timedelta(minutes=8))
    evidence = store.read_sync(list_evidence, pairing)
    assert [e.kind for e in evidence] == [EvidenceKind.ARRIVAL, EvidenceKind.ABSENCE]
    assert evidence[0].recorded_at - evidence[0].at == timedelta(minutes=17)
    assert evidence[1].payload == {"absent": b}
    assert evidence[1].actor_id == str(a)
    audit = store.read_sync(list_audit, action="evidence.absence")
    assert audit[0].tournament_id == seeded.tournament.id


def test_platform_record_is_stored_once_until_it_changes(store: Store) -> None:
    seen = [Change.platform(START + timedelta(minutes=n)) for n in range(4)]
    unfinished = {"players": ["a", "b"], "finished": False}
    kind, _ = store.call_sync(upsert_platform_record, "g-1", unfinished, seen[0])
    assert kind is RecordChange.NEW
    reordered = {"finished": False, "players": ["a", "b"]}
    kind, again = store.call_sync(upsert_platform_record, "g-1", reordered, seen[1])
    assert kind is RecordChange.UNCHANGED and again.last_seen_at == seen[1].at
    finished = {**unfinished, "finished": True, "score": [420, 300]}
    kind, changed = store.call_sync(upsert_platform_record, "g-1", finished, seen[2])
    assert kind is RecordChange.CHANGED
    assert (changed.payload, changed.changes, changed.first_seen_at) == (finished, 1, START)
    assert len(store.read_sync(list_audit)) == 2  # new + changed, not the re-fetch


def test_result_versions_and_optimistic_concurrency(store: Store, seeded: Seeded,
                                                    admin: Change) -> None:
    pairing, b = seeded.tables[0].id, seeded.players[1]
    played = ResultFields(ResultStatus.PROVISIONAL, "finished", 1.0, 0.0, 420, 300,
                          rated=True, rule="e-SP 3.5", verdict={"evidence": [1]})
    bot = Change.scheduler(START + timedelta(minutes=50), "e-SP 3.5")
    v1 = store.call_sync(put_result, pairing, played, 0, bot)
    assert (v1.version, v1.first_points, v1.first_score, v1.rated) == (1, 1.0, 420, True)
    assert v1.verdict == {"evidence": [1]} and v1.confirmed_at is None
    with pytest.raises(VersionConflictError, match="version 1, not 0"):
        store.call_sync(put_result, pairing, ResultFields(ResultStatus.PENDING), 0, admin)
    disputed = replace(played, status=ResultStatus.DISPUTED)
    v2 = store.call_sync(put_result, pairing, disputed, 1, Change.player(b, START, "zlé skóre"))
    with pytest.raises(VersionConflictError) as conflict:
        store.call_sync(put_result, pairing, disputed, 1, admin)
    assert conflict.value.current == 2
    done = Change.admin("777", START + timedelta(hours=1), "e-SP 4.7")
    v3 = store.call_sync(put_result, pairing, replace(played, status=ResultStatus.CONFIRMED), 2,
                         done)
    assert v3.confirmed_at == done.at
    with pytest.raises(FrozenError, match=r"e-SP 4\.7"):
        store.call_sync(put_result, pairing, disputed, 3, admin)
    history = store.read_sync(result_history, pairing)
    assert [(h.version, h.status, h.reason) for h in history] == [
        (1, ResultStatus.PROVISIONAL, "e-SP 3.5"), (2, ResultStatus.DISPUTED, "zlé skóre"),
        (3, ResultStatus.CONFIRMED, "e-SP 4.7")]
    assert history[-1] == v3 and v2.version == 2
    assert store.read_sync(get_result, seeded.tables[1].id) is None


def test_list_results_by_round_and_status(store: Store, seeded: Seeded, admin: Change) -> None:
    first, second = (p.id for p in seeded.tables)
    store.call_sync(put_result, second, ResultFields(ResultStatus.PROPOSED, "no_show"), 0, admin)
    store.call_sync(put_result, first, ResultFields(ResultStatus.PENDING), 0, admin)
    t = seeded.tournament.id
    assert [r.pairing_id for r in store.read_sync(list_results, t)] == [first, second]
    proposed = store.read_sync(lambda db: list_results(db, t, status=ResultStatus.PROPOSED))
    assert [r.end_kind for r in proposed] == ["no_show"]
    assert store.read_sync(lambda db: list_results(db, t, round_no=2)) == []


def test_discrepancy_is_stored_once_and_resolved(store: Store, seeded: Seeded,
                                                 admin: Change) -> None:
    pairing = seeded.tables[0].id
    store.call_sync(put_result, pairing, ResultFields(ResultStatus.CONFIRMED, "finished"), 0,
                    admin)
    recomputed = {"end": "time_loss", "first_points": 0}
    found = store.call_sync(add_discrepancy, pairing, recomputed, admin, note="nightly")
    assert found is not None and found.result_version == 1 and not found.resolved
    assert store.call_sync(add_discrepancy, pairing, dict(reversed(recomputed.items())),
                           admin) is None
    assert store.read_sync(list_discrepancies, seeded.tournament.id) == [found]
    resolved = store.call_sync(resolve_discrepancy, found.id, "výsledok platí", admin)
    assert resolved.resolved and resolved.resolution == "výsledok platí"
    assert store.read_sync(list_discrepancies) == []
    assert store.read_sync(get_result, pairing).end_kind == "finished"  # never applied


def test_unknown_pairing_is_a_clear_error(store: Store, admin: Change) -> None:
    with pytest.raises(NotFoundError, match="pairing 404 does not exist"):
        store.call_sync(append_evidence, 404, EvidenceKind.DISPUTE, admin)
    with pytest.raises(NotFoundError, match="pairing 404 does not exist"):
        store.call_sync(put_result, 404, ResultFields(ResultStatus.PENDING), 0, admin)
    assert store.read_sync(list_audit) == []
