"""The duplicate services as the rehearsal calls them: each use case through `app.run` (one
transaction, a refusal as its `Reply`), and the few reads the timeline needs. A narrow adapter
so the engine never reaches into the services' rows itself."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.cli.duplicate_hall import closed_lines, entrant_names, opened_lines
from bot.services.app import App, Tx
from bot.services.duplicate.close import close_round
from bot.services.duplicate.context import event_of, player_by_discord
from bot.services.duplicate.game import open_round, start_game
from bot.services.duplicate.protests import decide_protest, decided_reply, file_protest
from bot.services.duplicate.results import finalize_game
from bot.services.duplicate.slips import SlipReceipt, submit_slip
from bot.services.replies import Refusal, Reply, done
from bot.services.tournament import play
from bot.store.duplicate import (
    DupProtest,
    DupRound,
    get_round,
    list_games,
    list_protests,
    list_rounds,
    list_slips,
)


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
                    rule=receipt.player_rule)
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


def _protests_tx(tx: Tx, slug: str) -> list[DupProtest]:
    games = _games_tx(tx, slug)
    return list_protests(tx.db, games[-1].id) if games else []


async def filed_protest(app: App, slug: str, discord_id: int, number: int, word: str
                        ) -> DupProtest | None:
    """This player's protest of `word` in round `number` of the current game, if filed (a
    restart re-runs the step that filed it: the interaction is not delivered twice)."""
    protests = await app.run(_protests_tx, slug)
    me = await app.run(lambda tx: player_by_discord(tx.db, event_of(tx.db, slug), discord_id,
                                                    playing=False).id)
    if not isinstance(protests, list) or not isinstance(me, int):
        return None
    return next((p for p in protests if p.player_id == me and p.round_no == number
                 and p.word == word), None)


async def protest(app: App, slug: str, discord_id: int, number: int, word: str, claim: str,
                  reason: str) -> Reply:
    """`/namietka` in a duplicate event (003 r. 27): the protest's number, or the refusal."""
    filed = await app.run(file_protest, slug, number, word, claim, reason,
                          discord_id=discord_id)
    if isinstance(filed, Reply):
        return filed
    return done("chat.duplicate.protest_filed", id=filed.id, round=filed.round_no,
                word=filed.word, rule="003 r. 27")


async def decide(app: App, slug: str, protest_id: int, upheld: bool, reason: str,
                 admin: int) -> Reply:
    """The head admin's decision (003 r. 29): how many round scores it changed."""
    decided = await app.run(decide_protest, slug, protest_id, upheld, reason, admin)
    if isinstance(decided, Reply):
        return decided
    return decided_reply(protest_id, upheld, decided.changed)


# -- a hall game: the arbiter opens and closes the rounds and types racks and slips ---------


async def last_round(app: App, slug: str) -> DupRound | None:
    """The current game's latest round (None: none opened yet)."""
    def read(tx: Tx) -> DupRound | None:
        games = _games_tx(tx, slug)
        rounds = list_rounds(tx.db, games[-1].id) if games else []
        return rounds[-1] if rounds else None

    found = await app.run(read)
    return found if isinstance(found, DupRound) else None


async def open_hall(app: App, slug: str, number: int, rack: str | None
                    ) -> tuple[list[str], Reply | None]:
    """`stredisko duplicate rack SLUG N RACK` (the rack typed) or `… draw SLUG N`: the
    arbiter's lines, or the refusal."""
    opened = await app.run(open_round, slug, rack=rack, round_no=number, admin="arbiter")
    if isinstance(opened, Reply):
        return [], opened
    return await opened_lines(app, slug, opened), None


async def hall_slip(app: App, slug: str, player: str, number: int, move: str,
                    declared: int | None, received: datetime) -> SlipReceipt | Reply:
    """`stredisko duplicate slip SLUG N PLAYER "MOVE" [--declared D] [--late]`: a slip the
    arbiter collected, typed as received (late when past the limit, 003 r. 19: the receipt
    says which, and so whether the arbiter types `--late`)."""
    return await app.run(lambda tx: submit_slip(
        tx, slug, move, received_at=received, round_no=number, player=player,
        declared=declared, source="arbiter"))


async def close_hall(app: App, slug: str, number: int) -> list[str] | Reply:
    """`stredisko duplicate close SLUG N`: the top and every slip's score."""
    closed = await close_round(app, slug, number)
    if isinstance(closed, Reply):
        return closed
    return closed_lines(closed, await app.store.read(entrant_names, slug))
