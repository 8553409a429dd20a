"""A small online duplicate event in the production wiring (`runner.build_bot`) over a real
SQLite file, for the tests of the duplicate game in chat and of the head referee's commands:
three players, a ten-tile bag and a fifty-word list (round 1's rack is seven of the ten tiles,
round 2 empties the bag), and one movable time — the services' ManualClock and the wall clock
Discord's snowflakes come from (time-machine) move together. The fixture `game` is registered
in conftest.py."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine

from bot.clock import ManualClock
from bot.config import LexiconConfig
from bot.discord.notifier import DiscordNotifier
from bot.discord.runner import build_bot
from bot.scheduler import Scheduler
from bot.services.app import App, Tx
from bot.services.duplicate.setup import DuplicateSettings, create_event, load_lexicon
from bot.store import (
    Change,
    Store,
    TournamentStatus,
    add_entry,
    create_player,
    create_tournament,
    find_player_by_discord,
    replace_pairings,
    set_status,
    update_round,
)
from bot.store.duplicate import DupGame, DupRound, get_game, get_round, list_rounds
from rules.duplicate.board import parse_board
from rules.duplicate.tiles import TILES_DIR, TileSet
from rules.duplicate.top import top_moves
from rules.lexicon.graph import TrieGraph

from .harness import DiscordHarness, Exchange, FakeUser, RecordedMessage

SLUG = "dup-online-1"
START = datetime(2026, 12, 5, 17, 0, tzinfo=UTC)  # 18:00 in Bratislava
SEED = f"{1:032x}"  # chosen so the ten-tile game lasts two rounds (see the module)
ADMIN_CHANNEL_ID = 1_100_000_000_000_000_250
MOVE_S, WARNING_S, PAUSE_S = 180, 30, 30
#: the bag: ten tiles of the SSS set's letters (values as in sss-100), no blank
BAG = {"s": 1, "l": 2, "o": 3, "v": 1, "k": 1, "a": 1, "e": 1}
WORDS = ("les", "lesk", "sever", "oko", "kolo", "sok", "kos", "osa", "ovsa", "sova", "sklo",
         "kosa", "lev", "vek", "ves", "seno", "nos", "sen", "ten", "tento", "oves", "okno",
         "rok", "rak", "sad", "ako", "tak", "kto", "to", "on", "ona", "ono", "sa", "ale", "len",
         "lano", "ostal", "rosa", "kolesa", "slovo", "voda", "dom", "mak", "mok", "tvar", "vos",
         "vosk", "kov", "kole", "sako", "taka", "tok", "kat")


def ten_tiles(path: Path) -> Path:
    """The SSS 100-tile set with other counts (`BAG`): the same letters, values and rules."""
    text = (TILES_DIR / "sss-100.toml").read_text(encoding="utf-8")
    text = re.sub(r'^"(.)" = \{ count = \d+,',
                  lambda m: f'"{m.group(1)}" = {{ count = {BAG.get(m.group(1), 0)},', text,
                  flags=re.M)
    # its own name (not its path): the board image finds the set by what the propozície named
    text = text.replace('name = "sss-100"', 'name = "sss-10-test"')
    text = text.replace("tiles = 100", f"tiles = {sum(BAG.values())}")
    text = re.sub(r"(\[blank\]\ncount = )\d+", r"\g<1>0", text)
    path.write_text(text, encoding="utf-8")
    return path


@dataclass
class Game:
    h: DiscordHarness
    app: App
    clock: ManualClock
    traveller: time_machine.Coordinates
    scheduler: Scheduler
    players: dict[str, FakeUser]
    tiles: TileSet

    def shift(self, seconds: float) -> None:
        """Move both clocks (no timer fires: the bot is busy)."""
        self.clock.advance(timedelta(seconds=seconds))
        self.traveller.shift(timedelta(seconds=seconds))

    async def advance(self, seconds: float) -> int:
        """Move both clocks and fire the timers that fell due."""
        self.shift(seconds)
        fired = await self.scheduler.run_due()
        await self.h.settle()
        return fired

    async def to_deadline(self, round_no: int, before: float = 0) -> int:
        rnd = await self.round(round_no)
        return await self.advance((rnd.deadline - self.clock.now()).total_seconds() - before)

    async def round(self, number: int) -> DupRound:
        def read(db: object) -> DupRound:
            game = get_game(db, self.tournament_id(db), 1)  # type: ignore[arg-type]
            found = get_round(db, game.id, number)  # type: ignore[union-attr, arg-type]
            assert found is not None
            return found
        return await self.app.store.read(read)

    @staticmethod
    def tournament_id(db: object) -> int:
        from bot.store.tournaments import get_tournament_by_slug
        return get_tournament_by_slug(db, SLUG).id  # type: ignore[arg-type]

    async def top_of(self, round_no: int) -> tuple[str, str, int]:
        """The round's best move by the rules, on the stored board and rack: (coord, word,
        score) as a player would write it."""
        rnd = await self.round(round_no)
        board = parse_board(rnd.board_before, frozenset(self.tiles.letters),
                            self.tiles.blank_letters)
        best = top_moves(board, rnd.rack, TrieGraph(WORDS), self.tiles).tops[0]
        return best.coord, best.word, best.score

    async def to_preliminary(self) -> int:
        """The started game 1 played to its preliminary results with the slips handed in so
        far, each round closed at its deadline and the next opened after the pause, until the
        bag runs out (004 §5B: with `SEED`, after round 2; every top lays a tile, so ten
        tiles end any seed's game within ten rounds: a close and an opening each). Returns the
        rounds played."""
        for _ in range(2 * 10):
            game, rounds = await self.app.store.read(self._latest)
            if game.state != "running":
                return len(rounds)
            await (self.to_deadline(rounds[-1].number) if rounds[-1].is_open
                   else self.advance(PAUSE_S))
        raise AssertionError("the ten-tile game did not end")

    def _latest(self, db: Any) -> tuple[DupGame, list[DupRound]]:
        game = get_game(db, self.tournament_id(db), 1)
        assert game is not None
        return game, list_rounds(db, game.id)

    def channel(self, since: int = 0) -> list[RecordedMessage]:
        return self.h.channel_messages[since:]

    def channel_text(self, since: int = 0) -> str:
        return "\n".join(m.text for m in self.channel(since))


def _classic_beside(tx: Tx, by: Change, users: dict[str, FakeUser]) -> None:
    """A classic qualifier in its own channel, Ana in its round 1 against a newcomer."""
    t = create_tournament(tx.db, slug=CLASSIC_SLUG, name="Kvalifikácia vedľa",
                          season="2026/2027", round_starts=[START], waiting_minutes=10,
                          game_limit_minutes=50, by=by, channel_id=CLASSIC_CHANNEL_ID)
    ana = find_player_by_discord(tx.db, users["ana"].id)
    assert ana is not None
    other = create_player(tx.db, name="Dušan Vedľajší", herna_nick="dusan", by=by)
    for player in (ana.id, other.id):
        add_entry(tx.db, t.id, player, by, paid=True)
    replace_pairings(tx.db, t.id, 1, [(1, ana.id, other.id)], by)
    set_status(tx.db, t.id, TournamentStatus.RUNNING, by)
    update_round(tx.db, t.id, 1, by, published_at=by.at)


def answer(ex: Exchange) -> str:
    return "\n".join([ex.content, *(m.text for m in ex.followups)])


#: with the marker `several_events` (issue 37): the bot serves every event of the database, and
#: beside the duplicate event (the control centre's) runs a classic one in its own channel
CLASSIC_SLUG, CLASSIC_CHANNEL_ID = "kt-vedla", 1_100_000_000_000_000_260


#: with the marker `two_duplicates` (issue 44): the bot serves every event, and a second online
#: duplicate event runs in its own channel with the same three players (the same settings)
SECOND_SLUG, SECOND_CHANNEL_ID = "dup-online-2", 1_100_000_000_000_000_270


@pytest.fixture
async def game(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Game]:
    second = request.node.get_closest_marker("two_duplicates") is not None
    several = second or request.node.get_closest_marker("several_events") is not None
    words = tmp_path / "lexicons" / "slova.txt"
    words.parent.mkdir()
    words.write_text("\n".join(sorted(set(WORDS))) + "\n", encoding="utf-8")
    tiles = ten_tiles(tmp_path / "test-10.toml")
    store = await Store.open(tmp_path / "stredisko.db")
    clock = ManualClock(START)
    holder: list[App] = []
    lexicon = LexiconConfig(dir=str(words.parent), default=str(words))
    bot = build_bot(holder, "" if several else SLUG, lexicon=lexicon)
    app = App(store, clock, DiscordNotifier(bot, store, admin_channel_id=ADMIN_CHANNEL_ID))
    holder.append(app)
    try:
        with time_machine.travel(START, tick=False) as traveller:
            channels = [(CLASSIC_CHANNEL_ID, CLASSIC_SLUG)] if several else []
            channels += [(SECOND_CHANNEL_ID, SECOND_SLUG)] if second else []
            async with DiscordHarness(bot, channels=channels) as h:
                users = {name: h.member(full) for name, full in (
                    ("ana", "Ana Ábelová"), ("boris", "Boris Ďurica"), ("cyril", "Cyril Čierny"))}

                def body(tx: Tx) -> None:
                    by = Change.admin(h.head_admin.id, tx.now, "test setup")
                    events = [(SLUG, "Duplikát online", None)]
                    events += [(SECOND_SLUG, "Duplikát druhý", SECOND_CHANNEL_ID)] if second else []
                    for slug, name, channel in events:
                        t = create_tournament(
                            tx.db, slug=slug, name=name, season="2026/2027",
                            round_starts=[START], waiting_minutes=0, game_limit_minutes=60,
                            by=by, admin_ids=[h.head_admin.id], channel_id=channel,
                            settings={"format": "duplicate"})
                        for n, user in enumerate(users.values(), start=1):
                            p = find_player_by_discord(tx.db, user.id) or create_player(
                                tx.db, name=user.name, herna_nick=f"dup-{n}", by=by,
                                discord_id=user.id, discord_name=user.name)
                            add_entry(tx.db, t.id, p.id, by, paid=True)
                        create_event(tx, t.id, DuplicateSettings(
                            profile="cas-duplicate", lexicon=str(words), tiles=str(tiles),
                            move_seconds=MOVE_S, warning_seconds=WARNING_S,
                            pause_seconds=PAUSE_S, part_rounds=(1,), mode="online"), loaded)
                    if several:
                        _classic_beside(tx, by, users)

                loaded = load_lexicon(str(words), words.parent)
                await app.run(body)
                yield Game(h, app, clock, traveller, Scheduler(app), users, TileSet.load(tiles))
    finally:
        await store.close()
