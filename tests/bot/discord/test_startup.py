"""`stredisko run`'s start-up: the configuration checked against Discord (the offline harness's
guild), each fault one Slovak line and exit code 2; the offline faults found before any network
and without leaving a database behind; login retried with a growing wait while Discord is
unreachable (a real refused connection, never Discord itself), the heartbeat untouched
meanwhile."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from bot.cli import main
from bot.config import DiscordConfig, load_config
from bot.discord import runner
from bot.discord.client import GuildConfig, StrediskoBot
from bot.discord.startup import POSTING, StartupError, check_guild
from bot.store import Tournament

from .conftest import config_file, fake_gateway, run_tournament
from .harness import (
    CONTROL_CHANNEL_ID,
    GUILD_ID,
    HEAD_ADMIN_ROLE_ID,
    DiscordHarness,
    guild_payload,
)

ADMIN_CHANNEL_ID = CONTROL_CHANNEL_ID + 1
FAST = runner.Backoff(first=0.01, cap=0.04)


def _channel(channel_id: int, name: str, deny: discord.Permissions) -> dict[str, Any]:
    """A text channel of the test guild whose overwrite denies @everyone `deny`."""
    base = guild_payload()["channels"][0]
    overwrite = {"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": str(deny.value)}
    return {**base, "id": str(channel_id), "name": name, "permission_overwrites": [overwrite]}


def _replace_channel(h: DiscordHarness, data: dict[str, Any]) -> None:
    h.guild._add_channel(discord.TextChannel(state=h.bot._connection, guild=h.guild, data=data))


def _wrong_guild(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    return DiscordConfig(guild_id=GUILD_ID + 7), t


def _no_channel(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    return DiscordConfig(guild_id=GUILD_ID, channel="oznamy"), t


def _no_role(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    return DiscordConfig(guild_id=GUILD_ID, admin_role="Rozhodca"), t


def _channel_closed(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    _replace_channel(h, _channel(CONTROL_CHANNEL_ID, "riadiace-stredisko",
                                 discord.Permissions(send_messages=True, embed_links=True)))
    return DiscordConfig(guild_id=GUILD_ID), t


def _no_admin_channel(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    return DiscordConfig(guild_id=GUILD_ID, admin_channel_id=ADMIN_CHANNEL_ID), t


def _admin_channel_hidden(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    _replace_channel(h, _channel(ADMIN_CHANNEL_ID, "hlavny-admin",
                                 discord.Permissions(view_channel=True)))
    return DiscordConfig(guild_id=GUILD_ID, admin_channel_id=ADMIN_CHANNEL_ID), t


def _admins_away(h: DiscordHarness, t: Tournament) -> tuple[DiscordConfig, Tournament]:
    gone = h.outsider("Bývalý rozhodca")  # a Discord account, but not on the server
    return DiscordConfig(guild_id=GUILD_ID), _with_admins(t, [gone.id, 4242])


def _with_admins(t: Tournament, ids: list[int]) -> Tournament:
    return replace(t, admin_ids=ids)


@pytest.mark.parametrize(("setup", "line"), [
    (_wrong_guild, f"bot nie je na serveri {GUILD_ID + 7}: skontrolujte [discord] guild_id "
                   "(ID servera) a pozvite bota odkazom z Discord Developer Portal (OAuth2 → "
                   "URL Generator, rozsahy bot a applications.commands)"),
    (_no_channel, "na serveri SSS online nie je textový kanál #oznamy: založte ho alebo "
                  "opravte [discord] channel"),
    (_no_role, "na serveri SSS online nie je rola „Rozhodca“: založte ju a dajte ju hlavnému "
               "administrátorovi, alebo opravte [discord] admin_role"),
    (_channel_closed, "bot nesmie písať do kanála #riadiace-stredisko: chýba mu Posielať správy "
                      "(Send Messages), Vkladať odkazy (Embed Links) (nastavenia kanála → "
                      "Permissions → rola bota)"),
    (_no_admin_channel, f"na serveri SSS online nie je kanál {ADMIN_CHANNEL_ID} hlavného "
                        "administrátora: opravte [discord] admin_channel_id"),
    (_admin_channel_hidden, "bot nesmie písať do kanála hlavného administrátora #hlavny-admin: "
                            "chýba mu Zobraziť kanál (View Channel)"),
    (_admins_away, "hlavní administrátori turnaja ("),
], ids=["wrong guild", "missing channel", "missing role", "channel closed to the bot",
        "missing admin channel", "admin channel hidden", "admins not on the server"])
async def test_each_fault_of_the_guild_is_one_slovak_line(
    tmp_path: Path, setup: Callable[[DiscordHarness, Tournament],
                                    tuple[DiscordConfig, Tournament]], line: str,
) -> None:
    t = run_tournament(tmp_path / "s.db")
    async with DiscordHarness(StrediskoBot()) as h:
        config, tournament = setup(h, t)
        with pytest.raises(StartupError) as caught:
            await check_guild(h.bot, config, tournament)
    text = str(caught.value)
    assert text.startswith(line) and "\n" not in text


async def test_a_sound_guild_passes_and_an_absent_admin_of_two_is_only_warned(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    t = run_tournament(tmp_path / "s.db")
    async with DiscordHarness(StrediskoBot()) as h:
        present = h.member("Hlavná rozhodkyňa", roles=[HEAD_ADMIN_ROLE_ID])
        gone = h.outsider("Bývalý rozhodca")
        with caplog.at_level(logging.WARNING, "stredisko"):
            found = await check_guild(h.bot, DiscordConfig(guild_id=GUILD_ID),
                                      _with_admins(t, [present.id, gone.id]))
        # the members were asked of Discord: the bot has no member intent
        assert [c.key for c in h.calls] == ["GET /guilds/{guild_id}/members/{member_id}"] * 2
    assert found == GuildConfig(GUILD_ID, CONTROL_CHANNEL_ID, HEAD_ADMIN_ROLE_ID)
    assert caplog.messages == [f"hlavní administrátori {gone.id} nie sú na serveri SSS online: "
                               "súkromné správy dostanú len ostatní"]


# -- through `stredisko run` -------------------------------------------------------------------


@pytest.fixture
def no_discord(monkeypatch: pytest.MonkeyPatch) -> str:
    """Every request discord.py makes goes to a local port nobody listens on (a real refused
    connection, as with no network); Discord itself is never contacted."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}/api/v10"
    monkeypatch.setattr(Route, "BASE", base)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    return base


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.removeprefix("stredisko: chyba: ").rstrip("\n")


