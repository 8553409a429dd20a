"""`stredisko run`: the control centre's bot process.

Start-up order: configuration and token, then the offline checks (`bot.discord.startup`: guild
id and tournament set, the database exists — `run` never creates one — and holds the
tournament, the head admin's messages have a recipient), the store, the bot with its cogs, the
App (store + system clock + Discord notifier), login — retried with a capped exponential
backoff while Discord is unreachable (a container must not stop because the network came up
late), but a rejected token is a configuration fault —, optional command sync (only with
`--sync-commands`: syncing on every start would hit Discord's rate limits and reorder commands
mid-tournament), the heartbeat file (from login on: "logged in and alive"), then the gateway.
Once connected the guild is checked against the configuration (`startup.check_guild`); then the
outbox is delivered first (what a crash or the CLI left pending; stale messages are dropped),
the scheduler fires overdue timers, the outbox sender keeps delivering what the CLI queues
meanwhile, and the round poll reads herna.net during a round. Every fault the operator must
fix is one Slovak line and exit code 2.
SIGTERM or Ctrl-C stops it cleanly: the round poll's pass in flight finished (up to 30 s), the
outbox sender stopped, scheduler stopped (if it started), heartbeat stopped, bot closed, store
closed (its queued writes finish).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.clock import SystemClock
from bot.config import Config, ConfigError, DiscordConfig, LexiconConfig, load_config
from bot.discord.client import StrediskoBot
from bot.discord.fencing import lease_trace
from bot.discord.heartbeat import Heartbeat
from bot.discord.i18n import SLOVAK, t
from bot.discord.notifier import DiscordNotifier
from bot.discord.routing import EventRouter
from bot.discord.startup import (
    StartupError,
    check_admin_recipients,
    check_configured,
    check_database,
    check_guild,
    resolve_guild_config,
)
from bot.os_errors import database_access
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.delivery import lease, periodic
from bot.services.lexicon import word_check
from bot.services.results.nightly import nightly
from bot.services.results.round_poll import poll_current_round, poll_current_rounds
from bot.services.season.on_finish import repair_pages
from bot.services.tournament import events
from bot.store import (
    NotFoundError,
    Store,
    Tournament,
    TournamentStatus,
    get_tournament_by_slug,
    list_tournaments,
)
from scrapers.herna import HernaClient, client_factory

__all__ = ["StartupError", "resolve_guild_config", "run", "serve"]

log = logging.getLogger("stredisko.runner")

EXIT_OK = 0
EXIT_FAILED = 1  # Discord was lost during start-up: not the configuration's fault
EXIT_STARTUP = 2  # the bot could not start: configuration, token, database
POLL_STOP_GRACE_S = 30.0  # how long a pass in flight (round poll, outbox) may take at shutdown
OUTBOX_EVERY_S = 10.0  # how often the outbox is checked for messages other processes queued
SETTLE_S = 10.0  # how long deliveries still running after their answers may take at a stop
#: how often a bot of every event looks for events created (or given a channel) meanwhile: it
#: serves them at once anyway (every interaction reads the store), this checks their channel
EVENTS_EVERY_S = 60.0


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waits between login attempts while Discord is unreachable: `first` seconds, doubled
    after each failure, never more than `cap` (a container restarted in the night reconnects
    within minutes of Discord's return, without hammering it meanwhile)."""

    first: float = 2.0
    cap: float = 300.0

    def wait(self, attempt: int) -> float:
        return min(self.cap, self.first * 2 ** min(attempt - 1, 32))


#: what "Discord is unreachable" looks like at login: no network or DNS, a timeout, Discord's 5xx
UNREACHABLE = (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError)


def run(config_path: str | None, sync_commands: bool) -> int:
    """Run the bot until SIGTERM/Ctrl-C; the exit code for the CLI."""
    _configure_logging()
    try:
        config = load_config(config_path)
        token = config.discord.token.strip()
        if not token:
            raise StartupError.of("no_token")
        return asyncio.run(serve(config, token, sync_commands=sync_commands))
    except ConfigError as exc:
        return _fail(t("run.config", SLOVAK, reason=exc))
    except StartupError as exc:
        return _fail(str(exc))
    except discord.LoginFailure:
        return _fail(t("run.token_rejected", SLOVAK))
    except discord.PrivilegedIntentsRequired:
        return _fail(t("run.intents", SLOVAK))
    except discord.HTTPException as exc:  # another refusal at start (e.g. the command sync)
        return _fail(t("run.discord_refused", SLOVAK, status=exc.status, error=exc.text))
    except UNREACHABLE as exc:  # lost after login, before the gateway: a restart retries
        return _fail(t("run.lost", SLOVAK, error=str(exc) or type(exc).__name__), EXIT_FAILED)
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were installed
        return EXIT_OK


