"""The players' use cases: each is `await f(app, slug, discord_id, ...) -> Reply`, one
transaction. A refusal says why and cites the rule; evidence is appended (never overwritten)
and the pairing's result is recomputed at once (`lifecycle.refresh_table`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from bot.services import bounds, lookup
from bot.services.app import App, Tx
from bot.services.delivery.outbox import Timely
from bot.services.duplicate.context import cited, mode_profile
from bot.services.identity import accounts as identity
from bot.services.replies import Refusal, Reply, done
from bot.services.results.lifecycle import (
    describe,
    dispute_deadline,
    refresh_table,
    round_clock,
    stored_fields,
    table_context,
    with_evidence,
)
from bot.store import (
    Change,
    Entry,
    Evidence,
    EvidenceKind,
    Player,
    ResultStatus,
    Round,
    StoredResult,
    TablePairing,
    Tournament,
    TournamentStatus,
    append_evidence,
    find_pairing,
    get_entry,
    get_player,
    get_result,
    get_round,
    list_evidence,
    put_result,
)
from bot.store import check_in as store_check_in
from bot.store import withdraw as store_withdraw
from bot.store.duplicate import get_event
from rules import Profile
from rules.evidence import RoundClock

# The bound before the tournament is known (CLI arguments, the chat's modal); then the
# profile's `plausible.max_score` applies.
MAX_SCORE = bounds.SCORE_MAX
ABSENCE_RULE = "e-SP 4.3"
DRAW_RULE = "e-SP 3.5"
LIMIT_RULE = "e-SP 4.5"
BYE_RULE = "e-SP 4.9"
DISPUTE_RULE = "e-SP 4.7"
WITHDRAW_RULE = "e-SP 3.6"


@dataclass(frozen=True)
class Seat:
    """Who asks and where he sits: the tournament, the round in play and his table."""

    tournament: Tournament
    profile: Profile
    player: Player
    entry: Entry
    round: Round
    pairing: TablePairing
    clock: RoundClock
    opponent_row: Player | None  # read with the seat (None: a bye)

    @property
    def opponent_id(self) -> int | None:
        p = self.pairing
        return p.second_id if self.player.id == p.first_id else p.first_id

    @property
    def before_limit(self) -> Timely:
        """A ping that asks for something before the limit: stale once the limit passes or
        the round closes."""
        return Timely.of_round(self.round, self.round.limit_at)

    def opponent(self) -> Player:
        """My opponent (read with the seat); a bye has none (e-SP 4.9)."""
        if self.opponent_row is None:
            raise Refusal("play.bye", round=self.round.number, rule=BYE_RULE)
        return self.opponent_row


def _seat(tx: Tx, slug: str, discord_id: int) -> Seat:
    t = lookup.tournament(tx, slug)
    found, entry, rnd, pairing = lookup.seat(tx, t, discord_id)
    profile = tx.profile(t.profile)
    return Seat(t, profile, found.player, entry, rnd, pairing,
                round_clock(t, rnd, profile), found.opponent)


def _refresh(tx: Tx, seat: Seat, by: Change, current: StoredResult | None,
             opponent: Player, evidence: list[Evidence] | None = None) -> StoredResult | None:
    """`lifecycle.refresh_pairing` of my table, with what the seat (and the caller: my
    opponent, and my table's evidence if it has it) has already read; the verdict's texts name
    us without reading names again."""
    names = {lookup.rules_id(p.id): p.name for p in (seat.player, opponent)}
    return refresh_table(tx, seat.pairing, current,
                         table_context(tx, seat.tournament, seat.round, names), by, evidence)


def _before_limit(tx: Tx, seat: Seat, rule: str = LIMIT_RULE) -> None:
    if tx.now > seat.round.limit_at:
        raise Refusal("play.after_limit", limit=seat.round.limit_at, round=seat.round.number,
                      rule=rule)


def _after_start(tx: Tx, seat: Seat) -> None:
    if tx.now < seat.round.starts_at:
        raise Refusal("play.before_start", starts=seat.round.starts_at, round=seat.round.number,
                      rule=LIMIT_RULE)


def _kinds_by(tx: Tx, seat: Seat, kind: EvidenceKind, player_id: int | None,
              evidence: list[Evidence] | None = None) -> list[Any]:
    """My table's evidence of `kind` (by `player_id`, None: by anyone); `evidence`: the table's
    evidence when the caller has read it."""
    actor = None if player_id is None else str(player_id)
    if evidence is None:
        evidence = list_evidence(tx.db, seat.pairing.id)
    return [e for e in evidence if e.kind is kind and (actor is None or e.actor_id == actor)]


def _repeated(tx: Tx, seat: Seat, kind: EvidenceKind, payload: dict[str, Any],
              attachment_url: str | None = None, evidence: list[Evidence] | None = None) -> bool:
    """My last piece of evidence of this kind at my table says exactly this: the command is a
    repeat (a retry after an error, a double click) — it changes nothing and answers as the
    first did."""
    mine = _kinds_by(tx, seat, kind, seat.player.id, evidence)
    return bool(mine) and mine[-1].payload == payload and mine[-1].attachment_url == attachment_url


# -- registration and check-in ----------------------------------------------------------


async def register(app: App, slug: str, discord_id: int, discord_name: str,
                   herna_nick: str) -> Reply:
    """Link my Discord account to my entry (found by my herna.net nick) when the registry
    proves it is mine, else ask the head admin (`identity.register`). `discord_name` is the
    account's unique username, or its legacy tag "name#1234" — never its display name."""
    return await app.run(identity.register, slug, discord_id, discord_name, herna_nick)


def _check_in(tx: Tx, slug: str, discord_id: int) -> Reply:
    t = lookup.tournament(tx, slug)
    player = lookup.player_by_discord(tx, discord_id)
    entry = lookup.entry(tx, t, player)
    opens, closes = t.checkin_opens_at, t.checkin_closes_at
    if opens is None or closes is None:
        raise Refusal("play.checkin_not_set", tournament=t.name)
    if t.status is not TournamentStatus.CHECKIN or not opens <= tx.now < closes:
        raise Refusal("play.checkin_closed", opens=opens, closes=closes)
    if entry.checked_in_at is not None:
        return done("play.checked_in_already", at=entry.checked_in_at)
    store_check_in(tx.db, t.id, player.id, tx.by_player(player.id))
    return done("play.checked_in", at=tx.now, tournament=t.name)


async def check_in(app: App, slug: str, discord_id: int) -> Reply:
    """Check in during the tournament's check-in window."""
    return await app.run(_check_in, slug, discord_id)


# -- /stav ------------------------------------------------------------------------------


def _status(tx: Tx, slug: str, discord_id: int) -> Reply:
    seat = _seat(tx, slug, discord_id)
    rnd, pairing = seat.round, seat.pairing
    result = get_result(tx.db, pairing.id)
    evidence = [{"kind": str(e.kind), "at": e.at, "by": e.actor_id, "payload": e.payload}
                for e in list_evidence(tx.db, pairing.id)]
    data: dict[str, Any] = {
        "round": rnd.number, "table": pairing.table_no, "starts_at": rnd.starts_at,
        "limit": rnd.limit_at, "waiting_ends": seat.clock.waiting_ends,
        "waiting_over": tx.now >= seat.clock.waiting_ends,
        "result": None if result is None else {
            "status": str(result.status), "end": result.end_kind,
            "points": [result.first_points, result.second_points],
            "scores": [result.first_score, result.second_score],
            "text": result.verdict.get("text"), "rule": result.rule},
        "evidence": evidence,
    }
    summary = "—" if result is None else result.verdict.get("text", "")
    status = "none" if result is None else str(result.status)
    if seat.opponent_id is None:
        return done("play.status_bye", rule=BYE_RULE, data=data, round=rnd.number,
                    summary=summary, status=status)
    opponent = seat.opponent()
    first = get_player(tx.db, pairing.first_id)
    data["opponent"] = {"name": opponent.name, "nick": opponent.herna_nick,
                        "discord_id": opponent.discord_id}
    data["who_starts"] = first.name
    data["i_start"] = first.id == seat.player.id
    return done("play.status", data=data, round=rnd.number, table=pairing.table_no,
                opponent=opponent.name, nick=opponent.herna_nick, who_starts=first.name,
                starts=rnd.starts_at, limit=rnd.limit_at, waiting_ends=seat.clock.waiting_ends,
                status=status, summary=summary)


async def status(app: App, slug: str, discord_id: int) -> Reply:
    """My round, table, opponent, who starts, the times, and what is recorded for my game."""
    return await app.run(_status, slug, discord_id)


# -- absence and arrival (e-SP 4.3) -----------------------------------------------------


def _report_absence(tx: Tx, slug: str, discord_id: int) -> Reply:
    seat = _seat(tx, slug, discord_id)
    opponent = seat.opponent()
    _after_start(tx, seat)
    _before_limit(tx, seat, ABSENCE_RULE)
    if _kinds_by(tx, seat, EvidenceKind.PLATFORM_GAME, None):
        raise Refusal("play.absence_game_exists", opponent=opponent.name, rule=ABSENCE_RULE)
    if _kinds_by(tx, seat, EvidenceKind.ARRIVAL, opponent.id):
        raise Refusal("play.absence_opponent_here", opponent=opponent.name, rule=ABSENCE_RULE)
    waiting_ends = seat.clock.waiting_ends
    me = seat.player
    if not _kinds_by(tx, seat, EvidenceKind.ABSENCE, me.id):  # else a repeat: same answer
        append_evidence(tx.db, seat.pairing.id, EvidenceKind.ABSENCE, tx.by_player(me.id),
                        payload={"absent": opponent.id})
        _refresh(tx, seat, tx.by_player(me.id), get_result(tx.db, seat.pairing.id),
                 opponent)
        tx.direct(opponent.id, "play.absence_ping", timely=seat.before_limit, reporter=me.name,
                  round=seat.round.number, table=seat.pairing.table_no,
                  waiting_ends=waiting_ends, rule=ABSENCE_RULE)
    return done("play.absence_recorded", rule=ABSENCE_RULE, opponent=opponent.name,
                waiting_ends=waiting_ends)


async def report_absence(app: App, slug: str, discord_id: int) -> Reply:
    """My opponent has not come: recorded, he is pinged, both learn when the waiting period
    ends (e-SP 4.3)."""
    return await app.run(_report_absence, slug, discord_id)


def _arrive(tx: Tx, slug: str, discord_id: int) -> Reply:
    seat = _seat(tx, slug, discord_id)
    opponent = seat.opponent()
    _before_limit(tx, seat)
    me = seat.player
    if not _kinds_by(tx, seat, EvidenceKind.ARRIVAL, me.id):  # else a repeat: same answer
        append_evidence(tx.db, seat.pairing.id, EvidenceKind.ARRIVAL, tx.by_player(me.id))
        _refresh(tx, seat, tx.by_player(me.id), get_result(tx.db, seat.pairing.id),
                 opponent)
        if _kinds_by(tx, seat, EvidenceKind.ABSENCE, opponent.id):
            tx.direct(opponent.id, "play.arrived_ping", timely=seat.before_limit, player=me.name,
                      round=seat.round.number)
    waiting_ends = seat.clock.waiting_ends
    key = "play.arrived_late" if tx.now > waiting_ends else "play.arrived"
    return done(key, rule=ABSENCE_RULE, opponent=opponent.name, nick=opponent.herna_nick,
                waiting_ends=waiting_ends)


async def arrive(app: App, slug: str, discord_id: int) -> Reply:
    """I am at the table (ends a waiting period started against me)."""
    return await app.run(_arrive, slug, discord_id)


# -- agreed draw (e-SP 3.5) ---------------------------------------------------------------


def _draw(tx: Tx, slug: str, discord_id: int, confirming: bool,
          proposer: int | None = None, round_no: int | None = None) -> Reply:
    seat = _seat(tx, slug, discord_id)
    opponent = seat.opponent()
    if confirming and proposer is not None and (
            opponent.discord_id != proposer or round_no not in (None, seat.round.number)):
        # a prompt addressed to another table (or an earlier round): not this player's to click
        raise Refusal("identity.draw_not_yours", round=round_no or seat.round.number,
                      rule=DRAW_RULE)
    _before_limit(tx, seat, DRAW_RULE)
    me = seat.player
    if _kinds_by(tx, seat, EvidenceKind.DRAW_CONFIRMATION, me.id):
        return _draw_repeated(tx, seat, opponent, confirming)
    proposed = bool(_kinds_by(tx, seat, EvidenceKind.DRAW_CONFIRMATION, opponent.id))
    if confirming and not proposed:
        raise Refusal("play.draw_nothing_to_confirm", opponent=opponent.name, rule=DRAW_RULE)
    append_evidence(tx.db, seat.pairing.id, EvidenceKind.DRAW_CONFIRMATION,
                    tx.by_player(me.id))
    _refresh(tx, seat, tx.by_player(me.id), get_result(tx.db, seat.pairing.id),
             opponent)
    limit = seat.round.limit_at
    if proposed:  # both have now confirmed in writing
        tx.direct(opponent.id, "play.draw_confirmed_dm", timely=Timely.of_round(seat.round),
                  player=me.name, rule=DRAW_RULE)
        return done("play.draw_confirmed", rule=DRAW_RULE, opponent=opponent.name)
    tx.direct(opponent.id, "play.draw_proposed_dm", timely=seat.before_limit, player=me.name,
              limit=limit, rule=DRAW_RULE)
    return done("play.draw_proposed", rule=DRAW_RULE, opponent=opponent.name, limit=limit)


def _draw_repeated(tx: Tx, seat: Seat, opponent: Player, confirming: bool) -> Reply:
    """I have already confirmed the draw: a repeated click or command answers as the first
    did (who confirmed first decides which answer that was); anything else is a refusal."""
    mine = _kinds_by(tx, seat, EvidenceKind.DRAW_CONFIRMATION, seat.player.id)[0]
    theirs = _kinds_by(tx, seat, EvidenceKind.DRAW_CONFIRMATION, opponent.id)
    i_confirmed_theirs = bool(theirs) and theirs[0].id < mine.id
    if confirming and i_confirmed_theirs:
        return done("play.draw_confirmed", rule=DRAW_RULE, opponent=opponent.name)
    if not confirming and not i_confirmed_theirs:
        return done("play.draw_proposed", rule=DRAW_RULE, opponent=opponent.name,
                    limit=seat.round.limit_at)
    raise Refusal("play.draw_already", opponent=opponent.name, rule=DRAW_RULE)


async def propose_draw(app: App, slug: str, discord_id: int) -> Reply:
    """My written confirmation of an agreed draw; the opponent must confirm before the limit."""
    return await app.run(_draw, slug, discord_id, False)


async def confirm_draw(app: App, slug: str, discord_id: int, proposer: int | None = None,
                       round_no: int | None = None) -> Reply:
    """Confirm the draw my opponent proposed (both confirmations before the limit). From a
    prompt (`proposer`'s Discord id, its `round_no`), only the proposer's opponent in that
    round may confirm: anyone else is refused and nothing changes."""
    return await app.run(_draw, slug, discord_id, True, proposer, round_no)


# -- result report (e-SP 4.6) -----------------------------------------------------------


def parse_score(value: int | str, maximum: int = MAX_SCORE) -> int:
    """A score typed by a player: a whole number 0–`maximum` (the tournament's profile bound,
    `plausible.max_score`, when known), else a refusal saying which."""
    if isinstance(value, bool):
        raise Refusal("play.score_not_number", value=str(value))
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not text.lstrip("-").isdecimal():
            raise Refusal("play.score_not_number", value=text)
        number = int(text)
    if not 0 <= number <= maximum:
        raise Refusal("play.score_out_of_range", value=number, max=maximum)
    return number


def _report_result(tx: Tx, slug: str, discord_id: int, own: int | str,
                   opponent_score: int | str) -> Reply:
    mine, theirs = parse_score(own), parse_score(opponent_score)
    seat = _seat(tx, slug, discord_id)
    bound = seat.profile.plausible.max_score  # the same bound as herna.net's records
    mine, theirs = parse_score(mine, bound), parse_score(theirs, bound)
    opponent = seat.opponent()
    _after_start(tx, seat)
    current = get_result(tx.db, seat.pairing.id)
    if current is not None and current.status is ResultStatus.CONFIRMED:
        raise Refusal("play.result_confirmed", rule=DISPUTE_RULE)
    me = seat.player
    report = {"own": mine, "opponent": theirs}
    evidence = list_evidence(tx.db, seat.pairing.id)  # read once: the repeat check, the verdict
    if _repeated(tx, seat, EvidenceKind.SCORE_REPORT, report, evidence=evidence):
        result = current  # a repeat: nothing new to weigh, the same answer
    else:
        by = tx.by_player(me.id)
        added = append_evidence(tx.db, seat.pairing.id, EvidenceKind.SCORE_REPORT, by,
                                payload=report, tournament_id=seat.tournament.id)
        result = _refresh(tx, seat, by, current, opponent, with_evidence(evidence, added))
    params = {"own": mine, "opponent_score": theirs, "opponent": opponent.name}
    if result is not None and result.verdict.get("code") == "report_conflicts_record":
        return done("play.result_conflict", rule=DISPUTE_RULE, **params)
    summary = "" if result is None else result.verdict.get("text", "")
    return done("play.result_recorded", rule="e-SP 4.6", summary=summary, **params)


async def report_result(app: App, slug: str, discord_id: int, own: int | str,
                        opponent: int | str) -> Reply:
    """Report my game's final score (needed when the server failed to save it, e-SP 4.6)."""
    return await app.run(_report_result, slug, discord_id, own, opponent)


# -- dispute (e-SP 4.7) -----------------------------------------------------------------


def _dispute(tx: Tx, slug: str, discord_id: int, text: str,
             attachment_url: str | None) -> Reply:
    seat = _seat(tx, slug, discord_id)
    if not text.strip():
        raise Refusal("play.dispute_empty", rule=DISPUTE_RULE)
    text = bounds.free_text(text, bounds.field_name("dispute"))
    closes = dispute_deadline(tx.db, seat.tournament, seat.round, seat.profile)
    current = get_result(tx.db, seat.pairing.id)
    closed = closes is not None and tx.now >= closes
    if closed or (current is not None and current.status is ResultStatus.CONFIRMED):
        raise Refusal("play.dispute_closed", round=seat.round.number, rule=DISPUTE_RULE)
    if _nothing_recorded(tx, seat, current):
        _nothing_to_dispute(tx, seat)
    me = seat.player
    complaint = {"text": text.strip()}
    if _repeated(tx, seat, EvidenceKind.DISPUTE, complaint, attachment_url):
        return done("play.dispute_recorded", rule=DISPUTE_RULE, round=seat.round.number)
    by = tx.by_player(me.id, "dispute")
    append_evidence(tx.db, seat.pairing.id, EvidenceKind.DISPUTE, by,
                    payload=complaint, attachment_url=attachment_url)
    if current is not None and current.status is ResultStatus.PROVISIONAL:
        current = put_result(tx.db, seat.pairing.id,
                             stored_fields(current, ResultStatus.DISPUTED), current.version, by)
    params = describe(tx, seat.pairing, current) if current is not None else {}
    tx.to_admin(seat.tournament.id, "play.dispute_admin", player=me.name,
                round=seat.round.number, table=seat.pairing.table_no, text=text.strip(),
                url=attachment_url or "—", pairing_id=seat.pairing.id,
                recorded=params.get("text", "—"))
    return done("play.dispute_recorded", rule=DISPUTE_RULE, round=seat.round.number)


def _nothing_recorded(tx: Tx, seat: Seat, current: StoredResult | None) -> bool:
    """No result and no evidence at my table: a dispute would have nothing to be about. (A
    pending verdict resting on reports, e.g. "the server did not save it", can be disputed.)"""
    if current is not None and current.status is not ResultStatus.PENDING:
        return False
    return all(e.kind is EvidenceKind.DISPUTE for e in list_evidence(tx.db, seat.pairing.id))


def _nothing_to_dispute(tx: Tx, seat: Seat) -> NoReturn:
    """My table in the current round has no result yet: nothing recorded to dispute. A player
    who means the previous round's game (the next round is already published) is told that
    its result was confirmed when this round was paired (e-SP 4.7)."""
    number = seat.round.number
    if number > 1:
        before = find_pairing(tx.db, seat.tournament.id, number - 1, seat.player.id)
        previous = get_round(tx.db, seat.tournament.id, number - 1)
        closes = dispute_deadline(tx.db, seat.tournament, previous, seat.profile)
        if (before is not None and get_result(tx.db, before.id) is not None
                and closes is not None and tx.now >= closes):
            raise Refusal("play.dispute_closed", round=number - 1, rule=DISPUTE_RULE)
    raise Refusal("play.dispute_nothing", round=number, rule=DISPUTE_RULE)


async def dispute(app: App, slug: str, discord_id: int, text: str,
                  attachment_url: str | None = None) -> Reply:
    """Complain about my recorded result before the e-SP 4.7 window closes."""
    return await app.run(_dispute, slug, discord_id, text, attachment_url)


# -- withdrawal (e-SP 3.6) --------------------------------------------------------------


def _withdraw(tx: Tx, slug: str, discord_id: int, confirmed: bool) -> Reply:
    t = lookup.tournament(tx, slug)
    player = lookup.player_by_discord(tx, discord_id)
    entry = get_entry(tx.db, t.id, player.id)
    # a duplicate entrant leaves by 004 §7 (0 for the remaining rounds), not by e-SP 3.6
    dup = get_event(tx.db, t.id)
    rule = mode_profile(dup.profile, dup.mode).slips.left_rule if dup else WITHDRAW_RULE
    if confirmed and entry is not None and entry.withdrawn_at is not None:
        return done("play.withdrawn_ok", rule=cited(rule), tournament=t.name)  # a repeat
    lookup.entry(tx, t, player)
    if not confirmed:
        key = "play.withdraw_confirm_duplicate" if dup else "play.withdraw_confirm"
        return done(key, rule=cited(rule), data={"needs_confirmation": True}, tournament=t.name)
    reason = f"odstúpenie z turnaja ({rule})"
    store_withdraw(tx.db, t.id, player.id, reason, tx.by_player(player.id, reason))
    tx.announce(t.id, "play.withdrawn", player=player.name, rule=cited(rule))
    return done("play.withdrawn_ok", rule=cited(rule), tournament=t.name)


async def withdraw(app: App, slug: str, discord_id: int, confirmed: bool = False) -> Reply:
    """Withdraw from the tournament; without `confirmed` only the consequences are returned."""
    return await app.run(_withdraw, slug, discord_id, confirmed)
