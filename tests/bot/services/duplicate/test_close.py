"""Closing a round (issue 24 items 2–4): the top by the rules, every slip scored with its rule,
and durability — a second close, a crash between the phases, a failure inside the write and
a restart each end with the round closed exactly once and said once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.duplicate import close as closing
from bot.services.duplicate.close import (
    CloseInput,
    RoundClosed,
    close_round,
    compute_close,
    read_close,
    write_close,
)
from bot.services.duplicate.context import tile_set
from bot.services.duplicate.game import open_round, start_game
from bot.services.duplicate.lexicons import read_lexicon
from bot.services.duplicate.slips import submit_slip
from bot.services.duplicate.tops import SUB_TOPS
from bot.services.notifier import RecordingNotifier
from bot.store import Change, Store
from bot.store.entries import withdraw
from rules.duplicate import duplicate_profile
from rules.duplicate.board import Board
from rules.duplicate.top import TopSettings, top_moves
from rules.duplicate.validate import score_move

from ...conftest import render
from .conftest import make_event

SEED = "c4" * 32
RACK = "AKLOSVE"


def count(app: App, table: str) -> int:
    return app.store.read_sync(lambda db: db.execute(f"SELECT COUNT(*) FROM {table}")
                               .fetchone()[0])


def the_top(words: Path) -> tuple[str, int]:
    """Round 1's top on RACK, asked of the rules directly."""
    tiles = tile_set("cas-100")
    found = top_moves(Board.empty(), RACK, read_lexicon(str(words), words.parent).graph, tiles,
                      TopSettings.from_rule(duplicate_profile("cas-duplicate").tops))
    return f"{found.tops[0].coord} {found.tops[0].word}", found.score


def real_score(words: Path, move: str) -> int:
    verdict = score_move(Board.empty(), RACK, move, read_lexicon(str(words), words.parent).graph,
                         tile_set("cas-100"))
    return verdict.score


async def played(app: App, words: Path, clock: ManualClock) -> str:
    """Round 1 of a hall game with five slips: the top, declared higher, declared lower, a
    word not in the lexicon, and none."""
    world = await make_event(app, words, players=5)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack=RACK, round_no=1)
    top, score = the_top(words)
    kos = real_score(words, "8H KOS")
    for player, move, declared in (("1", top, score), ("2", "8H KOS", kos + 1),
                                   ("3", "8H KOS", kos - 1), ("4", "8H KLE", 3)):
        await app.run(submit_slip, world.slug, move, received_at=clock.now(), round_no=1,
                      player=player, declared=declared, source="arbiter")
    return world.slug