def _fail(line: str, code: int = EXIT_STARTUP) -> int:
    print(t("run.error", SLOVAK, reason=line), file=sys.stderr)
    return code


def _configure_logging() -> None:
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )


# -- the pieces --------------------------------------------------------------------------


def herna_factory(config: Config) -> Callable[[], HernaClient] | None:
    """Opens a herna.net client with the configured login; None when no login is configured
    (then the bot neither syncs at night nor on `/admin synchronizuj`)."""
    return client_factory(config.herna)


NO_LEXICON = LexiconConfig(default="")  # /slovo answers that no lexicon is set up


def build_bot(
    app_holder: list[App], slug: str, herna: Callable[[], HernaClient] | None = None,
    season_file: str | Sequence[str] = "", lexicon: LexiconConfig = NO_LEXICON,
) -> StrediskoBot:
    """The bot (`_cogs`) with its event router: `slug` pins it to one event, "" serves every
    unfinished event of the database, each in its channel (issue 37)."""
    bot = _cogs(app_holder, slug, herna, season_file, lexicon)

    async def read(fn: Callable[..., Any]) -> Any:
        return await app_holder[0].store.read(fn)

    bot.events = EventRouter(read, slug, lambda: bot.config.control_channel_id
                             if bot.config is not None else None)
    return bot


def _cogs(
    app_holder: list[App], slug: str, herna: Callable[[], HernaClient] | None,
    season_file: str | Sequence[str], lexicon: LexiconConfig,
) -> StrediskoBot:
    """The bot with the player, head-admin, season, word and duplicate cogs; they read the App from
    `app_holder` (the App needs the bot's notifier, the bot needs the cogs: the holder breaks
    the cycle). `season_file` is config.toml's `[season] file`, every one of them ("" = none);
    `lexicon` its `[lexicon]` section, which /slovo loads on its first check."""
    from bot.discord.cogs import admin_cog_factory, player_cog_factory
    from bot.discord.cogs.duplicate import duplicate_cog_factory
    from bot.discord.cogs.season import season_cog_factory
    from bot.discord.cogs.word import word_cog_factory

    return StrediskoBot(cogs=[player_cog_factory(app_holder, slug),
                              admin_cog_factory(app_holder, slug, herna=herna),
                              season_cog_factory(app_holder, season_file),
                              word_cog_factory(app_holder, slug,
                                               partial(word_check.configured, lexicon),
                                               word_check.policy_of(lexicon)),
                              duplicate_cog_factory(app_holder, slug)])


def make_scheduler(
    app: App, herna: Callable[[], HernaClient] | None = None, nightly_at: str = "03:00"
) -> Scheduler:
    """The restart-safe timer scheduler, started inside the bot's event loop, with the
    nightly herna.net sync (a fresh client each night) when a login is configured."""
    if herna is None:
        return Scheduler(app)

    async def nightly_sync(since: datetime) -> None:
        async with herna() as client:
            await nightly(app, client, since=since)

    hour, minute = (int(part) for part in nightly_at.split(":"))
    return Scheduler(app, nightly=nightly_sync, nightly_at=time(hour, minute))


async def _open_store(path: str, slug: str, wait_s: float) -> tuple[Store, list[Tournament]]:
    """The existing database and the events it serves (never a new, empty database): the one
    `slug` names, or "" every unfinished one — none yet is no fault, an event created later is
    served at its first command. The store waits `wait_s` for another process's write lock."""
    check_database(path, slug)
    # before SQLite, whose "readonly database" would come only at the first write (the lease)
    no_access = database_access(path)
    if no_access is not None:
        raise StartupError.of("database_unusable", path=path, error=no_access)
    try:
        store = await Store.open(path, busy_timeout_ms=round(wait_s * 1000))
    except (sqlite3.Error, OSError) as exc:
        raise StartupError.of("database_unusable", path=path, error=exc) from None
    try:
        if not slug:
            return store, await store.read(_unfinished)
        return store, [await store.read(get_tournament_by_slug, slug)]
    except NotFoundError:
        await store.close()
        raise StartupError.of("unknown_tournament", slug=slug, path=path) from None
    except BaseException:
        await store.close()
        raise


def _unfinished(db: Any) -> list[Tournament]:
    return [t for t in list_tournaments(db) if t.status is not TournamentStatus.FINISHED]


