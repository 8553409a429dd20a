"""Starting a duplicate game and opening rounds (issue 24 items 1–3, 5, 9) on a real store."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.duplicate.close import RoundClosed, close_round
from bot.services.duplicate.context import tile_set
from bot.services.duplicate.game import (
    DEADLINE,
    NEXT_ROUND,
    WARNING,
    GameEnded,
    GameStarted,
    RoundOpened,
    open_round,
    start_game,
)
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply
from bot.services.tournament.timers import handle_timer
from bot.store import add_timer, list_timers
from bot.store.duplicate import get_game, list_rounds
from rules.duplicate import draw_rack, duplicate_profile
from rules.duplicate.board import Board

from ...conftest import render
from .conftest import DupWorld, make_event

SEED = "5e" * 32


def rows(app: App, sql: str) -> list[tuple[object, ...]]:
    return app.store.read_sync(lambda db: db.execute(sql).fetchall())


async def test_a_game_commits_to_its_seed_before_round_one(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    world = await make_event(app, words, mode="online")
    started = await app.run(start_game, world.slug, seed=SEED)
    assert isinstance(started, GameStarted)
    assert started.commitment == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    keys = notifier.keys("channel")
    assert keys[:2] == ["duplicate.online.game_start", "duplicate.online.round_open"]
    first = notifier.sent[0][2]
    assert first.params["commitment"] == started.commitment
    assert SEED not in str(rows(app, "SELECT * FROM audit"))  # the seed stays secret


async def test_online_round_one_is_the_seeded_draw_with_its_timers(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    world = await make_event(app, words, mode="online", move_seconds=120, warning_seconds=20)
    started = await app.run(start_game, world.slug, seed=SEED)
    assert isinstance(started, GameStarted) and isinstance(started.opened, RoundOpened)
    tiles, profile = tile_set("cas-100"), duplicate_profile("cas-duplicate")
    expected = draw_rack(SEED, 1, tiles.bag, (), tiles.rack_vowels, profile)
    assert started.opened.rack == "".join(expected.rack)
    assert (started.opened.deadline - clock.now()).total_seconds() == 120
    timers = {t.kind: t.due_at for t in app.store.read_sync(list_timers, world.tournament.id)}
    assert timers[DEADLINE] == started.opened.deadline
    assert (timers[DEADLINE] - timers[WARNING]).total_seconds() == 20
    opened = next(m for w, _, m in notifier.sent if m.key == "duplicate.online.round_open")
    assert opened.params["image"] == {"board": Board.empty().text(), "highlight": [],
                                      "tiles": "cas-100", "rack": started.opened.rack}
    assert "Zásobník: " + started.opened.rack in render(opened.key, opened.params)


async def test_a_hall_game_waits_for_the_arbiters_rack(app: App, words: Path) -> None:
    world = await make_event(app, words)
    started = await app.run(start_game, world.slug, seed=SEED)
    assert isinstance(started, GameStarted) and started.opened is None
    opened = await app.run(open_round, world.slug, rack="kos?ale", round_no=1)
    assert isinstance(opened, RoundOpened)
    assert opened.rack == "".join(sorted("KOS?ALE")) and opened.source == "arbiter"
    assert not app.store.read_sync(list_timers, world.tournament.id)  # the arbiter closes


@pytest.mark.parametrize(("rack", "round_no", "says"), [
    ("AKLOSVEE", 1, "najviac 7 kameňov"),
    ("ÄKLOSVE", 1, "písmeno Ä v tejto súprave kameňov nie je"),
    ("XXXXXXX", 1, "písmeno X: zadané 7×"),
    ("A" * 10_000, 1, "zadaných znakov je 10000"),
    ("AKLOSVE", 2, "Ďalšie kolo je 1., nie 2."),
])
async def test_a_rack_that_cannot_be_is_refused_and_nothing_stored(
        app: App, words: Path, rack: str, round_no: int, says: str) -> None:
    world = await make_event(app, words)
    await app.run(start_game, world.slug, seed=SEED)
    refused = await app.run(open_round, world.slug, rack=rack, round_no=round_no)
    assert isinstance(refused, Reply) and not refused.ok
    assert says in render(refused.key, refused.params, refused.rule)
    assert rows(app, "SELECT COUNT(*) FROM dup_rounds") == [(0,)]


async def test_a_round_opens_only_after_the_previous_one_closed(app: App, words: Path) -> None:
    world = await make_event(app, words)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack="AKLOSVE")
    refused = await app.run(open_round, world.slug)
    assert isinstance(refused, Reply)
    assert refused.key == "duplicate.online.round_still_open"
    game = app.store.read_sync(get_game, world.tournament.id, 1)
    assert game is not None and len(app.store.read_sync(list_rounds, game.id)) == 1


async def test_a_second_game_waits_for_the_first(app: App, words: Path) -> None:
    world = await make_event(app, words, games=2,
                             starts=())
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack="AKLOSVE", round_no=1)
    refused = await app.run(start_game, world.slug)
    assert isinstance(refused, Reply) and refused.key == "duplicate.online.game_running"


async def test_the_arbiter_typing_a_start_or_a_rack_again_changes_nothing(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    """His console died: unsure the command was taken, he types it again. The same start
    before round 1, the same rack (any order) or draw of the round it opened: answered as the
    first time, nothing stored or said again. Another command meeting that state is refused."""
    world = await make_event(app, words, games=2, starts=())
    first = await app.run(start_game, world.slug, seed=SEED)
    assert await app.run(start_game, world.slug, seed=SEED) == first
    assert await app.run(start_game, world.slug) == first  # a secret seed: the same start
    other = await app.run(start_game, world.slug, seed="ab" * 32)
    assert isinstance(other, Reply) and other.key == "duplicate.online.game_running"
    opened = await app.run(open_round, world.slug, rack="kos?ale", round_no=1)
    assert isinstance(opened, RoundOpened)
    said = len(notifier.sent)
    assert await app.run(open_round, world.slug, rack="ELA?SOK", round_no=1) == opened
    for again in ({"rack": "AKLOSVE"}, {"rack": None}, {"rack": "kos?ale", "round_no": None}):
        refused = await app.run(open_round, world.slug, **{"round_no": 1, **again})
        assert isinstance(refused, Reply), again
        # other tiles for the open round: the correction's way is named (issue 41.3)
        assert refused.key == ("duplicate.online.rack_differs" if again["rack"] == "AKLOSVE"
                               else "duplicate.online.round_still_open"), again
    assert len(notifier.sent) == said and rows(app, "SELECT COUNT(*) FROM dup_rounds") == [(1,)]
    assert rows(app, "SELECT COUNT(*) FROM dup_games") == [(1,)]


async def test_a_round_drawn_from_the_seed_drawn_again_is_the_same_round(
        app: App, words: Path) -> None:
    world = await make_event(app, words)
    await app.run(start_game, world.slug, seed=SEED)
    opened = await app.run(open_round, world.slug, round_no=1)
    assert isinstance(opened, RoundOpened) and opened.source == "seed"
    assert await app.run(open_round, world.slug, round_no=1) == opened
    typed = await app.run(open_round, world.slug, rack=opened.rack, round_no=1)
    assert isinstance(typed, Reply) and typed.key == "duplicate.online.round_still_open"
    assert rows(app, "SELECT COUNT(*) FROM dup_rounds") == [(1,)]


async def _ended_by_the_draw_after_round_one(app: App, words: Path
                                             ) -> tuple[DupWorld, GameEnded]:
    """A Greek-profile game ended by the arbiter's draw of round 2 (004 §8.2: only consonants
    left in the bag and on the rack)."""
    world = await make_event(app, words, profile="greek-duplicate")
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack="AKLOSVE", round_no=1)
    # the late game, arranged: the bag after round 1's rack holds consonants only (an open
    # round's row may still change; KOLESA, the top, leaves V on the rack)
    await app.store.call(lambda db: db.execute(
        "UPDATE dup_rounds SET bag = '{\"B\":2,\"C\":1}' WHERE number = 1"))
    closed = await close_round(app, world.slug, 1)
    assert isinstance(closed, RoundClosed) and not closed.game_over
    ended = await app.run(open_round, world.slug)
    assert ended == GameEnded(1, 1, "one-kind", "004 §8.2, §5B.3")
    return world, ended


async def test_the_draw_that_ended_the_game_typed_again_is_the_same_end(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    """004 §8.2: only consonants left in the bag and on the rack end the game at the draw. The
    arbiter, unsure his `draw` was taken, types it again: the same end, nothing said or stored
    again; any other command still meets a game that is over."""
    world, ended = await _ended_by_the_draw_after_round_one(app, words)
    said = len(notifier.sent)
    assert await app.run(open_round, world.slug) == ended
    assert await app.run(open_round, world.slug, round_no=2) == ended
    for other in ({"rack": "BBCV"}, {"round_no": 3}):
        refused = await app.run(open_round, world.slug, **other)
        assert isinstance(refused, Reply), other
        assert refused.key == "duplicate.online.game_not_running", other
    assert len(notifier.sent) == said
    assert rows(app, "SELECT state, ended_rule FROM dup_games") == [
        ("preliminary", "004 §8.2, §5B.3")]
    assert rows(app, "SELECT COUNT(*) FROM audit WHERE action = 'duplicate.game.preliminary'"
                ) == [(1,)]


async def test_the_next_round_timer_after_the_arbiters_ending_draw_is_remembered_stale(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    """The pause's timer fires after the arbiter's own draw ended the game: nothing opened or
    said, and the firing is in the audit log with its reason (not silently answered as the
    draw typed again)."""
    world, _ = await _ended_by_the_draw_after_round_one(app, words)
    said = len(notifier.sent)

    def fire(tx: Tx) -> None:
        timer, _ = add_timer(tx.db, NEXT_ROUND, f"{world.slug}:dup:g1:r2:next", tx.now,
                             tx.by_scheduler(), tournament_id=world.tournament.id,
                             payload={"game": 1, "round": 2})
        handle_timer(tx, timer)

    await app.run(fire)
    assert len(notifier.sent) == said
    assert rows(app, "SELECT COUNT(*) FROM dup_rounds") == [(1,)]
    assert rows(app, "SELECT json_extract(data, '$.why') FROM audit WHERE action = "
                     "'timer.stale'") == [("duplicate.online.game_not_running",)]
