"""After the game (issue 24 item 3): preliminary results, the words per round, protests and
the head admin's decision (a correction changes scores and ranks, never the board), the final
results, the seed revealed and every rack re-drawn from it; and the page's `event_view`."""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.duplicate.close import RoundClosed, close_round
from bot.services.duplicate.context import event_of, game_of, tile_set
from bot.services.duplicate.game import GameEnded, RoundOpened, open_round, start_game
from bot.services.duplicate.protests import (
    Decided,
    decide_protest,
    file_protest,
    pending_protests,
)
from bot.services.duplicate.results import (
    Revealed,
    finalize_game,
    game_result,
    replay_game,
    reveal,
)
from bot.services.duplicate.slips import submit_slip
from bot.services.duplicate.view import EventView, event_view
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply
from bot.store.duplicate import add_score, current_scores, round_by_id
from rules.duplicate import percent, percent_text
from rules.duplicate.board import Board
from rules.duplicate.validate import score_move
from rules.lexicon.graph import TrieGraph

from ...conftest import ADMIN_ID, render
from .conftest import make_event

SEED = "e7" * 32
RACK = "AKLOSVE"


async def finished(app: App, words: Path, clock: ManualClock) -> tuple[str, int]:
    """A hall game: round 1 on RACK where Ďuro writes KLE (not in the list) declaring its real
    score, Žofia nothing; then seeded rounds closed until the game ends. Returns the slug and
    KLE's score."""
    world = await make_event(app, words, players=2)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack=RACK, round_no=1)
    kle = score_move(Board.empty(), RACK, "8H KLE", TrieGraph(["kle"]), tile_set("cas-100"))
    await app.run(submit_slip, world.slug, "8H KLE", received_at=clock.now(), round_no=1,
                  player="1", declared=kle.score, source="arbiter")
    closed = await close_round(app, world.slug, 1)
    assert isinstance(closed, RoundClosed) and closed.scores[0].outcome == "word-rejected"
    for _ in range(40):
        opened = await app.run(open_round, world.slug)
        if isinstance(opened, GameEnded):
            break
        assert isinstance(opened, RoundOpened)
        closed = await close_round(app, world.slug, opened.round)
        assert isinstance(closed, RoundClosed)
        if closed.game_over:
            break
    return world.slug, kle.score


