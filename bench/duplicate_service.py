"""The service side of bench/duplicate_round.py (issue 24.8): the same game, racks and slips
played through the duplicate services on a real SQLite file, each round closed as the deadline
timer closes it (`close.close_round`: read → tops and every slip off the store's thread →
guarded write with the top, the evaluations and the summary queued in the outbox). Measured
per round: the close alone, from the deadline until its transaction has committed with every
message queued (the bot's delivery is not part of it: "queue" mode). Twice: with the close
computing the tops itself (no warm-up ran: a restart, the worst case), and with the tops ready
as the warm-up a round's opening starts in the background (`dup_tops`, 003 r. 17) leaves them
long before a 3-minute deadline. The board image of the
top's announcement is rendered from the queued message's `image` parameter when
`bot/publish/board_image.py` is there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from duplicate_round import SEED_HEX, TARGET_S, RoundCase, figures
from verdicts import Verdicts

from bot.clock import BRATISLAVA, ManualClock
from bot.services.app import App, Tx
from bot.services.duplicate import lexicons, tops
from bot.services.duplicate.close import RoundClosed, close_round
from bot.services.duplicate.context import event_of
from bot.services.duplicate.game import RoundOpened, open_round, start_game
from bot.services.duplicate.slips import submit_slip
from bot.services.notifier import Message
from bot.services.replies import Reply
from bot.services.tournament import setup
from bot.store import Store
from bot.store.duplicate import DupEvent

SLUG = "bench-duplikat"
START = datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
DISCORD_BASE = 400_000_000_000_000_000  # a snowflake's size (identity.is_discord_id)


class Quiet:
    """Messages stay queued in the outbox (the bot would deliver them): nothing shown."""

    async def announce(self, tournament_id: int, message: Message) -> None:
        return None

    async def direct(self, player_id: int, message: Message) -> None:
        return None

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        return None


def propozicie(players: list[str], args: argparse.Namespace) -> str:
    lines = [
        "[tournament]", f'name = "Bench duplikátu ({len(players)} hráčov)"', f'slug = "{SLUG}"',
        'format = "duplicate"', "rounds = 1",
        f'round_starts = ["{START.astimezone(BRATISLAVA):%Y-%m-%d %H:%M}"]', "", "[duplicate]",
        f'profile = "{args.profile}"', f'lexicon = "{Path(args.lexicon).resolve()}"',
        f'tiles = "{args.tiles}"', 'mode = "online"', ""]
    for n, player in enumerate(players):
        lines += ["[[player]]", f'id = "{player}"', f'name = "Hráč {player}"',
                  f"discord_id = {DISCORD_BASE + n}", ""]
    return "\n".join(lines)


def _last_id_tx(tx: Tx) -> int:
    return int(tx.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0])


def _queued_tx(tx: Tx, after: int) -> dict[str, int]:
    """What was queued in the outbox after row `after`, by message key."""
    rows = tx.db.execute("SELECT message_key, count(*) FROM outbox WHERE id > ? "
                         "GROUP BY message_key ORDER BY message_key", [after]).fetchall()
    return {key: n for key, n in rows}


def _image_tx(tx: Tx, after: int) -> dict[str, Any] | None:
    """The board image's data of the latest message with one queued after row `after`."""
    row = tx.db.execute("SELECT params FROM outbox WHERE id > ? AND json_extract(params, "
                        "'$.image') IS NOT NULL ORDER BY id DESC LIMIT 1", [after]).fetchone()
    return None if row is None else json.loads(row[0])["image"]