async def sync_app_commands(bot: StrediskoBot, guild_id: int) -> int:
    """Publish the slash commands: to the tournament guild (instant) or globally."""
    if guild_id:
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    else:
        synced = await bot.tree.sync()
    log.info("synced %d slash commands (%s)", len(synced), guild_id or "global")
    return len(synced)


class Stopped(Exception):
    """SIGTERM/Ctrl-C came while the bot was still waiting for Discord."""


async def login_with_retry(
    bot: discord.Client, token: str, stop: asyncio.Event, backoff: Backoff = Backoff()
) -> None:
    """Log in; while Discord is unreachable, try again after `backoff`'s growing waits, each
    attempt logged in Slovak with the next wait. A rejected token (`LoginFailure`, Discord's
    401) is not retried: it is a configuration fault. `Stopped` when `stop` is set meanwhile."""
    attempt = 0
    while True:
        attempt += 1
        try:
            await bot.login(token)
            return
        except UNREACHABLE as exc:
            wait = backoff.wait(attempt)
            log.warning("%s", t("run.retry", SLOVAK, attempt=attempt, seconds=wait,
                                error=str(exc) or type(exc).__name__))
            await _drop_session(bot)
        await periodic.pause(stop, wait)
        if stop.is_set():
            log.info("%s", t("run.retry_stopped", SLOVAK))
            raise Stopped


async def _drop_session(bot: discord.Client) -> None:
    """Close the failed attempt's HTTP session and its connector: the next login opens fresh
    ones (discord.py reuses a connector its closed session already closed)."""
    await bot.http.close()
    bot.http.connector = discord.utils.MISSING


def _install_signals(stop: asyncio.Event) -> list[signal.Signals]:
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    return installed


def _remove_signals(signals: list[signal.Signals]) -> None:
    loop = asyncio.get_running_loop()
    for sig in signals:
        loop.remove_signal_handler(sig)


# -- the process -------------------------------------------------------------------------


async def _repair_season_pages(app: App) -> None:
    try:
        for page in await repair_pages(app):
            log.info("season page owed since an interrupted finish written: %s", page.file)
    except Exception:  # a page is never worth a bot that does not start
        log.exception("season pages owed: not repaired at start")


@dataclass
class _Started:
    """What the first `on_ready` did: the guild check's fault, the scheduler once running
    (only a started one is stopped and said to be)."""

    fault: StartupError | None = None
    scheduler: Scheduler | None = None


async def serve(
    config: Config, token: str, *, sync_commands: bool, stop: asyncio.Event | None = None,
    backoff: Backoff = Backoff(),
) -> int:
    """Run until `stop` is set (SIGTERM/SIGINT set it) or the gateway ends."""
    stop = stop or asyncio.Event()
    slug = check_configured(config.discord)
    signals = _install_signals(stop)
    try:
        store, served = await _open_store(config.store.path, slug,
                                             config.store.lock_wait_seconds)
    except BaseException:
        _remove_signals(signals)
        raise
    started = _Started()
    heartbeat = Heartbeat(Path(config.discord.heartbeat_file), config.discord.heartbeat_seconds)
    leased: list[lease.Holding] = []  # this process's hold, once it holds the database
    keeper: list[asyncio.Task[None]] = []  # renews it while the bot runs
    try:
        leased.append(await _take_lease(store, config.store.path))
        leased[0].stop = stop  # a lease lost (taken over) stops the bot
        for tournament in served:
            check_admin_recipients(config.discord, tournament)
        _warn_shared_centre(served if not slug else [])
        tournament = served[0] if slug else None
        holder: list[App] = []
        herna = herna_factory(config)
        seasons = config.season.files
        bot = build_bot(holder, slug, herna, seasons, config.lexicon)  # every file (44.8)
        confirm = partial(leased[0].confirm, store, SystemClock())
        # discord.py builds its session at login from this: every attempt it sends, its own
        # retries after a 429 included, confirms the lease first (issue 43.4)
        bot.http.http_trace = lease_trace(confirm)
        admin_channel = config.discord.admin_channel_id or None
        notifier = DiscordNotifier(bot, store, admin_channel_id=admin_channel,
                                   tournament_id=tournament.id if tournament else None,
                                   before_post=confirm)
        # a player is answered once his change is committed; its messages go out meanwhile
        app = App(store, SystemClock(), notifier, answer_first=True, lease=leased[0],
                  season_files=seasons, season_html_dir=config.season.html_dir)
        holder.append(app)
        scheduler = make_scheduler(app, herna, config.sync.nightly)
        background: list[asyncio.Task[None]] = []

        async def begin() -> None:
            """The work, once the guild passed its check: what waited in the outbox first,
            then the scheduler, the outbox sender and the round poll. A season page a crash
            left owed is written first (issue 44.2); its failure is told, never fatal."""
            await _repair_season_pages(app)
            flushed = await app.sender.flush()
            log.info("outbox at start: %d sent, %d dropped as stale, %d failed",
                     flushed.sent, flushed.dropped, flushed.failed)
            await scheduler.start()
            started.scheduler = scheduler
            log.info("scheduler started")
            background.append(asyncio.create_task(app.sender.run(stop, OUTBOX_EVERY_S),
                                                  name="stredisko-outbox"))
            poll = _start_round_poll(app, slug, herna, config.sync.poll_minutes, stop)
            background.extend([poll] if poll is not None else [])
            if not slug:  # a bot of every event: those created meanwhile are checked too
                known = {(event.id, event.channel_id) for event in served}
                background.append(asyncio.create_task(periodic.every(
                    stop, EVENTS_EVERY_S, partial(check_new_events, bot, config.discord,
                                                  app.store, known, notifier.channel_fault),
                    log, "event watch"),
                    name="stredisko-events"))

        bot.add_listener(_on_ready(bot, config.discord, tournament, started, stop, begin,
                                   [] if slug else served), "on_ready")
        keeper.append(asyncio.create_task(
            lease.keep(store, app.clock, leased[0], stop), name="stredisko-lease"))
        async with bot:
            try:
                await login_with_retry(bot, token, stop, backoff)
            except Stopped:
                return EXIT_OK
            if sync_commands:
                await sync_app_commands(bot, config.discord.guild_id)
            heartbeat.start()
            try:
                await _until_stopped(bot, stop)
            finally:
                for task in background:
                    await stop_background(task, stop)
                await _settle(app)
        if started.fault is not None:
            raise started.fault
    finally:
        for task in keeper:
            await stop_background(task, stop)
        if leased and not leased[0].lost.is_set():
            await lease.release(store, leased[0], SystemClock())
        await _shutdown(started.scheduler, heartbeat, store, signals)
    return EXIT_FAILED if leased and leased[0].lost.is_set() else EXIT_OK


