"""Offline Discord: drive a bot through discord.py's REAL dispatch, with every HTTP call recorded.

Interactions are built as gateway INTERACTION_CREATE payloads and fed to
`bot._connection.parse_interaction_create`, so the command tree, transformers, checks,
`interaction_check`, views, modals and `on_error` run exactly as in production. What the bot
sends back goes to two recorders instead of Discord:
- interaction responses, followups and edits: an `AsyncWebhookAdapter` subclass installed in
  `discord.webhook.async_.async_context` for the dispatch;
- channel posts, DMs, edits, user look-ups: `bot.http.request`, replaced on the instance.
Each recorder answers with minimal but realistic payloads (a message object for a created
message, a DM channel for "create DM", Discord's 403 50007 for a user whose DMs are closed).
Every request is checked against Discord's published OpenAPI spec (`contract`: the matching
operation's request-body schema plus the documented limits the schema does not hold). A
request Discord would refuse is answered as Discord would (400, code 50035 Invalid Form Body,
naming field, value and rule) and fails the test when the harness closes (`SpecViolation`),
even if the bot swallowed the error; `take_violations()` hands them to a test that expects
them. Two more of Discord's behaviours are played: a message posted with a `nonce` and
`enforce_nonce` that repeats an earlier one in the same channel returns the earlier message
instead of a copy (Discord does so within a few minutes; the harness at any time), and
`fail_next` makes chosen requests fail with a 5xx that did nothing, as Discord's outages do.

The harness also plays Discord's client: it refuses input a real client cannot send (an option
outside its min/max, a click on a disabled button, a modal that was never opened) with
`DiscordWouldReject`, and it fails a dispatch that logged an error or left the user without any
response (`DispatchError`) unless told that is expected.

Usage::

    async with DiscordHarness(bot) as h:
        ana = h.member("Ana")
        ex = await h.slash("vysledok", user=ana, options={"moje_skore": 420})
        assert ex.ephemeral and "420" in ex.content
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import logging
import re
import time
import traceback
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from . import contract
from .contract import SpecViolation, Violation

APP_ID = 1_100_000_000_000_000_001
BOT_ID = APP_ID  # a bot user shares its application's id
GUILD_ID = 1_100_000_000_000_000_100
CONTROL_CHANNEL_ID = 1_100_000_000_000_000_200
HEAD_ADMIN_ROLE_ID = 1_100_000_000_000_000_300
PLAYER_ROLE_ID = 1_100_000_000_000_000_301
OWNER_ID = 1_100_000_000_000_000_400

#: Discord's limit for the initial response. The harness enforces it only when a test asks
#: (`response_deadline=`): a verdict must not depend on how loaded the machine is (issue 43.1);
#: the time to the first response is measured in `bench/discord_dispatch.py`, and slow paths
#: are tested by order (deferred before the store was free), not by the clock.
RESPONSE_DEADLINE_S = 3.0
EPHEMERAL = 1 << 6
LOADING = 1 << 7
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Tasks the library starts for one interaction; the harness waits for these to finish.
_DISPATCH_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)
_current_exchange: contextvars.ContextVar[Exchange | None] = contextvars.ContextVar(
    "stredisko_harness_exchange", default=None
)

_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    use_application_commands=True,
    embed_links=True,
    attach_files=True,
)
_HEAD_ADMIN_PERMISSIONS = discord.Permissions(manage_messages=True, manage_roles=True)


class HarnessError(AssertionError):
    """The harness was used wrongly, or the bot called a route the harness does not know."""


class DiscordWouldReject(HarnessError):
    """Input Discord's client would never send (bad option, disabled button, unopened modal)."""


class DispatchError(HarnessError):
    """The interaction logged an error or got no response at all."""


@dataclass
class FakeUser:
    """A Discord account the test controls; `roles` matter only while `in_guild`."""

    id: int
    name: str
    roles: list[int] = field(default_factory=list)
    locale: str = "sk"
    in_guild: bool = True
    dms_open: bool = True
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(frozen=True)
class FakeAttachment:
    """A file a user attaches to a slash-command option."""

    id: int
    filename: str
    size: int
    content_type: str

    def payload(self) -> dict[str, Any]:
        url = f"https://cdn.discordapp.com/attachments/{CONTROL_CHANNEL_ID}/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": self.content_type,
        }


@dataclass
class RecordedCall:
    """One HTTP request the bot made (it never left the process)."""

    method: str
    path: str  # the route template, e.g. "/channels/{channel_id}/messages"
    url: str
    payload: dict[str, Any] | None
    files: list[str]
    at: float  # time.perf_counter()
    status: int = 200
    blobs: list[bytes] = field(default_factory=list)  # the attached files' bytes (channel posts)

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


@dataclass
class RecordedMessage:
    """A message as Discord would hold it; edits update `raw` and are kept in `edits`."""

    raw: dict[str, Any]
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    owner: FakeUser | None = None  # who triggered it (interaction responses only)
    files: dict[str, bytes] = field(default_factory=dict)  # attachment name -> bytes (posts)

    @property
    def id(self) -> int:
        return int(self.raw["id"])

    @property
    def channel_id(self) -> int:
        return int(self.raw["channel_id"])

    @property
    def content(self) -> str:
        return self.raw.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.raw.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.raw.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.raw.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def attachments(self) -> list[str]:
        return [a["filename"] for a in self.raw.get("attachments") or []]

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content plus embed titles, descriptions, fields."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    def walk_components(self) -> Iterator[dict[str, Any]]:
        yield from _walk(self.components)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)


def _file_bytes(file: discord.File) -> bytes:
    """What an attached file holds, read without using it up (discord.py reads it next)."""
    file.reset()
    data = file.fp.read()
    file.reset()
    return data


