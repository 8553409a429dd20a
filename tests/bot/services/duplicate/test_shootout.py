"""003 r. 49's shoot-out through the service a Discord command would wrap
(`bot.services.duplicate.shootout.enter_shoot_out`): a finished game whose two players end
level (both 0), the shoot-out entered while the results are preliminary, then the final
results — the messages carry the decided order with "rozhodol rozstrel", score and time."""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.duplicate.results import Revealed, finalize_game
from bot.services.duplicate.shootout import ShootOutEntered, enter_shoot_out
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply

from ...conftest import ADMIN_ID, render
from .test_results import finished


async def test_the_final_results_carry_the_shoot_out_that_ordered_the_tie(
        app: App, words: Path, clock: ManualClock, notifier: RecordingNotifier) -> None:
    slug, _ = await finished(app, words, clock)
    first = await app.run(enter_shoot_out, slug, "1", 22, 100.0, word="8H KOSA",
                          admin=ADMIN_ID)
    assert isinstance(first, ShootOutEntered) and first.stored and first.version == 1
    assert first.waiting == ("Žofia Šťastná",) and first.rule == "003 r. 49"
    assert [s.rank for s in first.standings] == [1, 1]  # one result of two decides nothing
    second = await app.run(enter_shoot_out, slug, "2", 22, 99.5, admin=ADMIN_ID)
    assert isinstance(second, ShootOutEntered) and second.waiting == ()
    assert [(s.rank, s.decided_by) for s in second.standings] == [
        (1, "points"), (2, "shoot-out")]
    decided = [m for _, _, m in notifier.sent if m.key == "duplicate.online.shoot_out_decided"]
    assert len(decided) == 1 and decided[0].params["rule"] == "003 r. 49"

    final = await app.run(finalize_game, slug)
    assert isinstance(final, Revealed)
    said = next(m for _, _, m in notifier.sent if m.key == "duplicate.online.final")
    lines = said.params["lines"]
    assert [(line["name"], line["rank"], line["shoot_out"]) for line in lines] == [
        ("Žofia Šťastná", 1, {"score": 22, "seconds": 99.5, "word": None}),
        ("Ďuro Ďurkovič", 2, {"score": 22, "seconds": 100.0, "word": "8H KOSA"})]
    assert render(said.key, said.params).splitlines()[1:] == [
        "1. Žofia Šťastná — 0 bodov (0 %) — rozhodol rozstrel (vyššie bodované slovo, potom "
        "čas) — slovo 22 b., čas 99,5 s (003 r. 49)",
        "2. Ďuro Ďurkovič — 0 bodov (0 %) — rozhodol rozstrel (vyššie bodované slovo, potom "
        "čas) — slovo 22 b., čas 100 s, 8H KOSA (003 r. 49)"]
    # after the final results a correction is still possible (with its reason), and told
    fixed = await app.run(enter_shoot_out, slug, "2", 22, 101.0, admin=ADMIN_ID,
                          reason="stopky sa spustili neskoro")
    assert isinstance(fixed, ShootOutEntered) and fixed.version == 2
    assert fixed.standings[0].player != second.standings[0].player
    refused = await app.run(enter_shoot_out, slug, "Nikto", 22, 10.0, admin=ADMIN_ID)
    assert isinstance(refused, Reply) and refused.key == "duplicate.online.not_in_event"
