"""A round's deadlines as timer rows, and what each does when it falls due (DESIGN.md 4).

`schedule_round_timers` writes the rows when a round is published; the scheduler claims each
due one with `fire_timer` and calls `handle_timer` in the same transaction, so the work and the
claim commit together: a crash before the commit retries it, after it never repeats it.
Keys carry the due time, so scheduling again after the round's times moved cancels the old
deadline and adds the new one, and scheduling the same again is harmless.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.services.app import App, Tx
from bot.services.delivery.outbox import Timely, round_over
from bot.services.duplicate import timers as duplicate_timers
from bot.services.results.lifecycle import apply_proposal, confirm_round, refresh_round, round_clock
from bot.store import (
    Change,
    EvidenceKind,
    ResultStatus,
    Round,
    Timer,
    TimerKind,
    TimerStatus,
    Tournament,
    TournamentStatus,
    add_timer,
    cancel_timer,
    get_pairing,
    get_player,
    get_result,
    get_round,
    get_tournament,
    list_evidence,
    list_timers,
    pairings_of_round,
    record,
    to_text,
    update_round,
)

REMINDER_BEFORE_LIMIT = timedelta(minutes=10)
REMINDER_BEFORE_START = timedelta(minutes=10)
ABSENCE_RULE = "e-SP 4.3, 4.9"


def schedule_round_timers(tx: Tx, tournament: Tournament, rnd: Round) -> None:
    """Create the round's timers: a reminder 10 minutes before the start (when the round is
    published earlier than that), the start announcement, the end of the waiting period
    (e-SP 4.3), a reminder 10 minutes before the game time limit, the limit (e-SP 4.5), and
    for the last round the close of the dispute window (e-SP 4.7: limit + 10 minutes)."""
    profile = tx.profile(tournament.profile)
    clock = round_clock(tournament, rnd, profile)
    due: dict[str, datetime] = {}
    if rnd.starts_at - REMINDER_BEFORE_START > tx.now:
        due[TimerKind.PRE_ROUND] = rnd.starts_at - REMINDER_BEFORE_START
    due |= {
        TimerKind.ROUND_START: rnd.starts_at,
        TimerKind.WAITING_END: clock.waiting_ends,
        TimerKind.GAME_LIMIT: rnd.limit_at,
    }
    if rnd.limit_at - REMINDER_BEFORE_LIMIT > rnd.starts_at:
        due[TimerKind.REMINDER] = rnd.limit_at - REMINDER_BEFORE_LIMIT
    if rnd.number == tournament.rounds_planned:
        closes = rnd.limit_at + timedelta(minutes=profile.timing.last_round_dispute_minutes)
        if rnd.dispute_closes_at is None:
            rnd = update_round(tx.db, tournament.id, rnd.number,
                               tx.by_scheduler("e-SP 4.7: last round"), dispute_closes_at=closes)
        due[TimerKind.DISPUTE_WINDOW] = rnd.dispute_closes_at or closes
    by = tx.by_scheduler(f"round {rnd.number} deadlines")
    pending = list_timers(tx.db, tournament.id, TimerStatus.PENDING)
    for kind, at in due.items():
        key = f"{tournament.slug}:r{rnd.number}:{kind}:{to_text(at)}"
        for old in pending:  # the round's times moved: the old deadline no longer holds
            if (old.kind == kind and old.payload.get("round_no") == rnd.number
                    and old.key != key):
                cancel_timer(tx.db, old.key, by)
        add_timer(tx.db, kind, key, at, by, tournament_id=tournament.id,
                  payload={"round_no": rnd.number})


async def prepare_timer(app: App, timer: Timer) -> None:
    """What a timer does before it is claimed, outside the store's transaction (only the
    duplicate deadline does anything: the round's close, guarded so it happens once)."""
    if duplicate_timers.is_duplicate(timer):
        await duplicate_timers.prepare(app, timer)


