"""A small cog that exercises what the real cogs will use; the harness tests and bench drive it.

Not a test module: `conftest.py` and `bench/discord_dispatch.py` load it by path.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import (
    Refusal,
    StrediskoBot,
    StrediskoModal,
    StrediskoView,
    head_admin_only,
)
from bot.discord.i18n import app_str, t
from bot.discord.markdown import mention

ROUND_START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # 9:00 in Bratislava
GAME_LIMIT = timedelta(minutes=50)


class StandingsView(StrediskoView):
    """A persistent view (no timeout, fixed custom_id): it survives a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Obnoviť", custom_id="poradie:obnovit")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        count = interaction.message.content.count("↻") + 1 if interaction.message else 1
        await interaction.response.edit_message(content="Poradie " + "↻" * count, view=self)


class ConfirmDraw(discord.ui.DynamicItem[discord.ui.Button], template=r"remiza:(?P<who>[0-9]+)"):
    """The opponent confirms an agreed draw; the custom_id carries who may click."""

    def __init__(self, who: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Potvrdiť remízu",
                style=discord.ButtonStyle.success,
                custom_id=f"remiza:{who}",
            )
        )
        self.who = who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> ConfirmDraw:
        return cls(int(match["who"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.who:
            refusal = Refusal("refusal.not_your_button", player=mention(self.who))
            await interaction.response.send_message(
                refusal.render(interaction.locale), ephemeral=True
            )
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"Remíza potvrdená hráčom <@{self.who}> (e-SP 3.5).", view=None
        )


class DisputeModal(StrediskoModal, title="Namietka"):
    reason = discord.ui.TextInput(
        label="Dôvod", custom_id="namietka:dovod", min_length=10, max_length=500,
        style=discord.TextStyle.paragraph,
    )
    round_no = discord.ui.TextInput(label="Kolo", custom_id="namietka:kolo", max_length=2)

    def __init__(self) -> None:
        super().__init__(custom_id="namietka")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if not self.round_no.value.isdigit():
            raise Refusal("error.not_a_number", value=self.round_no.value)
        bot: StrediskoBot = interaction.client  # type: ignore[assignment]
        await bot.announce(f"Namietka hráča {interaction.user.mention} ku kolu {self.round_no}.")
        await interaction.response.send_message(
            f"Namietka prijatá: {self.reason.value}", ephemeral=True
        )


class SampleCog(commands.Cog):
    def __init__(self, bot: StrediskoBot, *, service_delay: float = 0.02) -> None:
        self.bot = bot
        self.service_delay = service_delay
        self.seen_attachments: list[str] = []

    kolo = app_commands.Group(name="kolo", description="Správa kôl")

    @kolo.command(name="zacat", description="Začať kolo")
    @app_commands.describe(kolo="Číslo kola", minuty="Časový limit v minútach")
    @head_admin_only()
    async def start_round(
        self,
        interaction: discord.Interaction,
        kolo: app_commands.Range[int, 1, 7],
        minuty: app_commands.Range[int, 10, 120] = 50,
    ) -> None:
        await self.bot.announce(t("time.starts", round=kolo, start=ROUND_START, minutes=minuty))
        await interaction.response.send_message("✓", ephemeral=True)

    async def cog_load(self) -> None:
        self.bot.add_view(StandingsView())
        self.bot.add_dynamic_items(ConfirmDraw)

    @app_commands.command(
        name=app_str("app.vysledok.name"), description=app_str("app.vysledok.description")
    )
    @app_commands.rename(
        moje_skore=app_str("app.param.moje_skore"),
        skore_supera=app_str("app.param.skore_supera"),
        dovod=app_str("app.param.dovod"),
        snimka=app_str("app.param.snimka"),
    )
    @app_commands.describe(
        moje_skore=app_str("app.param.moje_skore_description"),
        skore_supera=app_str("app.param.skore_supera_description"),
        dovod=app_str("app.param.dovod_description"),
        snimka=app_str("app.param.snimka_description"),
    )
    async def result(
        self,
        interaction: discord.Interaction,
        moje_skore: app_commands.Range[int, 0, 1000],
        skore_supera: app_commands.Range[int, 0, 1000],
        dovod: app_commands.Range[str, 1, 200],
        snimka: discord.Attachment | None = None,
    ) -> None:
        if snimka is not None:
            self.seen_attachments.append(snimka.filename)
        deadline = ROUND_START + GAME_LIMIT
        await interaction.response.send_message(
            f"{moje_skore} : {skore_supera} — {dovod}\n"
            + t("time.limit", interaction.locale, deadline=deadline, rule="e-SP 4.5"),
            ephemeral=True,
        )

    @app_commands.command(
        name=app_str("app.stav.name"), description=app_str("app.stav.description")
    )
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(self.service_delay)  # a slow service
        await interaction.followup.send(
            t("summary.games_points", interaction.locale, points=2.5, games=3, remaining=4)
        )

    @app_commands.command(
        name=app_str("app.poradie.name"), description=app_str("app.poradie.description")
    )
    async def standings(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Poradie", view=StandingsView())

    @app_commands.command(
        name=app_str("app.remiza.name"), description=app_str("app.remiza.description")
    )
    @app_commands.rename(opponent="super")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction, opponent: discord.Member) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmDraw(opponent.id))
        await interaction.response.send_message(
            f"{interaction.user.mention} navrhuje remízu; {opponent.mention}, potvrď ju.",
            view=view,
        )

    @app_commands.command(
        name=app_str("app.namietka.name"), description=app_str("app.namietka.description")
    )
    async def dispute(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(DisputeModal())

    @app_commands.command(name="pripomienka", description="Pripomenúť hráčovi partiu")
    @app_commands.guild_only()
    @head_admin_only()
    async def remind(self, interaction: discord.Interaction, hrac: discord.Member) -> None:
        text = t("time.limit", deadline=ROUND_START + GAME_LIMIT, rule="e-SP 4.5")
        delivered = await self.bot.direct_message(hrac, text)
        await interaction.response.send_message(
            "doručené" if delivered else "nedoručené", ephemeral=True
        )

    @app_commands.command(name="chyba", description="Vždy zlyhá")
    async def broken(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("service exploded")
