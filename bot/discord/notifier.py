"""The services' `Notifier` port, spoken on Discord.

- `announce`: the tournament's control-centre channel (e-SP 2.6);
- `direct`: a DM to the player's Discord account; when it cannot be delivered (DMs closed, no
  linked account) the head administrator of the DM's event is told (where `to_admin` goes)
  once per player, event and round — naming the player, never repeating the content, which
  may be private; the players' channel is not filled with such notices. A message naming an
  account in `identity.DISCORD_ACCOUNT` (the one just unlinked, a rejected request's) goes to that
  account instead, quietly if it cannot;
- `to_admin`: the head administrator's channel, or DMs to each head admin when there is none
  (the tournament's `admin_ids`: `admins = [...]` in the propozície, `stredisko admins`);
  `stredisko run` refuses to start when neither is set (`bot.discord.startup`).

Everything is rendered in Slovak (the guild's language) and cut to Discord's limits, led by
the name of the event it is about (issue 44.5): every DM and admin note, and an announcement in
a channel that carries more than one event's news. Messages
come from the outbox after the use case committed (`bot.services.delivery.outbox`): a Discord
failure raises, so the message stays pending and is retried, and never undoes or repeats the
decision. Each piece is sent with a nonce made from the message's outbox key (`enforce_nonce`), so a
delivery repeated after a crash returns Discord's first message instead of posting a copy.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord
from sqlite_utils import Database

from bot.discord.client import CONTROL_CENTRE_RULE
from bot.discord.i18n import SLOVAK, t
from bot.discord.markdown import literal
from bot.discord.render import IMAGE_PARAM, Outgoing, render_message
from bot.services.identity.accounts import DISCORD_ACCOUNT
from bot.services.notifier import Message
from bot.services.season.on_finish import SEASON_CHANNEL, season_channel
from bot.store import (
    NotFoundError,
    Player,
    Store,
    Tournament,
    TournamentStatus,
    get_entry,
    get_player,
    get_tournament,
    list_tournaments,
    unfinished_in_channel,
)

log = logging.getLogger("stredisko.discord.notifier")

# Announcements may ping players (pairings, results) but never @everyone or roles.
ANNOUNCE_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
QUIET = discord.AllowedMentions.none()
#: how many of a channel's newest messages are read back for a message sent before a crash
READ_BACK = 50


def admin_channel_of(tournament: Tournament | None, configured: int | None) -> int | None:
    """The head admin's channel: the tournament's own (its settings), else the configured one
    (`[discord] admin_channel_id`); None means DMs to the tournament's head admins."""
    if tournament is not None:
        own = tournament.settings.get("admin_channel_id")
        if isinstance(own, int) and own:
            return own
    return configured


class Undeliverable(RuntimeError):
    """Nowhere to deliver the message yet; the outbox keeps it and tries again."""


def _entered_in(db: Database, player_id: int) -> int | None:
    """The newest unfinished tournament the player is entered in (a bot not told its own)."""
    for tournament in reversed(list_tournaments(db)):
        if (tournament.status is not TournamentStatus.FINISHED
                and get_entry(db, tournament.id, player_id) is not None):
            return tournament.id
    return None


def nonce(ref: str | None, kind: str, piece: int) -> str | None:
    """Discord's idempotency key for one piece of a stored message (at most 25 characters;
    with `enforce_nonce`, discord.py's default when a nonce is given, Discord answers a repeat
    within its window with the first message)."""
    return None if ref is None else f"{ref[:20]}{kind}{piece:x}"


