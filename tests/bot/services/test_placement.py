"""Which pairing a herna.net record belongs to when two events pair the same two players at
overlapping times (`results.placement.owner_of`, issue 44.3): the same answer in any order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import permutations

import pytest

from bot.services.app import App, Tx
from bot.services.results.placement import owner_of
from bot.services.results.plan import EventRound, RoundWindow
from bot.store import Change, TablePairing, Tournament, create_tournament

SEVEN = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
P, Q, R = 11, 12, 13


def event_round(t: Tournament, round_no: int, start_minutes: int, pairs: list[tuple[int, int]]
                ) -> EventRound:
    start = SEVEN + timedelta(minutes=start_minutes)
    tables = tuple(TablePairing(id=100 * t.id + k, tournament_id=t.id, round_no=round_no,
                                table_no=k + 1, first_id=a, second_id=b, source="test",
                                created_at=SEVEN) for k, (a, b) in enumerate(pairs))
    return EventRound(t, RoundWindow(round_no, start, start + timedelta(minutes=50), tables))


@pytest.fixture
async def rounds(app: App) -> dict[str, EventRound]:
    """A's round 2 at 19:00 and C's round 1 at 19:30 both pair P with Q (limits 19:50,
    20:20); the events are real stored tournaments."""
    def create(tx: Tx) -> list[Tournament]:
        by = Change.admin(1, tx.now, "test setup")
        return [create_tournament(tx.db, slug=slug, name=slug, season="2024/2025",
                                  round_starts=[SEVEN], waiting_minutes=10,
                                  game_limit_minutes=50, by=by, admin_ids=[1])
                for slug in ("kt-a", "kt-c")]
    a, c = await app.run(create)
    return {"A2": event_round(a, 2, 0, [(P, Q)]), "C1": event_round(c, 1, 30, [(Q, P), (R, 14)])}


@pytest.mark.parametrize(("minute", "owner"), [
    (5, "A2"),    # during A's round only (C's only near: before its start)
    (35, "C1"),   # during both: the round called last — A's game was played before it
    (60, "C1"),   # after A's limit, during C's
    (-20, "A2"),  # before both official starts, near both: the nearer (20 min vs 50)
])
def test_a_game_of_a_pair_met_in_two_events_has_one_owner_in_any_order(
        rounds: dict[str, EventRound], minute: int, owner: str) -> None:
    started = SEVEN + timedelta(minutes=minute)
    for order in permutations(rounds.values()):
        found = owner_of(order, P, Q, started)
        assert found is not None and found[0] is rounds[owner]
        assert {found[1].first_id, found[1].second_id} == {P, Q}


def test_players_not_paired_together_or_outside_every_window_have_no_owner(
        rounds: dict[str, EventRound]) -> None:
    assert owner_of(rounds.values(), P, R, SEVEN + timedelta(minutes=35)) is None
    assert owner_of(rounds.values(), P, Q, SEVEN - timedelta(minutes=61)) is None
