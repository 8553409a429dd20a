"""The duplicate services as the rehearsal calls them: each use case through `app.run` (one
transaction, a refusal as its `Reply`), and the few reads the timeline needs. A narrow adapter
so the engine never reaches into the services' rows itself."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.services import play
from bot.services.app import App, Tx
from bot.services.duplicate.context import event_of, player_by_discord
from bot.services.duplicate.game import start_game
from bot.services.duplicate.results import finalize_game
from bot.services.duplicate.slips import SlipReceipt, submit_slip
from bot.services.replies import Refusal, Reply, done
from bot.store.duplicate import DupRound, get_round, list_games, list_slips


def _games_tx(tx: Tx, slug: str) -> list[Any]:
    return list_games(tx.db, event_of(tx.db, slug).id)


async def game_started(app: App, slug: str) -> bool:
    games = await app.run(_games_tx, slug)
    return isinstance(games, list) and bool(games)


async def game_running(app: App, slug: str) -> bool:
    games = await app.run(_games_tx, slug)
    return isinstance(games, list) and bool(games) and games[-1].state == "running"


async def start(app: App, slug: str, seed: str) -> Reply:
    started = await app.run(start_game, slug, seed=seed)
    if isinstance(started, Reply):
        return started
    return done("rehearse.duplicate.started", game=started.game, commitment=started.commitment)


def _round_tx(tx: Tx, slug: str, number: int) -> DupRound | None:
    games = _games_tx(tx, slug)
    return get_round(tx.db, games[-1].id, number) if games else None


async def round_opened_at(app: App, slug: str, number: int) -> datetime | None:
    """When round `number` of the current game was announced (None: not yet)."""
    rnd = await app.run(_round_tx, slug, number)
    return rnd.opened_at if isinstance(rnd, DupRound) else None


async def deadline(app: App, slug: str, number: int) -> datetime | None:
    rnd = await app.run(_round_tx, slug, number)
    return rnd.deadline if isinstance(rnd, DupRound) else None


def _stored_tx(tx: Tx, slug: str, discord_id: int, number: int, received: datetime) -> bool:
    event = event_of(tx.db, slug)
    rnd = _round_tx(tx, slug, number)
    if rnd is None:
        return False
    try:
        me = player_by_discord(tx.db, event, discord_id)
    except Refusal:
        return False
    return any(s.player_id == me.id and s.received_at == received
               for s in list_slips(tx.db, rnd.id))


async def slip_stored(app: App, slug: str, discord_id: int, number: int,
                      received: datetime) -> bool:
    """Whether this player's slip received at `received` is stored (a restart re-runs the
    step that handed it in: the interaction is not delivered twice)."""
    return await app.run(_stored_tx, slug, discord_id, number, received) is True


async def slip(app: App, slug: str, discord_id: int, move: str, declared: int | None,
               received: datetime) -> Reply:
    """`/tah` as Discord hands it over: the receipt ("8H SLOVO, 24 bodov") or the refusal."""
    receipt = await app.run(lambda tx: submit_slip(tx, slug, move, received_at=received,
                                                   discord_id=discord_id, declared=declared))
    if isinstance(receipt, Reply):
        return receipt
    assert isinstance(receipt, SlipReceipt)
    if receipt.late:
        return done("duplicate.online.slip_received_late", line=receipt.line,
                    round=receipt.round)
    if receipt.replaced:
        return done("rehearse.duplicate.slip_replaced", line=receipt.line, round=receipt.round,
                    rule=receipt.several_rule)
    return done("duplicate.online.slip_received", line=receipt.line, round=receipt.round)


async def leave(app: App, slug: str, discord_id: int) -> Reply:
    """A player leaves the event mid-game (`/odstupit`): 0 for the remaining rounds (004 §7)."""
    return await play.withdraw(app, slug, discord_id, confirmed=True)


async def finalize(app: App, slug: str) -> Reply:
    """The head admin's final results once no protest waits (003 r. 29): the seed revealed."""
    revealed = await app.run(finalize_game, slug)
    if isinstance(revealed, Reply):
        return revealed
    return done("rehearse.duplicate.finalized", game=revealed.game)
