"""Discord's published OpenAPI spec is the contract of every request the harness records
(issue 34.1): a payload Discord would refuse with 400 fails the test that made it, naming the
field, the value and the rule — checked here on payloads broken on purpose, directly and
through the harness (JSON and multipart), and on the command registration."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.discord import runner
from bot.discord.client import StrediskoBot

from .harness import GUILD_ID, TALLY, DiscordHarness, SpecViolation, contract
from .harness.contract import Violation


@pytest.fixture(autouse=True)
def on_purpose() -> Iterator[None]:
    """The requests broken here on purpose stay out of the suite's tally (the terminal summary
    reports the bot's own requests)."""
    saved = dataclasses.replace(TALLY)
    yield
    for name in ("requests", "bodies", "violating", "violations", "seconds"):
        setattr(TALLY, name, getattr(saved, name))


MESSAGES = "/channels/1/messages"
CALLBACK = "/interactions/1/token/callback"
GUILD_COMMANDS = f"/applications/1/guilds/{GUILD_ID}/commands"


def command(**fields: Any) -> dict[str, Any]:
    return {"type": 1, "name": "vysledok", "description": "Nahlás výsledok", **fields}


def integer_option(**fields: Any) -> dict[str, Any]:
    return {"type": 4, "name": "cislo", "description": "Číslo", "required": True, **fields}


def only(found: list[Violation]) -> Violation:
    assert len(found) == 1, found
    return found[0]


def test_the_vendored_spec_is_the_pinned_one() -> None:
    readme = (contract.SPEC_FILE.parent / "README.md").read_text(encoding="utf-8")
    notices = (Path(__file__).resolve().parents[3] / "THIRD_PARTY_NOTICES.md").read_text(
        encoding="utf-8")
    actual = hashlib.sha256(contract.SPEC_FILE.read_bytes()).hexdigest()
    for text in (readme, notices):  # the notices record the pin as the README promises
        (digest,) = re.findall(r"sha256\s+`([0-9a-f]{64})`", text)
        assert digest == actual
        assert "74fda0fad044407ea280043a03ffc9bc64c4e49e" in text
    document = contract.spec()
    assert (document["openapi"], document["info"]["version"]) == ("3.1.0", "10")


