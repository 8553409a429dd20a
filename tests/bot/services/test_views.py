"""Views as plain data: pairings, results, standings and the results page's report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.console import render_reply
from bot.publish import TournamentReport, write_results_page
from bot.services.app import App
from bot.services.tournament.rounds import pair_round, publish_round
from bot.services.tournament.views import (
    pairings_view,
    report,
    results_view,
    standings_view,
    to_result,
)
from bot.store import ActorKind, ResultStatus, StoredResult, TablePairing, get_tournament_by_slug
from rules import End

from .test_rounds import ADMIN, SLUG, create, pair_publish, play, player, propozicie, read

WHEN = datetime(2025, 3, 1, 9, tzinfo=UTC)


async def test_a_player_sees_a_pairing_only_once_it_is_published(app: App,
                                                                   tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=4))
    assert (await pair_round(app, SLUG, 1, ADMIN)).ok
    refused = await pairings_view(app, SLUG, 1, published_only=True)
    assert (refused.ok, refused.key) == (False, "round.not_published")
    assert (await pairings_view(app, SLUG, 1)).ok  # the head admin checks it before publishing
    assert (await publish_round(app, SLUG, 1, ADMIN)).ok
    assert (await pairings_view(app, SLUG, 1, published_only=True)).ok


async def test_pairings_results_and_standings_views(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=5))
    assert (await pairings_view(app, SLUG, 1)).key == "view.not_paired"
    assert (await results_view(app, SLUG, 9)).key == "round.unknown"
    assert (await standings_view(app, "nic")).key == "common.unknown_tournament"
    await pair_publish(app, 1)
    await play(app, 1, skip=2)

    pairings = await pairings_view(app, SLUG, 1)
    assert pairings.ok and len(pairings.data) == 3 and pairings.params["limit"] > WHEN
    assert pairings.data[-1]["bye"] and pairings.data[-1]["key"] == "view.pairings_bye_row"
    lines = render_reply(pairings)
    assert lines[-1].endswith("má voľno") and "začiatok 1. 3. 2025 10:00" in lines[0]

    results = await results_view(app, SLUG, 1)
    statuses = [row["status"] for row in results.data]
    assert statuses == ["provisional", "pending", "pending"]  # the bye not refreshed yet
    assert results.params["open"] == 3
    assert "400:300 (1:0)" in render_reply(results)[1]

    standings = await standings_view(app, SLUG)
    assert standings.ok and standings.rule == "e-SP 2.4"
    assert [row["points"] for row in standings.data][:1] == [1.0]
    assert len(standings.data) == 5


async def test_report_feeds_the_results_page(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=4))
    await pair_publish(app, 1)
    await play(app, 1)
    built = await report(app, SLUG)
    assert isinstance(built, TournamentReport)
    assert built.name == "Online KT — skúška" and set(built.rounds) == {1}
    assert len(built.rounds[1]) == 2 and len(built.standings) == 4
    p1 = await player(app, "nick1")
    assert built.players[str(p1.id)].nick == "nick1"
    page = write_results_page(built, tmp_path / "web")
    assert "Online KT" in page.read_text(encoding="utf-8")
    t = await read(app, get_tournament_by_slug, SLUG)
    assert built.round_starts[1] == WHEN and t.name == built.name
    assert not isinstance(await report(app, "nic"), TournamentReport)


def _stored(case: dict[str, object] | None, first: float, second: float) -> StoredResult:
    return StoredResult(
        pairing_id=1, version=1, status=ResultStatus.PROVISIONAL, end_kind="finished",
        first_points=first, second_points=second, first_score=420, second_score=300,
        forfeited=[], rated=True, rule="e-SP 3.5",
        verdict={"case": case} if case else {}, updated_at=WHEN,
        actor_kind=ActorKind.PLATFORM, actor_id=None, reason=None, confirmed_at=None)


def test_to_result_follows_the_case_when_herna_swapped_the_starter() -> None:
    pairing = TablePairing(1, 1, 2, 3, first_id=7, second_id=8, source="ours", created_at=WHEN)
    # stored columns follow the pairing (7 first); the case says 8 started on herna.net
    case = {"end": "finished", "first": "8", "second": "7", "first_score": 300,
            "second_score": 420, "moved": ["7", "8"], "round": 2}
    swapped = to_result(pairing, _stored(case, 1.0, 0.0))
    assert swapped is not None and swapped.case.first == "8"
    assert (swapped.first_points, swapped.first_score) == (0.0, 300)
    assert swapped.points_of("7") == 1.0 and swapped.score_of("7") == 420
    plain = to_result(pairing, _stored(None, 1.0, 0.0))  # no case stored: from the columns
    assert plain is not None and plain.case.end is End.FINISHED and plain.case.round == 2
    assert plain.case.moved == frozenset({"7", "8"}) and plain.points_of("7") == 1.0