def test_a_wrong_guild_stops_the_bot_with_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str], no_discord: str,
) -> None:
    fake_gateway(monkeypatch)
    run_tournament(tmp_path / "stredisko.db")
    path = config_file(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(str(GUILD_ID), "123"),
                    encoding="utf-8")
    with caplog.at_level(logging.INFO, "stredisko"):
        assert main(["run", "--config", str(path)]) == 2
    assert _one_line(capsys.readouterr().err).startswith("bot nie je na serveri 123: ")
    assert "scheduler started" not in caplog.text
    assert "scheduler stopped" not in caplog.text  # it never started
    assert caplog.messages[-1] == "store closed"


@pytest.mark.parametrize(("config", "line"), [
    ("", "[discord] guild_id nie je nastavené: zapnite v Discorde User Settings → Advanced "
         "→ Developer Mode"),
    # without [discord] tournament the bot serves every event of its database (issue 37)
    (f"guild_id = {GUILD_ID}\n", "databáza {db} neexistuje: najprv založte udalosti "),
    (f'guild_id = {GUILD_ID}\ntournament = "kt"\n', "databáza {db} neexistuje: najprv založte "
                                                   "turnaj (stredisko create PROPOZÍCIE)"),
], ids=["no guild id", "no tournament", "no database"])
def test_stredisko_run_with_a_bad_config_leaves_no_database_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    no_discord: str, config: str, line: str,
) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    path = folder / "config.toml"
    path.write_text(f'[store]\npath = "stredisko.db"\n[discord]\n{config}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--config", str(path)]) == 2
    assert _one_line(capsys.readouterr().err).startswith(line.format(db=folder / "stredisko.db"))
    assert list(tmp_path.rglob("*.db*")) == []


def test_a_tournament_nobody_would_hear_from_is_refused_before_discord(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_discord: str,
) -> None:
    run_tournament(tmp_path / "stredisko.db", admin_ids=[])
    assert main(["run", "--config", str(config_file(tmp_path))]) == 2
    assert _one_line(capsys.readouterr().err) == (
        "správy hlavnému administrátorovi by nedostal nikto: nastavte [discord] "
        "admin_channel_id (kanál hlavného administrátora) alebo určte hlavných administrátorov "
        "turnaja (stredisko admins o1 --add DISCORD_ID, alebo admins = [...] v propozíciách)")
    assert not (tmp_path / "heartbeat").exists()


# -- Discord unreachable at start: retried, never exit 1 -----------------------------------------


def test_the_wait_doubles_up_to_five_minutes() -> None:
    assert [runner.Backoff().wait(n) for n in range(1, 11)] == [
        2, 4, 8, 16, 32, 64, 128, 256, 300, 300]


async def _serve_until(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                       until: Callable[[str], bool]) -> None:
    """Run the bot on a tournament in `tmp_path` until the log satisfies `until`, then stop it
    as SIGTERM would: it must end with exit code 0."""
    run_tournament(tmp_path / "stredisko.db")
    config = load_config(config_file(tmp_path), env={})
    stop = asyncio.Event()
    with caplog.at_level(logging.INFO, "stredisko"):
        task = asyncio.create_task(runner.serve(config, "token", sync_commands=False, stop=stop,
                                                backoff=FAST))
        while not until(caplog.text):
            assert not task.done()
            await asyncio.sleep(0.01)
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0


async def test_login_is_retried_until_discord_answers_and_the_heartbeat_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    no_discord: str,
) -> None:
    real_login = discord.Client.login
    fake_gateway(monkeypatch)
    fake_login = discord.Client.login
    heartbeat = tmp_path / "heartbeat"
    attempts: list[bool] = []

    async def login(self: discord.Client, token: str) -> None:
        attempts.append(heartbeat.exists())
        # two real attempts against the refused port, then Discord is back
        await (real_login if len(attempts) <= 2 else fake_login)(self, token)

    monkeypatch.setattr(discord.Client, "login", login)
    await _serve_until(tmp_path, caplog, lambda log: "scheduler started" in log)
    assert attempts == [False, False, False]  # no heartbeat while not logged in
    assert heartbeat.exists()
    retries = [m for m in caplog.messages if m.startswith("Discord je nedostupný")]
    assert len(retries) == 2
    assert retries[0].endswith("pokus 1: ďalší pokus o 0,01 s")
    assert retries[1].endswith("pokus 2: ďalší pokus o 0,02 s")
    assert "127.0.0.1" in retries[0]  # the cause, as aiohttp names it


