"""The head administrator's use cases (`f(app, slug, admin_id, ...) -> Reply`) and the review
queue. Only he rules forfeits (e-SP 2.5, 4.9) and his word prevails (e-SP 2.6, 5); each of his
decisions is recorded as evidence (kind `ruling`) with its reason, so it survives every
recomputation and the audit log explains it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from bot.services import bounds, lookup
from bot.services.app import App, Tx
from bot.services.identity.accounts import link_requests_view
from bot.services.policy import RULINGS_RULE, AdminRef, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.services.results.evidence_map import case_to_dict, pairing_evidence
from bot.services.results.lifecycle import add_ruling, apply_proposal, describe, refresh_pairing
from bot.store import (
    Change,
    Entry,
    Evidence,
    EvidenceKind,
    FrozenError,
    NotFoundError,
    ResultStatus,
    StoredResult,
    TablePairing,
    Tournament,
    get_entry,
    get_pairing,
    get_player,
    get_result,
    get_round,
    list_audit,
    list_discrepancies,
    list_evidence,
    list_results,
    pairings_of_round,
    record,
    to_text,
)
from bot.store import exclude as store_exclude
from bot.store import resolve_discrepancy as store_resolve_discrepancy
from rules import Case, End, Profile, score
from rules.evidence import EvidenceError
from rules.reconcile import allowed_rulings, evidence_at
from rules.scoring import END_NAMES_SK, CaseError

FORFEIT_RULE = "e-SP 4.9"
EXCLUSION_RULE = "e-SP 3.6"
QUEUE_STATUSES = (ResultStatus.PROPOSED, ResultStatus.DISPUTED)

#: A ruling given as (end, params): the params a case may carry.
CASE_PARAMS = ("first_score", "second_score", "loser", "winner", "moved", "agreed")

#: Ends whose ruling needs the score (as played, as agreed, or as it stood at the end).
ENDS_WITH_SCORES = frozenset(
    {End.FINISHED, End.AGREED_DRAW, End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED}
)


def needs_scores(end: End, params: Mapping[str, Any]) -> bool:
    """The ruling says a score: a game played (or a save failed with the result agreed)."""
    return end in ENDS_WITH_SCORES or (end is End.SAVE_FAILED and bool(params.get("agreed")))


def _with_scores(case: Case, params: Mapping[str, Any], current: StoredResult | None
                 ) -> tuple[Case, bool]:
    """A ruling with its score: as given, else the current result's (the proposal the admin
    saw, in table order) — never 0:0 from nothing. The flag says it was taken."""
    if (not needs_scores(case.end, params) or "first_score" in params
            or "second_score" in params):
        return case, False
    if (current is None or current.first_score is None or current.second_score is None
            or current.status not in (*QUEUE_STATUSES, ResultStatus.PROVISIONAL)):
        raise Refusal("admin.score_needed", end=END_NAMES_SK[case.end], rule=FORFEIT_RULE)
    return replace(case, first_score=current.first_score,
                   second_score=current.second_score), True


def _admin(tx: Tx, slug: str, admin_id: AdminRef) -> tuple[Tournament, Profile]:
    """The tournament, if `admin_id` may act as its head administrator (`policy`)."""
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, RULINGS_RULE)
    return t, tx.profile(t.profile)


def _pairing(tx: Tx, t: Tournament, pairing_id: int) -> TablePairing:
    try:
        pairing = get_pairing(tx.db, pairing_id)
    except NotFoundError:
        pairing = None
    if pairing is None or pairing.tournament_id != t.id:
        raise Refusal("admin.unknown_pairing", pairing_id=pairing_id, tournament=t.name)
    return pairing


def _reason(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text:
        raise Refusal("admin.reason_required", rule="e-SP 2.6")
    return bounds.reason(text)


# -- the review queue -------------------------------------------------------------------


def _evidence_view(row: Evidence, names: Mapping[str, str]) -> dict[str, Any]:
    who = names.get(row.actor_id or "", row.actor_id or str(row.actor_kind))
    return {"id": row.id, "kind": str(row.kind), "at": row.at, "recorded_at": row.recorded_at,
            "by": who, "actor_kind": str(row.actor_kind), "actor_id": row.actor_id,
            "payload": row.payload,
            "attachment_url": row.attachment_url}


def _allowed(tx: Tx, t: Tournament, profile: Profile, pairing: TablePairing,
             result: StoredResult | None) -> list[str]:
    try:
        evidence, _ = pairing_evidence(tx.db, pairing, t)
        return [str(e) for e in allowed_rulings(evidence_at(evidence, tx.now), profile)]
    except EvidenceError:  # unreadable evidence: the verdict lists what may be ruled
        return list((result.verdict if result else {}).get("allowed", []))


def _item(tx: Tx, t: Tournament, profile: Profile, pairing: TablePairing,
          result: StoredResult | None) -> dict[str, Any]:
    """One pairing with its evidence side by side."""
    ids = [p for p in (pairing.first_id, pairing.second_id) if p is not None]
    players = [get_player(tx.db, p) for p in ids]
    names = {str(p.id): p.name for p in players}
    rows = [_evidence_view(e, names) for e in list_evidence(tx.db, pairing.id)]

    def of(*kinds: EvidenceKind) -> list[dict[str, Any]]:
        return [r for r in rows if r["kind"] in kinds]

    return {
        "pairing_id": pairing.id, "round": pairing.round_no, "table": pairing.table_no,
        "players": [{"id": p.id, "name": p.name, "nick": p.herna_nick,
                     "discord_id": p.discord_id} for p in players],
        "status": None if result is None else str(result.status),
        "result": None if result is None else {
            "end": result.end_kind, "points": [result.first_points, result.second_points],
            "scores": [result.first_score, result.second_score], "rule": result.rule,
            "version": result.version},
        "verdict": {} if result is None else result.verdict,
        "platform": of(EvidenceKind.PLATFORM_GAME),
        "reports": of(EvidenceKind.SCORE_REPORT),
        "timeline": of(EvidenceKind.ABSENCE, EvidenceKind.ARRIVAL,
                       EvidenceKind.DRAW_CONFIRMATION),
        "disputes": of(EvidenceKind.DISPUTE),
        "rulings": of(EvidenceKind.RULING),
        "allowed": _allowed(tx, t, profile, pairing, result),
    }


def review_item(tx: Tx, slug: str, admin_id: AdminRef, round_no: int,
                table_no: int) -> dict[str, Any]:
    """The review item (as in `review_queue`) of any pairing, by round and table; run inside
    `App.run`. Refused when the round has no such table."""
    t, _ = _admin(tx, slug, admin_id)
    pairing = next((p for p in pairings_of_round(tx.db, t.id, round_no)
                    if p.table_no == table_no), None)
    if pairing is None:
        raise Refusal("admin.unknown_table", round=round_no, table=table_no, tournament=t.name)
    return _item(tx, t, tx.profile(t.profile), pairing, get_result(tx.db, pairing.id))


def _review_queue(tx: Tx, slug: str, admin_id: AdminRef) -> Reply:
    t, profile = _admin(tx, slug, admin_id)
    items = [_item(tx, t, profile, get_pairing(tx.db, r.pairing_id), r)
             for r in list_results(tx.db, t.id) if r.status in QUEUE_STATUSES]
    discrepancies = []
    for d in list_discrepancies(tx.db, t.id):
        pairing = get_pairing(tx.db, d.pairing_id)
        item = _item(tx, t, profile, pairing, get_result(tx.db, d.pairing_id))
        discrepancies.append({**item, "discrepancy_id": d.id, "found_at": d.found_at,
                              "recomputed": d.recomputed, "note": d.note})
    links = link_requests_view(tx, t)
    data = {"results": items, "discrepancies": discrepancies, "links": links}
    return done("admin.queue", data=data, n=len(items), discrepancies=len(discrepancies),
                rule=FORFEIT_RULE)


async def review_queue(app: App, slug: str, admin_id: AdminRef) -> Reply:
    """Every proposed / disputed result, unresolved discrepancy and pending Discord link
    request, with the evidence side by side and the rulings the rules allow (`Reply.data`)."""
    return await app.run(_review_queue, slug, admin_id)


# -- rulings ----------------------------------------------------------------------------


def _approve(tx: Tx, slug: str, admin_id: AdminRef, pairing_id: int, reason: str | None,
             expected_version: int | None) -> Reply:
    t, _ = _admin(tx, slug, admin_id)
    pairing = _pairing(tx, t, pairing_id)
    why = (bounds.reason(reason) if (reason or "").strip()
           else f"návrh schválený bez zmeny ({FORFEIT_RULE})")
    if expected_version is not None:  # still a proposal, but not the one the admin saw
        current = get_result(tx.db, pairing.id)
        if (current is not None and current.status is ResultStatus.PROPOSED
                and current.version != expected_version):
            raise Refusal("admin.proposal_changed", round=pairing.round_no,
                          table=pairing.table_no, version=expected_version, rule=FORFEIT_RULE)
    result = apply_proposal(tx, pairing.id, why, tx.by_admin(admin_id, why), expected_version)
    if result is None:
        raise Refusal("admin.nothing_to_approve", round=pairing.round_no,
                      table=pairing.table_no, rule=FORFEIT_RULE)
    params = describe(tx, pairing, result)
    params.pop("rule")
    return done("admin.approved", rule=FORFEIT_RULE, **params)


async def approve(app: App, slug: str, admin_id: AdminRef, pairing_id: int,
                  reason: str | None = None, *, expected_version: int | None = None) -> Reply:
    """Accept a proposal as proposed: it becomes provisional (e-SP 4.9). With
    `expected_version` (the result version the admin was shown) a proposal that changed
    meanwhile is refused, not approved blindly."""
    return await app.run(_approve, slug, admin_id, pairing_id, reason, expected_version)


def _player_ref(value: Any) -> str | None:
    return None if value is None else str(value)


def case_for(pairing: TablePairing, end: End | str, params: Mapping[str, Any]) -> Case:
    """A ruling given as (end, params) as a Case at this pairing; players are named by store
    id (int or text). Unknown params are refused (ValueError)."""
    unknown = sorted(set(params) - set(CASE_PARAMS))
    if unknown:
        raise ValueError(f"neznáme údaje rozhodnutia: {', '.join(unknown)}")
    second = None if pairing.second_id is None else lookup.rules_id(pairing.second_id)
    return Case(
        End(end), lookup.rules_id(pairing.first_id), second,
        int(params.get("first_score", 0)), int(params.get("second_score", 0)),
        loser=_player_ref(params.get("loser")), winner=_player_ref(params.get("winner")),
        moved=frozenset(str(p) for p in params.get("moved", ())),
        agreed=bool(params.get("agreed", False)), round=pairing.round_no,
    )


#: Rulings that say themselves who did not move (nobody came, or there is no opponent).
_NO_MOVES_ENDS = (End.NO_SHOW, End.BOTH_NO_SHOW, End.BYE)


def _moved(tx: Tx, t: Tournament, pairing: TablePairing, case: Case) -> frozenset[str]:
    """Who moved, for a ruling that does not say. It decides whether a played game is rated
    (RULES.md 2 "rated": rows 1–4, 9 and 12 when both players moved) and whether a forfeit
    counts as one without a move (e-SP 3.6 a). Taken from the pairing's counting platform
    record (the last game started by the limit, e-SP 4.5; an unfinished one too, so an
    OVER_LIMIT ruling keeps its moves); without a record, a save-failed ruling of the whole
    result agreed (row 9) has both players moved when both reported it."""
    if case.end in _NO_MOVES_ENDS:
        return frozenset()
    try:
        evidence, _ = pairing_evidence(tx.db, pairing, t, names={})
    except EvidenceError:  # unreadable evidence: nobody is known to have moved
        return frozenset()
    limit = get_round(tx.db, t.id, pairing.round_no).limit_at
    counting = [g for g in evidence.games if g.started <= limit]
    if counting:
        return max(counting, key=lambda g: (g.started, g.id)).moved
    reporters = {r.player for r in evidence.reports}
    if case.end is End.SAVE_FAILED and case.agreed and reporters >= set(evidence.players):
        return frozenset(evidence.players)
    return frozenset()


def _rule(tx: Tx, slug: str, admin_id: AdminRef, pairing_id: int,
          ruling: Case | tuple[End | str, Mapping[str, Any]], reason: str) -> Reply:
    t, profile = _admin(tx, slug, admin_id)
    pairing = _pairing(tx, t, pairing_id)
    why = _reason(reason)
    current = get_result(tx.db, pairing.id)
    if current is not None and current.status is ResultStatus.CONFIRMED:
        raise Refusal("admin.confirmed", round=pairing.round_no, table=pairing.table_no,
                      rule="e-SP 4.7")
    taken = False
    try:
        case = ruling if isinstance(ruling, Case) else case_for(pairing, *ruling)
        if not isinstance(ruling, Case) and "moved" not in ruling[1]:
            case = replace(case, moved=_moved(tx, t, pairing, case))
        if case.round != pairing.round_no:
            case = replace(case, round=pairing.round_no)
        pair = {lookup.rules_id(p) for p in (pairing.first_id, pairing.second_id) if p}
        if set(case.players) != pair:
            raise ValueError("rozhodnutie musí byť o hráčoch tohto párovania")
        score(case, profile)
        if not isinstance(ruling, Case):  # checked as given first, then with its score
            case, taken = _with_scores(case, ruling[1], current)
            score(case, profile)
        bound = profile.plausible.max_score  # the same bound as herna.net's records
        for value in (case.first_score, case.second_score):
            if not 0 <= value <= bound:
                raise Refusal("play.score_out_of_range", value=value, max=bound)
    except CaseError as error:  # said in the reader's language, players by name
        raise Refusal(f"case.{error.code}", rule=FORFEIT_RULE,
                      **_named(tx, error.params)) from None
    except (ValueError, TypeError) as error:
        raise Refusal("admin.bad_case", error=str(error), rule=FORFEIT_RULE) from None
    key = "admin.ruled_taken_score" if taken else "admin.ruled"
    if current is not None and _same_ruling(tx, pairing, case, why):  # a repeat
        params = describe(tx, pairing, current)
        return done(key, rule=params.pop("rule"), reason=why, **params)
    allowed = _allowed(tx, t, profile, pairing, current)
    if str(case.end) not in allowed:
        raise Refusal("admin.ruling_not_allowed", end=_end_named(case.end),
                      allowed=", ".join(_end_named(End(e)) for e in allowed), rule=FORFEIT_RULE)
    by = tx.by_admin(admin_id, why)
    add_ruling(tx, pairing.id, case, why, by)
    result = refresh_pairing(tx, pairing.id, by)
    assert result is not None  # a ruling always decides
    params = describe(tx, pairing, result)
    return done(key, rule=params.pop("rule"), reason=why, **params)


def _end_named(end: End) -> str:
    """An end as players read it, with its code (which `stredisko rule` takes too)."""
    return f"{END_NAMES_SK[end]} ({end.value})"


def _named(tx: Tx, params: Mapping[str, Any]) -> dict[str, Any]:
    """A case error's parameters with the player (a store id) given by name and nick."""
    named = dict(params)
    player = named.get("player")
    if isinstance(player, str) and player.isdecimal():
        try:
            found = get_player(tx.db, int(player))
        except NotFoundError:
            return named
        named["player"] = f"{found.name} ({found.herna_nick})"
    return named


