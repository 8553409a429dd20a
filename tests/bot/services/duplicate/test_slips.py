"""A player's slip (issue 24 items 2, 5, 9): the answer is the slip as read, never its
validity; refusals are one line and store nothing."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App
from bot.services.duplicate.close import close_round
from bot.services.duplicate.game import open_round, start_game
from bot.services.duplicate.slips import SlipReceipt, submit_csv, submit_slip
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply
from bot.services.tournament import play
from bot.store import Change
from bot.store.entries import withdraw

from ...conftest import render
from .conftest import discord, make_event

SEED = "a1" * 32


def count(app: App, table: str) -> int:
    return app.store.read_sync(lambda db: db.execute(f"SELECT COUNT(*) FROM {table}")
                               .fetchone()[0])


async def opened(app: App, words: Path, **settings: object) -> str:
    world = await make_event(app, words, **settings)
    await app.run(start_game, world.slug, seed=SEED)
    await app.run(open_round, world.slug, rack="AKLOSVE", round_no=1)
    return world.slug


async def test_the_answer_is_the_slip_as_read_never_its_validity(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await opened(app, words)
    receipt = await app.run(submit_slip, slug, "8H KLE", received_at=clock.now(),
                            discord_id=discord(0), declared=24)
    assert isinstance(receipt, SlipReceipt)
    assert receipt.line == "8H KLE, 24 bodov"  # KLE is no word: nothing says so
    assert not receipt.late and not receipt.replaced
    down = await app.run(submit_slip, slug, "H8 k(o)s", received_at=clock.now(),
                         discord_id=discord(1), declared="3")
    assert isinstance(down, SlipReceipt) and (down.coord, down.word) == ("H8", "k(o)s")


async def test_a_later_slip_replaces_the_earlier_and_both_are_kept(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await opened(app, words)
    await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), discord_id=discord(0),
                  declared=6)
    again = await app.run(submit_slip, slug, "8H KOSA", received_at=clock.now(),
                          discord_id=discord(0), declared=8)
    assert isinstance(again, SlipReceipt) and again.replaced
    kept = app.store.read_sync(lambda db: db.execute(
        "SELECT id, replaced_by FROM dup_slips ORDER BY id").fetchall())
    assert kept == [(1, 2), (2, None)]


async def test_the_arbiter_typing_a_slip_again_stores_it_once(
        app: App, words: Path, clock: ManualClock) -> None:
    """His console died: unsure the slip was taken, he types it again. One paper slip is one
    slip (a second would replace it, or void both under 003 r. 42): the same receipt, nothing
    stored. A different slip, or the same one said late, is a new slip."""
    slug = await opened(app, words)
    typed = {"round_no": 1, "player": "1", "declared": "6", "source": "arbiter"}
    first = await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), **typed)
    clock.advance(timedelta(seconds=20))
    again = await app.run(submit_slip, slug, " 8H KOS ", received_at=clock.now(), **typed)
    assert isinstance(first, SlipReceipt) and again == first and not again.replaced
    csv = "hráč,ťah,body\n2,H8 KOSA,8\n"
    imported = await app.run(submit_csv, slug, 1, csv, received_at=clock.now())
    assert await app.run(submit_csv, slug, 1, csv, received_at=clock.now()) == imported
    assert count(app, "dup_slips") == 2
    other = await app.run(submit_slip, slug, "8H KOSA", received_at=clock.now(), **typed)
    back = await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), **typed)
    late = await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), late=True,
                         **typed)
    assert isinstance(other, SlipReceipt) and isinstance(back, SlipReceipt)
    assert isinstance(late, SlipReceipt) and other.replaced and back.replaced and late.late
    assert await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), late=True,
                         **typed) == late
    # from Discord every /tah is the player's own act (Discord delivers an interaction once)
    for _ in range(2):
        await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(),
                      discord_id=discord(2), declared=6)
    assert count(app, "dup_slips") == 7


async def test_a_slip_after_the_deadline_is_taken_as_late(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await opened(app, words, move_seconds=60)
    receipt = await app.run(submit_slip, slug, "8H KOS", received_at=clock.now()
                            + timedelta(seconds=61), discord_id=discord(0), declared=6)
    assert isinstance(receipt, SlipReceipt) and receipt.late


async def test_the_arbiter_never_corrects_a_slip_the_player_sent_himself(
        app: App, words: Path, clock: ManualClock) -> None:
    """A Discord slip (/tah) is the player's own act, not the arbiter's typing: a correction
    of it is one Slovak line citing 003 r. 42 and stores nothing. A line of the round's CSV
    is the arbiter's typing: he may correct it, and a correction of a correction too."""
    slug = await opened(app, words)
    await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(), discord_id=discord(0),
                  declared=6)
    typed = {"round_no": 1, "declared": "6", "source": "arbiter", "correction": True}
    refused = await app.run(submit_slip, slug, "8H KOSA", received_at=clock.now(),
                            player="1", **typed)
    assert isinstance(refused, Reply) and not refused.ok
    line = render(refused.key, refused.params, refused.rule)
    assert line == ("Oprava zápisu: posledný lístok hráča Ďuro Ďurkovič v 1. kole („8H KOS“) "
                    "poslal hráč sám cez Discord (/tah) — rozhodca ho nemôže opraviť ako svoj "
                    "preklep (003 r. 42).")
    assert (count(app, "dup_slips"), count(app, "dup_slip_fixes")) == (1, 0)
    await app.run(submit_csv, slug, 1, "2,8H SOK,6\n", received_at=clock.now())
    for move in ("8H KOS", "8H SOKA"):
        fixed = await app.run(submit_slip, slug, move, received_at=clock.now(), player="2",
                              **typed)
        assert isinstance(fixed, SlipReceipt) and fixed.corrects in ("8H SOK", "8H KOS")
    assert app.store.read_sync(lambda db: db.execute(
        "SELECT slip_id, fixed_by FROM dup_slip_fixes ORDER BY id").fetchall()) == [(2, 3),
                                                                                   (3, 4)]


