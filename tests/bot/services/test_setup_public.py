"""Set-up details found by playing whole tournaments: closing the check-in twice, a draft
world for tests, and the public names the rehearsal and the cog use (`create`, `key_lines`,
`Reader`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.tournament import checkin, setup
from bot.services.tournament.propozicie import Reader, SetupError, key_lines, parse_propozicie
from bot.store import TournamentStatus, get_tournament_by_slug, list_players

from .conftest import START, make_world, said
from .test_rounds import ADMIN, SLUG, propozicie, read


async def test_closing_the_checkin_twice_is_refused(
        app: App, clock: ManualClock, notifier: RecordingNotifier) -> None:
    world = await make_world(app, status=TournamentStatus.DRAFT, published=False)
    assert world.tournament.status is TournamentStatus.DRAFT
    assert (await checkin.open_checkin(app, world.slug, str(ADMIN))).ok
    clock.set(START + timedelta(minutes=1))
    assert (await checkin.close_checkin(app, world.slug, str(ADMIN))).ok
    sent_before = len(notifier.sent)
    clock.set(START + timedelta(minutes=2))
    again = await checkin.close_checkin(app, world.slug, str(ADMIN))
    assert (again.ok, again.key) == (False, "setup.checkin_already_closed")
    assert "10:01" in said(again)  # when it was closed, in Bratislava time
    assert len(notifier.sent) == sent_before  # no second announcement, no second DM
    t = await read(app, get_tournament_by_slug, world.slug)
    assert t.checkin_closes_at == START + timedelta(minutes=1)  # the first close stands


async def test_make_world_builds_a_draft(app: App) -> None:
    world = await make_world(app, status=TournamentStatus.DRAFT, published=False)
    t = await read(app, get_tournament_by_slug, world.slug)
    assert t.status is TournamentStatus.DRAFT and len(world.tables) == 2


async def test_create_from_checked_propozicie(app: App) -> None:
    prop = parse_propozicie(propozicie(players=4))
    created = await setup.create(app, prop, ADMIN)
    assert created.ok and created.params["players"] == 4
    assert created.data.slug == SLUG and len(await read(app, list_players)) == 4
    taken = await setup.create(app, prop, ADMIN)
    assert (taken.ok, taken.key) == (False, "setup.slug_taken")


def test_key_lines_and_reader_name_the_line_of_a_bad_value(tmp_path: Path) -> None:
    text = '[[event]]\nat = "9:00"\n\n[[event]]\nat = 5\n'
    lines = key_lines(text)
    assert lines[("event", 1, "at")] == 5
    good = Reader(lines, "event", 0, {"at": "9:00"}, {"at": ("str", True)})
    assert good.get("at") == "9:00"
    with pytest.raises(SetupError) as error:
        Reader(lines, "event", 1, {"at": 5}, {"at": ("str", True)})
    assert error.value.line == 5 and "[[event]] č. 2" in error.value.reason