@pytest.mark.parametrize(("method", "url", "template"), [
    ("PUT", GUILD_COMMANDS, "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("POST", CALLBACK, "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("PATCH", "/webhooks/1/token/messages/@original",
     "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/1/token/messages/77",
     "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("POST", contract.API_BASE + MESSAGES, "/channels/{channel_id}/messages"),
])
def test_a_request_is_matched_to_its_operation(method: str, url: str, template: str) -> None:
    assert contract.operation(method, url) == template


def test_a_route_discord_does_not_have_is_a_violation() -> None:
    found = only(contract.check("POST", "/channels/1/rozhodni", {"x": 1}))
    assert "no such route" in found.rule


BROKEN: list[tuple[str, str, str, Any, str, Any, str]] = [
    # (what, method, url, body, path, value, words of the rule)
    ("a description of 101 characters", "PUT", GUILD_COMMANDS,
     [command(description="d" * 101)], "$[0].description", "d" * 101, "maxLength 100"),
    ("an integer option up to 2^53", "PUT", GUILD_COMMANDS,
     [command(options=[integer_option(min_value=1, max_value=2**53)])],
     "$[0].options[0].max_value", 2**53, "maximum 9007199254740991"),
    ("a capital letter in a command name", "PUT", GUILD_COMMANDS,
     [command(name="Vysledok")], "$[0].name", "Vysledok", "lower case"),
    ("a space in a command name", "PUT", GUILD_COMMANDS,
     [command(name="moje skore")], "$[0].name", "moje skore", r"\p{L}"),
    ("an option name of 33 letters", "PUT", GUILD_COMMANDS,
     [command(options=[integer_option(name="k" * 33)])], "$[0].options[0].name", "k" * 33,
     "maxLength 32"),
    ("Slovak, a locale Discord does not have", "PUT", GUILD_COMMANDS,
     [command(name_localizations={"sk": "vysledok"})], "$[0].name_localizations['sk']", "sk",
     "AvailableLocalesEnum"),
    ("an empty description", "PUT", GUILD_COMMANDS,
     [command(description="")], "$[0].description", "", "1–100"),
    ("26 options", "PUT", GUILD_COMMANDS,
     [command(options=[integer_option(name=f"o{n}") for n in range(26)])],
     "$[0].options", "…", "maxItems 25"),
    ("26 choices", "PUT", GUILD_COMMANDS,
     [command(options=[integer_option(choices=[{"name": str(n), "value": n}
                                               for n in range(26)])])],
     "$[0].options[0].choices", "…", "maxItems 25"),
    ("a required option after an optional one", "PUT", GUILD_COMMANDS,
     [command(options=[integer_option(name="a", required=False), integer_option(name="b")])],
     "$[0].options[1].required", True, "required options before optional"),
    ("an embed over 6000 characters", "POST", MESSAGES,
     {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "$.embeds",
     "6001 characters in 2 embed(s)", "≤ 6000 characters together"),
    ("a message of 2001 characters", "POST", MESSAGES,
     {"content": "x" * 2001}, "$.content", "x" * 2001, "≤ 2000 characters"),
    ("an embed field value of 1025 characters", "POST", MESSAGES,
     {"embeds": [{"fields": [{"name": "a", "value": "v" * 1025}]}]},
     "$.embeds[0].fields[0].value", "v" * 1025, "maxLength 1024"),
    ("26 embed fields", "POST", MESSAGES,
     {"embeds": [{"fields": [{"name": "a", "value": "b"}] * 26}]}, "$.embeds[0].fields", "…",
     "maxItems 25"),
    ("six action rows", "POST", MESSAGES,
     {"components": [{"type": 1, "components": [
         {"type": 2, "style": 1, "label": "x", "custom_id": f"b{n}"}]} for n in range(6)]},
     "$.components", "6 rows", "≤ 5 action rows"),
    ("a select beside a button", "POST", CALLBACK,
     {"type": 4, "data": {"components": [{"type": 1, "components": [
         {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
         {"type": 2, "style": 1, "label": "x", "custom_id": "b"}]}]}},
     "$.data.components[0].components", "1 select(s) among 2", "a select fills its row alone"),
    ("a custom_id of 101 characters", "POST", CALLBACK,
     {"type": 7, "data": {"components": [{"type": 1, "components": [
         {"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101}]}]}},
     "$.data.components[0].components[0].custom_id", "c" * 101, "maxLength 100"),
    ("a modal title of 46 characters", "POST", CALLBACK,
     {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": [
         {"type": 1, "components": [{"type": 4, "custom_id": "a", "style": 1, "label": "x"}]}]}},
     "$.data.title", "t" * 46, "maxLength 45"),
    ("a text input allowing 4001 characters", "POST", CALLBACK,
     {"type": 9, "data": {"custom_id": "m", "title": "t", "components": [{"type": 1, "components": [
         {"type": 4, "custom_id": "a", "style": 2, "label": "x", "max_length": 4001}]}]}},
     "$.data.components[0].components[0].max_length", 4001, "maximum 4000"),
]


@pytest.mark.parametrize(("method", "url", "body", "path", "value", "rule"),
                         [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN])
def test_a_broken_payload_is_named_by_field_value_and_rule(
    method: str, url: str, body: Any, path: str, value: Any, rule: str,
) -> None:
    found = only(contract.check(method, url, body))
    assert found.path == path
    if value != "…":
        assert found.value == value
    assert rule in found.rule
    assert str(found).startswith(f"{method} {contract.operation(method, url)}: {path} = ")


def test_what_discord_accepts_passes() -> None:
    # Slovak letters in names (\p{L}: `regex`, not `re`), a name localised for a locale Discord
    # has, bounds at Discord's very limits
    body = [command(name="skóre", name_localizations={"en-US": "score", "cs": "skóre"},
                    options=[integer_option(min_value=-(2**53 - 1), max_value=2**53 - 1),
                             integer_option(name="ďalšie", required=False)])]
    assert contract.check("PUT", GUILD_COMMANDS, body) == []
    embeds = {"content": "x" * 2000,
              "embeds": [{"description": "d" * 4000}, {"description": "d" * 2000}]}
    assert contract.check("POST", MESSAGES, embeds) == []


# -- through the harness ---------------------------------------------------------------------


def png(name: str) -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG"), filename=name)


class Broken(commands.Cog):
    """Commands that send what Discord refuses."""

    @app_commands.command(name="dlhy", description="Vložka dlhšia, než Discord dovolí")
    async def long_embed(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(description="d" * 4097))

    @app_commands.command(name="subor", description="Súbor so správou dlhšou než 2000 znakov")
    async def long_upload(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send(content="x" * 2001,
                                        file=png("doska.png"))

    @app_commands.command(name="kanal", description="Príspevok do kanála so súborom")
    async def channel_upload(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        with contextlib.suppress(discord.HTTPException):  # a bot that swallows the 400 …
            await channel.send(content="x" * 2001, file=png("a.png"))  # … hides it from no test


def broken_bot() -> StrediskoBot:
    return StrediskoBot(cogs=[lambda bot: Broken()])


async def test_a_request_discord_would_refuse_fails_the_test_that_made_it() -> None:
    with pytest.raises(SpecViolation) as failed:
        async with DiscordHarness(broken_bot()) as h:
            ex = await h.slash("dlhy", user=h.member("Ana"), check=False)
            assert ex.callback is None  # Discord refused it (400): the user saw nothing
            assert [c.status for c in ex.calls] == [400]
    message = str(failed.value)
    assert "POST /interactions/{interaction_id}/{interaction_token}/callback" in message
    assert "$.data.embeds[0].description = 'dddd" in message and "maxLength 4096" in message


@pytest.mark.parametrize("name", ["subor", "kanal"])
async def test_a_multipart_request_is_checked_by_its_payload_json(name: str) -> None:
    async with DiscordHarness(broken_bot()) as h:
        await h.slash(name, user=h.member("Ana"), check=False)
        (violation,) = h.take_violations()
    assert violation.path == "$.content" and violation.value == "x" * 2001
    assert "2000" in violation.rule  # the webhook schema holds it, the channel post a limit
    (refused,) = [c for c in h.calls if c.status == 400]
    assert refused.files  # the file went as multipart, its payload_json was checked


class OldBound(commands.Cog):
    """`/admin odchadzajuce znova` as it was: an outgoing message's number up to 2^53."""

    @app_commands.command(name="znova", description="Pošli správu znova")
    async def again(self, interaction: discord.Interaction,
                    cislo: app_commands.Range[int, 1, 2**53]) -> None:
        await interaction.response.send_message(str(cislo))


async def test_a_command_bound_of_2_to_the_53_fails_the_registration() -> None:
    bot = StrediskoBot(cogs=[lambda bot: OldBound()])
    async with DiscordHarness(bot) as h:
        with pytest.raises(app_commands.CommandSyncFailure):  # all commands refused at once
            await runner.sync_app_commands(bot, GUILD_ID)
        (violation,) = h.take_violations()
    assert violation.request == "PUT /applications/{application_id}/guilds/{guild_id}/commands"
    assert (violation.path, violation.value) == ("$[0].options[0].max_value", 2**53)
    assert "maximum 9007199254740991" in violation.rule


# -- the documented limits on their own (where the schema holds one too, it reports first) ---

LOCALES = contract.locales()
ROW = "$.components[0].components[0]"
LIMITS: list[tuple[str, str, str, Any, str, str]] = [
    ("a bound of 2^53", "PUT", "/applications/{application_id}/commands",
     [command(options=[integer_option(max_value=2**53)])], "$[0].options[0].max_value",
     "±(2^53 − 1)"),
    ("a choice name of 101 characters", "PUT", "/applications/{application_id}/commands",
     [command(options=[integer_option(choices=[{"name": "c" * 101, "value": 1}])])],
     "$[0].options[0].choices[0].name", "1–100"),
    ("a description of 101 characters", "PUT", "/applications/{application_id}/commands",
     [command(description="d" * 101)], "$[0].description", "1–100"),
    ("six buttons in a row", "POST", "/channels/{channel_id}/messages",
     {"components": [{"type": 1, "components": [
         {"type": 2, "style": 1, "label": "x", "custom_id": f"b{n}"} for n in range(6)]}]},
     "$.components[0].components", "≤ 5 per row"),
    ("26 select options", "POST", "/channels/{channel_id}/messages",
     {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
         {"label": str(n), "value": str(n)} for n in range(26)]}]}]},
     f"{ROW}.options", "1–25 options"),
    ("a select option value of 101 characters", "POST", "/channels/{channel_id}/messages",
     {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
         {"label": "a", "value": "v" * 101}]}]}]}, f"{ROW}.options[0].value", "1–100"),
    ("a custom_id twice", "POST", "/channels/{channel_id}/messages",
     {"components": [{"type": 1, "components": [
         {"type": 2, "style": 1, "label": "x", "custom_id": "b"},
         {"type": 2, "style": 1, "label": "y", "custom_id": "b"}]}]},
     "$.components[0].components[1].custom_id", "unique"),
    ("an embed title of 257 characters", "POST", "/channels/{channel_id}/messages",
     {"embeds": [{"title": "t" * 257}]}, "$.embeds[0].title", "≤ 256"),
    ("a footer of 2049 characters", "POST", "/channels/{channel_id}/messages",
     {"embeds": [{"footer": {"text": "f" * 2049}}]}, "$.embeds[0].footer.text", "≤ 2048"),
    ("an author of 257 characters", "POST", "/channels/{channel_id}/messages",
     {"embeds": [{"author": {"name": "a" * 257}}]}, "$.embeds[0].author.name", "≤ 256"),
    ("a text input label of 46 characters", "POST",
     "/interactions/{interaction_id}/{interaction_token}/callback",
     {"type": 9, "data": {"custom_id": "m", "title": "t", "components": [{"type": 1, "components": [
         {"type": 4, "custom_id": "a", "style": 1, "label": "l" * 46}]}]}},
     "$.data.components[0].components[0].label", "1–45"),
    ("a modal of six inputs", "POST", "/interactions/{interaction_id}/{interaction_token}/callback",
     {"type": 9, "data": {"custom_id": "m", "title": "t", "components": [{"type": 1, "components": [
         {"type": 4, "custom_id": f"a{n}", "style": 1, "label": "l"}]} for n in range(6)]}},
     "$.data.components", "1–5 components"),
]


