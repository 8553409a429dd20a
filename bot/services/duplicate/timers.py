"""What a duplicate event's timers do when they fall due (`bot.services.tournament.timers`
dispatches the kinds of `game.KINDS` here), and the close's work done before the claim.

- `dup_game_start`: online, a game starts at its start time (the propozície's round_starts);
- `dup_warning`: "30 s left" (003 r. 18), only while its round is open;
- `dup_deadline`: the round closes (003 r. 19). `prepare` runs the close's three phases first
  (`close.close_round`: the move generator in a worker thread), so when the timer is then
  claimed its round is closed and the handler has nothing left to do; a handler that still
  finds it open (no `prepare` ran, e.g. a plain `handle_timer` caller) closes it in its own
  transaction (`close_in_tx`). Either way the guarded write makes it happen once;
- `dup_next_round`: online, the next round opens after the pause (or the game ends);
- `dup_tops` (due as the round opens): `prepare` starts the move generator in the background
  (`tops.warm`, 003 r. 17), so the close at the deadline finds the tops ready.
"""

from __future__ import annotations

import asyncio

from sqlite_utils import Database

from bot.services.app import App, Tx
from bot.services.delivery.outbox import Timely
from bot.services.duplicate import lexicons, tops
from bot.services.duplicate.close import close_in_tx, close_round
from bot.services.duplicate.context import Event, announce, event_of
from bot.services.duplicate.game import (
    DEADLINE,
    GAME_START,
    KINDS,
    NEXT_ROUND,
    TOPS,
    WARNING,
    open_round,
    start_game,
)
from bot.services.replies import Refusal
from bot.store import Timer, get_tournament, record
from bot.store.duplicate import DupEvent, DupGame, DupRound, get_game, get_round


def is_duplicate(timer: Timer) -> bool:
    return timer.kind in KINDS


async def prepare(app: App, timer: Timer) -> None:
    """Before a timer is claimed: the deadline closes its round off the store's thread; the
    tops timer starts the move generator in the background."""
    if timer.kind not in (DEADLINE, TOPS) or timer.tournament_id is None:
        return
    slug = (await app.store.read(get_tournament, timer.tournament_id)).slug
    round_no, game = int(timer.payload["round"]), int(timer.payload["game"])
    if timer.kind == DEADLINE:
        await close_round(app, slug, round_no, game=game)
        return
    found = await app.store.read(_open_round, slug, round_no, game)
    if found is not None:
        rnd, settings = found
        lexicon = await asyncio.to_thread(lexicons.cached, settings.lexicon, settings.lexicon_id)
        tops.warm(rnd.board_before, rnd.rack, lexicon, settings.tiles, settings.profile)


def _open_round(db: Database, slug: str, round_no: int, game_no: int
                ) -> tuple[DupRound, DupEvent] | None:
    """The round the move generator is started for, while it is open."""
    event = event_of(db, slug)
    game = get_game(db, event.id, game_no)
    rnd = get_round(db, game.id, round_no) if game else None
    return (rnd, event.settings) if rnd is not None and rnd.is_open else None


def handle(tx: Tx, timer: Timer) -> None:
    """Do a duplicate timer's work in the claiming transaction (see the module)."""
    t = get_tournament(tx.db, timer.tournament_id or 0)
    event = event_of(tx.db, t.slug)
    game_no, round_no = int(timer.payload["game"]), int(timer.payload.get("round", 1))
    if timer.kind == GAME_START:
        _start(tx, event, game_no, timer)
        return
    game = get_game(tx.db, event.id, game_no)
    if game is None:
        record(tx.db, tx.by_scheduler(f"timer {timer.kind}"), "timer.ignored",
               tournament_id=t.id, subject=timer.key, data={"why": "no game"})
        return
    if timer.kind == NEXT_ROUND:
        _next_round(tx, event, game, round_no, timer)
        return
    rnd = get_round(tx.db, game.id, round_no)
    if rnd is None or not rnd.is_open:
        _stale(tx, event, timer, "kolo je uzavreté")
        return
    if timer.kind == TOPS:
        return  # its work (the background warm-up) was `prepare`'s
    if timer.kind == WARNING:
        announce(tx, event, "duplicate.online.warning", timely=Timely(event.id,
                 until=rnd.deadline),
game=game_no, round=round_no,
seconds=event.settings.warning_seconds, rule="003 r. 18; 004 §5C")
    elif timer.kind == DEADLINE:
        close_in_tx(tx, t.slug, round_no, game_no)


def _stale(tx: Tx, event: Event, timer: Timer, why: str) -> None:
    """A firing with nothing left to do, remembered with the reason."""
    record(tx.db, tx.by_scheduler(f"timer {timer.kind}"), "timer.stale",
           tournament_id=event.id, subject=timer.key, data={"kind": timer.kind, "why": why})


def _start(tx: Tx, event: Event, game_no: int, timer: Timer) -> None:
    """A game's start time (the propozície's round_starts): it starts unless the arbiter
    started it (or it cannot start yet: the previous game still runs — remembered)."""
    if get_game(tx.db, event.id, game_no) is not None:
        _stale(tx, event, timer, "partia sa už začala")
        return
    try:
        start_game(tx, event.tournament.slug)
    except Refusal as refusal:
        _stale(tx, event, timer, refusal.reply.key)


def _next_round(tx: Tx, event: Event, game: DupGame, round_no: int, timer: Timer) -> None:
    if game.state != "running":
        # over before the pause ended (the arbiter's own draw ended it, 003 r. 11–13): nothing
        # to open. Said here, not by `open_round`, which answers that draw typed again with
        # the same end (no refusal) and would leave no trace of this firing.
        _stale(tx, event, timer, "duplicate.online.game_not_running")
        return
    try:
        open_round(tx, event.tournament.slug, round_no=round_no, game=game.number)
    except Refusal as refusal:  # the arbiter went ahead: remembered
        _stale(tx, event, timer, refusal.reply.key)