def handle_timer(tx: Tx, timer: Timer) -> None:
    """Do a timer's work (the caller has claimed it in this transaction).

    A timer re-checks its round when it fires: once the round is closed or the tournament
    finished (the bot was down, the CLI went ahead), its work on results still runs — it is a
    recomputation — but nothing is said: a stale "round 3 starts" never reaches a player. The
    messages it does queue are bound to their moment (`Timely`), so the outbox drops them too
    if they cannot go out in time."""
    by = tx.by_scheduler(f"timer {timer.kind}")
    if timer.tournament_id is None:
        record(tx.db, by, "timer.ignored", subject=timer.key, data={"why": "no tournament"})
        return
    if duplicate_timers.is_duplicate(timer):
        duplicate_timers.handle(tx, timer)
        return
    t = get_tournament(tx.db, timer.tournament_id)
    round_no = timer.payload.get("round_no")
    kind = timer.kind
    if kind == TimerKind.AUTO_APPLY:
        _auto_apply(tx, t, timer)
        return
    if kind in (TimerKind.CHECKIN_OPEN, TimerKind.CHECKIN_CLOSE):
        if _stale(tx, t, None, timer, by):
            return
        until = t.checkin_closes_at if kind == TimerKind.CHECKIN_OPEN else None
        tx.announce(t.id, f"timer.{kind}", timely=Timely(t.id, until=until), tournament=t.name,
                    opens=t.checkin_opens_at, closes=t.checkin_closes_at)
        return
    if not isinstance(round_no, int):
        record(tx.db, by, "timer.ignored", tournament_id=t.id, subject=timer.key,
               data={"why": "no round", "kind": kind})
        return
    rnd = get_round(tx.db, t.id, round_no)
    if kind in (TimerKind.WAITING_END, TimerKind.GAME_LIMIT, TimerKind.DRAW_DEADLINE):
        refresh_round(tx, t.id, round_no, by)
    elif kind == TimerKind.DISPUTE_WINDOW:
        still_open = confirm_round(tx, t.id, round_no, by)
        if still_open:
            tx.to_admin(t.id, "timer.still_open", round=round_no, n=len(still_open),
                        rule="e-SP 4.9")
        return
    if _stale(tx, t, rnd, timer, by):
        return
    if kind == TimerKind.PRE_ROUND:
        minutes = int(REMINDER_BEFORE_START.total_seconds() // 60)
        tx.announce(t.id, "timer.pre_round", timely=Timely.of_round(rnd, rnd.starts_at),
                    round=round_no, start=rnd.starts_at, n=minutes, waiting=t.waiting_minutes,
                    rule="e-SP 4.3")
    elif kind == TimerKind.ROUND_START:
        _round_start(tx, t, rnd)
    elif kind == TimerKind.WAITING_END:
        _waiting_over(tx, t, rnd)
    elif kind == TimerKind.GAME_LIMIT:
        rule = tx.profile(t.profile).timing.rule
        tx.announce(t.id, "timer.game_limit", timely=Timely.of_round(rnd), round=round_no,
                    rule=rule)
    elif kind == TimerKind.REMINDER:
        _remind(tx, t, rnd)
    elif kind != TimerKind.DRAW_DEADLINE:  # unknown to this version: remembered, not retried
        record(tx.db, by, "timer.ignored", tournament_id=t.id, subject=timer.key,
               data={"why": "unknown kind", "kind": kind})


def _stale(tx: Tx, t: Tournament, rnd: Round | None, timer: Timer, by: Change) -> bool:
    """True (and audited) when the timer's moment is gone: its round closed, the tournament
    finished, or (check-in timers) the tournament already under way."""
    why = round_over(t, rnd)
    if why is None and rnd is None and t.status is TournamentStatus.RUNNING:
        why = "turnaj už beží"
    if why is None:
        return False
    record(tx.db, by, "timer.stale", tournament_id=t.id, subject=timer.key,
           data={"kind": timer.kind, "why": why})
    return True


def _round_start(tx: Tx, t: Tournament, rnd: Round) -> None:
    clock = round_clock(t, rnd, tx.profile(t.profile))
    live = Timely.of_round(rnd, rnd.limit_at)
    tx.announce(t.id, "timer.round_start", timely=live, round=rnd.number, limit=rnd.limit_at,
                waiting_ends=clock.waiting_ends, rule="e-SP 4.5")
    for pairing in pairings_of_round(tx.db, t.id, rnd.number):
        first = get_player(tx.db, pairing.first_id)
        if pairing.second_id is None:
            tx.direct(first.id, "timer.bye_dm", timely=live, round=rnd.number, rule="e-SP 4.9")
            continue
        second = get_player(tx.db, pairing.second_id)
        for me, other in ((first, second), (second, first)):
            tx.direct(me.id, "timer.round_start_dm", timely=live, round=rnd.number,
                      table=pairing.table_no,
                      opponent=other.name, nick=other.herna_nick, who_starts=first.name,
                      limit=rnd.limit_at, waiting_ends=clock.waiting_ends)


def _waiting_over(tx: Tx, t: Tournament, rnd: Round) -> None:
    """The waiting period is over (e-SP 4.3): the channel hears it, and both players of every
    table with an absence report learn that the head admin now decides (e-SP 4.9)."""
    at = round_clock(t, rnd, tx.profile(t.profile)).waiting_ends
    live = Timely.of_round(rnd, rnd.limit_at)
    tx.announce(t.id, "timer.waiting_over", timely=live, round=rnd.number, at=at,
                rule="e-SP 4.3")
    for pairing in pairings_of_round(tx.db, t.id, rnd.number):
        reports = [e for e in list_evidence(tx.db, pairing.id) if e.kind is EvidenceKind.ABSENCE]
        if not reports or pairing.second_id is None:
            continue
        reporter = get_player(tx.db, int(reports[0].actor_id or 0)).name
        absent = get_player(tx.db, int(reports[0].payload["absent"])).name
        for player_id in (pairing.first_id, pairing.second_id):
            tx.direct(player_id, "timer.waiting_over_dm", timely=live, round=rnd.number, at=at,
                      reporter=reporter, absent=absent, rule=ABSENCE_RULE)


def _remind(tx: Tx, t: Tournament, rnd: Round) -> None:
    """10 minutes before the limit: a DM to the pairs with no result and no game on record."""
    minutes = int(REMINDER_BEFORE_LIMIT.total_seconds() // 60)
    for pairing in pairings_of_round(tx.db, t.id, rnd.number):
        if pairing.second_id is None:
            continue
        result = get_result(tx.db, pairing.id)
        if result is not None and result.status is not ResultStatus.PENDING:
            continue
        if any(e.kind is EvidenceKind.PLATFORM_GAME for e in list_evidence(tx.db, pairing.id)):
            continue  # a game is on record: they are playing
        for player_id in (pairing.first_id, pairing.second_id):
            tx.direct(player_id, "timer.limit_reminder", timely=Timely.of_round(rnd, rnd.limit_at),
                      round=rnd.number, limit=rnd.limit_at, n=minutes, rule="e-SP 4.5")


def _auto_apply(tx: Tx, t: Tournament, timer: Timer) -> None:
    pairing_id = timer.payload.get("pairing_id")
    version = timer.payload.get("version")
    minutes = t.auto_apply_forfeits_after_minutes
    if not isinstance(pairing_id, int) or minutes is None:
        return  # the tournament turned auto-apply off meanwhile
    reason = (f"automaticky uplatnený návrh: hlavný administrátor nerozhodol do {minutes} "
              "minút (nastavenie turnaja, e-SP 4.9)")
    by = tx.by_scheduler(reason)
    applied = apply_proposal(tx, pairing_id, reason, by, expected_version=version)
    if applied is not None:
        pairing = get_pairing(tx.db, pairing_id)
        tx.to_admin(t.id, "timer.auto_applied", round=pairing.round_no,
                    table=pairing.table_no, n=minutes, rule="e-SP 4.9")
