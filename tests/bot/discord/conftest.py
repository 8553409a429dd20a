"""Fixtures for the Discord layer: a StrediskoBot with the sample cog inside the harness; the
head admin's cog over a real store (`env`, `make_env`); for the runner's tests a minimal config
file and a gateway that never contacts Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.clock import ManualClock
from bot.discord.client import StrediskoBot
from bot.discord.cogs.admin import admin_cog_factory
from bot.discord.i18n import t
from bot.discord.notifier import DiscordNotifier
from bot.services.app import App, Tx
from bot.services.results import lifecycle
from bot.store import (
    Change,
    EvidenceKind,
    Store,
    Tournament,
    append_evidence,
    create_tournament,
    get_result,
)

from ..conftest import ADMIN_ID, SLUG, START, make_world
from .duplicate_world import game  # noqa: F401  (the duplicate event's fixture)
from .harness import (
    APP_ID,
    BOT_USER,
    GUILD_ID,
    HEAD_ADMIN_ROLE_ID,
    DiscordHarness,
    Exchange,
    FakeUser,
    RecordedMessage,
    guild_payload,
    member_payload,
)
from .harness.contract import require
from .sample_cog import SampleCog


def sample_bot() -> StrediskoBot:
    return StrediskoBot(cogs=[SampleCog])


@pytest.fixture
def make_bot() -> Callable[[], StrediskoBot]:
    return sample_bot


@pytest.fixture
async def harness() -> AsyncIterator[DiscordHarness]:
    async with DiscordHarness(sample_bot()) as h:
        yield h


# -- the head admin's cog ---------------------------------------------------------------

REFUSED = t("refusal.head_admin_only", "sk", rule="e-SP 2.5")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "admin_world(build=None, **options): the `env` fixture's world: what "
                   "`build(tx)` returns, else make_world's with these options")
    config.addinivalue_line(
        "markers", "several_events: the `game` fixture's bot serves every event (issue 37), "
                   "a classic one beside the duplicate one")
    config.addinivalue_line(
        "markers", "two_duplicates: as several_events, and a second duplicate event in its own "
                   "channel with the same players (issue 44)")


@dataclass
class Env:
    h: DiscordHarness
    app: App
    clock: ManualClock
    world: Any
    admin: FakeUser
    players: list[FakeUser]

    async def admin_cmd(self, sub: str, **options: Any) -> Exchange:
        return await self.h.slash("admin", user=self.admin, subcommand=sub, options=options)

    def channel_text(self) -> str:
        return "\n".join(m.text for m in self.h.channel_messages)

    async def refresh(self, round_no: int = 1) -> None:
        tid = self.world.tournament.id
        await self.app.run(lambda tx: lifecycle.refresh_round(tx, tid, round_no,
                                                              tx.by_scheduler("test")))

    async def result(self, table: int) -> Any:
        return await self.app.store.read(get_result, self.world.tables[table].id)


@asynccontextmanager
async def make_env(tmp_path: Path, *, players: int = 4,
                   build: Callable[[Tx], Any] | None = None,
                   cogs: Sequence[Callable[[list[App], str], Any]] = (),
                   **world: Any) -> AsyncIterator[Env]:
    """The admin cog in the harness over a real store: a world of `players` (see
    `make_world`; `world` are its options, by default unpublished) or the one `build` makes in
    a transaction, the head admin and the players as guild members. `cogs`: more cogs'
    factories (e.g. `duplicate_cog_factory`), each given the App holder and the slug."""
    store = await Store.open(tmp_path / "stredisko.db")
    clock = ManualClock(START)
    holder: list[App] = []
    bot = StrediskoBot(cogs=[admin_cog_factory(holder, SLUG),
                             *(factory(holder, SLUG) for factory in cogs)])
    app = App(store, clock, DiscordNotifier(bot, store))
    holder.append(app)
    try:
        async with DiscordHarness(bot) as h:
            built: Awaitable[Any] = (app.run(build) if build is not None else make_world(
                app, players=players, **{"published": False, **world}))
            made = await built
            # The head admin's Discord id is the tournament's admin id (the services check it).
            admin = FakeUser(ADMIN_ID, "Hlavný rozhodca", roles=[HEAD_ADMIN_ROLE_ID])
            h.users[admin.id] = admin
            users = []
            for p in made.players:
                user = FakeUser(p.discord_id, p.name, roles=[])
                h.users[user.id] = user
                users.append(user)
            yield Env(h, app, clock, made, admin, users)
    finally:
        await store.close()


@pytest.fixture
async def env(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Env]:
    """`make_env` with the options of the closest `admin_world` mark (none: four players,
    round 1 paired, not published)."""
    mark = request.node.get_closest_marker("admin_world")
    async with make_env(tmp_path, **(mark.kwargs if mark else {})) as made:
        yield made


def said(ex: Exchange) -> str:
    """Everything the user was shown in answer: the response and every follow-up."""
    messages = ex.followups or ([ex.message] if ex.message else [])
    return "\n".join(m.text for m in messages)


def embed_fields(message: RecordedMessage) -> dict[str, str]:
    """A message's embed fields, name → value."""
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