async def test_preliminary_results_protest_correction_final_and_replay(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    slug, kle = await finished(app, words, clock)
    keys = notifier.keys()
    for key in ("duplicate.online.game_over", "duplicate.online.preliminary",
                "duplicate.online.words", "duplicate.online.my_moves",
                "duplicate.online.protest_window"):
        assert key in keys, key
    words_said = next(m for _, _, m in notifier.sent if m.key == "duplicate.online.words")
    assert "1. kolo: KLE — neschválené" in render(words_said.key, words_said.params)
    secret = await app.run(reveal, slug)
    assert isinstance(secret, Reply) and secret.key == "duplicate.online.seed_secret"

    protest = await app.run(file_protest, slug, 1, "kle", "wrongly-rejected", "je v SSSJ",
                            player="1")
    assert not isinstance(protest, Reply)
    told = len(notifier.sent)
    # typed again (the arbiter unsure it was taken): the protest filed, nothing said twice
    assert await app.run(file_protest, slug, 1, "KLE ", "wrongly-rejected", "je v SSSJ ",
                         player="1") == protest
    assert len(notifier.sent) == told
    (queued,) = app.store.read_sync(pending_protests, slug)
    assert (queued.id, queued.round, queued.word, queued.claim) == (
        protest.id, 1, "KLE", "wrongly-rejected")
    waiting = await app.run(finalize_game, slug)
    assert isinstance(waiting, Reply) and waiting.key == "duplicate.online.protests_pending"
    board_before = app.store.read_sync(lambda db: db.execute(
        "SELECT board_after FROM dup_rounds ORDER BY number").fetchall())
    decided = await app.run(decide_protest, slug, protest.id, True, "SSSJ: kle", ADMIN_ID)
    assert isinstance(decided, Decided) and decided.changed == 1
    view = app.store.read_sync(event_view, slug)
    first = view.games[0].rounds[0].slips[0]
    assert (first.points, first.outcome, first.corrected) == (kle, "scored", True)
    assert view.standings[0].player == "Ďuro Ďurkovič" and view.standings[0].points >= kle
    assert app.store.read_sync(lambda db: db.execute(
        "SELECT board_after FROM dup_rounds ORDER BY number").fetchall()) == board_before
    assert app.store.read_sync(pending_protests, slug) == []
    said = len(notifier.sent)
    again = await app.run(decide_protest, slug, protest.id, True, "SSSJ: kle", ADMIN_ID)
    assert isinstance(again, Decided) and again.changed == 1 and again.protest == decided.protest
    assert len(notifier.sent) == said  # the same decision typed again: nothing said twice
    twice = await app.run(decide_protest, slug, protest.id, False, "znova", ADMIN_ID)
    assert isinstance(twice, Reply) and twice.key == "duplicate.online.protest_decided"
    assert app.store.read_sync(lambda db: db.execute(
        "SELECT COUNT(*) FROM dup_protests").fetchone()[0]) == 1
    assert app.store.read_sync(lambda db: db.execute(
        "SELECT COUNT(*) FROM dup_corrections").fetchone()[0]) == 1

    final = await app.run(finalize_game, slug)
    assert isinstance(final, Revealed) and final.seed == SEED
    checked = await app.run(replay_game, slug)
    assert isinstance(checked, tuple)
    verified, racks = checked
    assert verified and racks and all(played == drawn for _, played, drawn, _ in racks)
    late = await app.run(file_protest, slug, 1, "kle", "wrongly-rejected", "ešte", player="2")
    assert isinstance(late, Reply) and late.key == "duplicate.online.protest_closed"
    assert app.store.read_sync(event_view, slug).games[0].seed == SEED


async def test_the_view_shows_nothing_of_an_open_round(
        app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words, players=2)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack=RACK, round_no=1)
    await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(), round_no=1,
                  player="2", declared=1, source="arbiter")
    view = app.store.read_sync(event_view, world.slug)
    assert isinstance(view, EventView) and view.games[0].seed is None
    (live,) = view.games[0].rounds
    assert (live.rack, live.board_after, live.tops, live.slips) == ("AEKLOSV", None, (), ())
    await close_round(app, world.slug, 1)
    done = app.store.read_sync(event_view, world.slug).games[0].rounds[0]
    assert done.tops and done.board_after is not None
    assert [s.player for s in done.slips] == ["Ďuro Ďurkovič", "Žofia Šťastná"]
    # 1 point (declared lower, 003 r. 45) of the top's
    assert done.slips[1].percent == percent_text(percent(1, done.top_score), 1)


async def test_a_verdict_stored_before_the_arbiters_corrections_still_counts(
        app: App, words: Path, clock: ManualClock) -> None:
    """A round score stored before 0009_dup_slip_fixes has no "superseded" in its slips: each
    is a slip handed in (the game's result reads it as the close did)."""
    world = await make_event(app, words, players=1)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack=RACK, round_no=1)
    await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(), round_no=1,
                  player="1", declared=6, source="arbiter")
    closed = await close_round(app, world.slug, 1)
    assert isinstance(closed, RoundClosed) and closed.scores[0].points == 6

    def result(tx: Tx) -> list[int]:
        event = event_of(tx.db, world.slug)
        played = game_result(tx.db, event, game_of(tx.db, event))
        return [s.points for r in played.rounds for s in r.scores.values()]

    assert await app.run(result) == [6]

    def as_before(tx: Tx) -> None:  # the same score as the version before 0009 stored it
        [score] = current_scores(tx.db, 1)
        old = [{k: v for k, v in f.items() if k != "superseded"} for f in score.verdict["slips"]]
        add_score(tx.db, round_by_id(tx.db, 1), score.player_id, tx.by_admin(ADMIN_ID, "test"),
                  slip_id=score.slip_id, outcome=score.outcome, points=score.points,
                  rule=score.rule, reason=score.reason, verdict={"slips": old})

    await app.run(as_before)
    assert await app.run(result) == [6]