def _walk(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])
        if "component" in c:  # a label (type 18) wraps one component
            yield from _walk([c["component"]])
        if "accessory" in c:
            yield from _walk([c["accessory"]])


@dataclass
class Exchange:
    """One interaction and everything the bot did while handling it."""

    id: int
    token: str
    kind: str  # "slash", "click" or "modal"
    user: FakeUser
    locale: str
    channel_id: int
    started: float
    source: RecordedMessage | None = None  # the message whose component was used
    callback: dict[str, Any] | None = None
    first_response_at: float | None = None
    message: RecordedMessage | None = None  # the original response (or the updated message)
    followups: list[RecordedMessage] = field(default_factory=list)
    calls: list[RecordedCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def response_type(self) -> discord.InteractionResponseType | None:
        if self.callback is None:
            return None
        return discord.InteractionResponseType(self.callback["type"])

    @property
    def responded(self) -> bool:
        return self.callback is not None

    @property
    def deferred(self) -> bool:
        return self.response_type in (
            discord.InteractionResponseType.deferred_channel_message,
            discord.InteractionResponseType.deferred_message_update,
        )

    @property
    def modal(self) -> dict[str, Any] | None:
        if self.response_type is discord.InteractionResponseType.modal:
            return self.callback["data"]  # type: ignore[index]
        return None

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def edits(self) -> list[dict[str, Any]]:
        return self.message.edits if self.message else []

    @property
    def first_response_s(self) -> float | None:
        if self.first_response_at is None:
            return None
        return self.first_response_at - self.started

    def posts(self, channel_id: int) -> list[RecordedCall]:
        """Messages the bot created in a channel through `bot.http` while handling this."""
        path = f"/channels/{channel_id}/messages"
        return [c for c in self.calls if c.method == "POST" and c.url.endswith(path)]


class _FakeResponse:
    """What discord.py's HTTPException reads from an aiohttp response."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _http_error(status: int, code: int, message: str) -> discord.HTTPException:
    if status >= 500:
        return discord.DiscordServerError(_FakeResponse(status, "Internal Server Error"),
                                          {"code": code, "message": message})
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    reason = {403: "Forbidden", 404: "Not Found"}.get(status, "Bad Request")
    return kind(_FakeResponse(status, reason), {"code": code, "message": message})


def _route_params(route: Route) -> dict[str, str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(route.path))
    match = re.fullmatch(pattern, route.url.removeprefix(Route.BASE))
    return match.groupdict() if match else {}


def _json_payload(
    payload: dict[str, Any] | None, form: Iterable[dict[str, Any]] | None
) -> dict[str, Any] | None:
    if payload is not None:
        return payload
    for part in form or ():
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


class _RecordingWebhookAdapter(AsyncWebhookAdapter):
    def __init__(self, harness: DiscordHarness) -> None:
        super().__init__()
        self._harness = harness

    async def request(  # type: ignore[override]
        self,
        route: Route,
        session: Any = None,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Sequence[discord.File] | None = None,
        params: dict[str, Any] | None = None,
        **_: Any,
    ) -> Any:
        body = _json_payload(payload, multipart)
        return self._harness._on_webhook(route, body, list(files or ()), params or {})


class _ErrorCollector(logging.Handler):
    def __init__(self, harness: DiscordHarness) -> None:
        super().__init__(level=logging.ERROR)
        self._harness = harness

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        exchange = _current_exchange.get()
        (exchange.errors if exchange else self._harness.errors).append(text)


BOT_USER = FakeUser(BOT_ID, "Riadiace stredisko", bot=True)


def member_payload(user: FakeUser) -> dict[str, Any]:
    """A guild member as Discord sends it."""
    return {
        "user": user.payload(),
        "roles": [str(r) for r in user.roles],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "nick": None,
        "avatar": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "premium_since": None,
        "communication_disabled_until": None,
    }


def _text_channel(channel_id: int, name: str, position: int) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "name": name,
        "position": position,
        "guild_id": str(GUILD_ID),
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": "Oficiálne oznamy turnaja (e-SP 2.6)",
        "rate_limit_per_user": 0,
    }


def guild_payload(locale: str = "en-US", members: Sequence[FakeUser] = (),
                  channels: Sequence[tuple[int, str]] = ()) -> dict[str, Any]:
    """The test guild as Discord's GUILD_CREATE carries it: the roles, the control-centre
    channel, and as members the bot itself (Discord always sends the bot's own member; it
    gives `guild.me`) and `members`."""
    def role(role_id: int, name: str, position: int, perms: discord.Permissions) -> dict:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "hoist": False,
            "position": position,
            "permissions": str(perms.value),
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }

    return {
        "id": str(GUILD_ID),
        "name": "SSS online",
        "owner_id": str(OWNER_ID),
        "preferred_locale": locale,
        "roles": [
            role(GUILD_ID, "@everyone", 0, _EVERYONE_PERMISSIONS),
            role(PLAYER_ROLE_ID, "Hráč", 1, discord.Permissions.none()),
            role(HEAD_ADMIN_ROLE_ID, "Hlavný administrátor", 2, _HEAD_ADMIN_PERMISSIONS),
        ],
        "channels": [_text_channel(cid, name, i) for i, (cid, name) in
                     enumerate(((CONTROL_CHANNEL_ID, "riadiace-stredisko"), *channels))],
        "members": [member_payload(user) for user in (BOT_USER, *members)],
        "member_count": 1 + len(members),
        "features": [],
        "emojis": [],
        "stickers": [],
    }


class DiscordHarness:
    """One fake guild with a control-centre channel, roles and members, around one bot.

    `async with DiscordHarness(bot) as h:` sets the bot up without logging in (application id,
    bot user, the guild in the connection state, `setup_hook`), and undoes the patches on exit.
    """

    def __init__(
        self,
        bot: discord.Client,
        *,
        timeout: float = 10.0,
        response_deadline: float | None = None,
        guild_locale: str = "en-US",
        channels: Sequence[tuple[int, str]] = (),
    ) -> None:
        """`channels`: more text channels (id, name) beside the control centre, e.g. one per
        event of a bot serving several (issue 37)."""
        self.bot = bot
        self.extra_channels = tuple(channels)
        self.timeout = timeout
        self.response_deadline = response_deadline
        self.guild_locale = guild_locale
        self.calls: list[RecordedCall] = []
        self.errors: list[str] = []  # errors logged outside any interaction
        self.exchanges: list[Exchange] = []
        self.messages: dict[int, RecordedMessage] = {}
        self.users: dict[int, FakeUser] = {}
        self._by_token: dict[str, Exchange] = {}
        self._dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self._command_ids: dict[str, int] = {}
        self._sequence = itertools.count()
        self._adapter = _RecordingWebhookAdapter(self)
        self._collector = _ErrorCollector(self)
        self._original_request: Any = None
        self._faults: list[list[Any]] = []  # [route part, status, times left]
        self._nonces: dict[tuple[int, str], RecordedMessage] = {}
        self.violations: list[Violation] = []  # requests Discord would have refused (400)
        self.head_admin = self.member("Hlavný administrátor", roles=[HEAD_ADMIN_ROLE_ID])

    # ----- set-up -------------------------------------------------------------------------

    async def __aenter__(self) -> DiscordHarness:
        bot = self.bot
        if not isinstance(bot.loop, asyncio.AbstractEventLoop):
            await bot._async_setup_hook()
        state = bot._connection
        state.application_id = APP_ID
        state.user = discord.ClientUser(
            state=state, data={**BOT_USER.payload(), "verified": True, "mfa_enabled": False}
        )
        self._original_request = bot.http.request
        bot.http.request = self._on_http  # type: ignore[method-assign]
        self.guild = discord.Guild(data=self._guild_payload(), state=state)
        state._add_guild(self.guild)
        self.channel: discord.TextChannel = self.guild.get_channel(CONTROL_CHANNEL_ID)  # type: ignore[assignment]
        self.head_admin_role: discord.Role = self.guild.get_role(HEAD_ADMIN_ROLE_ID)  # type: ignore[assignment]
        self.player_role: discord.Role = self.guild.get_role(PLAYER_ROLE_ID)  # type: ignore[assignment]
        self._wire_config()
        for name in ("discord", "stredisko"):
            logging.getLogger(name).addHandler(self._collector)
        await bot.setup_hook()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.settle()
        for name in ("discord", "stredisko"):
            logging.getLogger(name).removeHandler(self._collector)
        store = self.bot._connection._view_store
        for items in list(store._views.values()):  # stop views: cancels their timeout tasks
            for item in list(items.values()):
                if item.view is not None:
                    item.view.stop()
        for modal in list(store._modals.values()):
            modal.stop()
        self.bot.http.request = self._original_request  # type: ignore[method-assign]
        if self.violations:
            raise SpecViolation(self.take_violations())

    def take_violations(self) -> list[Violation]:
        """The requests so far that Discord would have refused; the harness forgets them (a
        test that provokes one on purpose takes it, and the harness closes cleanly)."""
        taken, self.violations = self.violations, []
        return taken

    def _wire_config(self) -> None:
        # Imported here: the harness also drives bots that are not StrediskoBot.
        from bot.discord.client import GuildConfig, StrediskoBot

        if isinstance(self.bot, StrediskoBot) and self.bot.config is None:
            self.bot.config = GuildConfig(GUILD_ID, CONTROL_CHANNEL_ID, HEAD_ADMIN_ROLE_ID)

    def _guild_payload(self) -> dict[str, Any]:
        return guild_payload(self.guild_locale, channels=self.extra_channels)

    # ----- people and things ----------------------------------------------------------------

    def snowflake(self) -> int:
        """A fresh id dated now (an interaction id older than 15 minutes counts as expired)."""
        base = discord.utils.time_snowflake(discord.utils.utcnow())
        return base + (next(self._sequence) & 0xFFF)

    def member(
        self, name: str, *, roles: Sequence[int] = (PLAYER_ROLE_ID,), locale: str = "sk"
    ) -> FakeUser:
        """A member of the tournament guild (by default with the player role)."""
        user = FakeUser(self.snowflake(), name, roles=list(roles), locale=locale)
        self.users[user.id] = user
        return user

    def outsider(self, name: str, *, locale: str = "sk") -> FakeUser:
        """A Discord user who is not in the guild (reachable only by DM)."""
        user = FakeUser(self.snowflake(), name, roles=[], locale=locale, in_guild=False)
        self.users[user.id] = user
        return user

    def close_dms(self, user: FakeUser) -> None:
        """From now on, DMs to `user` fail with Discord's 403 50007."""
        user.dms_open = False

    def attachment(
        self, filename: str, *, content_type: str = "image/png", size: int = 48_213
    ) -> FakeAttachment:
        return FakeAttachment(self.snowflake(), filename, size, content_type)

    @property
    def channel_messages(self) -> list[RecordedMessage]:
        """What everyone sees in the control channel (ephemeral replies excluded)."""
        return self.messages_in(CONTROL_CHANNEL_ID)

    def messages_in(self, channel_id: int) -> list[RecordedMessage]:
        """What everyone sees in any guild channel (e.g. the head admin's), in order."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.ephemeral and not m.deleted
        ]

    def dms(self, user: FakeUser) -> list[RecordedMessage]:
        """Direct messages the bot delivered to `user`."""
        channels = {cid for cid, uid in self._dm_channels.items() if uid == user.id}
        return [m for m in self.messages.values() if m.channel_id in channels and not m.deleted]

    def dm_channel_id(self, user: FakeUser) -> int:
        for cid, uid in self._dm_channels.items():
            if uid == user.id:
                return cid
        cid = self.snowflake()
        self._dm_channels[cid] = user.id
        return cid

    # ----- driving interactions ---------------------------------------------------------------

    async def slash(
        self,
        name: str,
        *,
        user: FakeUser,
        options: Mapping[str, Any] | None = None,
        subcommand: str | None = None,
        locale: str | None = None,
        dm: bool = False,
        check: bool = True,
        channel_id: int | None = None,
    ) -> Exchange:
        """Run `/name [subcommand] options…` as `user` typed it; returns what happened.

        `options` are keyed by the option names Discord shows (the command's base names);
        `subcommand` may be "sub" or "group sub". `check=False` accepts errors/no response.
        `channel_id`: the guild channel it is used in (default: the control centre).
        """
        command = self._command(name)
        spec = command.to_dict(self.bot.tree)
        contexts = spec.get("contexts")
        if dm and (spec.get("dm_permission") is False or (contexts and 1 not in contexts)):
            raise DiscordWouldReject(f"/{name} is not offered in direct messages")
        option_specs: list[dict[str, Any]] = spec.get("options", [])
        path = subcommand.split() if subcommand else []
        for part in path:
            sub = next(
                (o for o in option_specs if o["name"] == part and o["type"] in (1, 2)), None
            )
            if sub is None:
                raise HarnessError(f"/{name} has no subcommand {part!r}")
            option_specs = sub.get("options", [])
        if any(o["type"] in (1, 2) for o in option_specs):
            raise HarnessError(f"/{name} needs a subcommand")
        resolved: dict[str, dict[str, Any]] = {}
        built = self._options(name, option_specs, dict(options or {}), resolved)
        for part in reversed(path):
            kind = 1 if part == path[-1] else 2
            built = [{"type": kind, "name": part, "options": built}]
        data: dict[str, Any] = {
            "id": str(self._command_ids.setdefault(name, self.snowflake())),
            "name": name,
            "type": 1,
            "options": built,
        }
        if resolved:
            data["resolved"] = resolved
        if self.bot.tree.get_command(name) is None:  # type: ignore[attr-defined]
            data["guild_id"] = str(GUILD_ID)  # registered for the tournament guild only
        return await self._dispatch(2, "slash", data, user, locale, dm=dm, check=check,
                                    channel_id=channel_id)

    async def autocomplete(
        self,
        name: str,
        option: str,
        typed: str,
        *,
        user: FakeUser,
        subcommand: str | None = None,
        dm: bool = False,
        channel_id: int | None = None,
    ) -> list[dict[str, Any]]:
        """What Discord shows while `user` types `typed` into `option` of `/name`: the choices
        the bot answers the autocomplete interaction (type 4) with."""
        command = self._command(name)
        option_specs: list[dict[str, Any]] = command.to_dict(self.bot.tree).get("options", [])
        path = subcommand.split() if subcommand else []
        for part in path:
            option_specs = next(o for o in option_specs if o["name"] == part).get("options", [])
        spec = next((o for o in option_specs if o["name"] == option), None)
        if spec is None or not spec.get("autocomplete"):
            raise HarnessError(f"/{name} has no autocompleted option {option!r}")
        built: list[dict[str, Any]] = [{"type": spec["type"], "name": option, "value": typed,
                                        "focused": True}]
        for part in reversed(path):
            kind = 1 if part == path[-1] else 2
            built = [{"type": kind, "name": part, "options": built}]
        data = {"id": str(self._command_ids.setdefault(name, self.snowflake())), "name": name,
                "type": 1, "options": built}
        exchange = await self._dispatch(4, "autocomplete", data, user, None, dm=dm,
                                        check=False, channel_id=channel_id)
        if exchange.errors:
            raise DispatchError("\n".join(exchange.errors))
        (response,) = [c for c in exchange.calls if c.key.endswith("callback")]
        assert response.payload is not None and response.payload["type"] == 8
        return list(response.payload["data"]["choices"])

    async def click(
        self,
        target: RecordedMessage | str,
        user: FakeUser,
        *,
        custom_id: str | None = None,
        values: Sequence[str] | None = None,
        locale: str | None = None,
        check: bool = True,
    ) -> Exchange:
        """Click a button (or choose `values` in a select) on a message the bot sent.

        `target` is the message, or a custom_id looked up in the newest message carrying it.
        """
        if isinstance(target, str):
            custom_id = target
            message = self._newest_with(custom_id)
        else:
            message = target
            if custom_id is None:
                ids = [b.get("custom_id") for b in message.buttons if b.get("custom_id")]
                if len(ids) != 1:
                    raise HarnessError(f"say which component to use: {ids}")
                custom_id = ids[0]
        component = message.component(custom_id)
        if message.deleted or component is None:
            raise DiscordWouldReject(f"no component {custom_id!r} on message {message.id}")
        if component.get("disabled"):
            raise DiscordWouldReject(f"component {custom_id!r} is disabled")
        if message.ephemeral and message.owner is not None and message.owner.id != user.id:
            raise DiscordWouldReject("an ephemeral message is visible only to its owner")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != 2:
            data["values"] = self._select_values(component, list(values or ()))
        dm = message.channel_id in self._dm_channels
        return await self._dispatch(
            3, "click", data, user, locale, dm=dm, source=message, check=check
        )

    async def submit_modal(
        self,
        custom_id: str,
        values: Mapping[str, str],
        user: FakeUser,
        *,
        locale: str | None = None,
        check: bool = True,
    ) -> Exchange:
        """Submit the modal `custom_id` that the bot opened for `user`, text inputs filled in.

        `custom_id` may be the id's fixed head: the bot gives each opening an id of its own
        (`StrediskoModal`), and Discord's client submits the form the user has open — the
        newest opened for him whose id is, or starts with, `custom_id` + ":"."""
        opened = next(
            (
                ex
                for ex in reversed(self.exchanges)
                if ex.modal is not None
                and (ex.modal["custom_id"] == custom_id
                     or ex.modal["custom_id"].startswith(f"{custom_id}:"))
                and ex.user.id == user.id
            ),
            None,
        )
        if opened is None:
            raise DiscordWouldReject(f"modal {custom_id!r} was never opened for {user.name}")
        remaining = dict(values)
        components = self._modal_components(opened.modal["components"], remaining)  # type: ignore[index]
        if remaining:
            raise HarnessError(f"modal {custom_id!r} has no inputs {sorted(remaining)}")
        data = {"custom_id": opened.modal["custom_id"], "components": components}  # type: ignore[index]
        dm = opened.channel_id in self._dm_channels
        return await self._dispatch(
            5, "modal", data, user, locale, dm=dm, source=opened.source, check=check
        )

    async def settle(self) -> None:
        """Wait until every dispatch task the library started has finished."""
        for _ in range(3):  # tasks may spawn event tasks of their own
            pending = [
                task
                for task in asyncio.all_tasks()
                if not task.done() and task.get_name().startswith(_DISPATCH_TASK_PREFIXES)
            ]
            if not pending:
                return
            await self._wait(pending)

    # ----- dispatch ---------------------------------------------------------------------------

    async def _dispatch(
        self,
        kind: int,
        label: str,
        data: dict[str, Any],
        user: FakeUser,
        locale: str | None,
        *,
        dm: bool,
        source: RecordedMessage | None = None,
        check: bool,
        channel_id: int | None = None,
    ) -> Exchange:
        if dm:
            channel_id = self.dm_channel_id(user)
        elif not user.in_guild:
            raise DiscordWouldReject(f"{user.name} is not a member of the guild")
        elif source is not None:
            channel_id = source.channel_id
        elif channel_id is None:
            channel_id = CONTROL_CHANNEL_ID
        elif self.guild.get_channel(channel_id) is None:
            raise HarnessError(f"the guild has no channel {channel_id}")
        interaction_id = self.snowflake()
        exchange = Exchange(
            id=interaction_id,
            token=f"harness-token-{interaction_id}",
            kind=label,
            user=user,
            locale=locale or user.locale,
            channel_id=channel_id,
            started=time.perf_counter(),
            source=source,
        )
        payload = self._interaction_payload(kind, data, exchange, dm=dm)
        self._by_token[exchange.token] = exchange
        self.exchanges.append(exchange)

        def parse() -> None:
            # Runs in a copied context: the tasks discord.py starts inherit the recorder.
            async_context.set(self._adapter)
            _current_exchange.set(exchange)
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

        before = asyncio.all_tasks()
        contextvars.copy_context().run(parse)
        started = [t for t in asyncio.all_tasks() - before if not t.done()]
        await self._wait(started)
        await asyncio.sleep(0)  # let completion events run
        if check:
            self._check(exchange)
        return exchange

    async def _wait(self, tasks: Sequence[asyncio.Task[Any]]) -> None:
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=self.timeout)
        if pending:
            names = ", ".join(t.get_name() for t in pending)
            raise HarnessError(f"dispatch did not finish within {self.timeout} s: {names}")

    def _check(self, exchange: Exchange) -> None:
        if exchange.errors:
            raise DispatchError(
                f"{exchange.kind} by {exchange.user.name} logged errors:\n"
                + "\n".join(exchange.errors)
            )
        if not exchange.responded:
            raise DispatchError(
                f"{exchange.kind} by {exchange.user.name} got no response: "
                "Discord would show 'The application did not respond'"
            )

    def _interaction_payload(
        self, kind: int, data: dict[str, Any], exchange: Exchange, *, dm: bool
    ) -> dict[str, Any]:
        user = exchange.user
        payload: dict[str, Any] = {
            "id": str(exchange.id),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "token": exchange.token,
            "version": 1,
            "locale": exchange.locale,
            "app_permissions": str(discord.Permissions.all_channel().value),
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(exchange.channel_id),
        }
        if dm:
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(GUILD_ID)}
            payload["user"] = user.payload()
            payload["channel"] = {
                "id": str(exchange.channel_id),
                "type": 1,
                "recipients": [user.payload()],
            }
        else:
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(GUILD_ID)}
            payload["guild_id"] = str(GUILD_ID)
            payload["guild"] = {"id": str(GUILD_ID), "locale": self.guild_locale, "features": []}
            payload["guild_locale"] = self.guild_locale
            payload["member"] = {**self._member_payload(user), "permissions": self._perms(user)}
            payload["channel"] = {
                "id": str(exchange.channel_id),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": getattr(self.guild.get_channel(exchange.channel_id), "name", "?"),
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            }
        if exchange.source is not None:
            payload["message"] = exchange.source.raw
        return payload

    def _member_payload(self, user: FakeUser) -> dict[str, Any]:
        return member_payload(user)

    def _perms(self, user: FakeUser) -> str:
        value = _EVERYONE_PERMISSIONS.value
        for role_id in user.roles:
            role = self.guild.get_role(role_id)
            if role is not None:
                value |= role.permissions.value
        return str(value)

    # ----- what a Discord client lets a user send -------------------------------------------

    def _command(self, name: str) -> app_commands.Command[Any, ..., Any] | app_commands.Group:
        tree = self.bot.tree  # type: ignore[attr-defined]
        guild = discord.Object(GUILD_ID)
        command = tree.get_command(name) or tree.get_command(name, guild=guild)
        if command is None or isinstance(command, app_commands.ContextMenu):
            known = sorted(c.name for c in tree.get_commands())
            raise DiscordWouldReject(f"no slash command /{name} (known: {known})")
        return command

    def _options(
        self,
        command: str,
        specs: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
    ) -> list[dict[str, Any]]:
        known = {o["name"] for o in specs}
        unknown = set(given) - known
        if unknown:
            raise HarnessError(f"/{command} has no options {sorted(unknown)} (has {sorted(known)})")
        built = []
        for spec in specs:
            name = spec["name"]
            if name not in given:
                if spec.get("required"):
                    raise DiscordWouldReject(f"/{command}: option {name!r} is required")
                continue
            value = self._option_value(command, spec, given[name], resolved)
            built.append({"name": name, "type": spec["type"], "value": value})
        return built

    def _option_value(
        self, command: str, spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        kind, name = spec["type"], spec["name"]
        where = f"/{command} {name}"
        if kind in (3, 4, 10):
            expected = {3: str, 4: int, 10: (int, float)}[kind]
            if not isinstance(value, expected) or isinstance(value, bool):
                raise DiscordWouldReject(f"{where}: {value!r} is not of type {kind}")
            choices = spec.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise DiscordWouldReject(f"{where}: {value!r} is not one of the choices")
            low_key, high_key = (
                ("min_length", "max_length") if kind == 3 else ("min_value", "max_value")
            )
            measured = len(value) if kind == 3 else value
            if low_key in spec and measured < spec[low_key]:
                raise DiscordWouldReject(f"{where}: {value!r} below {low_key} {spec[low_key]}")
            if high_key in spec and measured > spec[high_key]:
                raise DiscordWouldReject(f"{where}: {value!r} above {high_key} {spec[high_key]}")
            return value
        if kind == 5:
            if not isinstance(value, bool):
                raise DiscordWouldReject(f"{where}: {value!r} is not a boolean")
            return value
        if kind == 6 and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if value.in_guild:
                member = self._member_payload(value)
                del member["user"]
                member["permissions"] = self._perms(value)
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if kind == 8 and isinstance(value, discord.Role):
            resolved.setdefault("roles", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "color": 0,
                "hoist": False,
                "position": value.position,
                "permissions": str(value.permissions.value),
                "managed": False,
                "mentionable": True,
            }
            return str(value.id)
        if kind == 7 and isinstance(value, discord.TextChannel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "type": 0,
                "name": value.name,
                "permissions": str(_EVERYONE_PERMISSIONS.value),
                "parent_id": None,
            }
            return str(value.id)
        if kind == 11 and isinstance(value, FakeAttachment):
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise HarnessError(f"{where}: cannot send {value!r} as an option of type {kind}")

    def _select_values(self, component: dict[str, Any], values: list[str]) -> list[str]:
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DiscordWouldReject(f"select needs {low}–{high} values, got {values}")
        offered = [o["value"] for o in component.get("options") or []]
        if offered and not set(values) <= set(offered):
            raise DiscordWouldReject(f"values {values} not among {offered}")
        return values

    def _modal_components(
        self, components: list[dict[str, Any]], values: dict[str, str]
    ) -> list[dict[str, Any]]:
        out = []
        for c in components:
            if c["type"] == 1:
                row = self._modal_components(c["components"], values)
                out.append({"type": 1, "components": row})
            elif c["type"] == 18:
                inner = self._modal_components([c["component"]], values)
                out.append({"type": 18, "component": inner[0]})
            elif c["type"] == 4:
                out.append({"type": 4, "custom_id": c["custom_id"], "value": self._text(c, values)})
            else:
                raise HarnessError(f"modal component type {c['type']} is not supported")
        return out

    def _text(self, spec: dict[str, Any], values: dict[str, str]) -> str:
        custom_id = spec["custom_id"]
        value = values.pop(custom_id, "")
        if not value and spec.get("required", True):
            raise DiscordWouldReject(f"text input {custom_id!r} is required")
        if value and len(value) < spec.get("min_length", 0):
            raise DiscordWouldReject(f"{custom_id!r} shorter than {spec['min_length']}")
        if len(value) > spec.get("max_length", 4000):
            raise DiscordWouldReject(f"{custom_id!r} longer than {spec['max_length']}")
        return value

    def _newest_with(self, custom_id: str) -> RecordedMessage:
        for message in reversed(self.messages.values()):
            if not message.deleted and message.component(custom_id) is not None:
                return message
        raise DiscordWouldReject(f"no message shows a component {custom_id!r}")

    # ----- the recorded Discord side -----------------------------------------------------------

    def _record(
        self, route: Route, payload: dict[str, Any] | None, files: Sequence[Any], status: int = 200
    ) -> RecordedCall:
        call = RecordedCall(
            method=route.method,
            path=route.path,
            url=route.url,
            payload=payload,
            files=[getattr(f, "filename", None) or "file" for f in files],
            at=time.perf_counter(),
            status=status,
        )
        self.calls.append(call)
        exchange = _current_exchange.get()
        if exchange is not None:
            exchange.calls.append(call)
        return call

    def _new_message(
        self,
        channel_id: int,
        data: Mapping[str, Any],
        files: Sequence[str],
        *,
        exchange: Exchange | None = None,
        extra_flags: int = 0,
    ) -> RecordedMessage:
        message_id = self.snowflake()
        raw: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": BOT_USER.payload(),
            "content": data.get("content") or "",
            "timestamp": discord.utils.utcnow().isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment(name) for name in files],
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags") or 0) | extra_flags,
            "components": data.get("components") or [],
        }
        if channel_id not in self._dm_channels:
            raw["guild_id"] = str(GUILD_ID)
        if exchange is not None:
            raw["webhook_id"] = str(APP_ID)
            raw["application_id"] = str(APP_ID)
            raw["type"] = 20 if exchange.kind == "slash" else 0
            raw["interaction_metadata"] = {
                "id": str(exchange.id),
                "type": 2 if exchange.kind == "slash" else 3,
                "user": exchange.user.payload(),
                "authorizing_integration_owners": {"0": str(GUILD_ID)},
            }
        message = RecordedMessage(raw, owner=exchange.user if exchange else None)
        self.messages[message_id] = message
        return message

    def _attachment(self, filename: str) -> dict[str, Any]:
        attachment = FakeAttachment(self.snowflake(), filename, 1024, "application/octet-stream")
        return attachment.payload()

    def _edit(
        self, message: RecordedMessage, data: Mapping[str, Any] | None, files: Sequence[str]
    ) -> dict[str, Any]:
        if message.deleted:
            raise _http_error(404, 10008, "Unknown Message")
        data = dict(data or {})
        message.edits.append(data)
        cleared: dict[str, Any] = {"content": "", "embeds": [], "components": [], "flags": 0}
        for key, empty in cleared.items():
            if key in data:
                message.raw[key] = data[key] or empty
        if files:
            message.raw["attachments"] = [self._attachment(name) for name in files]
        message.raw["flags"] = int(message.raw.get("flags") or 0) & ~LOADING
        message.raw["edited_timestamp"] = discord.utils.utcnow().isoformat()
        return message.raw

    def _message(self, message_id: int | str) -> RecordedMessage:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted:
            raise _http_error(404, 10008, "Unknown Message")
        return message

    def _validate(self, route: Route, payload: Any, files: Sequence[Any],
                  query: Mapping[str, Any] | None = None) -> None:
        """Discord's check of the request against its spec, its query parameters too: a 400
        for what it would refuse."""
        started = time.thread_time()  # CPU of this thread alone: the check runs in it
        found = contract.check(route.method, route.url, payload, query)
        contract.TALLY.add(payload, found, time.thread_time() - started)
        if found:
            self.violations.extend(found)
            self._record(route, payload, files, status=400)
            raise _http_error(400, 50035, "Invalid Form Body: " + "; ".join(map(str, found)))

    def fail_next(self, route: str, *, status: int = 500, times: int = 1) -> None:
        """The next `times` requests whose "METHOD path" contains `route` (e.g. "/callback",
        "POST /channels/{channel_id}/messages") fail with `status`, having done nothing."""
        self._faults.append([route, status, times])

    def _fault(self, route: Route, payload: dict[str, Any] | None, files: Sequence[Any]) -> None:
        key = f"{route.method} {route.path}"
        for fault in self._faults:
            if fault[0] in key and fault[2] > 0:
                fault[2] -= 1
                self._record(route, payload, files, status=fault[1])
                raise _http_error(fault[1], 0, "injected failure")

    def _on_webhook(
        self, route: Route, payload: dict[str, Any] | None, files: list[Any], params: dict[str, Any]
    ) -> Any:
        arrived = time.perf_counter()  # the spec check is the harness's time, not the bot's
        self._validate(route, payload, files)
        exchange = self._by_token.get(route.webhook_token or "")
        if exchange is None:
            raise _http_error(404, 10015, "Unknown Webhook")
        self._fault(route, payload, files)
        self._record(route, payload, files)
        names = [getattr(f, "filename", None) or "file" for f in files]
        key = f"{route.method} {route.path}"
        if key == "POST /interactions/{webhook_id}/{webhook_token}/callback":
            return self._on_callback(exchange, payload or {}, names, arrived)
        if exchange.callback is None:
            raise _http_error(404, 10015, "Unknown Webhook")  # no followups before a response
        message_id = _route_params(route).get("message_id")
        if message_id is None and route.path.endswith("/messages/@original"):
            message_id = "@original"  # discord.py writes this route with a literal id
        if key == "POST /webhooks/{webhook_id}/{webhook_token}":
            message = self._followup(exchange, payload or {}, names)
            exchange.followups.append(message)
            return message.raw if params.get("wait") else None
        if message_id == "@original":
            if exchange.message is None:
                raise _http_error(404, 10008, "Unknown Message")
            target = exchange.message
        else:
            target = self._message(message_id or 0)
        if route.method == "GET":
            return target.raw
        if route.method == "PATCH":
            return self._edit(target, payload, names)
        if route.method == "DELETE":
            target.deleted = True
            return None
        raise HarnessError(f"unsupported webhook route {key}")

    def _followup(
        self, exchange: Exchange, payload: dict[str, Any], files: list[str]
    ) -> RecordedMessage:
        original = exchange.message
        if original is not None and original.flags & LOADING:
            # Discord: the first followup after a deferred reply replaces the "thinking"
            # message, which keeps the visibility chosen when deferring.
            self._edit(original, {**payload, "flags": original.flags}, files)
            return original
        return self._new_message(exchange.channel_id, payload, files, exchange=exchange)

    def _on_callback(
        self, exchange: Exchange, payload: dict[str, Any], files: list[str], now: float
    ) -> dict[str, Any]:
        if exchange.callback is not None:
            raise _http_error(400, 40060, "Interaction has already been acknowledged.")
        if self.response_deadline is not None and now - exchange.started > self.response_deadline:
            raise _http_error(404, 10062, "Unknown interaction")
        exchange.callback = payload
        exchange.first_response_at = now
        kind = payload["type"]
        data = payload.get("data") or {}
        if kind in (4, 5):  # (deferred) channel message
            exchange.message = self._new_message(
                exchange.channel_id,
                data,
                files,
                exchange=exchange,
                extra_flags=LOADING if kind == 5 else 0,
            )
        elif kind in (6, 7) and exchange.source is not None:  # (deferred) update of the source
            exchange.message = exchange.source
            if kind == 7:
                self._edit(exchange.source, data, files)
        interaction: dict[str, Any] = {
            "id": str(exchange.id),
            "type": {"slash": 2, "click": 3, "modal": 5, "autocomplete": 4}[exchange.kind],
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(exchange.message and exchange.message.ephemeral),
        }
        resource: dict[str, Any] = {"type": kind}
        if exchange.message is not None and kind in (4, 5, 7):
            interaction["response_message_id"] = str(exchange.message.id)
            resource["message"] = exchange.message.raw
        return {"interaction": interaction, "resource": resource}

    async def _on_http(
        self,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        payload = _json_payload(kwargs.get("json"), form)
        names = [f.filename or "file" for f in files or ()]
        blobs = [_file_bytes(f) for f in files or ()]
        params = _route_params(route)
        key = f"{route.method} {route.path}"
        self._validate(route, payload, names, kwargs.get("params"))
        self._fault(route, payload, names)
        if key == "POST /channels/{channel_id}/messages":
            channel_id = int(params["channel_id"])
            recipient = self.users.get(self._dm_channels.get(channel_id, 0))
            if recipient is not None and not recipient.dms_open:
                self._record(route, payload, names, status=403)
                raise _http_error(403, 50007, "Cannot send messages to this user")
            self._record(route, payload, names).blobs = blobs
            nonce = (payload or {}).get("nonce") if (payload or {}).get("enforce_nonce") else None
            seen = self._nonces.get((channel_id, str(nonce)))
            if nonce is not None and seen is not None:
                return seen.raw  # Discord: the first message with this nonce, no copy
            message = self._new_message(channel_id, payload or {}, names)
            message.files = dict(zip(names, blobs, strict=True))
            if nonce is not None:
                self._nonces[(channel_id, str(nonce))] = message
            return message.raw
        self._record(route, payload, names)
        if key == "POST /users/@me/channels":
            user = self._user(payload["recipient_id"])  # type: ignore[index]
            return {
                "id": str(self.dm_channel_id(user)),
                "type": 1,
                "recipients": [user.payload()],
                "last_message_id": None,
            }
        if key == "PATCH /channels/{channel_id}/messages/{message_id}":
            return self._edit(self._message(params["message_id"]), payload, names)
        if key == "GET /channels/{channel_id}/messages":  # channel.history(): newest first
            return self._history(int(params["channel_id"]), kwargs.get("params") or {})
        if key == "GET /channels/{channel_id}/messages/{message_id}":
            return self._message(params["message_id"]).raw
        if key == "DELETE /channels/{channel_id}/messages/{message_id}":
            self._message(params["message_id"]).deleted = True
            return None
        if key in ("PUT /applications/{application_id}/commands",
                   "PUT /applications/{application_id}/guilds/{guild_id}/commands"):
            return self._registered(payload, params.get("guild_id"))  # --sync-commands
        if key == "GET /users/{user_id}":
            return self._user(params["user_id"]).payload()
        if key == "GET /guilds/{guild_id}/members/{member_id}":
            user = self._user(params["member_id"])
            if not user.in_guild:
                raise _http_error(404, 10007, "Unknown Member")
            return self._member_payload(user)
        if key in (
            "PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}",
            "DELETE /guilds/{guild_id}/members/{user_id}/roles/{role_id}",
        ):
            user, role_id = self._user(params["user_id"]), int(params["role_id"])
            user.roles = [r for r in user.roles if r != role_id]
            if route.method == "PUT":
                user.roles.append(role_id)
            return None
        raise HarnessError(f"the harness does not simulate {key}; add it to _on_http")

    def _history(self, channel_id: int, query: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A channel's messages as Discord lists them: newest first, after/before an id,
        at most `limit`."""
        after, before = int(query.get("after", 0)), int(query.get("before", 1 << 63))
        found = [m for m in self.messages.values()
                 if m.channel_id == channel_id and not m.deleted and after < m.id < before]
        found.sort(key=lambda m: m.id, reverse=True)
        return [m.raw for m in found[:int(query.get("limit", 50))]]

    def forget_nonces(self) -> None:
        """Discord's nonce window passed: a repeated nonce now posts a second message."""
        self._nonces.clear()

    def _registered(self, commands: Any, guild_id: str | None) -> list[dict[str, Any]]:
        """Discord's answer to a bulk overwrite: each command as sent, with its ids."""
        where = {"guild_id": guild_id} if guild_id else {}
        return [{**command, **where, "id": str(self.snowflake()), "application_id": str(APP_ID),
                 "version": str(self.snowflake())} for command in commands or []]

    def _user(self, user_id: int | str) -> FakeUser:
        user = self.users.get(int(user_id))
        if user is None:
            raise _http_error(404, 10013, "Unknown User")
        return user