@pytest.mark.parametrize(("text", "who", "declared", "says"), [
    ("8H KOS", 99, 6, "nie je prihlásený"),
    ("99Z KOS", 0, 6, "mimo dosky"),
    ("8H K0S", 0, 6, "neznáme písmeno „0“"),
    ("8H", 0, 6, "nemožno prečítať"),
    ("A" * 10_000, 0, 6, "znakov: 10000"),
    ("8H KOS", 0, "šesť", "nie je číslo"),
    ("8H KOS", 0, None, "chýba bodová hodnota"),
])
async def test_bad_slips_are_refused_in_one_line_and_nothing_stored(
        app: App, words: Path, clock: ManualClock, text: str, who: int,
        declared: object, says: str) -> None:
    slug = await opened(app, words)
    refused = await app.run(submit_slip, slug, text, received_at=clock.now(),
                            discord_id=discord(who), declared=declared)
    assert isinstance(refused, Reply) and not refused.ok
    line = render(refused.key, refused.params, refused.rule)
    assert says in line and "\n" not in line and len(line) < 300
    assert count(app, "dup_slips") == 0


async def test_no_slip_for_a_round_not_open(app: App, words: Path, clock: ManualClock) -> None:
    world = await make_event(app, words)
    await app.run(start_game, world.slug, seed=SEED)
    none_open = await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(),
                              discord_id=discord(0), declared=6)
    assert isinstance(none_open, Reply) and none_open.key == "duplicate.online.no_open_round"
    unknown = await app.run(submit_slip, world.slug, "8H KOS", received_at=clock.now(),
                            round_no=3, player="1", declared=6, source="arbiter")
    assert isinstance(unknown, Reply) and unknown.key == "duplicate.online.no_round"