async def play(cases: list[RoundCase], args: argparse.Namespace, players: list[str],
               folder: Path, expected: dict[int, tuple[int, int]], *, warm: bool = False
               ) -> tuple[list[float], list[float], list[float], list[str]]:
    """`expected`: round -> (top, found by) as the rules part computed them (checked).
    `warm`: each round's tops are ready by its deadline, as the warm-up its opening starts
    (`dup_tops`, 003 r. 17) has them after a fraction of the 3 minutes."""
    path = folder / "propozicie.toml"
    path.write_text(propozicie(players, args), encoding="utf-8")
    store = await Store.open(folder / "bench.db")
    clock = ManualClock(START)
    app = App(store, clock, Quiet(), delivery="queue")
    notes: list[str] = []
    try:
        created = await setup.create_from_file(app, path, "bench")
        if not created.ok:
            raise RuntimeError(f"create: {created.key} {created.params}")
        started = await app.run(start_game, SLUG, seed=SEED_HEX)
        if isinstance(started, Reply):
            raise RuntimeError(f"start: {started.key} {started.params}")
        opened = started.opened
        walls, cpus, images = [], [], []
        render = _renderer()
        for case in cases:
            if not isinstance(opened, RoundOpened) or opened.rack != case.rack:
                notes.append(f"round {case.number}: the service drew "
                             f"{getattr(opened, 'rack', opened)}, the bench {case.rack}: stop")
                break
            at = clock.now()
            for h in case.slips:
                receipt = await app.run(_slip, h.text, h.declared, at + timedelta(seconds=h.after),
                                        DISCORD_BASE + players.index(h.player))
                if isinstance(receipt, Reply):
                    notes.append(f"round {case.number}: {h.player} {h.text!r} refused "
                                 f"({receipt.key})")
            if warm:
                event = await app.run(_event_tx)
                await asyncio.to_thread(_tops_ready, event, opened)
            clock.set(opened.deadline)
            before = await app.run(_last_id_tx)
            wall, cpu = time.perf_counter(), time.process_time()
            closed = await close_round(app, SLUG, case.number)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            if not isinstance(closed, RoundClosed):
                notes.append(f"round {case.number}: the close refused ({closed}): stop")
                break
            queued = await app.run(_queued_tx, before)
            same = expected.get(case.number) == (closed.top_score, closed.found_top)
            notes.append(f"round {case.number}: {len(closed.scores)} of {len(players)} scored, "
                         f"top {closed.top_score} found by {closed.found_top} "
                         f"({'as' if same else 'NOT as'} the rules part); queued {queued}")
            image = await app.run(_image_tx, before)
            if render is not None and isinstance(image, dict):
                took = time.perf_counter()
                render(image)
                images.append(time.perf_counter() - took)
            clock.set(opened.deadline + timedelta(seconds=30))
            opened = await app.run(open_round, SLUG)
        return walls, cpus, images, notes
    finally:
        await store.close()


def _slip(tx: Tx, text: str, declared: int | None, received: datetime, discord_id: int) -> Any:
    return submit_slip(tx, SLUG, text, received_at=received, discord_id=discord_id,
                       declared=declared)


def _event_tx(tx: Tx) -> DupEvent:
    return event_of(tx.db, SLUG).settings


def _tops_ready(event: DupEvent, opened: RoundOpened) -> None:
    """What the warm-up leaves at the deadline: the round's tops in the services' cache."""
    lexicon = lexicons.cached(event.lexicon, event.lexicon_id)
    tops.tops_of(opened.board, opened.rack, lexicon, event.tiles, event.profile)


def _renderer() -> Any:
    try:
        from bot.publish.board_image import render_params  # type: ignore[import-not-found]
    except ImportError:
        return None  # bench/duplicate_round.py says so
    return render_params


def measure(cases: list[RoundCase], args: argparse.Namespace, players: list[str],
            verdicts: Verdicts, expected: dict[int, tuple[int, int]]) -> list[float]:
    """Print the service close's figures and add its verdicts: with the tops computed at the
    close (first: nothing cached yet), then with them ready (the warm-up done); the board
    image times of the first."""
    images: list[float] = []
    for warm, what in ((False, "tops computed at the close"),
                       (True, "tops ready from the warm-up at the round's opening")):
        with tempfile.TemporaryDirectory(prefix="bench-duplikat-") as tmp:
            walls, cpus, shown, notes = asyncio.run(play(cases, args, players, Path(tmp),
                                                         expected, warm=warm))
        images = images or shown
        for note in notes if not warm else [n for n in notes if "NOT" in n or "stop" in n]:
            print(f"  {note}")
        if not walls:
            print(f"service close, {what}: nothing measured")
            continue
        print(figures(f"service close, {what} (deadline → every slip scored, messages "
                      f"queued)", walls, cpus))
        median = statistics.median(walls)
        verdicts.add(f"service close < {TARGET_S:.0f} s median, {what}", median < TARGET_S,
                     f"{median:.3f} s (max {max(walls):.3f} s)")
    return images


if __name__ == "__main__":  # `make bench` runs every file here
    print("the service side of bench/duplicate_round.py: run that one (--lexicon FILE)")
