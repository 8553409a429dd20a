"""A result's life (DESIGN.md section 3): pending → proposed → provisional → confirmed.

The results table is a cache of `rules.reconcile` over the append-only evidence: `refresh_pairing`
recomputes a pairing's verdict at `tx.now` and stores a new version only when it changed. Two
states are not the reconciler's to change: a *disputed* result waits for the head admin's
ruling, and a *confirmed* one never changes again (e-SP 4.7) — a recomputation that disagrees
with it is stored as a discrepancy and reported to the admin, never applied.

The admin's decisions are evidence too (kind `ruling`): approving a proposal records it as a
ruling with the proposed case, so a later recomputation keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlite_utils import Database

from bot.services.app import Tx
from bot.services.lookup import rules_id
from bot.services.results.evidence_map import (
    build_evidence,
    case_from_dict,
    case_to_dict,
    platform_checked,
    player_names,
)
from bot.store import (
    Change,
    Evidence,
    EvidenceKind,
    ResultFields,
    ResultStatus,
    Round,
    StoredResult,
    TablePairing,
    TimerKind,
    Tournament,
    add_discrepancy,
    add_timer,
    append_evidence,
    exclude,
    get_entry,
    get_pairing,
    get_player,
    get_result,
    get_round,
    get_tournament,
    list_audit,
    list_evidence,
    list_results,
    pairings_of_round,
    put_result,
    record,
    to_text,
)
from rules import Case, End, Profile, exclusions, score
from rules.evidence import EvidenceError, PairingEvidence, RoundClock
from rules.reconcile import Decided, NeedsAdmin, Verdict, reconcile
from rules.scoring import END_NAMES_SK

ADMIN_RULE = "e-SP 4.9"  # only the head administrator rules forfeits
CONFIRMATION_ANNOUNCED = "round.confirmation_announced"  # audit: "Výsledky N. kola sú potvrdené"
OPEN = (ResultStatus.PENDING, ResultStatus.PROPOSED, ResultStatus.DISPUTED)


def round_clock(tournament: Tournament, rnd: Round, profile: Profile) -> RoundClock:
    """The round's official start, game time limit (e-SP 4.5) and end of the waiting period
    (e-SP 4.3, length from the propozície; never past the limit)."""
    minutes = tournament.waiting_minutes
    if minutes is None:  # defensive: the column is required, the profile has a default
        minutes = profile.timing.waiting_minutes_default
    waiting = min(rnd.starts_at + timedelta(minutes=minutes), rnd.limit_at)
    return RoundClock(rnd.starts_at, rnd.limit_at, waiting)


def dispute_deadline(db: Database, tournament: Tournament, rnd: Round,
                     profile: Profile) -> datetime | None:
    """When the e-SP 4.7 window of `rnd` closes: the pairing of the next round (None while it
    is not paired), or for the last round `dispute_closes_at` / the limit + 10 minutes."""
    if rnd.number < tournament.rounds_planned:
        return get_round(db, tournament.id, rnd.number + 1).paired_at
    if rnd.dispute_closes_at is not None:
        return rnd.dispute_closes_at
    return rnd.limit_at + timedelta(minutes=profile.timing.last_round_dispute_minutes)


# -- verdict -> result fields ---------------------------------------------------------------


def _verdict_fields(verdict: Verdict, profile: Profile) -> ResultFields:
    common: dict[str, Any] = {"code": verdict.code}
    if isinstance(verdict, Decided):
        kind = "proposal" if verdict.proposal else "decided"
        status = ResultStatus.PROPOSED if verdict.proposal else ResultStatus.PROVISIONAL
        info = {**common, "kind": kind, "text": verdict.note, "rules": list(verdict.rules),
                "evidence": list(verdict.rests_on), "case": case_to_dict(verdict.case)}
        if verdict.tell_admin:  # decided, but the head admin must hear of it (e-SP 5)
            info["tell_admin"] = verdict.tell_admin
        try:
            return ResultFields.of(score(verdict.case, profile), status, info)
        except ValueError as error:  # a case the scoring refuses: the admin must look
            return _needs_admin_fields(f"{verdict.note}: {error}", "unscorable",
                                       list(verdict.rules), list(verdict.rests_on), [])
    if isinstance(verdict, NeedsAdmin):
        return _needs_admin_fields(verdict.conflict, verdict.code, list(verdict.rules),
                                   list(verdict.rests_on), [str(e) for e in verdict.allowed])
    until = None if verdict.until is None else to_text(verdict.until)
    return ResultFields(status=ResultStatus.PENDING, verdict={
        **common, "kind": "pending", "text": verdict.why, "until": until})


def _needs_admin_fields(text: str, code: str, rules: list[str], evidence: list[int],
                        allowed: list[str]) -> ResultFields:
    verdict = {"kind": "needs_admin", "code": code, "text": text, "rules": rules,
               "evidence": evidence, "allowed": allowed}
    return ResultFields(status=ResultStatus.PROPOSED, rule=", ".join(rules) or ADMIN_RULE,
                        verdict=verdict)


def stored_fields(result: StoredResult, status: ResultStatus | None = None) -> ResultFields:
    """A stored version's content as fields to write again (e.g. with a new status)."""
    return ResultFields(
        status=status or result.status, end_kind=result.end_kind,
        first_points=result.first_points, second_points=result.second_points,
        first_score=result.first_score, second_score=result.second_score,
        forfeited=list(result.forfeited), rated=result.rated, rule=result.rule,
        verdict=dict(result.verdict),
    )