@pytest.mark.parametrize(("method", "template", "body", "path", "rule"),
                         [case[1:] for case in LIMITS], ids=[case[0] for case in LIMITS])
def test_each_documented_limit_is_checked(method: str, template: str, body: Any, path: str,
                                          rule: str) -> None:
    found = [(where, words) for where, _, words in
             contract.limits.check(method, template, body, LOCALES)]
    assert [where for where, _ in found] == [path]
    assert rule in found[0][1] and "Discord docs" in found[0][1]


# -- query parameters (issue 43.3: `?limit=101` passed unchecked) -----------------------------


@pytest.mark.parametrize(("url", "query", "path", "value", "rule"), [
    (f"{MESSAGES}?limit=101", None, "?limit", "101", "maximum 100"),
    (MESSAGES, {"limit": 0}, "?limit", 0, "minimum 1"),
    (MESSAGES, {"after": "zajtra"}, "?after", "zajtra", ""),
    (MESSAGES, {"pocet": 5}, "?pocet", 5, "a query parameter of this operation"),
], ids=["limit-in-url", "limit-param", "after-not-snowflake", "unknown"])
def test_a_query_parameter_discord_would_refuse_is_named(
        url: str, query: dict[str, Any] | None, path: str, value: Any, rule: str) -> None:
    found = contract.check("GET", url, None, query)  # a snowflake breaks both of its forms
    assert found and {(f.path, f.value) for f in found} == {(path, value)}
    assert any(rule in f.rule for f in found)


def test_query_parameters_discord_accepts_pass() -> None:
    assert contract.check("GET", f"{MESSAGES}?limit=100", None) == []
    assert contract.check("GET", MESSAGES, None, {"limit": 1, "after": 1234567890123456789}) == []
    assert contract.check("GET", MESSAGES, None, {"before": "1234567890123456789"}) == []
