"""DiscordNotifier: announcements, DMs (and what happens when they cannot be delivered), admin
notes — through discord.py's real HTTP layer, recorded by the harness, against a real store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.clock import ManualClock
from bot.discord.client import StrediskoBot
from bot.discord.notifier import DiscordNotifier, Undeliverable
from bot.services.delivery import lease
from bot.services.notifier import Message
from bot.services.season.on_finish import SEASON_CHANNEL
from bot.store import Change, Player, Store, Tournament, create_player, create_tournament
from bot.store.lease import write_lease

from .harness import CONTROL_CHANNEL_ID, DiscordHarness, FakeUser

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
ADMIN_CHANNEL_ID = 1_100_000_000_000_000_900
OTHER_CHANNEL_ID = 1_100_000_000_000_000_901


@dataclass
class Setup:
    harness: DiscordHarness
    store: Store
    notifier: DiscordNotifier
    ana: FakeUser
    boris: FakeUser
    tournament: Tournament
    players: dict[str, Player]


def _seed(db: Database, ana: int, boris: int, admin_ids: list[int],
          settings: dict[str, object]) -> tuple[Tournament, dict[str, Player]]:
    by = Change.admin("test", START, "test setup")
    t = create_tournament(db, slug="online-1", name="Online 1", season="2026/27",
                          round_starts=[START], waiting_minutes=10, game_limit_minutes=50,
                          by=by, admin_ids=admin_ids, settings=settings)
    players = {
        "ana": create_player(db, name="Ana Ábelová", herna_nick="ana", discord_id=ana, by=by),
        "boris": create_player(db, name="Boris Bán", herna_nick="boris", discord_id=boris,
                               by=by),
        "cyril": create_player(db, name="Cyril Čierny", herna_nick="cyril", by=by),
    }
    return t, players


async def _setup(tmp_path: Path, *, admin_channel: int | None = None,
                 admins: bool = False, settings: dict[str, object] | None = None
                 ) -> AsyncIterator[Setup]:
    store = await Store.open(tmp_path / "stredisko.db")
    bot = StrediskoBot()
    try:
        async with DiscordHarness(bot) as h:
            ana, boris = h.member("Ana"), h.member("Boris")
            admin_ids = [h.head_admin.id] if admins else []
            t, players = await store.call(_seed, ana.id, boris.id, admin_ids, settings or {})
            notifier = DiscordNotifier(bot, store, admin_channel_id=admin_channel,
                                       tournament_id=t.id)
            yield Setup(h, store, notifier, ana, boris, t, players)
    finally:
        await store.close()


@pytest.fixture
async def s(tmp_path: Path) -> AsyncIterator[Setup]:
    async for setup in _setup(tmp_path, admin_channel=ADMIN_CHANNEL_ID):
        yield setup


def _posts(h: DiscordHarness, channel_id: int) -> list[str]:
    return [m.text for m in h.messages.values() if m.channel_id == channel_id]


async def test_announce_goes_to_the_control_centre_in_slovak(s: Setup) -> None:
    await s.notifier.announce(s.tournament.id, Message("common.not_paired", {"round": 2}))
    assert [m.content for m in s.harness.channel_messages] == ["V 2. kole nemáš súpera ani voľno."]


async def test_announce_uses_the_tournaments_own_channel(tmp_path: Path) -> None:
    async for s in _setup(tmp_path):
        def move(db: Database) -> None:
            db.execute("UPDATE tournaments SET channel_id = ?", [OTHER_CHANNEL_ID])

        await s.store.call(move)
        await s.notifier.announce(s.tournament.id, Message("common.no_round"))
        assert _posts(s.harness, OTHER_CHANNEL_ID) == ["Ešte nie je zverejnené žiadne kolo."]
        assert s.harness.channel_messages == []


async def test_a_season_s_news_goes_to_the_season_s_channel(s: Setup) -> None:
    """Issue 37.3: a season file's `channel_id` (the message's SEASON_CHANNEL) wins over the
    tournament's channel; without it the news goes where the tournament's go."""
    news = {"season": "Liga", "tournament": "Online 1", "rule": "SP A3 7.1", "moved_in": "Ana",
            "moved_out": "—", "entered": 1, "left": 0, "cut": ""}
    await s.notifier.announce(s.tournament.id, Message(
        "season.ladder_moved_in", {**news, SEASON_CHANNEL: OTHER_CHANNEL_ID}))
    assert [text.split(" po ")[0] for text in _posts(s.harness, OTHER_CHANNEL_ID)] == [
        "Rebríček sezóny Liga"]
    assert s.harness.channel_messages == []
    await s.notifier.announce(s.tournament.id, Message("season.ladder_moved_in", news))
    assert len(s.harness.channel_messages) == 1


async def test_long_announcement_is_split(s: Setup) -> None:
    await s.notifier.announce(s.tournament.id,
                              Message("common.unknown_tournament", {"slug": "x" * 4500}))
    contents = [m.content for m in s.harness.channel_messages]
    assert len(contents) == 3 and all(len(c) <= 2000 for c in contents)


async def test_direct_message_reaches_the_player(s: Setup) -> None:
    params = {"player": "Ana", "round": 1}
    await s.notifier.direct(s.players["boris"].id, Message("play.arrived_ping", params))
    [dm] = s.harness.dms(s.boris)
    assert dm.content == "Príchod k stolu (1. kolo): Ana. Začnite partiu."
    assert s.harness.channel_messages == []


async def test_closed_dms_are_reported_to_the_head_admin_without_the_content(s: Setup) -> None:
    s.harness.close_dms(s.boris)
    secret = {"tournament": "Online 1", "reason": "tajný dôvod", "rule": "e-SP 3.6"}
    await s.notifier.direct(s.players["boris"].id, Message("result.excluded_dm", secret))
    assert s.harness.dms(s.boris) == []
    assert s.harness.channel_messages == []  # not in the players' channel
    [notice] = _posts(s.harness, ADMIN_CHANNEL_ID)
    assert f"Boris Bán (<@{s.boris.id}>)" in notice
    assert "zablokované" in notice and "e-SP 2.6" in notice and "tajný dôvod" not in notice
    # The notice names the player without pinging him (nor anybody else).
    assert s.harness.calls[-1].payload["allowed_mentions"] == {"parse": []}


async def test_an_undelivered_dm_is_reported_once_per_player_and_round(s: Setup) -> None:
    cyril = s.players["cyril"].id
    for round_no, key in [(1, "play.arrived_ping"), (1, "timer.limit_reminder"),
                          (1, "play.arrived_ping"), (2, "play.arrived_ping")]:
        params = {"player": "Ana", "round": round_no, "limit": START, "n": 10, "rule": "e-SP 4.5"}
        await s.notifier.direct(cyril, Message(key, params))
    notices = _posts(s.harness, ADMIN_CHANNEL_ID)
    assert len(notices) == 2 and s.harness.channel_messages == []  # rounds 1 and 2
    assert all("Cyril Čierny" in n and "nie je prepojený" in n for n in notices)
    assert not any("Príchod k stolu" in n for n in notices)


async def test_admin_note_goes_to_the_admin_channel(s: Setup) -> None:
    await s.notifier.to_admin(s.tournament.id, Message("common.no_round"))
    # an admin note names its event: one admin channel may serve several (issue 44.5)
    assert _posts(s.harness, ADMIN_CHANNEL_ID) == [
        "**Online 1** · Ešte nie je zverejnené žiadne kolo."]
    assert s.harness.channel_messages == []


async def test_admin_channel_in_tournament_settings_wins(tmp_path: Path) -> None:
    async for s in _setup(tmp_path, admin_channel=ADMIN_CHANNEL_ID,
                          settings={"admin_channel_id": OTHER_CHANNEL_ID}):
        await s.notifier.to_admin(s.tournament.id, Message("common.no_round"))
        assert _posts(s.harness, OTHER_CHANNEL_ID) == [
            "**Online 1** · Ešte nie je zverejnené žiadne kolo."]
        assert _posts(s.harness, ADMIN_CHANNEL_ID) == []


async def test_admin_note_by_dm_without_an_admin_channel(tmp_path: Path) -> None:
    async for s in _setup(tmp_path, admins=True):
        await s.notifier.to_admin(s.tournament.id, Message("common.no_round"))
        [dm] = s.harness.dms(s.harness.head_admin)
        assert dm.content == "**Online 1** · Ešte nie je zverejnené žiadne kolo."
        assert s.harness.channel_messages == []


async def test_admin_note_that_reaches_nobody_stays_undelivered(tmp_path: Path) -> None:
    """No admin channel and the head admin's DMs closed: the note is not "sent" — the outbox
    keeps it and retries (then marks it failed with an audit line)."""
    async for s in _setup(tmp_path, admins=True):
        s.harness.close_dms(s.harness.head_admin)
        with pytest.raises(Undeliverable, match="reached nobody"):
            await s.notifier.to_admin(s.tournament.id, Message("common.no_round"))
        assert s.harness.channel_messages == []  # never leaked into the public channel


async def test_default_channel_comes_from_the_bot(s: Setup) -> None:
    assert s.notifier.default_channel_id == CONTROL_CHANNEL_ID


async def test_a_bot_taken_over_between_two_pieces_posts_no_more_of_them(
        s: Setup) -> None:
    """Issue 36.1: each piece of a message is posted only while the bot's lease is provably
    its own (`Holding.confirm`); frozen after the first piece and taken over meanwhile, it
    posts neither the second nor the third."""
    clock = ManualClock(START)
    holding = await lease.acquire(s.store, clock)
    checks: list[int] = []

    async def before_post() -> None:
        checks.append(len(checks))
        if len(checks) == 2:  # asleep after the first piece; another bot took over
            clock.advance(lease.DEAD_AFTER + timedelta(seconds=1))
            await s.store.call(write_lease, "iny:1:x", "iny-stroj", 1, clock.now())
        await holding.confirm(s.store, clock)

    fenced = DiscordNotifier(s.notifier.client, s.store, before_post=before_post)
    with pytest.raises(lease.LeaseLost):
        await fenced.announce(s.tournament.id,
                              Message("common.unknown_tournament", {"slug": "x" * 4500}))
    assert len(s.harness.channel_messages) == 1 and holding.lost.is_set()