def _content(fields: ResultFields) -> tuple[Any, ...]:
    """What the players see of a result: how it ended, the points and the scores."""
    return (fields.end_kind, fields.first_points, fields.second_points, fields.first_score,
            fields.second_score)


# -- the lifecycle ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableContext:
    """What a pairing's verdict depends on besides its own evidence and result: the
    tournament, its profile, the round and how far herna.net was searched. Read once and
    shared by every table of a round (and by a use case that has already read them).
    `names` (rules id -> name) names the players in the verdicts' texts; a table whose players
    it lacks reads their names itself (one query)."""

    tournament: Tournament
    profile: Profile
    round: Round
    platform_checked: datetime | None
    names: Mapping[str, str] = field(default_factory=dict)

    def names_at(self, tx: Tx, pairing: TablePairing) -> Mapping[str, str]:
        ids = [p for p in (pairing.first_id, pairing.second_id) if p is not None]
        if all(rules_id(p) in self.names for p in ids):
            return self.names
        return player_names(tx.db, ids)


def table_context(tx: Tx, tournament: Tournament, rnd: Round,
                  names: Mapping[str, str] | None = None) -> TableContext:
    return TableContext(tournament, tx.profile(tournament.profile), rnd,
                        platform_checked(tx.db, tournament), names or {})


def _context_of(tx: Tx, pairing: TablePairing) -> TableContext:
    t = get_tournament(tx.db, pairing.tournament_id)
    return table_context(tx, t, get_round(tx.db, t.id, pairing.round_no))


def verdict_of(tx: Tx, pairing: TablePairing) -> tuple[Verdict | None, ResultFields,
                                                       PairingEvidence | None, list[Evidence]]:
    """Reconcile one pairing at `tx.now`: the verdict, the fields to store, the evidence."""
    return _verdict(tx, pairing, _context_of(tx, pairing))


def with_evidence(evidence: list[Evidence], added: Evidence) -> list[Evidence]:
    """A table's evidence as read, plus one piece appended since, in `list_evidence`'s order
    (when it happened; ties: the order it was recorded) — without reading it again."""
    return sorted([*evidence, added], key=lambda e: (e.at, e.id))


def _verdict(tx: Tx, pairing: TablePairing, ctx: TableContext,
             rows: list[Evidence] | None = None,
             ) -> tuple[Verdict | None, ResultFields, PairingEvidence | None, list[Evidence]]:
    profile = ctx.profile
    try:
        if rows is None:
            rows = list_evidence(tx.db, pairing.id)
        evidence = build_evidence(pairing, rows, ctx.platform_checked,
                                  ctx.names_at(tx, pairing))
        clock = round_clock(ctx.tournament, ctx.round, profile)
        verdict = reconcile(evidence, clock, tx.now, profile)
    except EvidenceError as error:  # stored evidence that cannot be reasoned about
        ends = ["bye"] if pairing.second_id is None else [e for e in profile.ends if e != "bye"]
        fields = _needs_admin_fields(str(error), "bad_evidence", [ADMIN_RULE], [], ends)
        return None, fields, None, []
    return verdict, _oriented(_verdict_fields(verdict, profile), pairing), evidence, rows