async def test_the_top_goes_on_the_board_and_every_slip_is_scored_by_its_rule(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    slug = await played(app, words, clock)
    closed = await close_round(app, slug, 1)
    assert isinstance(closed, RoundClosed) and closed.closed_now
    top, score = the_top(words)
    assert closed.top is not None and f"{closed.top['coord']} {closed.top['word']}" == top
    assert closed.top_score == score
    laid = {(r, c): letter for r, c, letter, _ in closed.top["tiles"]}
    rows = closed.board_after.splitlines()
    assert all(rows[r][c] == letter.upper() for (r, c), letter in laid.items())
    kos = real_score(words, "8H KOS")
    got = [(s.outcome, s.points, s.rule) for s in closed.scores]
    assert got == [("scored", score, "003 r. 45"), ("declared-higher", 0, "003 r. 45"),
                   ("declared-lower", kos - 1, "003 r. 45"),
                   ("word-rejected", 0, "003 r. 1, 43"), ("no-slip", 0, "003 r. 19")]
    assert closed.scores[3].reason == "KLE"
    assert closed.found_top == 1 and closed.players == 5
    summary = next(m for _, _, m in notifier.sent if m.key == "duplicate.online.summary")
    assert "1 z 5" in render(summary.key, summary.params)
    evaluations = [m for w, _, m in notifier.sent if w == "dm"]
    assert len(evaluations) == 5  # every entrant of the test world has a Discord account
    assert all(m.params["rule"] for m in evaluations)


async def test_closing_twice_scores_and_says_nothing_twice(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await played(app, words, clock)
    first = await close_round(app, slug, 1)
    scores, messages = count(app, "dup_scores"), count(app, "outbox")
    again = await close_round(app, slug, 1)
    assert isinstance(first, RoundClosed) and isinstance(again, RoundClosed)
    assert not again.closed_now and again.scores == first.scores
    assert (count(app, "dup_scores"), count(app, "outbox")) == (scores, messages)


async def test_a_crash_between_the_phases_closes_once(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await played(app, words, clock)
    data = await app.run(read_close, slug, 1)
    assert isinstance(data, CloseInput)
    outcome = compute_close(data, read_lexicon(str(words), words.parent))
    # the process dies here, before phase 3; the next one closes the round from scratch
    closed = await close_round(app, slug, 1)
    assert isinstance(closed, RoundClosed) and closed.closed_now
    scores, messages = count(app, "dup_scores"), count(app, "outbox")
    stale = await app.run(write_close, data, outcome)  # the dead process's write, replayed
    assert isinstance(stale, RoundClosed) and not stale.closed_now
    assert (count(app, "dup_scores"), count(app, "outbox")) == (scores, messages)


async def test_a_failure_inside_the_write_leaves_the_round_open(
        app: App, words: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    slug = await played(app, words, clock)
    messages = count(app, "outbox")
    calls = []
    real = closing.add_score

    def fails_second(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(closing, "add_score", fails_second)
    with pytest.raises(RuntimeError):
        await close_round(app, slug, 1)
    assert (count(app, "dup_scores"), count(app, "outbox")) == (0, messages)
    assert app.store.read_sync(lambda db: db.execute(
        "SELECT closed_at FROM dup_rounds").fetchone()) == (None,)
    monkeypatch.setattr(closing, "add_score", real)
    closed = await close_round(app, slug, 1)
    assert isinstance(closed, RoundClosed) and closed.closed_now
    assert count(app, "dup_scores") == 5


async def test_a_restart_closes_the_same_round_with_the_same_rack(
        app: App, words: Path, clock: ManualClock, db_path: Path) -> None:
    slug = await played(app, words, clock)
    before = app.store.read_sync(lambda db: db.execute(
        "SELECT rack, deadline FROM dup_rounds").fetchall())
    await app.store.close()  # the bot stops mid-round
    store = await Store.open(db_path)
    try:
        again = App(store, clock, RecordingNotifier())
        assert store.read_sync(lambda db: db.execute(
            "SELECT rack, deadline FROM dup_rounds").fetchall()) == before
        closed = await close_round(again, slug, 1)
        assert isinstance(closed, RoundClosed) and closed.closed_now
        assert closed.scores[0].outcome == "scored"
    finally:
        await store.close()


async def test_late_several_and_void_slips(app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words, players=3, move_seconds=60)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack=RACK, round_no=1)
    kos = real_score(words, "8H KOS")
    await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(), round_no=1,
                  player="1", declared=kos, source="arbiter", late=True)
    await app.run(submit_slip, world.slug, "8A KOS", received_at=clock.now(), round_no=1,
                  player="2", declared=kos, source="arbiter")  # not through the centre
    await app.run(submit_slip, world.slug, "8H KLE", received_at=clock.now(), round_no=1,
                  player="3", declared=3, source="arbiter")
    await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(), round_no=1,
                  player="3", declared=kos, source="arbiter")  # a second paper slip
    closed = await close_round(app, world.slug, 1)
    assert isinstance(closed, RoundClosed)
    # a hall: two slips handed in, none counts (003 r. 42 as written, issue 35)
    assert [(s.outcome, s.points, s.reason) for s in closed.scores] == [
        ("late", 0, None), ("invalid", 0, "not_through_centre"), ("several-slips", 0, None)]
    assert closed.scores[2].rule == "003 r. 42; slips.several = none"


async def test_a_player_who_left_scores_0_for_the_remaining_rounds(
        app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words, players=2)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack=RACK, round_no=1)
    await close_round(app, world.slug, 1)
    leaver = world.players[1].id
    clock.advance(timedelta(seconds=1))  # after the game started: he played round 1
    app.store.call_sync(withdraw, world.tournament.id, leaver, "odišiel",
                        Change.admin("1", clock.now()))
    clock.advance(timedelta(seconds=1))
    await app.run(open_round, world.slug, round_no=2)
    closed = await close_round(app, world.slug, 2)
    assert isinstance(closed, RoundClosed)
    mine = next(s for s in closed.scores if s.player_id == leaver)
    assert (mine.outcome, mine.points) == ("left", 0)
    assert mine.rule == duplicate_profile("cas-duplicate").slips.left_rule


async def test_a_slip_stored_while_the_close_computes_is_scored_too(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await played(app, words, clock)
    data = await app.run(read_close, slug, 1)
    assert isinstance(data, CloseInput)
    outcome = compute_close(data, read_lexicon(str(words), words.parent))
    await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), round_no=1,
                  player="5", declared=1, source="arbiter")  # handed in on time, stored now
    assert await app.run(write_close, data, outcome) is None  # nothing written
    assert count(app, "dup_scores") == 0
    closed = await close_round(app, slug, 1)
    assert isinstance(closed, RoundClosed)
    assert (closed.scores[4].outcome, closed.scores[4].points) == ("declared-lower", 1)


async def test_the_close_announces_the_next_best_moves_below_the_top(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    """issue 24.2: the top and the next few sub-tops — the rules' sub-tops, in their order."""
    slug = await played(app, words, clock)
    await close_round(app, slug, 1)
    tiles = tile_set("cas-100")
    found = top_moves(Board.empty(), RACK, read_lexicon(str(words), words.parent).graph, tiles,
                      TopSettings.from_rule(duplicate_profile("cas-duplicate").tops),
                      sub_tops=SUB_TOPS)
    assert found.next and all(m.score < found.score for m in found.next)
    said = [m for _, _, m in notifier.sent if m.key == "duplicate.online.sub_tops"]
    assert len(said) == 1
    assert said[0].params["moves"] == ", ".join(f"{m.coord} {m.word} ({m.score})"
                                                for m in found.next)
