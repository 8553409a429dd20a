"""`/slovo WORD` (issue 22 item 5): the word check in the chat, answered only to the asker.

The answer has the content of `stredisko word`: PLATNÉ / NEPLATNÉ, the reason, which list
decided, its rule and the lexicon's id. The use case (`bot.services.lexicon.word_check`) refuses a
player in an open duplicate round and audits every check while the tournament runs; this cog
only limits the pace (a player hammering the command gets a polite refusal) and renders.

The lexicon is loaded once, on the first check (a large list takes a moment; the bot starts
without waiting for it), from config.toml's `[lexicon]`; a missing or unusable list is
answered with the reason, and the next check tries again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import CogFactory, Refusal, StrediskoBot, refuse_if_too_fast
from bot.discord.cogs.player import send
from bot.discord.i18n import app_str
from bot.discord.ratelimit import RateLimiter
from bot.discord.render import render_reply, text_messages
from bot.services.app import App, Tx
from bot.services.lexicon import word_check
from bot.services.lexicon.word_check import DuplicateRoundLookup, WordCheckPolicy
from bot.services.replies import Reply
from bot.services.tournament import events
from rules.lexicon import Admissibility, Lexicon, LexiconError

COG_NAME = "WordCog"

#: loads the configured lexicon with the rules it is judged by; None when none is configured;
#: LexiconError/OSError when it cannot be used
LexiconLoader = Callable[[], tuple[Lexicon, Admissibility] | None]


def guarded_event(tx: Tx, discord_id: int,
                  open_round: DuplicateRoundLookup = word_check.open_duplicate_round) -> str:
    """A bot serving several events (issue 37): the running duplicate event whose open round
    the user plays keeps /slovo closed to him (003 r. 30: no aids during a game), wherever he
    asks — a DM included. Every running duplicate event he is in is asked, not only the newest
    (issue 44.8): the one with his round open, else the newest (its checks are audited); ""
    when he plays in none."""
    running = [e for e in events.of_user(tx.db, discord_id, acting=True)
               if e.kind == "duplicate" and not e.finished]
    for event in running:
        if open_round(tx, event.id, discord_id) is not None:
            return event.slug
    return running[0].slug if running else ""


class WordCog(commands.Cog, name=COG_NAME):
    def __init__(self, bot: commands.Bot, app: App, slug: str, load: LexiconLoader,
                 policy: WordCheckPolicy = word_check.DEFAULT_POLICY, *,
                 limiter: RateLimiter | None = None,
                 open_round: DuplicateRoundLookup = word_check.open_duplicate_round) -> None:
        self.bot = bot
        self.app = app
        self.slug = slug
        self.policy = policy
        self.limiter = limiter or RateLimiter()
        self.open_round = open_round
        self._load = load
        self._lexicon: tuple[Lexicon, Admissibility] | None = None
        self._loading = asyncio.Lock()

    @app_commands.command(name=app_str("app.slovo.name"),
                          description=app_str("app.slovo.description"))
    @app_commands.rename(slovo=app_str("app.slovo.word"))
    @app_commands.describe(slovo=app_str("app.slovo.word_description"))
    async def slovo(self, interaction: discord.Interaction, slovo: str) -> None:
        refuse_if_too_fast(self.limiter, interaction.user.id)
        lexicon, rules = await self.lexicon()
        slug = self.slug or await self.app.run(guarded_event, interaction.user.id,
                                               self.open_round)
        result = await word_check.check(self.app, slovo, interaction.user.id, slug,
                                        lexicon, rules, self.policy, self.open_round)
        if isinstance(result, Reply):
            await send(interaction, render_reply(result, interaction.locale))
            return
        headline, details = word_check.verdict_lines(result, interaction.locale)
        await send(interaction, text_messages(f"{headline}\n{details}"))

    async def lexicon(self) -> tuple[Lexicon, Admissibility]:
        """The loaded lexicon and its rules (loaded the first time, off the event loop)."""
        async with self._loading:
            if self._lexicon is None:
                try:
                    loaded = await asyncio.to_thread(self._load)
                except (LexiconError, OSError) as exc:
                    raise Refusal("word.unusable", reason=str(exc)) from None
                if loaded is None:
                    raise Refusal("word.not_configured")
                self._lexicon = loaded
            return self._lexicon


def word_cog_factory(app: App | Sequence[App], slug: str, load: LexiconLoader,
                     policy: WordCheckPolicy) -> CogFactory:
    """For `StrediskoBot(cogs=[...])`; `app` may be the runner's one-element holder."""

    def build(bot: StrediskoBot) -> commands.Cog:
        return WordCog(bot, app if isinstance(app, App) else app[0], slug, load, policy)

    return build