def _oriented(fields: ResultFields, pairing: TablePairing) -> ResultFields:
    """Points and scores as the pairing seats the players (first = the pairing's first), even
    when herna.net let the other one start (e-SP 4.2); the verdict's case keeps its own order."""
    case = fields.verdict.get("case")
    if case is None or case["first"] == rules_id(pairing.first_id):
        return fields
    return replace(fields, first_points=fields.second_points,
                   second_points=fields.first_points, first_score=fields.second_score,
                   second_score=fields.first_score)


def refresh_pairing(tx: Tx, pairing_id: int, by: Change) -> StoredResult | None:
    """Recompute the pairing's verdict at `tx.now`; store it if it changed (see the module
    docstring for disputed and confirmed results); announce new official results and tell the
    admin of proposals. Returns the current result."""
    pairing = get_pairing(tx.db, pairing_id)
    return refresh_table(tx, pairing, get_result(tx.db, pairing_id), _context_of(tx, pairing),
                         by)


def refresh_table(tx: Tx, pairing: TablePairing, current: StoredResult | None,
                  ctx: TableContext, by: Change,
                  evidence: list[Evidence] | None = None) -> StoredResult | None:
    """`refresh_pairing` for a caller that has already read the pairing, its current result
    (None: none yet), its `TableContext` and perhaps its evidence in this transaction."""
    _, fields, _, rows = _verdict(tx, pairing, ctx, evidence)
    if current is not None and current.status is ResultStatus.CONFIRMED:
        if _content(fields) != _content(stored_fields(current)):
            _report_discrepancy(tx, pairing, current, fields, by)
        return current
    disputed = current is not None and current.status is ResultStatus.DISPUTED
    if disputed and not _ruled_after_dispute(rows):
        return current  # the head admin rules a dispute (e-SP 4.7, 5)
    if current is not None and fields == stored_fields(current):
        return current
    stored = put_result(tx.db, pairing.id, fields, 0 if current is None else current.version,
                        by, tournament_id=pairing.tournament_id)
    _tell(tx, pairing, current, stored, ctx.tournament, ctx.names)
    return stored


def _ruled_after_dispute(rows: list[Evidence]) -> bool:
    disputes = [r.id for r in rows if r.kind is EvidenceKind.DISPUTE]
    rulings = [r.id for r in rows if r.kind is EvidenceKind.RULING]
    return bool(rulings) and (not disputes or max(rulings) > max(disputes))


def refresh_round(tx: Tx, tournament_id: int, round_no: int, by: Change) -> list[StoredResult]:
    """`refresh_pairing` for every table of the round, in table order."""
    # One read of the tournament, the round and their results for all tables: refreshing one
    # table changes no other table's result, nor the tournament or the round.
    t = get_tournament(tx.db, tournament_id)
    pairings = pairings_of_round(tx.db, tournament_id, round_no)
    names = player_names(tx.db, [p for x in pairings for p in (x.first_id, x.second_id)])
    ctx = table_context(tx, t, get_round(tx.db, tournament_id, round_no), names)
    current = {r.pairing_id: r for r in list_results(tx.db, tournament_id, round_no=round_no)}
    results = []
    for pairing in pairings:
        result = refresh_table(tx, pairing, current.get(pairing.id), ctx, by)
        if result is not None:
            results.append(result)
    return results


