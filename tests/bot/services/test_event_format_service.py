"""The propozície's `format` (e-SP 2.4; RULES.md 1): stored in the tournament's settings and
honoured by pairing and standings; online events without it are Swiss at any size. A waiting
period the propozície leave out is the program's default, and the set-up says so (e-SP 4.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services.app import App
from bot.services.tournament.propozicie import SetupError, parse_propozicie
from bot.services.tournament.rounds import pair_round
from bot.services.tournament.views import ranking
from bot.store import get_tournament_by_slug
from rules import Profile

from .test_rounds import ADMIN, SLUG, create, propozicie, read

ONLINE = Profile.load("sss-online")


@pytest.mark.parametrize(("extra", "stored", "round_robin", "rule"), [
    pytest.param("", None, False, "e-SP 2.4", id="e-SP 2.4: 4 players / 3 rounds online: Swiss"),
    pytest.param('format = "swiss"', "swiss", False, "e-SP 2.4", id="propozície: Swiss"),
    pytest.param('format = "round-robin"', "round-robin", True, "propozície, e-SP 1",
                 id="propozície: round robin"),
])
async def test_the_format_is_stored_and_decides_pairing_and_standings(
        app: App, tmp_path: Path, extra: str, stored: str | None, round_robin: bool,
        rule: str) -> None:
    await create(app, tmp_path, propozicie(players=4, rounds=3, extra=extra))
    t = await read(app, get_tournament_by_slug, SLUG)
    assert t.settings.get("format") == stored
    paired = await pair_round(app, SLUG, 1, ADMIN)
    assert paired.ok and paired.rule == rule
    rank = await app.run(lambda tx: ranking(tx.db, t, ONLINE))
    assert rank.round_robin is round_robin


def test_an_unknown_format_is_refused_with_its_line() -> None:
    with pytest.raises(SetupError) as refused:
        parse_propozicie(propozicie(extra='format = "knockout"'))
    assert refused.value.line == 8
    assert "„knockout“" in refused.value.reason and "e-SP 2.4" in refused.value.reason


async def test_a_default_waiting_period_is_said_to_be_one(app: App, tmp_path: Path) -> None:
    named = await create(app, tmp_path, propozicie())
    assert named.key == "setup.created"
    text = propozicie().replace("waiting_minutes = 10", "").replace(SLUG, "bez-lehoty")
    default = await create(app, tmp_path, text)
    assert default.key == "setup.created_waiting_default"
    assert default.params["waiting"] == 10 and default.params["waiting_rule"] == "e-SP 4.3"