async def _settle(app: App) -> None:
    """At a stop, the deliveries still running after their answers get `SETTLE_S` to end;
    what they leave stays pending in the outbox and goes out at the next start."""
    try:
        await asyncio.wait_for(app.settle(), SETTLE_S)
    except TimeoutError:
        log.warning("deliveries still running at the stop: their messages stay in the outbox")


async def _take_lease(store: Store, path: str) -> lease.Holding:
    """The database's lease for this bot; a live bot already serving it: one line, exit 2."""
    try:
        return await lease.acquire(store, SystemClock())
    except lease.LeaseHeld as held:
        raise StartupError.of("lease_held", path=path, host=held.lease.host,
                              pid=held.lease.pid, heartbeat=held.lease.heartbeat_at) from None


def _start_round_poll(
    app: App, slug: str, herna: Callable[[], HernaClient] | None, minutes: int,
    stop: asyncio.Event,
) -> asyncio.Task[None] | None:
    """During a round, read herna.net every `minutes` until every table has its game."""
    if herna is None:
        return None
    return asyncio.create_task(round_poll(app, slug, herna, minutes * 60, stop),
                               name="stredisko-round-poll")


async def round_poll(
    app: App, slug: str, herna: Callable[[], HernaClient], every: float, stop: asyncio.Event
) -> None:
    """The round poll's loop: one tick, then wait `every` seconds or until `stop` is set (then
    it returns at once). A tick logs in only when a table lacks a game."""
    await periodic.every(stop, every, lambda: poll_events(app, slug, herna), log, "round poll")


async def poll_events(app: App, slug: str, herna: Callable[[], HernaClient]) -> None:
    """One tick over the classic events served — `slug`'s, or "" every running classic event,
    read afresh (an event created meanwhile is polled from its first round), all through one
    herna.net login; one event's trouble is logged and never stops the others' poll."""
    if slug:  # one event: its trouble is the loop's to log, as before issue 37
        await poll_current_round(app, slug, herna)
        return
    running = [e.slug for e in await app.store.read(events.running, "classic")]
    await poll_current_rounds(app, running, herna)  # one herna.net login for the whole tick


async def stop_background(
    task: asyncio.Task[None], stop: asyncio.Event, grace: float = POLL_STOP_GRACE_S
) -> None:
    """Ask a background loop (the round poll, the outbox sender) to stop and let the pass in
    flight finish (a sync run is recorded as finished, not left "running" for ever; a message
    handed to Discord is marked); cancel it only after `grace` seconds."""
    stop.set()  # the gateway may have ended by itself: the loop must still be told
    try:
        await asyncio.wait_for(asyncio.shield(task), grace)
    except TimeoutError:
        log.warning("%s still running after %g s: cancelled", task.get_name(), grace)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    except Exception:  # the loops catch their own errors; this is only a safety net
        log.exception("%s ended with an error", task.get_name())


