"""The offline Discord harness (test code: it is not part of the installed package).

`kit` drives a bot through discord.py's real dispatch and records every HTTP call, each checked
against Discord's published OpenAPI spec (`contract`, `limits`, the vendored spec in
discord-api-spec/); the tests in tests/bot/discord/ and bench/discord_dispatch.py import it
from here."""

from .contract import TALLY, SpecViolation, Violation
from .kit import (
    APP_ID,
    BOT_ID,
    BOT_USER,
    CONTROL_CHANNEL_ID,
    GUILD_ID,
    HEAD_ADMIN_ROLE_ID,
    OWNER_ID,
    PLAYER_ROLE_ID,
    RESPONSE_DEADLINE_S,
    DiscordHarness,
    DiscordWouldReject,
    DispatchError,
    Exchange,
    FakeAttachment,
    FakeUser,
    HarnessError,
    RecordedCall,
    RecordedMessage,
    guild_payload,
    member_payload,
)

__all__ = [
    "APP_ID",
    "BOT_ID",
    "BOT_USER",
    "CONTROL_CHANNEL_ID",
    "GUILD_ID",
    "HEAD_ADMIN_ROLE_ID",
    "OWNER_ID",
    "PLAYER_ROLE_ID",
    "RESPONSE_DEADLINE_S",
    "TALLY",
    "DiscordHarness",
    "DiscordWouldReject",
    "DispatchError",
    "Exchange",
    "FakeAttachment",
    "FakeUser",
    "HarnessError",
    "RecordedCall",
    "RecordedMessage",
    "SpecViolation",
    "Violation",
    "guild_payload",
    "member_payload",
]
