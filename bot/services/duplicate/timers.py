"""What a duplicate event's timers do when they fall due (`bot.services.timers` dispatches the
kinds of `game.KINDS` here), and the close's work done before the claim.

- `dup_warning`: "30 s left" (003 r. 18), only while its round is open;
- `dup_deadline`: the round closes (003 r. 19). `prepare` runs the close's three phases first
  (`close.close_round`: the move generator in a worker thread), so when the timer is then
  claimed its round is closed and the handler has nothing left to do; a handler that still
  finds it open (no `prepare` ran, e.g. a plain `handle_timer` caller) closes it in its own
  transaction (`close_in_tx`). Either way the guarded write makes it happen once;
- `dup_next_round`: online, the next round opens after the pause (or the game ends).
"""

from __future__ import annotations

from bot.services.app import App, Tx
from bot.services.duplicate.close import close_in_tx, close_round
from bot.services.duplicate.context import Event, event_of
from bot.services.duplicate.game import DEADLINE, KINDS, NEXT_ROUND, WARNING, open_round
from bot.services.outbox import Timely
from bot.services.replies import Refusal
from bot.store import Timer, get_tournament, record
from bot.store.duplicate import get_game, get_round


def is_duplicate(timer: Timer) -> bool:
    return timer.kind in KINDS


async def prepare(app: App, timer: Timer) -> None:
    """Before the deadline timer is claimed: close its round off the store's thread."""
    if timer.kind != DEADLINE or timer.tournament_id is None:
        return
    slug = (await app.store.read(get_tournament, timer.tournament_id)).slug
    await close_round(app, slug, int(timer.payload["round"]), game=int(timer.payload["game"]))


def handle(tx: Tx, timer: Timer) -> None:
    """Do a duplicate timer's work in the claiming transaction (see the module)."""
    by = tx.by_scheduler(f"timer {timer.kind}")
    t = get_tournament(tx.db, timer.tournament_id or 0)
    event = event_of(tx.db, t.slug)
    game_no, round_no = int(timer.payload["game"]), int(timer.payload["round"])
    game = get_game(tx.db, event.id, game_no)
    if game is None:
        record(tx.db, by, "timer.ignored", tournament_id=t.id, subject=timer.key,
               data={"why": "no game"})
        return
    if timer.kind == NEXT_ROUND:
        _next_round(tx, event, game_no, round_no, timer)
        return
    rnd = get_round(tx.db, game.id, round_no)
    if rnd is None or not rnd.is_open:
        record(tx.db, by, "timer.stale", tournament_id=t.id, subject=timer.key,
               data={"kind": timer.kind, "why": "kolo je uzavreté"})
        return
    if timer.kind == WARNING:
        tx.announce(event.id, "duplicate.online.warning", timely=Timely(event.id,
                                                                        until=rnd.deadline),
                    game=game_no, round=round_no,
                    seconds=event.settings.warning_seconds, rule="003 r. 18; 004 §5C")
    elif timer.kind == DEADLINE:
        close_in_tx(tx, t.slug, round_no, game_no)


def _next_round(tx: Tx, event: Event, game_no: int, round_no: int, timer: Timer) -> None:
    try:
        open_round(tx, event.tournament.slug, round_no=round_no, game=game_no)
    except Refusal as refusal:  # the arbiter went ahead, or the game is over: remembered
        record(tx.db, tx.by_scheduler(), "timer.stale", tournament_id=event.id,
               subject=timer.key, data={"kind": timer.kind, "why": refusal.reply.key})
