"""Impossible herna.net records are refused at the boundary, through the simulator over real
HTTP: kept as refused evidence, the head admin told once, nothing scored or announced, and a
later valid record of the same game scored without any ruling."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import refresh_pairing
from bot.services.results.sync import sync_round, sync_tournament
from bot.store import (
    EvidenceKind,
    PlatformRecord,
    ResultStatus,
    StoredResult,
    SyncOutcome,
    get_platform_record,
    list_evidence,
)
from scrapers.herna import HernaClient
from scrapers.herna.simulator import Simulator

from ..conftest import add_game
from .sync_world import (
    START,
    at,
    evidence,
    read,
    result,
    round_games,
    setup_tournament,
    slovak,
)


def said(notifier: RecordingNotifier, *where: str) -> list[str]:
    """Every message sent to `where` (channel, dm, admin), rendered in Slovak."""
    return [t(m.key, "sk", **m.params) for w, _, m in notifier.sent if w in where]


def outcome(stored: StoredResult | None) -> tuple[object, ...]:
    """What a result says (its version and the evidence ids it rests on aside)."""
    assert stored is not None
    return (stored.status, stored.end_kind, stored.first_points, stored.second_points,
            stored.first_score, stored.second_score, stored.rule, stored.verdict["kind"])


async def test_a_refused_record_does_not_withdraw_results_and_its_correction_needs_no_ruling(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    s = await setup_tournament(app)
    games = round_games()
    sim.add_games(games)
    at(clock, 50)
    assert (await sync_round(app, "kt-sync", 1, herna)).outcome is SyncOutcome.OK
    announced = {table.id: await result(app, table) for table in s.tables}
    assert notifier.keys("channel").count("result.official") == 4
    notifier.sent.clear()

    sim.add_game(replace(games[0], first_score=-50))  # herna.net shows an impossible page
    at(clock, 55)
    bad = await sync_tournament(app, "kt-sync", herna)
    assert bad.outcome is SyncOutcome.OK and bad.changed == ["100"]
    assert [r["game_id"] for r in bad.refused] == ["100"] and bad.results == []
    rows = await evidence(app, s.tables[0])
    assert rows[-1].payload["refused"][0] == {"code": "score_negative", "value": -50,
                                              "bound": 0, "rule": "e-SP 3.5"}
    text = slovak(notifier)["herna.refused.score_negative"]
    assert "100" in text and "-50" in text and "(e-SP 3.5)" in text
    await sync_tournament(app, "kt-sync", herna)  # the same page again: nobody told again
    assert notifier.keys("admin") == ["herna.refused.score_negative"]
    assert said(notifier, "channel", "dm") == []

    sim.add_game(games[0])  # the corrected page
    at(clock, 58)
    healed = await sync_round(app, "kt-sync", 1, herna)  # the poll fetches it again
    assert healed.changed == ["100"] and healed.refused == []
    assert [e.payload.get("refused") for e in await evidence(app, s.tables[0])] == [
        None, rows[-1].payload["refused"], None]  # append-only: the refused one stays
    for table in s.tables:  # every announced result stands, as it was: no ruling needed
        assert outcome(await result(app, table)) == outcome(announced[table.id])
    assert notifier.keys("admin") == ["herna.refused.score_negative"]
    assert said(notifier, "channel", "dm") == []


@pytest.mark.parametrize(("changes", "code"), [
    ({"second_score": 9_999_999}, "herna.refused.score_too_high"),
    ({"first_score": -1}, "herna.refused.score_negative"),
    ({"first_moves": 400}, "herna.refused.moves_too_many"),
    ({"ended": START - timedelta(minutes=1)}, "herna.refused.ended_before_start"),
])
async def test_an_impossible_first_record_is_not_scored_until_a_valid_one_comes(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier, changes: dict[str, Any], code: str) -> None:
    s = await setup_tournament(app)
    games = round_games()
    sim.add_game(replace(games[0], **changes))
    at(clock, 40)
    summary = await sync_round(app, "kt-sync", 1, herna)
    assert [r["game_id"] for r in summary.refused] == ["100"]
    pending = await result(app, s.tables[0])
    assert pending is None or (pending.status, pending.first_points) == (ResultStatus.PENDING,
                                                                         None)
    stored = await read(app, get_platform_record, "100")
    assert isinstance(stored, PlatformRecord) and stored.payload["refused"]
    assert notifier.keys("admin") == [code]
    assert said(notifier, "channel", "dm") == []

    sim.add_game(games[0])
    at(clock, 45)
    await sync_round(app, "kt-sync", 1, herna)
    scored = await result(app, s.tables[0])
    assert scored is not None and scored.status is ResultStatus.PROVISIONAL
    assert (scored.first_score, scored.second_score) == (400, 350)
    assert notifier.keys("channel") == ["result.official"]
    assert notifier.keys("admin") == [code]  # no ruling was asked for
    for text in said(notifier, "channel", "dm"):
        assert "9999999" not in text.replace(" ", "").replace("\xa0", "")


async def test_a_table_stalled_by_an_unmarked_bad_record_heals_with_the_valid_one(
        app: App, clock: ManualClock, sim: Simulator, herna: HernaClient,
        notifier: RecordingNotifier) -> None:
    """A store written before records were checked holds the negative score as plain evidence
    (the table 'proposed / bad_evidence'); herna.net's valid page now decides it, no ruling."""
    s = await setup_tournament(app)
    at(clock, 40)
    await add_game(app, s.tables[0], -50, 350, game_id="100", minutes=(2, 30),
                   round_start=START)
    await app.run(lambda tx: refresh_pairing(tx, s.tables[0].id, tx.by_platform()))
    stalled = await result(app, s.tables[0])
    assert stalled is not None and stalled.verdict.get("code") == "bad_evidence"

    sim.add_game(round_games()[0])
    await sync_round(app, "kt-sync", 1, herna)
    healed = await result(app, s.tables[0])
    assert healed is not None and healed.status is ResultStatus.PROVISIONAL
    assert (healed.first_score, healed.second_score) == (400, 350)
    rows = await read(app, list_evidence, s.tables[0].id)
    assert EvidenceKind.RULING not in {e.kind for e in rows}  # nobody ruled
