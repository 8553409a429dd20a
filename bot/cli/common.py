"""What every `stredisko` command shares: the configuration and database it works on, the
head administrator who acts, running a use case of `bot.services` on the store, and printing
its reply in Slovak."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from bot.cli.notes import database_problem
from bot.clock import SystemClock
from bot.config import Config, load_config
from bot.console import ConsoleNotifier, render_reply
from bot.i18n import SLOVAK, t
from bot.services.app import App
from bot.services.policy import Actor
from bot.services.replies import Reply
from bot.store import Store, get_player

Command = Callable[[argparse.Namespace], int]
UseCase = Callable[[App], Awaitable[Any]]
Factory = Callable[[argparse.Namespace, Actor], UseCase]
class Add(Protocol):
    """Registers a subcommand: add(name, help, run) -> its parser (with --db/--config/--admin;
    `db_help`: what --db means for it, when not the tournament database)."""

    def __call__(self, name: str, help_text: str, run: Command, *,
                 db_help: str | None = None) -> argparse.ArgumentParser: ...


def config(args: argparse.Namespace) -> Config:
    """config.toml (or --config) when there is one, always with the environment applied."""
    given = getattr(args, "config", None)
    path = Path(given or "config.toml")
    return load_config(path if given or path.exists() else None)


def db_path(args: argparse.Namespace) -> Path:
    if getattr(args, "db", None):
        return Path(args.db)
    return Path(config(args).store.path)


def admin(args: argparse.Namespace) -> Actor:
    """The CLI operator: trusted by the admin policy (he holds the database), audited by name."""
    name = (getattr(args, "admin", None) or getpass.getuser()).strip()
    if not name:
        raise ValueError(t("cli.admin_missing"))
    return Actor.operator(name)


def progress(text: str) -> None:
    print(f"stredisko: {text} …", file=sys.stderr, flush=True)


def lock_wait_s(args: argparse.Namespace) -> float:
    """How long a command waits for another process's write lock (`[store]
    lock_wait_seconds`)."""
    return config(args).store.lock_wait_seconds


def run(args: argparse.Namespace, use_case: UseCase) -> Any:
    path = db_path(args)
    wait_s = lock_wait_s(args)
    season = config(args).season

    async def go() -> Any:
        store = await Store.open(path, busy_timeout_ms=round(wait_s * 1000))
        try:
            # No Discord here: messages stay queued for the bot, the console shows them.
            async def name(player_id: int) -> str:  # "[DM Mária Ťažká]", not a store id
                return (await store.read(get_player, player_id)).name

            app = App(store, SystemClock(), ConsoleNotifier(read_name=name), delivery="queue",
                      show_local=True, season_files=season.files,
                      season_html_dir=season.html_dir)
            value = await use_case(app)
            if app.queued_for_bot:
                print(t("outbox.queued", SLOVAK, n=app.queued_for_bot), file=sys.stderr)
            return value
        finally:
            await store.close()

    try:
        return asyncio.run(go())
    except sqlite3.DatabaseError as exc:  # SQLite's English, without the file: say both
        raise ValueError(database_problem(path, exc, wait_s)) from None


def show(reply: Reply) -> int:
    """Print a reply (with its rows); a refusal goes to stderr and exits with 1."""
    out = sys.stdout if reply.ok else sys.stderr
    for line in render_reply(reply):
        print(line, file=out)
    return 0 if reply.ok else 1


def reply_command(factory: Factory, note: str | None = None) -> Command:
    """A command that runs the use case `factory` builds and prints its reply."""
    def command(args: argparse.Namespace) -> int:
        # Build the use case first: a configuration error must not follow a progress line.
        use_case = factory(args, admin(args))
        if note:
            progress(note)
        return show(run(args, use_case))

    return command