async def test_a_rounds_csv_is_all_or_nothing(app: App, words: Path, clock: ManualClock) -> None:
    slug = await opened(app, words)
    good = "hráč,ťah,body\n1,8H KOS,6\nŽofia Šťastná,H8 KOSA,8\n"
    receipts = await app.run(submit_csv, slug, 1, good, received_at=clock.now())
    assert isinstance(receipts, list) and [r.player_id for r in receipts] == [1, 2]
    bad = "3,8H KOS,6\n4,8H K0S,6\n"
    refused = await app.run(submit_csv, slug, 1, bad, received_at=clock.now())
    assert isinstance(refused, Reply)
    assert "Riadok 2" in render(refused.key, refused.params, refused.rule)
    assert count(app, "dup_slips") == 2


async def test_a_player_who_left_hands_in_no_more_slips(
        app: App, words: Path, clock: ManualClock) -> None:
    slug = await opened(app, words)
    t = app.store.read_sync(lambda db: db.execute("SELECT id FROM tournaments").fetchone()[0])
    app.store.call_sync(withdraw, t, 1, "odišiel", Change.admin("1", clock.now()))
    refused = await app.run(submit_slip, slug, "8H KOS", received_at=clock.now(),
                            discord_id=discord(0), declared=6)
    assert isinstance(refused, Reply) and refused.key == "duplicate.online.left_event"
    assert "004 §7" in render(refused.key, refused.params, refused.rule)


async def test_a_duplicate_entrant_leaving_is_told_004_7_not_e_sp_3_6(
        app: App, words: Path, notifier: RecordingNotifier) -> None:
    """/odstupit in a duplicate event (issue 44.7): its consequence and rule are the
    duplicate's (0 for the remaining rounds, 004 §7), not the classic qualifier's e-SP 3.6;
    the audit keeps the profile's own citation."""
    slug = await opened(app, words, mode="online")
    ask = await play.withdraw(app, slug, discord(0))
    asked = render(ask.key, ask.params, ask.rule)
    assert ask.ok and "Za zvyšné kolá dostaneš 0 bodov" in asked, asked
    assert asked.endswith("(004 §7 per analógiu).") and "kvalifikačné" not in asked
    assert "(004 §7 by analogy)" in t(ask.key, "en-US", **ask.params, rule=ask.rule)
    done = await play.withdraw(app, slug, discord(0), confirmed=True)
    assert render(done.key, done.params, done.rule).endswith("(004 §7 per analógiu).")
    posted = [render(m.key, m.params) for _, _, m in notifier.sent if m.key == "play.withdrawn"]
    assert len(posted) == 1 and posted[0].endswith("(004 §7 per analógiu).")
    reasons = app.store.read_sync(lambda db: [r[0] for r in db.execute(
        "SELECT reason FROM audit WHERE reason LIKE 'odstúpenie%'")])
    assert reasons and all(r == "odstúpenie z turnaja (004 §7 (analogy))" for r in reasons)


async def test_a_straggler_goes_to_the_round_it_was_sent_in(
        app: App, words: Path, clock: ManualClock) -> None:
    """A Discord slip received while round 1 was open reaches the store only when round 2 is
    open: it is round 1's (003 r. 19), judged again for its player."""
    slug = await opened(app, words)
    sent = clock.now()
    await close_round(app, slug, 1)
    clock.advance(timedelta(seconds=200))
    await app.run(open_round, slug, round_no=2)
    receipt = await app.run(submit_slip, slug, "8H KOS", received_at=sent,
                            discord_id=discord(0), declared=6)
    assert isinstance(receipt, SlipReceipt) and (receipt.round, receipt.late) == (1, False)
    too_late = await app.run(submit_slip, slug, "8H KOS", received_at=sent + timedelta(
        seconds=190), round_no=1, discord_id=discord(1), declared=6)
    assert isinstance(too_late, Reply) and too_late.key == "duplicate.online.round_closed"