def confirm_round(tx: Tx, tournament_id: int, round_no: int, by: Change) -> list[StoredResult]:
    """The e-SP 4.7 window of the round closed: every provisional result becomes confirmed.

    Returns what is still open (pending, proposed or disputed results), so the caller can warn
    that the admin has yet to rule them. Then exclusions are checked (e-SP 3.6).
    It may run again for the same round (the last round's timer, then finishing; a proposal
    applied late): the window's end is announced once per round, by the first call that
    confirmed a result or found one still open (issue 44: a late ruling confirmed at the finish
    announced "Lehota na námietky … uplynula" a second time; its result was announced when
    ruled).
    """
    still_open, confirmed = [], 0
    for result in refresh_round(tx, tournament_id, round_no, by):
        if result.status is ResultStatus.PROVISIONAL:
            put_result(tx.db, result.pairing_id, stored_fields(result, ResultStatus.CONFIRMED),
                       result.version, by)
            confirmed += 1
        elif result.status in OPEN:
            still_open.append(result)
    t = get_tournament(tx.db, tournament_id)
    profile = tx.profile(t.profile)
    subject = f"round:{round_no}"
    announced = any(a.subject == subject for a in list_audit(
        tx.db, tournament_id=t.id, action=CONFIRMATION_ANNOUNCED))
    if (confirmed or still_open) and not announced:
        tx.announce(t.id, "result.round_confirmed", round=round_no, open=len(still_open),
                    rule=profile.timing.dispute_rule)
        record(tx.db, by, CONFIRMATION_ANNOUNCED, tournament_id=t.id, subject=subject,
               data={"confirmed": confirmed, "open": len(still_open)})
    check_exclusions(tx, t, by)
    return still_open


def check_exclusions(tx: Tx, t: Tournament, by: Change) -> list[int]:
    """Exclude (e-SP 3.6) the players whose confirmed results reach a threshold and who are
    still playing; announce it and tell each by DM. Returns their store ids."""
    profile = tx.profile(t.profile)
    results = [score(case_from_dict(r.verdict["case"]), profile)
               for r in list_results(tx.db, t.id, status=ResultStatus.CONFIRMED)
               if "case" in r.verdict]
    # one query for every name a reason may mention: the excluded and their opponents
    names = player_names(tx.db, (int(p) for r in results for p in r.case.players))
    newly = []
    for player, reason in exclusions(results, profile, names).items():
        player_id = int(player)
        entry = get_entry(tx.db, t.id, player_id)
        if entry is None or entry.out is not None:
            continue
        exclude(tx.db, t.id, player_id, reason, replace(by, reason=reason))
        name = names.get(player) or get_player(tx.db, player_id).name
        tx.announce(t.id, "result.excluded", player=name, reason=reason,
                    rule=profile.exclusion.rule)
        tx.direct(player_id, "result.excluded_dm", event=t.id, tournament=t.name, reason=reason,
                  rule=profile.exclusion.rule)
        newly.append(player_id)
    return newly


# -- rulings ------------------------------------------------------------------------------


def add_ruling(tx: Tx, pairing_id: int, case: Case, reason: str, by: Change,
               **extra: Any) -> Evidence:
    """Record a ruling (evidence kind `ruling`): the case decided and why."""
    payload = {"case": case_to_dict(case), "reason": reason, **extra}
    return append_evidence(tx.db, pairing_id, EvidenceKind.RULING, by, payload=payload)


def apply_proposal(tx: Tx, pairing_id: int, reason: str, by: Change,
                   expected_version: int | None = None) -> StoredResult | None:
    """Accept the proposed case of a pairing as it stands (e-SP 4.9): it becomes a ruling and
    the result provisional. None when there is no such proposal (or it changed since
    `expected_version`)."""
    current = get_result(tx.db, pairing_id)
    if (current is None or current.status is not ResultStatus.PROPOSED
            or current.verdict.get("kind") != "proposal"
            or (expected_version is not None and current.version != expected_version)):
        return None
    case = case_from_dict(current.verdict["case"])
    add_ruling(tx, pairing_id, case, reason, by, approved=current.verdict.get("code"))
    return refresh_pairing(tx, pairing_id, by)


# -- messages -----------------------------------------------------------------------------


