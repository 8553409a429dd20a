"""The offline harness, proved on the sample cog through discord.py's real dispatch."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import discord
import pytest

import bot
from bot.discord.client import StrediskoBot

from .harness import (
    CONTROL_CHANNEL_ID,
    GUILD_ID,
    DiscordHarness,
    DiscordWouldReject,
    DispatchError,
    HarnessError,
)

RESULT = {"moje_skore": 420, "skore_supera": 300, "dovod": "server neuložil partiu"}


async def test_slash_with_options_and_attachment_replies_ephemerally(
    harness: DiscordHarness,
) -> None:
    ana = harness.member("Ana")
    shot = harness.attachment("partia.png")
    ex = await harness.slash("vysledok", user=ana, options={**RESULT, "snimka": shot})
    assert ex.response_type is discord.InteractionResponseType.channel_message
    assert ex.ephemeral
    assert ex.content.startswith("420 : 300 — server neuložil partiu")
    assert "Partiu treba ukončiť do 21. 11. 2026 9:50 (e-SP 4.5)." in ex.content
    cog = harness.bot.get_cog("SampleCog")
    assert cog.seen_attachments == ["partia.png"]
    assert harness.channel_messages == []  # ephemeral: nobody else sees it


async def test_english_locale_gets_english_reply(harness: DiscordHarness) -> None:
    ex = await harness.slash("vysledok", user=harness.member("Eve"), options=RESULT,
                             locale="en-US")
    assert "The game must be finished by 21 Nov 2026, 09:50 (e-SP 4.5)." in ex.content


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({**RESULT, "moje_skore": 1001}, DiscordWouldReject, "above max_value 1000"),
        ({**RESULT, "skore_supera": -1}, DiscordWouldReject, "below min_value 0"),
        ({**RESULT, "dovod": "x" * 201}, DiscordWouldReject, "above max_length 200"),
        ({**RESULT, "moje_skore": "420"}, DiscordWouldReject, "not of type 4"),
        ({"moje_skore": 1, "skore_supera": 2}, DiscordWouldReject, "'dovod' is required"),
        ({**RESULT, "score": 1}, HarnessError, "no options"),
    ],
)
async def test_input_a_discord_client_cannot_send(
    harness: DiscordHarness, options: dict, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        await harness.slash("vysledok", user=harness.member("Ana"), options=options)
    assert harness.exchanges == []  # nothing reached the bot


async def test_unknown_command_is_rejected(harness: DiscordHarness) -> None:
    with pytest.raises(DiscordWouldReject, match="no slash command /neexistuje"):
        await harness.slash("neexistuje", user=harness.member("Ana"))


async def test_deferred_reply_then_followup(harness: DiscordHarness) -> None:
    ex = await harness.slash("stav", user=harness.member("Ana"))
    assert ex.deferred and ex.ephemeral
    assert ex.callback == {"type": 5, "data": {"flags": discord.MessageFlags.ephemeral.flag}}
    # Discord: the first followup replaces the "thinking" message, keeping it ephemeral.
    assert ex.followups == [ex.message]
    assert ex.content == "Priebežný stav: 2,5 bodu · 3 partie · do konca: 4 kolá"
    assert not ex.message.flags & (1 << 7)  # no longer loading
    assert [c.key for c in ex.calls] == [
        "POST /interactions/{webhook_id}/{webhook_token}/callback",
        "POST /webhooks/{webhook_id}/{webhook_token}",
    ]
    assert ex.first_response_s is not None and ex.first_response_s < ex.calls[1].at - ex.started


async def test_persistent_button_edits_the_message_and_survives_a_restart(
    harness: DiscordHarness, make_bot: Callable[[], StrediskoBot]
) -> None:
    ana = harness.member("Ana")
    ex = await harness.slash("poradie", user=ana)
    assert not ex.ephemeral and harness.channel_messages == [ex.message]
    click = await harness.click("poradie:obnovit", ana)
    assert click.response_type is discord.InteractionResponseType.message_update
    assert click.message is ex.message and ex.message.content == "Poradie ↻"
    assert ex.message.edits[-1]["content"] == "Poradie ↻"

    restarted = make_bot()
    async with DiscordHarness(restarted) as after:
        again = await after.click(ex.message, after.member("Bo"))
    assert again.message.content == "Poradie ↻↻"


async def test_dynamic_button_only_for_the_opponent(harness: DiscordHarness) -> None:
    ana, bob, cyril = harness.member("Ana"), harness.member("Bob"), harness.member("Cyril")
    ex = await harness.slash("remiza", user=ana, options={"super": bob})
    assert ex.message.buttons[0]["custom_id"] == f"remiza:{bob.id}"

    refused = await harness.click(ex.message, cyril)
    assert refused.ephemeral
    assert refused.content == f"Toto tlačidlo patrí hráčovi <@{bob.id}>, nie vám."
    assert ex.message.edits == []

    confirmed = await harness.click(ex.message, bob)
    assert confirmed.message is ex.message
    assert ex.message.content == f"Remíza potvrdená hráčom <@{bob.id}> (e-SP 3.5)."
    assert ex.message.components == []
    with pytest.raises(DiscordWouldReject, match="no component"):
        await harness.click(ex.message, bob, custom_id=f"remiza:{bob.id}")


async def test_modal_submission(harness: DiscordHarness) -> None:
    ana = harness.member("Ana")
    with pytest.raises(DiscordWouldReject, match="never opened"):
        await harness.submit_modal("namietka", {"namietka:dovod": "x" * 20}, ana)
    opened = await harness.slash("namietka", user=ana)
    assert opened.modal is not None and opened.modal["title"] == "Namietka"
    with pytest.raises(DiscordWouldReject, match="shorter than 10"):
        await harness.submit_modal("namietka", {"namietka:dovod": "krátke", "namietka:kolo": "3"},
                                   ana)
    ex = await harness.submit_modal(
        "namietka", {"namietka:dovod": "Skóre je prehodené.", "namietka:kolo": "3"}, ana
    )
    assert ex.ephemeral and ex.content == "Namietka prijatá: Skóre je prehodené."
    assert harness.channel_messages[-1].content == f"Namietka hráča {ana.mention} ku kolu 3."
    assert ex.posts(CONTROL_CHANNEL_ID)  # the post is attributed to this interaction


async def test_modal_refusal_is_ephemeral_and_clear(harness: DiscordHarness) -> None:
    ana = harness.member("Ana")
    await harness.slash("namietka", user=ana)
    ex = await harness.submit_modal(
        "namietka", {"namietka:dovod": "Skóre je prehodené.", "namietka:kolo": "3."}, ana
    )
    assert ex.ephemeral and ex.content == "„3.“ nie je číslo."
    assert harness.channel_messages == []


async def test_role_check_refuses_in_slovak_with_the_rule(harness: DiscordHarness) -> None:
    ana, bob = harness.member("Ana"), harness.member("Bob")
    ex = await harness.slash("pripomienka", user=ana, options={"hrac": bob})
    assert ex.ephemeral
    assert ex.content == "Toto smie urobiť iba hlavný administrátor turnaja (e-SP 2.5)."
    assert harness.dms(bob) == []
    english = await harness.slash("pripomienka", user=ana, options={"hrac": bob},
                                  locale="en-GB")
    assert english.content == "Only the tournament's head administrator may do this (e-SP 2.5)."


async def test_channel_post_and_dm(harness: DiscordHarness) -> None:
    bob = harness.member("Bob")
    ex = await harness.slash("pripomienka", user=harness.head_admin, options={"hrac": bob})
    assert ex.content == "doručené"
    [dm] = harness.dms(bob)
    assert dm.content == "Partiu treba ukončiť do 21. 11. 2026 9:50 (e-SP 4.5)."
    assert [c.key for c in ex.calls] == [
        "POST /users/@me/channels",
        "POST /channels/{channel_id}/messages",
        "POST /interactions/{webhook_id}/{webhook_token}/callback",
    ]


async def test_closed_dms_are_reported_in_the_channel_without_content(
    harness: DiscordHarness,
) -> None:
    bob = harness.member("Bob")
    harness.close_dms(bob)
    ex = await harness.slash("pripomienka", user=harness.head_admin, options={"hrac": bob})
    assert ex.content == "nedoručené"
    assert harness.dms(bob) == []
    assert [c.status for c in ex.calls if c.key == "POST /channels/{channel_id}/messages"] == [
        403, 200
    ]
    [notice] = harness.channel_messages
    assert bob.mention in notice.content and "(e-SP 2.6)" in notice.content
    assert "Partiu treba ukončiť" not in notice.content


async def test_subcommand_in_a_group(harness: DiscordHarness) -> None:
    ex = await harness.slash("kolo", subcommand="zacat", user=harness.head_admin,
                             options={"kolo": 3})
    assert ex.content == "✓"
    assert harness.channel_messages[-1].content == (
        "Kolo 3 sa začína 21. 11. 2026 9:00. Časový limit na ukončenie partie: "
        "50 minút od začiatku kola."
    )
    refused = await harness.slash("kolo", subcommand="zacat", user=harness.member("Ana"),
                                  options={"kolo": 3, "minuty": 30})
    assert "hlavný administrátor" in refused.content
    with pytest.raises(HarnessError, match="needs a subcommand"):
        await harness.slash("kolo", user=harness.head_admin)
    with pytest.raises(DiscordWouldReject, match="above max_value 7"):
        await harness.slash("kolo", subcommand="zacat", user=harness.head_admin,
                            options={"kolo": 8})


async def test_direct_messages_context(harness: DiscordHarness) -> None:
    ana = harness.member("Ana")
    ex = await harness.slash("stav", user=ana, dm=True)
    assert ex.channel_id == harness.dm_channel_id(ana)
    assert ex.content.startswith("Priebežný stav")
    with pytest.raises(DiscordWouldReject, match="not offered in direct messages"):
        await harness.slash("remiza", user=ana, dm=True, options={"super": ana})
    with pytest.raises(DiscordWouldReject, match="not a member"):
        await harness.slash("stav", user=harness.outsider("Cudzí"))


async def test_an_internal_error_fails_the_dispatch_unless_expected(
    harness: DiscordHarness,
) -> None:
    ana = harness.member("Ana")
    with pytest.raises(DispatchError, match="service exploded"):
        await harness.slash("chyba", user=ana)
    ex = await harness.slash("chyba", user=ana, check=False)
    assert ex.ephemeral and ex.content.startswith("Niečo sa pokazilo")
    assert "RuntimeError: service exploded" in ex.errors[0]


async def test_a_late_first_response_is_refused_like_discord() -> None:
    bot = StrediskoBot()

    @bot.tree.command(name="pomaly", description="Odpovie neskoro")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.05)
        await interaction.response.send_message("neskoro")

    async with DiscordHarness(bot, response_deadline=0.01) as h:
        with pytest.raises(DispatchError, match="Unknown interaction"):
            await h.slash("pomaly", user=h.member("Ana"))
        ex = await h.slash("pomaly", user=h.member("Bob"), check=False)
        assert not ex.responded


async def test_interactions_are_fresh_and_concurrent(harness: DiscordHarness) -> None:
    players = [harness.member(f"Hráč {i}") for i in range(12)]
    exchanges = await asyncio.gather(
        *(harness.slash("stav", user=p) for p in players)
    )
    assert len({ex.id for ex in exchanges}) == 12
    assert all(ex.content.startswith("Priebežný stav") for ex in exchanges)
    assert {ex.message.id for ex in exchanges} == {ex.followups[0].id for ex in exchanges}
    age = discord.utils.utcnow() - discord.utils.snowflake_time(exchanges[0].id)
    assert age < timedelta(minutes=1)


async def test_user_and_member_lookups_go_through_recorded_http(
    harness: DiscordHarness,
) -> None:
    bob = harness.member("Bob")
    fetched = await harness.bot.fetch_user(bob.id)
    member = await harness.guild.fetch_member(bob.id)
    assert fetched.global_name == "Bob" and member.get_role(harness.player_role.id)
    await member.add_roles(harness.head_admin_role)
    ex = await harness.slash("pripomienka", user=bob, options={"hrac": bob})
    assert ex.content == "doručené"  # the role given over HTTP counts from now on
    with pytest.raises(discord.NotFound):
        await harness.bot.fetch_user(42)


async def test_translated_command_payload(harness: DiscordHarness) -> None:
    tree = harness.bot.tree
    command = tree.get_command("vysledok")
    payload = await command.get_translated_payload(tree, tree.translator)
    assert payload["name"] == "vysledok"
    assert payload["name_localizations"] == {"en-US": "result", "en-GB": "result"}
    options = {o["name"]: o for o in payload["options"]}
    assert options["moje_skore"]["name_localizations"]["en-US"] == "my_score"
    assert options["snimka"]["required"] is False and options["snimka"]["type"] == 11


async def test_guild_command_with_a_select_menu() -> None:
    bot = StrediskoBot()
    chosen: list[str] = []

    class Pick(discord.ui.View):
        @discord.ui.select(
            custom_id="vyber",
            options=[discord.SelectOption(label=f"Kolo {i}", value=str(i)) for i in (1, 2, 3)],
        )
        async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
            chosen.extend(select.values)
            await interaction.response.send_message(f"Kolo {select.values[0]}", ephemeral=True)

    @bot.tree.command(name="vyber", description="Výber kola", guild=discord.Object(GUILD_ID))
    async def choose(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Vyber kolo", view=Pick())

    async with DiscordHarness(bot) as h:
        ana = h.member("Ana")
        ex = await h.slash("vyber", user=ana)
        with pytest.raises(DiscordWouldReject, match="not among"):
            await h.click(ex.message, ana, custom_id="vyber", values=["9"])
        with pytest.raises(DiscordWouldReject, match="needs 1–1 values"):
            await h.click(ex.message, ana, custom_id="vyber", values=[])
        picked = await h.click(ex.message, ana, custom_id="vyber", values=["2"])
    assert chosen == ["2"] and picked.content == "Kolo 2" and picked.ephemeral


def test_the_harness_is_test_code_and_the_package_does_without_it() -> None:
    # issue 34.1: the harness and its spec check (jsonschema) moved out of the shipped package
    assert importlib.util.find_spec("bot.discord.testkit") is None
    shipped = Path(bot.__file__).parent.rglob("*.py")
    importing = [path.name for path in shipped
                 if any(word in path.read_text(encoding="utf-8")
                        for word in ("import jsonschema", "from tests", "import tests"))]
    assert importing == []
