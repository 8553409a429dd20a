"""`stredisko run`: the control centre's bot process.

Start-up order: configuration and token (a missing or rejected token is one clear line and exit
code 2), the store, the bot with its cogs, the App (store + system clock + Discord notifier),
login, optional command sync (only with `--sync-commands`: syncing on every start would hit
Discord's rate limits and reorder commands mid-tournament), the heartbeat file and the
scheduler inside the bot's event loop, then the gateway. Once connected the outbox is delivered
first (what a crash or the CLI left pending; stale messages are dropped), then the scheduler
fires overdue timers, and the outbox sender keeps delivering what the CLI queues meanwhile.
SIGTERM or Ctrl-C stops it cleanly: the round poll's pass in flight finished (up to 30 s), the
outbox sender stopped, scheduler stopped, heartbeat stopped, bot closed, store closed (its
queued writes finish).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from datetime import time
from pathlib import Path

import discord

from bot.clock import SystemClock
from bot.config import Config, ConfigError, DiscordConfig, load_config
from bot.discord.client import GuildConfig, StrediskoBot
from bot.discord.heartbeat import DEFAULT_INTERVAL_S, Heartbeat
from bot.discord.notifier import DiscordNotifier
from bot.scheduler import Scheduler
from bot.services.app import App
from bot.services.sync import nightly, poll_current_round
from bot.store import NotFoundError, Store, Tournament, get_tournament_by_slug
from scrapers.herna import Credentials, HernaClient, HernaSettings

log = logging.getLogger("stredisko.runner")

EXIT_OK = 0
EXIT_STARTUP = 2  # the bot could not start: configuration, token, database
POLL_STOP_GRACE_S = 30.0  # how long a pass in flight (round poll, outbox) may take at shutdown
OUTBOX_EVERY_S = 10.0  # how often the outbox is checked for messages other processes queued


class StartupError(Exception):
    """Something the operator must fix before the bot can start; the message says what."""


def run(config_path: str | None, sync_commands: bool) -> int:
    """Run the bot until SIGTERM/Ctrl-C; the exit code for the CLI."""
    _configure_logging()
    try:
        config = load_config(config_path)
        token = config.discord.token.strip()
        if not token:
            raise StartupError(
                "chýba token Discordu: nastavte premennú DISCORD_TOKEN "
                "alebo token v sekcii [discord] konfigurácie"
            )
        return asyncio.run(serve(config, token, sync_commands=sync_commands))
    except ConfigError as exc:
        return _fail(f"konfigurácia: {exc}")
    except StartupError as exc:
        return _fail(str(exc))
    except discord.LoginFailure:
        return _fail("Discord odmietol token (neplatný alebo zrušený): skontrolujte DISCORD_TOKEN")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord vyžaduje privilegované oprávnenia (intents), ktoré bot nemá povolené")
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were installed
        return EXIT_OK


def _fail(line: str) -> int:
    print(f"stredisko: chyba: {line}", file=sys.stderr)
    return EXIT_STARTUP


def _configure_logging() -> None:
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )


# -- the pieces --------------------------------------------------------------------------


def tournament_slug(config: DiscordConfig) -> str:
    # `tournament` is requested for bot.config.DiscordConfig; until then it may be missing.
    return str(getattr(config, "tournament", "") or "")


def herna_factory(config: Config) -> Callable[[], HernaClient] | None:
    """Opens a herna.net client with the configured login; None when no login is configured
    (then the bot neither syncs at night nor on `/admin synchronizuj`)."""
    herna = config.herna
    if not herna.user or not herna.password:
        return None
    credentials = Credentials(herna.user, herna.password)
    settings = HernaSettings.from_config(herna)
    return lambda: HernaClient(credentials, settings)


def build_bot(
    app_holder: list[App], slug: str, herna: Callable[[], HernaClient] | None = None,
    season_file: str = "",
) -> StrediskoBot:
    """The bot with the player, head-admin and season cogs; they read the App from
    `app_holder` (the App needs the bot's notifier, the bot needs the cogs: the holder breaks
    the cycle). `season_file` is config.toml's `[season] file` ("" = none)."""
    from bot.discord.cogs import admin_cog_factory, player_cog_factory
    from bot.discord.cogs.season import season_cog_factory

    return StrediskoBot(cogs=[player_cog_factory(app_holder, slug),
                              admin_cog_factory(app_holder, slug, herna=herna),
                              season_cog_factory(app_holder, season_file)])


def make_scheduler(
    app: App, herna: Callable[[], HernaClient] | None = None, nightly_at: str = "03:00"
) -> Scheduler:
    """The restart-safe timer scheduler, started inside the bot's event loop, with the
    nightly herna.net sync (a fresh client each night) when a login is configured."""
    if herna is None:
        return Scheduler(app)

    async def nightly_sync() -> None:
        async with herna() as client:
            await nightly(app, client)

    hour, minute = (int(part) for part in nightly_at.split(":"))
    return Scheduler(app, nightly=nightly_sync, nightly_at=time(hour, minute))