def describe(tx: Tx, pairing: TablePairing, result: StoredResult,
             names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The message parameters every result message uses; `names` (rules id -> name): the
    players' names when the caller has read them."""
    def name(player_id: int) -> str:
        known = (names or {}).get(rules_id(player_id))
        return known if known is not None else get_player(tx.db, player_id).name

    first = name(pairing.first_id)
    second = "—" if pairing.second_id is None else name(pairing.second_id)
    end = result.end_kind
    return {
        "round": pairing.round_no, "table": pairing.table_no, "first": first, "second": second,
        "how": END_NAMES_SK[End(end)] if end else "",
        "first_score": result.first_score if result.first_score is not None else 0,
        "second_score": result.second_score if result.second_score is not None else 0,
        "first_points": result.first_points if result.first_points is not None else 0.0,
        "second_points": result.second_points if result.second_points is not None else 0.0,
        "text": result.verdict.get("text", ""), "rule": result.rule or ADMIN_RULE,
        "pairing_id": pairing.id,
    }


def _tell(tx: Tx, pairing: TablePairing, before: StoredResult | None,
          now: StoredResult, t: Tournament, names: Mapping[str, str]) -> None:
    kind = now.verdict.get("kind")
    told = now.verdict.get("tell_admin")
    if told and (before is None or before.verdict.get("tell_admin") != told):
        tx.to_admin(pairing.tournament_id, "result.late_arrival", late=told,
                    **describe(tx, pairing, now, names))
    if now.status is ResultStatus.PROVISIONAL:
        if before is not None and _seen(before) == _seen(now):
            return  # e.g. a report agreeing with the record: only the evidence list changed
        params = describe(tx, pairing, now, names)
        corrected = before is not None and before.status in (
            ResultStatus.PROVISIONAL, ResultStatus.DISPUTED)
        if pairing.second_id is None:
            key = "result.bye"  # no opponent, no "how it ended"
        elif now.verdict.get("code") == "ruling":  # the text carries the head admin's reason
            # a result players were already told of is changed, not announced afresh
            key = "result.ruling_corrected" if corrected else "result.ruling"
        else:
            key = "result.corrected" if corrected else "result.official"
        tx.announce(pairing.tournament_id, key, **params)
    elif now.status is ResultStatus.PROPOSED:
        # a record arriving for a table already proposed (e.g. over the limit) may leave the
        # proposal as it was: the admin hears of it once
        unchanged = (before is not None and _seen(before) == _seen(now)
                     and before.verdict.get("code") == now.verdict.get("code"))
        if not unchanged:
            params = describe(tx, pairing, now, names)
            key = "result.proposal" if kind == "proposal" else "result.needs_admin"
            tx.to_admin(pairing.tournament_id, key, **params)
        if kind == "proposal":  # the new version: an auto-apply must approve this one
            _schedule_auto_apply(tx, pairing, now, t)


def _seen(result: StoredResult) -> tuple[Any, ...]:
    """What an announcement of the result shows the players: its status, how it ended, the
    points and the scores, and for a ruling the head admin's reason (his new decision)."""
    ruling = result.verdict.get("text") if result.verdict.get("code") == "ruling" else None
    return (result.status, *_content(stored_fields(result)), ruling)


def _schedule_auto_apply(tx: Tx, pairing: TablePairing, result: StoredResult,
                         t: Tournament) -> None:
    """If the tournament lets the bot apply forfeits, a proposal left unanswered that long is
    applied by the scheduler (timer kind auto_apply; off by default)."""
    minutes = t.auto_apply_forfeits_after_minutes
    if minutes is None:
        return
    add_timer(tx.db, TimerKind.AUTO_APPLY,
              f"{t.slug}:pairing{pairing.id}:v{result.version}:auto_apply",
              tx.now + timedelta(minutes=minutes), tx.by_scheduler("auto-apply scheduled"),
              tournament_id=t.id, payload={"pairing_id": pairing.id, "version": result.version})


def _report_discrepancy(tx: Tx, pairing: TablePairing, current: StoredResult,
                        fields: ResultFields, by: Change) -> None:
    recomputed = {"status": str(fields.status), "end": fields.end_kind,
                  "points": [fields.first_points, fields.second_points],
                  "scores": [fields.first_score, fields.second_score],
                  "text": fields.verdict.get("text", "")}
    found = add_discrepancy(tx.db, pairing.id, recomputed, by,
                            note="prepočet sa líši od potvrdeného výsledku (e-SP 4.7)")
    if found is not None:
        tx.to_admin(pairing.tournament_id, "result.discrepancy", discrepancy_id=found.id,
                    recomputed=recomputed["text"], **describe(tx, pairing, current))