class DiscordNotifier:
    def __init__(
        self,
        client: discord.Client,
        store: Store,
        *,
        locale: str = SLOVAK,
        default_channel_id: int | None = None,
        admin_channel_id: int | None = None,
        tournament_id: int | None = None,
        before_post: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """`default_channel_id` is used for a tournament without its own channel; when None,
        the bot's `GuildConfig.control_channel_id` is used. `tournament_id` is the tournament
        the bot runs: its head admins hear of DMs that could not be delivered. `before_post`
        is awaited before every piece posted, each DM too: the bot's lease check
        (`Holding.confirm`, issue 36.1) — a bot frozen mid-message and taken over meanwhile
        posts not one piece more."""
        self.client = client
        self._before_post = before_post
        self.store = store
        self.locale = locale
        self._default_channel_id = default_channel_id
        self.admin_channel_id = admin_channel_id
        self.tournament_id = tournament_id
        # (player, event, round) already reported
        self._told: set[tuple[int, int | None, object]] = set()
        #: (event, channel) whose fault the head admin was told of (`channel_fault`)
        self._faults_told: set[tuple[int, int | None]] = set()

    # -- the port --------------------------------------------------------------------------

    async def announce(self, tournament_id: int, message: Message) -> None:
        tournament = await self._tournament(tournament_id)
        channel_id = self._channel_of(tournament, message)
        if channel_id is None:  # stays in the outbox until a channel is configured
            raise Undeliverable(f"no channel for tournament {tournament_id}")
        if self.foreign(channel_id):  # never another server's: kept until the channel is fixed
            await self.channel_fault(tournament, channel_id, t(
                "discord.event.channel_foreign", self.locale, channel=channel_id))
            raise Undeliverable(f"channel {channel_id} of tournament {tournament_id} is not "
                                "on the tournament's server")
        named = await self._shared(tournament, channel_id, message)
        await self._post(channel_id, await self._rendered(message, tournament, named=named),
                         ANNOUNCE_MENTIONS, message.ref)

    def _channel_of(self, tournament: Tournament | None, message: Message) -> int | None:
        """Where an announcement goes: its tournament's channel, else the default one; a
        season's news in the season's channel (issue 37.3)."""
        return (season_channel(message.params)
                or (tournament.channel_id if tournament else None) or self.default_channel_id)

    async def _shared(self, tournament: Tournament | None, channel_id: int,
                      message: Message) -> bool:
        """Whether an announcement names its event (issue 44.5): when its channel also carries
        another unfinished event's announcements — then a reader must be told which event it
        is about. In an event's own channel it needs no name (the channel says it), nor does
        a season's news in the season's channel (it is the season's, not one event's)."""
        if (tournament is None or SEASON_CHANNEL in message.params
                or channel_id != (tournament.channel_id or self.default_channel_id)):
            return False
        here = await self.store.read(unfinished_in_channel, channel_id,
                                     self.default_channel_id)
        return any(o.id != tournament.id for o in here)

    def foreign(self, channel_id: int) -> bool:
        """Whether the channel is another server's: the bot is on that server too (else it
        could not post there: Discord refuses, and the outbox retries) and sees the channel
        in that guild, not the tournament's. An event's channel is set by the operator's CLI,
        which cannot ask Discord (issue 44.5)."""
        config = getattr(self.client, "config", None)
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        return config is not None and guild is not None and guild.id != config.guild_id

    async def channel_fault(self, tournament: Tournament | None, channel_id: int | None,
                            reason: str) -> None:
        """Tell the event's head admin (his channel, else DMs) that its channel is unusable —
        once per event and channel while the bot runs, not at every delivery or check."""
        if tournament is None or (tournament.id, channel_id) in self._faults_told:
            return
        self._faults_told.add((tournament.id, channel_id))
        text = t("discord.event.channel_fault", self.locale, tournament=literal(tournament.name),
                 slug=tournament.slug, reason=reason, rule=CONTROL_CENTRE_RULE)
        log.error("%s", text)
        try:
            await self._to_admin(tournament.id, tournament, [Outgoing(content=text)], None,
                                 "discord.event.channel_fault")
        except Undeliverable as exc:
            log.warning("the notice of a broken channel reached nobody: %s", exc)

    async def direct(self, player_id: int, message: Message) -> None:
        account = message.params.get(DISCORD_ACCOUNT)
        if isinstance(account, int):  # about an account that is not (or no longer) his link
            await self._dm(account, await self._rendered(message), message.ref)
            return
        player = await self._player(player_id)
        if player is None or player.discord_id is None:
            name = literal(player.name) if player else f"#{player_id}"
            log.info("player %s has no Discord account: %s not sent", player_id, message.key)
            await self._undelivered(player_id, message, "discord.dm.no_account", name)
            return
        if not await self._dm(player.discord_id, await self._rendered(message),
                              message.ref):
            await self._undelivered(player_id, message, "dm.failed_notice",
                                    f"{literal(player.name)} (<@{player.discord_id}>)")

    async def _undelivered(self, player_id: int, message: Message, key: str,
                           player: str) -> None:
        """Tell the head admin of the DM's event, once per player, event and round, that a DM
        did not reach him (issue 44.8: another event's head admin is not his, and a notice
        in one event must not silence the other's). A DM of no event: the bot's own event's,
        else the newest unfinished one the player is entered in."""
        tournament_id = (message.tournament_id or self.tournament_id
                         or await self.store.read(_entered_in, player_id))
        seen = (player_id, tournament_id, message.params.get("round"))
        if seen in self._told or tournament_id is None:
            log.info("DM to player %s not delivered (%s), not reported again", player_id, key)
            return
        self._told.add(seen)
        tournament = await self._tournament(tournament_id)
        text = t(key, self.locale, player=player, rule=CONTROL_CENTRE_RULE)
        if tournament is not None:
            text = t("discord.event.named", self.locale, event=literal(tournament.name)) + text
        try:
            await self._to_admin(tournament_id, tournament, [Outgoing(content=text)],
                                 message.ref, key)
        except Undeliverable as exc:  # the DM itself is done with; the notice is best effort
            log.warning("notice of an undelivered DM reached nobody: %s", exc)

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        tournament = await self._tournament(tournament_id)
        await self._to_admin(tournament_id, tournament, await self._rendered(message, tournament),
                             message.ref, message.key)

    async def _to_admin(self, tournament_id: int, tournament: Tournament | None,
                        pieces: list[Outgoing], ref: str | None, key: str) -> None:
        """`pieces` to the head admin of `tournament` (read by the caller: every caller has it
        already) — his channel, else his DMs."""
        channel_id = self._admin_channel(tournament)
        if channel_id is not None and not self.foreign(channel_id):  # else his DMs
            await self._post(channel_id, pieces, QUIET, ref)
            return
        admins = tournament.admin_ids if tournament else []
        delivered = [admin for admin in admins if await self._dm(admin, pieces, ref)]
        if not delivered:
            # Nowhere to put it: the outbox keeps it, retries, and in the end marks it failed
            # with an audit line (the head admin still finds it there), never "sent".
            raise Undeliverable(f"admin message {key} of tournament {tournament_id} "
                                "reached nobody (no admin channel, no reachable head admin)")

    # -- reading back (issue 20.2) -----------------------------------------------------------

    async def delivered_pieces(self, destination: str, target: int, message: Message,
                               since: datetime) -> tuple[int, int]:
        """How many of the message's pieces the bot already posted where it goes, after
        `since` (in order: a crash stops a message between two of its pieces), and how many it
        has: read back before re-sending a message that may have been handed to Discord before
        a crash, once Discord's nonce window has passed. Discord does not list a message's
        nonce, so the bot's own message with the same text is the proof."""
        tournament = None if destination == "dm" else await self._tournament(target)
        event = await self._event_of(message, tournament)
        if destination == "channel":
            channel_id = self._channel_of(tournament, message)
            if channel_id is None or not await self._shared(tournament, channel_id, message):
                event = None
        wanted = [(piece.content or "", [e.description for e in piece.embeds])
                  for piece in render_message(message, self.locale, attach=False,
                                              event=event)]
        channel = await self._place(destination, target, message)
        me = self.client.user
        if channel is None or me is None:
            return 0, len(wanted)
        found = 0
        after = discord.Object(discord.utils.time_snowflake(since))
        async for seen in channel.history(limit=READ_BACK, after=after):  # oldest first
            if seen.author.id == me.id and (
                    seen.content, [e.description for e in seen.embeds]) == wanted[found]:
                found += 1
                if found == len(wanted):
                    break
        return found, len(wanted)

    async def _place(self, destination: str, target: int,
                     message: Message) -> discord.abc.Messageable | None:
        """Where a message of this destination went (None: nowhere to read back)."""
        if destination == "dm":
            account = message.params.get(DISCORD_ACCOUNT)
            if not isinstance(account, int):
                player = await self._player(target)
                account = player.discord_id if player is not None else None
            return None if account is None else await self.client.create_dm(
                discord.Object(account))
        tournament = await self._tournament(target)
        if destination == "channel":
            channel_id = self._channel_of(tournament, message)
        else:
            channel_id = self._admin_channel(tournament)
            if channel_id is None and tournament is not None and tournament.admin_ids:
                return await self.client.create_dm(discord.Object(tournament.admin_ids[0]))
        return None if channel_id is None else self.client.get_partial_messageable(channel_id)

    # -- where -----------------------------------------------------------------------------

    @property
    def default_channel_id(self) -> int | None:
        if self._default_channel_id is not None:
            return self._default_channel_id
        config = getattr(self.client, "config", None)
        return config.control_channel_id if config is not None else None

    def _admin_channel(self, tournament: Tournament | None) -> int | None:
        return admin_channel_of(tournament, self.admin_channel_id)

    async def _tournament(self, tournament_id: int) -> Tournament | None:
        try:
            return await self.store.read(get_tournament, tournament_id)
        except NotFoundError:
            log.warning("unknown tournament %s", tournament_id)
            return None

    async def _player(self, player_id: int) -> Player | None:
        try:
            return await self.store.read(get_player, player_id)
        except NotFoundError:
            log.warning("unknown player %s", player_id)
            return None

    # -- how -------------------------------------------------------------------------------

    async def _event_of(self, message: Message, tournament: Tournament | None) -> str | None:
        """The name of the event the message is about (its outbox row's; an announcement's or
        admin note's is its tournament's), which leads its text (issue 44.5)."""
        wanted = message.tournament_id
        if wanted is not None and (tournament is None or tournament.id != wanted):
            tournament = await self._tournament(wanted)
        return tournament.name if tournament is not None else None

    async def _rendered(self, message: Message, tournament: Tournament | None = None, *,
                        named: bool = True) -> list[Outgoing]:
        """The message's pieces, led by the name of the event it is about (`tournament`: the
        one an announcement or admin note goes to) when `named`; drawn off the event loop when
        it carries a board image (tens of milliseconds of CPU must not stall the gateway's
        heartbeat)."""
        event = await self._event_of(message, tournament) if named else None
        if IMAGE_PARAM in message.params:
            pieces = await asyncio.to_thread(render_message, message, self.locale,
                                             event=event)
        else:
            pieces = render_message(message, self.locale, event=event)
        return pieces[message.posted:]  # those read back as posted before a crash stay

    async def _post(
        self, channel_id: int, pieces: list[Outgoing], mentions: discord.AllowedMentions,
        ref: str | None, kind: str = "c",
    ) -> None:
        channel = self.client.get_partial_messageable(channel_id)
        for i, piece in enumerate(pieces):
            await self._send(channel, **piece.kwargs(), allowed_mentions=mentions,
                             nonce=nonce(ref, kind, i))

    async def _send(self, channel: discord.abc.Messageable, **kwargs: Any) -> None:
        if self._before_post is not None:
            await self._before_post()
        await channel.send(**kwargs)

    async def _dm(self, discord_id: int, pieces: list[Outgoing], ref: str | None) -> bool:
        """Deliver every piece by DM; False when Discord refuses (closed DMs, unknown user)."""
        try:
            channel = await self.client.create_dm(discord.Object(discord_id))
            for i, piece in enumerate(pieces):
                await self._send(channel, **piece.kwargs(), nonce=nonce(ref, "d", i))
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("DM to %s not delivered: %s", discord_id, exc)
            return False
        return True

    def __repr__(self) -> str:
        return f"DiscordNotifier(locale={self.locale!r})"