def _same_ruling(tx: Tx, pairing: TablePairing, case: Case, why: str) -> bool:
    """The last ruling at this table decided exactly this, for exactly this reason: ruling it
    again (a retry, a double submit) changes nothing and answers as the first did."""
    rulings = [e for e in list_evidence(tx.db, pairing.id) if e.kind is EvidenceKind.RULING]
    return bool(rulings) and rulings[-1].payload == {"case": case_to_dict(case), "reason": why}


async def rule(app: App, slug: str, admin_id: AdminRef, pairing_id: int,
               case: Case | tuple[End | str, Mapping[str, Any]], reason: str) -> Reply:
    """Rule a pairing (a forfeit, a conflict, a dispute): `case` is a `rules.Case` or
    (end, params) with params among `CASE_PARAMS`; a reason is required, the end must be one
    `rules.reconcile.allowed_rulings` allows, and the case must score (`rules.score`)."""
    return await app.run(_rule, slug, admin_id, pairing_id, case, reason)


# -- exclusion and reinstatement (e-SP 3.6) ------------------------------------------------


def _playing_entry(tx: Tx, t: Tournament, player_id: int) -> Entry:
    entry = get_entry(tx.db, t.id, player_id)
    if entry is None:
        raise Refusal("admin.unknown_player", player_id=player_id, tournament=t.name)
    return entry


