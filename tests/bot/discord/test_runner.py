"""`stredisko run`: start-up errors, a clean stop on SIGTERM/Ctrl-C, the heartbeat file, the
command sync only on request — without ever contacting Discord."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.clock import ManualClock
from bot.config import DiscordConfig, load_config
from bot.discord import runner
from bot.discord.client import GuildConfig, StrediskoBot
from bot.discord.heartbeat import Heartbeat, is_fresh, read_heartbeat, write_heartbeat
from bot.discord.heartbeat import main as heartbeat_main
from bot.services.app import App
from bot.services.delivery.outbox import Timely
from bot.services.notifier import RecordingNotifier
from bot.store import Change, Store, create_tournament
from bot.store.outbox import OutboxStatus, list_outbox

from .conftest import RUN_ADMIN, config_file, fake_gateway, run_tournament
from .harness import (
    CONTROL_CHANNEL_ID,
    GUILD_ID,
    HEAD_ADMIN_ROLE_ID,
    PLAYER_ROLE_ID,
    DiscordHarness,
)
from .harness.contract import require

ROOT = Path(__file__).resolve().parents[3]
START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)


# -- start-up errors: one line, exit code 2 ------------------------------------------------


def test_missing_token_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert runner.run(str(config_file(tmp_path)), False) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("stredisko: chyba: chýba token Discordu") and "DISCORD_TOKEN" in err


def test_rejected_token_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Unauthorized:
        status = 401
        reason = "Unauthorized"

    async def request(self: Any, route: Any, **kwargs: Any) -> Any:
        # What Discord answers a bad token with; discord.py's static_login turns it into
        # LoginFailure exactly as in production.
        raise discord.HTTPException(Unauthorized(), {"code": 0, "message": "401: Unauthorized"})

    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    run_tournament(tmp_path / "stredisko.db")
    assert runner.run(str(config_file(tmp_path)), False) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1  # a configuration fault: no retry, no "Discord je nedostupný"
    assert "Discord odmietol token" in err and "not-a-real-token" not in err


def test_bad_config_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[discord]\nguild = 1\n", encoding="utf-8")
    assert runner.run(str(path), False) == 2
    err = capsys.readouterr().err
    assert err == ("stredisko: chyba: konfigurácia: [discord] guild: neznámy kľúč – nemysleli "
                   "ste guild_id? (známe: token, guild_id, admin_role, channel, locale, "
                   "heartbeat_file, heartbeat_seconds, tournament, admin_channel_id)\n")


def test_unknown_tournament_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_tournament(tmp_path / "stredisko.db")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert runner.run(str(config_file(tmp_path, tournament="neexistuje")), False) == 2
    assert "turnaj „neexistuje“ v databáze" in capsys.readouterr().err


# -- the running process, in-process ------------------------------------------------------


async def _wait_for(path: Path, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("sync_commands", [False, True])
async def test_serve_runs_until_stopped_and_syncs_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    sync_commands: bool,
) -> None:
    syncs = fake_gateway(monkeypatch)
    run_tournament(tmp_path / "stredisko.db")
    config = load_config(config_file(tmp_path), env={})
    stop = asyncio.Event()
    with caplog.at_level(logging.INFO, "stredisko"):
        task = asyncio.create_task(
            runner.serve(config, "token", sync_commands=sync_commands, stop=stop))
        await _wait_for(tmp_path / "heartbeat")
        while "scheduler started" not in caplog.text:
            assert not task.done()
            await asyncio.sleep(0.01)
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    assert syncs == ([GUILD_ID] if sync_commands else [])
    assert read_heartbeat(tmp_path / "heartbeat") is not None
    messages = [r.getMessage() for r in caplog.records]
    assert messages[-2:] == ["scheduler stopped", "store closed"]
    assert messages.index("scheduler started") < messages.index("stop requested: shutting down")


async def test_at_start_the_bot_delivers_what_waited_and_drops_what_went_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """The CLI queued two announcements while no bot ran; one of them only meant something
    until a moment now past. The bot's start sends the first (with its nonce) and drops the
    other with an audit line — before the scheduler starts."""
    fake_gateway(monkeypatch)
    posts: list[tuple[str, dict[str, Any]]] = []

    reads: list[str] = []

    async def request(self: Any, route: Any, **kwargs: Any) -> Any:  # Discord's REST, recorded
        assert route.path == "/channels/{channel_id}/messages", route
        require(route.method, route.url, kwargs.get("json"))  # as Discord's spec has it
        if route.method == "GET":  # queued days ago: read back first (issue 20.2), not there
            reads.append(route.url)
            return []
        assert route.method == "POST", route
        posts.append((route.url, kwargs["json"]))
        return {"id": "9", "channel_id": "42", "content": kwargs["json"]["content"],
                "author": {"id": "1", "username": "stredisko", "discriminator": "0",
                           "avatar": None}, "timestamp": START.isoformat(),
                "edited_timestamp": None, "tts": False, "mention_everyone": False,
                "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
                "pinned": False, "type": 0}

    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    config = load_config(config_file(tmp_path), env={})
    async with await Store.open(tmp_path / "stredisko.db") as store:
        t = await store.call(lambda db: create_tournament(
            db, slug="o1", name="O1", season="2026/27", round_starts=[START],
            waiting_minutes=10, game_limit_minutes=50, by=Change.admin("t", START),
            channel_id=CONTROL_CHANNEL_ID, admin_ids=[RUN_ADMIN.id]))
        cli = App(store, ManualClock(START), RecordingNotifier(), delivery="queue")
        await cli.run(lambda tx: tx.announce(t.id, "play.withdrawn", player="Ana",
                                             rule="e-SP 3.6"))
        await cli.run(lambda tx: tx.announce(t.id, "play.withdrawn", player="Stará správa",
                                             rule="e-SP 3.6", timely=Timely(t.id, until=START)))
    stop = asyncio.Event()
    with caplog.at_level(logging.INFO, "stredisko"):
        task = asyncio.create_task(runner.serve(config, "token", sync_commands=False,
                                                stop=stop))
        while "scheduler started" not in caplog.text:
            assert not task.done()
            await asyncio.sleep(0.01)
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    assert "outbox at start: 1 sent, 1 dropped as stale, 0 failed" in caplog.text
    ((url, body),) = posts
    assert reads == [url]
    assert url.endswith(f"/channels/{CONTROL_CHANNEL_ID}/messages") and "Ana" in body["content"]
    assert body["enforce_nonce"] is True and len(body["nonce"]) <= 25
    async with await Store.open(tmp_path / "stredisko.db") as store:
        rows = await store.read(list_outbox)
    assert [row.status for row in rows] == [OutboxStatus.SENT, OutboxStatus.DROPPED]


def _driver(tmp_path: Path, prelude: str = "") -> Path:
    """`stredisko run` without Discord (a gateway that idles, the head admin as the one member);
    `prelude`: more patches (a whole script's text), run just before the bot starts."""
    script = tmp_path / "driver.py"
    script.write_text(textwrap.dedent("""
        import asyncio, sys
        import discord
        from bot.discord import runner
        from tests.bot.discord.harness import (
            APP_ID, BOT_USER, FakeUser, guild_payload, member_payload)
        from bot.scheduler import Scheduler

        async def login(self, token):
            state = self._connection
            state.user = discord.ClientUser(state=state, data={
                **BOT_USER.payload(), "verified": True, "mfa_enabled": False})
            state.application_id = APP_ID
            await self.setup_hook()

        admin = FakeUser(int(sys.argv[3]), "Hlavný rozhodca")

        async def get_member(self, guild_id, member_id):
            return member_payload(admin)

        async def connect(self, *, reconnect=True):
            state = self._connection
            state._add_guild(discord.Guild(data=guild_payload(members=[admin]), state=state))
            self.dispatch("ready")
            await asyncio.Event().wait()  # a gateway that idles until the process is stopped

        started = Scheduler.start

        async def start(self):
            await started(self)
            open(sys.argv[2], "w").close()  # tells the test the bot is fully up

        discord.Client.login = login
        discord.Client.connect = connect
        discord.http.HTTPClient.get_member = get_member
        Scheduler.start = start
        PRELUDE
        sys.exit(runner.run(sys.argv[1], False))
    """).replace("PRELUDE\n", textwrap.dedent(prelude)), encoding="utf-8")
    return script


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_process_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "fake", "PYTHONPATH": str(ROOT)}
    run_tournament(tmp_path / "stredisko.db")
    proc = subprocess.Popen(
        [sys.executable, str(_driver(tmp_path)), str(config_file(tmp_path)),
         str(tmp_path / "started"), str(RUN_ADMIN.id)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "started").exists():
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "the bot never started its scheduler"
            time.sleep(0.05)
        assert read_heartbeat(tmp_path / "heartbeat") is not None
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "stop requested" in err
    assert err.index("scheduler started") < err.index("stop requested")
    assert err.index("scheduler stopped") < err.index("store closed")
    assert "Traceback" not in err


# -- where the tournament lives -----------------------------------------------------------


async def test_guild_config_found_by_names_or_taken_from_the_tournament(tmp_path: Path) -> None:
    async with DiscordHarness(StrediskoBot()) as h:
        found = runner.resolve_guild_config(h.guild, None, DiscordConfig())
        assert found == GuildConfig(GUILD_ID, CONTROL_CHANNEL_ID, HEAD_ADMIN_ROLE_ID)
        with pytest.raises(runner.StartupError, match="#stredisko-admin"):
            runner.resolve_guild_config(h.guild, None, DiscordConfig(channel="stredisko-admin"))
        t = run_tournament(tmp_path / "db.sqlite", channel_id=CONTROL_CHANNEL_ID,
                           admin_role_id=PLAYER_ROLE_ID)
        assert runner.resolve_guild_config(h.guild, t, DiscordConfig(channel="x")) == (
            GuildConfig(GUILD_ID, CONTROL_CHANNEL_ID, PLAYER_ROLE_ID))


# -- the heartbeat file -------------------------------------------------------------------


def test_heartbeat_file_round_trip_and_freshness(tmp_path: Path) -> None:
    path = tmp_path / "hb"
    assert read_heartbeat(path) is None
    write_heartbeat(path, START)
    assert read_heartbeat(path) == START
    assert is_fresh(path, timedelta(seconds=60), START + timedelta(seconds=60))
    assert not is_fresh(path, timedelta(seconds=60), START + timedelta(seconds=61))
    path.write_text("garbage")
    assert read_heartbeat(path) is None
    with pytest.raises(ValueError):
        write_heartbeat(path, datetime(2026, 1, 1))


async def test_heartbeat_beats_every_interval(tmp_path: Path) -> None:
    beats: list[datetime] = []

    def now() -> datetime:
        beats.append(START + timedelta(seconds=len(beats)))
        return beats[-1]

    heartbeat = Heartbeat(tmp_path / "hb", interval=0.01, now=now)
    heartbeat.start()
    while len(beats) < 3:
        await asyncio.sleep(0.01)
    await heartbeat.stop()
    count = len(beats)
    await asyncio.sleep(0.05)
    assert len(beats) == count  # stopped means stopped
    assert read_heartbeat(tmp_path / "hb") == beats[-1]


def test_health_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hb"
    assert heartbeat_main([str(path)]) == 1
    assert "chýba alebo je starší" in capsys.readouterr().err
    write_heartbeat(path, datetime.now(UTC))
    assert heartbeat_main([str(path), "--max-age", "60"]) == 0


def test_the_runner_wires_both_cogs_and_the_nightly_sync_only_with_a_herna_login(
    tmp_path: Path,
) -> None:
    from bot.clock import SystemClock
    from bot.config import Config, HernaConfig
    from bot.discord.runner import build_bot, herna_factory, make_scheduler
    from bot.services.app import App as _App
    from bot.services.notifier import RecordingNotifier
    from bot.store import Store as _Store

    assert herna_factory(Config()) is None
    factory = herna_factory(Config(herna=HernaConfig(user="sss", password="tajne")))
    assert factory is not None
    bot = build_bot([], "kt", factory)
    # player, head admin, season ladder (14), /slovo (22), duplicate (24)
    assert len(bot._cog_factories) == 5
    store = _Store(tmp_path / "s.db")
    try:
        app = _App(store, SystemClock(), RecordingNotifier())
        assert make_scheduler(app).nightly is None
        scheduler = make_scheduler(app, factory, "02:30")
        assert scheduler.nightly is not None
        assert (scheduler.nightly_at.hour, scheduler.nightly_at.minute) == (2, 30)
    finally:
        store.close_sync()


def test_start_says_nothing_about_the_voice_libraries_it_does_not_use() -> None:
    """discord.py warns at every client's birth that PyNaCl and davey are missing (English,
    voice only); `stredisko run` builds its bot (runner.build_bot) without those lines. A
    fresh interpreter: the warning is once per process, an earlier test may have spent it."""
    script = textwrap.dedent("""
        import discord
        from bot.discord import runner
        assert discord.VoiceClient.warn_nacl and discord.VoiceClient.warn_dave, "voice installed"
        runner._configure_logging()
        discord.Client(intents=discord.Intents.none())  # the check: discord.py does warn here
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
        import sys; sys.stderr.write("---\\n"); sys.stderr.flush()
        runner.build_bot([], "kt-2026-11")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    plain, ours = done.stderr.split("---\n")
    assert "PyNaCl is not installed" in plain and "davey is not installed" in plain
    assert ours == ""


# -- one bot, several events (issue 37) ------------------------------------------------------


async def _serve_until_started(config: Any, caplog: pytest.LogCaptureFixture) -> int:
    stop = asyncio.Event()
    task = asyncio.create_task(runner.serve(config, "token", sync_commands=False, stop=stop))
    while "scheduler started" not in caplog.text and not task.done():
        await asyncio.sleep(0.01)
    stop.set()
    return await asyncio.wait_for(task, 10)


async def test_without_a_tournament_the_bot_serves_every_unfinished_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    fake_gateway(monkeypatch)
    run_tournament(tmp_path / "stredisko.db", slug="o1", channel_id=CONTROL_CHANNEL_ID)
    run_tournament(tmp_path / "stredisko.db", slug="o2")  # the guild's control channel
    run_tournament(tmp_path / "stredisko.db", slug="o3")  # the same: the bot will ask there
    config = load_config(config_file(tmp_path, tournament=""), env={})
    with caplog.at_level(logging.INFO, "stredisko"):
        assert await _serve_until_started(config, caplog) == 0
    assert "scheduler started" in caplog.text
    assert "udalosti o2, o3 nemajú vlastný kanál" in caplog.text


async def test_an_event_whose_channel_is_not_on_the_guild_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """Each served event is checked at start like the one event before issue 37: its
    channel must exist and be postable (one Slovak line, exit 2)."""
    fake_gateway(monkeypatch)
    run_tournament(tmp_path / "stredisko.db", slug="o1")
    run_tournament(tmp_path / "stredisko.db", slug="o2", channel_id=1_100_000_000_000_009_999)
    config = load_config(config_file(tmp_path, tournament=""), env={})
    with pytest.raises(runner.StartupError) as refused:
        await _serve_until_started(config, caplog)
    assert str(refused.value) == ("na serveri SSS online nie je kanál 1100000000000009999, "
                                  "ktorý má turnaj uložený ako riadiace stredisko")


def test_a_missing_database_is_one_line_for_a_bot_of_every_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """The line names no tournament (none is configured): it says to create the events."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert runner.run(str(config_file(tmp_path, tournament="")), False) == 2
    assert "najprv založte udalosti" in capsys.readouterr().err


async def test_events_created_while_the_bot_runs_are_checked_and_a_fault_stops_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 37.2: an event created while a bot of every event runs is served at once (the
    router reads the store); within the watch's interval its channel is checked like at
    start, and a channel the guild lacks is one logged line — the bot goes on."""
    fake_gateway(monkeypatch)
    monkeypatch.setattr(runner, "EVENTS_EVERY_S", 0.02)
    db = tmp_path / "stredisko.db"
    run_tournament(db, slug="o1")
    config = load_config(config_file(tmp_path, tournament=""), env={})
    stop = asyncio.Event()
    with caplog.at_level(logging.INFO, "stredisko"):
        task = asyncio.create_task(runner.serve(config, "token", sync_commands=False, stop=stop))
        while "scheduler started" not in caplog.text:
            assert not task.done()
            await asyncio.sleep(0.01)
        run_tournament(db, slug="o2", channel_id=1_100_000_000_000_009_999)
        run_tournament(db, slug="o3", channel_id=CONTROL_CHANNEL_ID)
        deadline = time.monotonic() + 10
        while "udalosť o3 obsluhovaná" not in caplog.text or "udalosť o2 bot" not in caplog.text:
            assert time.monotonic() < deadline and not task.done()
            await asyncio.sleep(0.02)
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    [fault] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("udalosť o2")]
    assert "nie je kanál 1100000000000009999" in fault and "stredisko channel o2" in fault
    assert f"udalosť o3 obsluhovaná: kanál {CONTROL_CHANNEL_ID}" in caplog.text
    assert "udalosť o1" not in caplog.text  # known at start: checked then, not again
