"""`stredisko word --serve [--host 127.0.0.1] [--port N]` (issue 22 item 5): the word-check
page for the hall's computer (`bot.hall`), over the lexicon and rules `stredisko word` would
use. It runs until Ctrl+C. It listens on 127.0.0.1 unless --host says otherwise; another host
makes the page reachable from the network, which the start line says.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

import bot.cli.args as arg
from bot.i18n import t
from rules.lexicon import Admissibility, Lexicon

LOCAL = "127.0.0.1"
DEFAULT_PORT = 8080


def add_serve_options(word: argparse.ArgumentParser) -> None:
    word.add_argument("--serve", action="store_true",
                      help="spustiť stránku na overovanie slov pre počítač v sále")
    word.add_argument("--host", default=LOCAL,
                      help=f"adresa stránky (predvolene {LOCAL}: len tento počítač)")
    word.add_argument("--port", type=arg.port, default=DEFAULT_PORT,
                      help=f"port stránky (predvolene {DEFAULT_PORT}; 0 = ľubovoľný voľný)")


def serve_command(args: argparse.Namespace, lexicon: Lexicon, rules: Admissibility) -> int:
    """Serve the page until Ctrl+C (or SIGTERM)."""
    with contextlib.suppress(KeyboardInterrupt):  # where signal handlers cannot be set
        asyncio.run(_serve(lexicon, rules, args.host, args.port))
    print(t("word.serve.stopped"), flush=True)
    return 0


async def _serve(lexicon: Lexicon, rules: Admissibility, host: str, port: int) -> None:
    # aiohttp only here: importing it is 0.3 s of every other command's start (issue 21)
    from bot.hall.server import make_app, serve
    async with serve(make_app(lexicon, rules), host, port) as url:
        print(t("word.serve.listening", url=url, id=lexicon.id, title=lexicon.title,
                rules=rules.name), flush=True)
        if host != LOCAL:
            print(t("word.serve.public", host=host), flush=True)
        await until_stopped()


async def until_stopped() -> None:
    """Wait for Ctrl+C or SIGTERM (a page served until the arbiter ends it)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