def _exclude(tx: Tx, slug: str, admin_id: AdminRef, player_id: int, reason: str) -> Reply:
    t, _ = _admin(tx, slug, admin_id)
    why = _reason(reason)
    entry = _playing_entry(tx, t, player_id)
    if entry.excluded_reason == why:  # a repeat: the same answer, announced once
        return done("admin.excluded", rule=EXCLUSION_RULE, player=get_player(tx.db, player_id).name)
    if entry.out is not None:
        raise Refusal("admin.already_out", reason=entry.out, rule=EXCLUSION_RULE)
    store_exclude(tx.db, t.id, player_id, why, tx.by_admin(admin_id, why))
    name = get_player(tx.db, player_id).name
    tx.announce(t.id, "result.excluded", player=name, reason=why, rule=EXCLUSION_RULE)
    tx.direct(player_id, "result.excluded_dm", event=t.id, tournament=t.name, reason=why,
              rule=EXCLUSION_RULE)
    return done("admin.excluded", rule=EXCLUSION_RULE, player=name)


async def exclude(app: App, slug: str, admin_id: AdminRef, player_id: int, reason: str) -> Reply:
    """Exclude a player (e-SP 3.6) with a reason; announced and told by DM."""
    return await app.run(_exclude, slug, admin_id, player_id, reason)