def _on_ready(
    bot: StrediskoBot, config: DiscordConfig, tournament: Tournament | None, started: _Started,
    stop: asyncio.Event, begin: Callable[[], Awaitable[None]],
    served: Sequence[Tournament] = (),
) -> Callable[[], Awaitable[None]]:
    """Once connected, the first time: check the guild against the configuration (a fault
    stops the bot: `serve` raises it, exit code 2), then `begin` the work — not earlier, so
    messages know where to go. On a later reconnect only the control centre is found again (a
    fault is then logged, the bot goes on)."""
    checked = False

    async def on_ready() -> None:
        nonlocal checked
        if checked:
            _refresh_guild_config(bot, config, tournament)
            return
        checked = True
        try:
            bot.config = await check_guild(bot, config, tournament)
            for each in served:  # a bot serving several: each event's channel and admins
                await check_guild(bot, config, each)
        except Exception as exc:  # the bot must not idle unchecked: it stops, saying why
            if not isinstance(exc, StartupError):
                log.exception("the start-up check failed")
                exc = StartupError.of("check_failed", error=exc)
            started.fault = exc
            stop.set()
            return
        log.info("control centre: guild %s, channel %s", bot.config.guild_id,
                 bot.config.control_channel_id)
        await begin()

    return on_ready


def _warn_shared_centre(served: Sequence[Tournament]) -> None:
    """Several events without a channel of their own share the control centre: the bot then
    asks there which one a command is about — allowed, but said once at start."""
    shared = [t.slug for t in served if t.channel_id is None]
    if len(shared) > 1:
        log.warning("%s", t("run.shared_centre", SLOVAK, slugs=", ".join(shared)))


async def check_new_events(bot: StrediskoBot, config: DiscordConfig, store: Store,
                           known: set[tuple[int, int | None]],
                           tell: Callable[[Tournament, int | None, str], Awaitable[None]]
                           | None = None) -> list[str]:
    """Events that appeared, or were given another channel, since the last look (`known`:
    event id and channel): checked against the guild like those at start — but a fault now
    is one logged Slovak line for the operator, not a stop (the other events go on), and
    `tell` says it to the event's head admin (`DiscordNotifier.channel_fault`: once per
    problem — a pair in `known` is not checked again). Returns the lines logged."""
    lines = []
    for event in await store.read(_unfinished):
        if (event.id, event.channel_id) in known:
            continue
        known.add((event.id, event.channel_id))
        try:
            await check_guild(bot, config, event)
            log.info("%s", t("run.event_served", SLOVAK, slug=event.slug,
                             channel=event.channel_id or config.channel))
        except StartupError as exc:
            lines.append(t("run.event_fault", SLOVAK, slug=event.slug, reason=exc))
            log.error("%s", lines[-1])
            if tell is not None:
                await tell(event, event.channel_id, str(exc))
    return lines


def _refresh_guild_config(bot: StrediskoBot, config: DiscordConfig,
                          tournament: Tournament | None) -> None:
    guild = bot.get_guild(config.guild_id)
    try:
        if guild is None:
            raise StartupError.of("guild_unreachable", guild_id=config.guild_id)
        bot.config = resolve_guild_config(guild, tournament, config)
    except StartupError as exc:
        log.error("%s", exc)


async def _until_stopped(bot: StrediskoBot, stop: asyncio.Event) -> None:
    gateway = asyncio.create_task(bot.connect(reconnect=True), name="stredisko-gateway")
    stopped = asyncio.create_task(stop.wait(), name="stredisko-stop")
    done, _ = await asyncio.wait({gateway, stopped}, return_when=asyncio.FIRST_COMPLETED)
    if stopped in done:
        log.info("stop requested: shutting down")
    for task in (gateway, stopped):
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if gateway in done:
        gateway.result()  # a fatal gateway error (e.g. privileged intents) surfaces here


async def _shutdown(
    scheduler: Scheduler | None, heartbeat: Heartbeat, store: Store, signals: list[signal.Signals]
) -> None:
    """`scheduler` is the one that started (None: it never did, and nothing says it stopped)."""
    if scheduler is not None:
        try:
            await scheduler.stop()
            log.info("scheduler stopped")
        except Exception:
            log.exception("scheduler did not stop cleanly")
    await heartbeat.stop()
    await store.close()
    log.info("store closed")
    _remove_signals(signals)
