"""The head admin's rulings as the chat gives them ((end, params) without `moved`): who moved
comes from the pairing's counting platform record, so a played game stays rated (RULES.md 2
"rated"); approving checks the version the admin saw; any pairing's review item by table."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.replies import Reply
from bot.services.results.lifecycle import refresh_pairing
from bot.services.tournament import admin, play
from bot.store import ResultStatus, get_result
from rules import End

from .conftest import ADMIN_ID, START, World, add_game, said


async def refresh(app: App, pairing_id: int) -> Any:
    return await app.run(lambda tx: refresh_pairing(tx, pairing_id, tx.by_scheduler()))


async def rule(app: App, world: World, pairing_id: int, end: End,
               params: dict[str, Any]) -> Any:
    reply = await admin.rule(app, world.slug, ADMIN_ID, pairing_id, (end, params), "rozhodnutie")
    assert reply.ok, reply
    return await app.store.read(get_result, pairing_id)


async def test_a_conflict_ruled_finished_is_rated(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388, moves=(11, 11))
    clock.set(START + timedelta(minutes=45))
    await play.report_result(app, world.slug, world.discord(1), 400, 410)  # contradicts
    assert (await refresh(app, table.id)).verdict["code"] == "report_conflicts_record"
    result = await rule(app, world, table.id, End.FINISHED,
                        {"first_score": 410, "second_score": 400})
    assert (result.first_score, result.second_score, result.rated) == (410, 400, True)
    moved = result.verdict["case"]["moved"]
    assert sorted(moved) == sorted(str(p) for p in (table.first_id, table.second_id))


async def test_a_game_where_one_player_never_moved_stays_unrated(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 0, 80, end="resigned", on=table.first_id, moves=(0, 3))
    clock.set(START + timedelta(minutes=45))
    result = await rule(app, world, table.id, End.RESIGNED, {
        "first_score": 0, "second_score": 80, "loser": table.first_id})
    assert result.verdict["case"]["moved"] == [str(table.second_id)]
    assert not result.rated


async def test_an_over_limit_ruling_keeps_the_moves_of_the_unfinished_game(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 250, 260, end="unfinished", minutes=(10, 0))
    clock.set(START + timedelta(minutes=55))
    result = await rule(app, world, table.id, End.OVER_LIMIT, {})
    # both moved: the double forfeit is not one "without a move" for e-SP 3.6 (a)
    assert len(result.verdict["case"]["moved"]) == 2 and not result.rated


async def test_a_no_show_ruling_stays_unrated(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    clock.set(START + timedelta(minutes=12))
    result = await rule(app, world, table.id, End.NO_SHOW, {"loser": table.second_id})
    assert (result.end_kind, result.rated) == (End.NO_SHOW, False)
    assert result.verdict["case"]["moved"] == []


@pytest.mark.parametrize(("reporters", "rated"), [(2, True), (1, False)])
async def test_an_agreed_save_failed_ruling_is_rated_when_both_reported(
        app: App, world: World, clock: ManualClock, reporters: int, rated: bool) -> None:
    table = world.tables[0]
    clock.set(START + timedelta(minutes=40))
    await play.report_result(app, world.slug, world.discord(0), 410, 400)
    if reporters == 2:
        await play.report_result(app, world.slug, world.discord(1), 400, 410)
    clock.set(START + timedelta(minutes=55))
    result = await rule(app, world, table.id, End.SAVE_FAILED, {
        "first_score": 410, "second_score": 400, "agreed": True,
        "winner": table.first_id})
    assert (result.first_points, result.rated) == (1.0, rated)


async def test_a_ruling_that_says_who_moved_is_kept(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0]
    await add_game(app, table, 412, 388)
    clock.set(START + timedelta(minutes=45))
    result = await rule(app, world, table.id, End.FINISHED,
                        {"first_score": 412, "second_score": 388, "moved": []})
    assert result.verdict["case"]["moved"] == [] and not result.rated


# -- approving what the admin saw --------------------------------------------------------


async def test_approve_refuses_a_proposal_that_changed_meanwhile(
        app: App, world: World, clock: ManualClock) -> None:
    table = world.tables[0].id
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    clock.set(START + timedelta(minutes=12))
    seen = await refresh(app, table)
    assert seen.status is ResultStatus.PROPOSED
    await play.arrive(app, world.slug, world.discord(1))  # late: shown, a new version
    now = await app.store.read(get_result, table)
    assert now.version > seen.version
    stale = await admin.approve(app, world.slug, ADMIN_ID, table,
                                expected_version=seen.version)
    assert (stale.ok, stale.key, stale.rule) == (False, "admin.proposal_changed", "e-SP 4.9")
    assert "zmenil" in said(stale)
    assert (await app.store.read(get_result, table)).status is ResultStatus.PROPOSED
    fresh = await admin.approve(app, world.slug, ADMIN_ID, table, expected_version=now.version)
    assert fresh.ok
    assert (await app.store.read(get_result, table)).status is ResultStatus.PROVISIONAL
    twice = await admin.approve(app, world.slug, ADMIN_ID, table, expected_version=now.version)
    assert twice.key == "admin.nothing_to_approve"  # approved already: nothing changed "meanwhile"


# -- any pairing's review item ---------------------------------------------------------------


async def test_review_item_by_round_and_table(app: App, world: World) -> None:
    item = await app.run(admin.review_item, world.slug, ADMIN_ID, 1, 2)
    assert (item["pairing_id"], item["round"], item["table"]) == (world.tables[1].id, 1, 2)
    assert [p["name"] for p in item["players"]] == [world.players[2].name,
                                                    world.players[3].name]
    assert item["status"] is None and item["allowed"]
    # App.run answers a Reply
    refused = await app.run(admin.review_item, world.slug, ADMIN_ID, 1, 7)
    assert isinstance(refused, Reply) and refused.key == "admin.unknown_table"
    assert "stôl 7" in said(refused)