async def record_as_shown(env: Env, payload: dict[str, Any], minutes: int) -> str:
    """A herna.net record (`payload`) of a game started 5 minutes into round 1 at table 1, as
    `/admin rozhodni 1 1` shows it `minutes` after round 1's start (in Slovak)."""
    table = env.world.tables[0]

    def record(tx: Tx) -> None:
        append_evidence(tx.db, table.id, EvidenceKind.PLATFORM_GAME, tx.by_platform(),
                        payload=payload, at=START + timedelta(minutes=5))

    env.clock.set(START + timedelta(minutes=minutes))
    await env.app.run(record)
    ex = await env.admin_cmd("rozhodni", kolo=1, stol=1)
    return embed_fields(ex.followups[0])["Záznam z herna.net"]


# -- the runner -------------------------------------------------------------------------

#: the head administrator the runner's tournaments name; a member of the fake gateway's guild
RUN_ADMIN = FakeUser(1_100_000_000_000_000_500, "Hlavný rozhodca", roles=[HEAD_ADMIN_ROLE_ID])
RUN_SLUG = "o1"


def config_file(tmp_path: Path, token: str = "", tournament: str = RUN_SLUG,
                extra: str = "") -> Path:
    """`stredisko run`'s config: the store and heartbeat in `tmp_path`, the test guild, the
    tournament `tournament`; `extra` lines go at the end of [discord]."""
    path = tmp_path / "config.toml"
    token_line = f'token = "{token}"\n' if token else ""
    path.write_text(
        f'[store]\npath = "{tmp_path / "stredisko.db"}"\n'
        f'[discord]\nguild_id = {GUILD_ID}\nheartbeat_file = "{tmp_path / "heartbeat"}"\n'
        f'tournament = "{tournament}"\n' + token_line + extra,
        encoding="utf-8",
    )
    return path


def run_tournament(db_path: Path, slug: str = RUN_SLUG, **options: Any) -> Tournament:
    """The tournament `stredisko run` serves, created in the file `db_path` (as `stredisko
    create` would) with RUN_ADMIN as its head administrator unless `options` say otherwise."""
    starts = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
    fields: dict[str, Any] = {"name": slug.upper(), "season": "2026/27",
                              "round_starts": [starts], "waiting_minutes": 10,
                              "game_limit_minutes": 50, "admin_ids": [RUN_ADMIN.id], **options}
    with Store(db_path) as store:
        return store.call_sync(lambda db: create_tournament(
            db, slug=slug, by=Change.admin("test", starts), **fields))


def fake_gateway(monkeypatch: pytest.MonkeyPatch,
                 members: Sequence[FakeUser] = (RUN_ADMIN,)) -> list[object]:
    """Log in without Discord (as the harness's bot user), connect to the test guild (its
    GUILD_CREATE: the roles, the control channel, the bot and `members`) and idle there;
    returns where command syncs are recorded (each one's PUT checked against Discord's spec)."""

    async def login(self: discord.Client, token: str) -> None:
        state = self._connection
        state.user = discord.ClientUser(state=state, data={
            **BOT_USER.payload(), "verified": True, "mfa_enabled": False})
        state.application_id = APP_ID
        await self.setup_hook()

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        state = self._connection
        state._add_guild(discord.Guild(data=guild_payload(members=members), state=state))
        self.dispatch("ready")
        await asyncio.Event().wait()

    async def get_member(self: discord.http.HTTPClient, guild_id: int,
                         member_id: int) -> dict[str, Any]:
        # The bot has no member intent: the start-up check asks Discord for the head admins.
        found = [member_payload(u) for u in members if u.id == int(member_id)]
        if not found:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                                   {"code": 10007, "message": "Unknown Member"})
        return found[0]

    syncs: list[object] = []
    rest = discord.http.HTTPClient.request

    async def request(self: discord.http.HTTPClient, route: Route, **kwargs: Any) -> Any:
        # `--sync-commands`: the real CommandTree.sync, its PUT checked against Discord's spec
        # (a violation fails the start) and answered as Discord does (each command, with ids)
        if route.method != "PUT" or not route.path.endswith("/commands"):
            return await rest(self, route, **kwargs)
        commands = kwargs["json"]
        require(route.method, route.url, commands)
        syncs.append(route.guild_id or "global")
        return [{**command, "id": str(APP_ID + n + 1), "application_id": str(APP_ID),
                 "version": "1"} for n, command in enumerate(commands)]

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setattr(discord.http.HTTPClient, "get_member", get_member)
    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    return syncs