def reinstate_entry(db: Database, tournament_id: int, player_id: int, by: Change) -> None:
    """Undo an exclusion or withdrawal. bot.store has no helper for it, so this small query
    lives here (audited like the store's own writes)."""
    db.execute("""UPDATE entries SET excluded_at = NULL, excluded_reason = NULL,
                  withdrawn_at = NULL, withdrawn_reason = NULL
                  WHERE tournament_id = ? AND player_id = ?""", [tournament_id, player_id])
    record(db, by, "entry.reinstate", tournament_id=tournament_id,
           subject=f"player:{player_id}", data={"at": to_text(by.at)})


def _reinstate(tx: Tx, slug: str, admin_id: AdminRef, player_id: int, reason: str) -> Reply:
    t, _ = _admin(tx, slug, admin_id)
    why = _reason(reason)
    entry = _playing_entry(tx, t, player_id)
    if entry.out is None and _reinstated_for(tx, t, player_id) == why:  # a repeat
        return done("admin.reinstated", player=get_player(tx.db, player_id).name)
    if entry.out is None:
        raise Refusal("admin.not_out", player=get_player(tx.db, player_id).name)
    reinstate_entry(tx.db, t.id, player_id, tx.by_admin(admin_id, why))
    name = get_player(tx.db, player_id).name
    tx.announce(t.id, "admin.reinstated_announce", player=name, reason=why)
    tx.direct(player_id, "admin.reinstated_dm", event=t.id, tournament=t.name, reason=why)
    return done("admin.reinstated", player=name)