def resolve_guild_config(
    guild: discord.Guild, tournament: Tournament | None, config: DiscordConfig
) -> GuildConfig:
    """Where the tournament lives: ids from the tournament row, else found by the configured
    names (channel `riadiace-stredisko`, role `Hlavný administrátor`)."""
    channel_id = tournament.channel_id if tournament else None
    if channel_id is None:
        channel = discord.utils.get(guild.text_channels, name=config.channel)
        if channel is None:
            raise StartupError(f"na serveri {guild.name} nie je kanál #{config.channel}")
        channel_id = channel.id
    role_id = tournament.admin_role_id if tournament else None
    if role_id is None:
        role = discord.utils.get(guild.roles, name=config.admin_role)
        if role is None:
            raise StartupError(f"na serveri {guild.name} nie je rola „{config.admin_role}“")
        role_id = role.id
    return GuildConfig(guild.id, channel_id, role_id)


async def _load_tournament(store: Store, slug: str) -> Tournament | None:
    if not slug:
        log.warning("no [discord] tournament configured: player commands will refuse")
        return None
    try:
        return await store.read(get_tournament_by_slug, slug)
    except NotFoundError:
        raise StartupError(f"turnaj „{slug}“ v databáze nie je (najprv ho založte)") from None


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


def _install_signals(stop: asyncio.Event) -> list[signal.Signals]:
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    return installed


# -- the process -------------------------------------------------------------------------


async def serve(
    config: Config, token: str, *, sync_commands: bool, stop: asyncio.Event | None = None
) -> int:
    """Run until `stop` is set (SIGTERM/SIGINT set it) or the gateway ends."""
    stop = stop or asyncio.Event()
    signals = _install_signals(stop)
    try:
        store = await Store.open(config.store.path)
    except (sqlite3.Error, OSError) as exc:
        raise StartupError(f"databázu {config.store.path} nemožno otvoriť: {exc}") from None
    scheduler: Scheduler | None = None
    heartbeat = Heartbeat(
        Path(config.discord.heartbeat_file),
        float(getattr(config.discord, "heartbeat_seconds", DEFAULT_INTERVAL_S)),
    )
    try:
        slug = tournament_slug(config.discord)
        tournament = await _load_tournament(store, slug)
        holder: list[App] = []
        herna = herna_factory(config)
        bot = build_bot(holder, slug, herna, config.season.file)
        admin_channel = int(getattr(config.discord, "admin_channel_id", 0) or 0) or None
        app = App(store, SystemClock(), DiscordNotifier(bot, store, admin_channel_id=admin_channel))
        holder.append(app)
        scheduler = make_scheduler(app, herna, config.sync.nightly)
        background: list[asyncio.Task[None]] = []
        bot.add_listener(_on_ready(bot, config.discord, tournament, scheduler, stop, background),
                         "on_ready")
        async with bot:
            await bot.login(token)
            if sync_commands:
                await sync_app_commands(bot, config.discord.guild_id)
            heartbeat.start()
            poll = _start_round_poll(app, slug, herna, config.sync.poll_minutes, stop)
            try:
                await _until_stopped(bot, stop)
            finally:
                for task in ([poll] if poll is not None else []) + background:
                    await stop_background(task, stop)
    finally:
        await _shutdown(scheduler, heartbeat, store, signals)
    return EXIT_OK


def _start_round_poll(
    app: App, slug: str, herna: Callable[[], HernaClient] | None, minutes: int,
    stop: asyncio.Event,
) -> asyncio.Task[None] | None:
    """During a round, read herna.net every `minutes` until every table has its game."""
    if herna is None or not slug:
        return None
    return asyncio.create_task(round_poll(app, slug, herna, minutes * 60, stop),
                               name="stredisko-round-poll")


async def round_poll(
    app: App, slug: str, herna: Callable[[], HernaClient], every: float, stop: asyncio.Event
) -> None:
    """The round poll's loop: one `poll_current_round` tick, then wait `every` seconds or until
    `stop` is set (then it returns at once). A tick logs in only when a table lacks a game."""
    while not stop.is_set():
        try:
            await poll_current_round(app, slug, herna)
        except Exception:  # a herna.net outage must never stop the bot
            log.exception("round poll failed; trying again in %g s", every)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)


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
    bot: StrediskoBot, config: DiscordConfig, tournament: Tournament | None, scheduler: Scheduler,
    stop: asyncio.Event, background: list[asyncio.Task[None]],
) -> Callable[[], Awaitable[None]]:
    """Once connected: find the control centre, then (first time only) deliver the pending
    outbox, start the scheduler and the outbox sender — not earlier, so messages know where
    to go."""
    started = False

    async def on_ready() -> None:
        nonlocal started
        guild = bot.get_guild(config.guild_id)
        if guild is None:
            log.error("the bot is not a member of guild %s", config.guild_id)
        else:
            try:
                bot.config = resolve_guild_config(guild, tournament, config)
                log.info("control centre: guild %s, channel %s", guild.id,
                         bot.config.control_channel_id)
            except StartupError as exc:
                log.error("%s", exc)
        if not started:
            started = True
            sender = scheduler.app.sender
            flushed = await sender.flush()
            log.info("outbox at start: %d sent, %d dropped as stale, %d failed",
                     flushed.sent, flushed.dropped, flushed.failed)
            await scheduler.start()
            log.info("scheduler started")
            background.append(asyncio.create_task(sender.run(stop, OUTBOX_EVERY_S),
                                                  name="stredisko-outbox"))

    return on_ready


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
    if scheduler is not None:
        try:
            await scheduler.stop()
            log.info("scheduler stopped")
        except Exception:
            log.exception("scheduler did not stop cleanly")
    await heartbeat.stop()
    await store.close()
    log.info("store closed")
    loop = asyncio.get_running_loop()
    for sig in signals:
        loop.remove_signal_handler(sig)
