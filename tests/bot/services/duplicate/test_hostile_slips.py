"""Slips a hostile (or clumsy) player could type (issue 21: what a hostile user still hits):
Unicode digits and letters, invisible and right-to-left characters, control characters,
combining accents, parentheses, stray spaces, out-of-board squares, odd declared scores.
Each is either refused in one line with nothing stored, or stored once as typed. The round
still closes and every slip gets its score (the close judges what was stored: a slip it
could not read would stop the whole round)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.duplicate.close import RoundClosed, close_round
from bot.services.duplicate.game import open_round, start_game
from bot.services.duplicate.slips import SlipReceipt, submit_slip
from bot.services.replies import Reply

from ...conftest import render
from .conftest import discord, make_event
from .test_slips import SEED, count

PLAYERS = 5
#: pieces a slip is glued from: sound ones, and ones no board, rack or keyboard should give
SQUARES = ("8H", "H8", "8h", "h8", "15O", "O15", "1A", "A1")
ODD_SQUARES = ("16P", "0A", "H0", "Z9", "８H", "8Ｈ", "٨H", "²H", "8 H", "", "H", "88", "-8H",
               "8H8", "8\u200bH")
WORDS = ("KOS", "kos", "KoS", "K(O)S", "(K)OS", "OSA", "SOVA", "LESK", "KOLO", "VOSK")
ODD_WORDS = ("K()S", "K((O))S", "KO S", "KÔS", "KOS\u0301", "K\u200dOS", "\u202eSOK", "KOS\x00",
             "KOS\n", "K\tOS", "ＫＯＳ", "ΚΟΣ", "KOS😀", "Q", "", "KOSKOSKOSKOSKOSKOS", "K?S",
             "KOS ", "  KOS")
DECLARED = (0, 5, 6, 10, "6", " 6 ", "６", "٣")
ODD_DECLARED = (None, -1, 10**30, "²", "①", "¹2", "šesť", "", "1e3", "6.0", "-6", "0x6")


def _pick(rng: random.Random, sound: tuple[Any, ...], odd: tuple[Any, ...]) -> Any:
    return rng.choice(sound if rng.random() < 0.6 else odd)


def _slip(rng: random.Random) -> str:
    square, word = _pick(rng, SQUARES, ODD_SQUARES), _pick(rng, WORDS, ODD_WORDS)
    return rng.choice((f"{square} {word}", f"{square} {word}", f"{word} {square}",
                       f"{square}{word}", f" {square}  {word} ", f"{square}\t{word}"))


async def test_hostile_slips_are_refused_or_stored_once_and_the_round_still_closes(
        app: App, words: Path, clock: ManualClock) -> None:
    rng = random.Random(21)
    world = await make_event(app, words, players=PLAYERS)
    started = await app.run(start_game, world.slug, seed=SEED)
    assert not isinstance(started, Reply), started
    stored = refused = 0
    opened = await app.run(open_round, world.slug, rack="AKLOSVE", round_no=1)
    assert not isinstance(opened, Reply), opened
    senders: set[int] = set()
    for _ in range(150):
        who, text = rng.randrange(PLAYERS), _slip(rng)
        declared = _pick(rng, DECLARED, ODD_DECLARED)
        before = count(app, "dup_slips")
        got = await app.run(submit_slip, world.slug, text, received_at=clock.now(),
                            discord_id=discord(who), declared=declared)
        if isinstance(got, Reply):
            assert not got.ok
            line = render(got.key, got.params, got.rule)
            assert "\n" not in line.strip() and len(line) < 400, line
            assert count(app, "dup_slips") == before, (text, declared)
            refused += 1
            continue
        assert isinstance(got, SlipReceipt), got
        assert count(app, "dup_slips") == before + 1
        kept = app.store.read_sync(lambda db, i=got.slip_id: db.execute(
            "SELECT text FROM dup_slips WHERE id = ?", [i]).fetchone()[0])
        assert kept == text.strip()
        senders.add(who)
        stored += 1
    closed = await close_round(app, world.slug, 1)
    assert isinstance(closed, RoundClosed) and closed.closed_now, closed
    scored = {s.player_id for s in closed.scores if s.outcome != "no-slip"}
    assert scored == {world.players[k].id for k in senders}
    # the close judged every stored slip (each one's findings are in its player's verdict)
    assert sum(len(s.verdict.get("slips", [])) for s in closed.scores) == stored
    assert stored > 20 and refused > 20  # both sides of the line were walked
