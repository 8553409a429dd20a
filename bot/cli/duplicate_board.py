"""`stredisko duplicate tabula SLUG [--host H] [--port N]` (issue 41.1): the hall's demonstration
board — the page the arbiter's laptop shows on the projector (`bot.hall.tabula`) and its state
as JSON at `/stav.json` — served until Ctrl+C. It reads the event's database at every request
(the desk or the one-shot commands write it from other processes), so it follows the game
within its one-second refresh. It listens on 127.0.0.1 unless --host says otherwise.
"""

from __future__ import annotations

import argparse
from typing import Any

import bot.cli.args as arg
from bot.cli.word_serve import LOCAL, until_stopped
from bot.i18n import t
from bot.services.app import App
from bot.services.replies import Refusal, Reply

DEFAULT_PORT = 8081  # the word page's is 8080: both may run on the hall's laptop


def add_board_options(board: argparse.ArgumentParser) -> None:
    board.add_argument("--host", default=LOCAL,
                       help=f"adresa tabule (predvolene {LOCAL}: len tento počítač)")
    board.add_argument("--port", type=arg.port, default=DEFAULT_PORT,
                       help=f"port tabule (predvolene {DEFAULT_PORT}; 0 = ľubovoľný voľný)")


async def serve_board(app: App, slug: str, host: str, port: int) -> list[str] | Reply:
    """Serve the board of `slug` until SIGINT/SIGTERM; a refusal when there is no such
    duplicate event."""
    # aiohttp only here: importing it is 0.3 s of every other command's start (issue 21)
    from bot.hall.server import make_board_app, serve
    from bot.services.duplicate.board import board_state

    async def read() -> dict[str, Any]:
        return await app.store.read(board_state, slug, app.clock.now())

    try:
        await read()
    except Refusal as refusal:  # no such event: one line, as every hall command
        return refusal.reply
    async with serve(make_board_app(read), host, port) as url:
        print(t("duplicate.board.listening", slug=slug, url=url), flush=True)
        if host != LOCAL:
            print(t("duplicate.board.public", host=host), flush=True)
        await until_stopped()
    return [t("duplicate.board.stopped")]