def _reinstated_for(tx: Tx, t: Tournament, player_id: int) -> str | None:
    """The reason of the player's last reinstatement in this tournament, if any."""
    found = [a for a in list_audit(tx.db, tournament_id=t.id, action="entry.reinstate")
             if a.subject == f"player:{player_id}"]
    return found[-1].reason if found else None


async def reinstate(app: App, slug: str, admin_id: AdminRef, player_id: int, reason: str) -> Reply:
    """Take a player back after an exclusion or withdrawal, with a reason."""
    return await app.run(_reinstate, slug, admin_id, player_id, reason)


# -- discrepancies ----------------------------------------------------------------------


def _resolve_discrepancy(tx: Tx, slug: str, admin_id: AdminRef, discrepancy_id: int,
                         resolution: str) -> Reply:
    t, _ = _admin(tx, slug, admin_id)
    why = _reason(resolution)
    known = {d.id for d in list_discrepancies(tx.db, t.id, unresolved_only=False)}
    if discrepancy_id not in known:
        raise Refusal("admin.unknown_discrepancy", discrepancy_id=discrepancy_id)
    try:
        store_resolve_discrepancy(tx.db, discrepancy_id, why, tx.by_admin(admin_id, why))
    except FrozenError:
        raise Refusal("admin.discrepancy_resolved", discrepancy_id=discrepancy_id) from None
    return done("admin.discrepancy_done", discrepancy_id=discrepancy_id, resolution=why,
                rule="e-SP 4.7")


async def resolve_discrepancy(app: App, slug: str, admin_id: AdminRef, discrepancy_id: int,
                              resolution: str) -> Reply:
    """Mark a discrepancy handled (the confirmed result stays, e-SP 4.7), saying how."""
    return await app.run(_resolve_discrepancy, slug, admin_id, discrepancy_id, resolution)