async def test_a_stop_while_waiting_for_discord_ends_cleanly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, no_discord: str,
) -> None:
    await _serve_until(tmp_path, caplog, lambda log: log.count("Discord je nedostupný") >= 3)
    assert "pokus 3: ďalší pokus o 0,04 s" in caplog.text  # capped
    assert not (tmp_path / "heartbeat").exists()
    assert "scheduler stopped" not in caplog.text
    assert caplog.messages[-2:] == ["zastavené počas čakania na Discord", "store closed"]


async def test_a_failed_question_about_an_admin_is_no_configuration_fault(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    t = run_tournament(tmp_path / "s.db")
    async with DiscordHarness(StrediskoBot()) as h:
        h.fail_next("GET /guilds/{guild_id}/members/{member_id}", status=503)
        with caplog.at_level(logging.WARNING, "stredisko"):
            found = await check_guild(h.bot, DiscordConfig(guild_id=GUILD_ID), t)
    assert found.guild_id == GUILD_ID
    assert caplog.messages[0].startswith(
        f"nepodarilo sa overiť, či je hlavný administrátor {t.admin_ids[0]} na serveri (503")


@pytest.mark.parametrize(("error", "code", "line"), [
    (discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                       {"code": 50001, "message": "Missing Access"}), 2,
     "Discord odmietol požiadavku pri štarte (403: Missing Access)"),
    (aiohttp.ServerDisconnectedError(), 1,
     "spojenie s Discordom sa pri štarte stratilo (Server disconnected); spustite bota znova"),
], ids=["refused", "lost"])
def test_a_command_sync_that_fails_is_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    no_discord: str, error: Exception, code: int, line: str,
) -> None:
    fake_gateway(monkeypatch)

    async def sync(self: Any, *, guild: Any = None) -> list[Any]:
        raise error

    monkeypatch.setattr(discord.app_commands.CommandTree, "sync", sync)
    run_tournament(tmp_path / "stredisko.db")
    assert main(["run", "--sync-commands", "--config", str(config_file(tmp_path))]) == code
    assert _one_line(capsys.readouterr().err).startswith(line)


def test_the_documented_invite_grants_what_the_start_up_check_asks() -> None:
    example = (Path(__file__).resolve().parents[3] / "config.example.toml").read_text("utf-8")
    (granted,) = re.findall(r"scope=bot\+applications\.commands&permissions=(\d+)", example)
    permissions = discord.Permissions(int(granted))
    assert all(getattr(permissions, name) for name in POSTING)
    assert permissions.read_message_history and not permissions.administrator
