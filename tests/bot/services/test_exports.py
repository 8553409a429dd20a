"""Exports parse back: the results CSV with the csv module, the screlo list through the
import it is made for (TSH and TRF: test_export_tsh, test_export_trf, test_export_demo)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from bot.services.app import App
from bot.services.exports import results_csv, screlo_list_csv
from bot.services.rounds import import_pairings, publish_round
from bot.services.setup import import_screlo_list

from .test_rounds import ADMIN, SLUG, create, play, player, propozicie


async def two_rounds(app: App, tmp_path: Path) -> None:
    """Round 1 (imported): nick2–nick1, nick4–nick3, the starters win 400:300; round 2:
    nick1–nick3, nick4–nick2, no results yet."""
    await create(app, tmp_path, propozicie(players=4))
    for n, tables in ((1, [("nick2", "nick1"), ("nick4", "nick3")]),
                      (2, [("nick1", "nick3"), ("nick4", "nick2")])):
        assert (await import_pairings(app, SLUG, n, tables, ADMIN)).ok
        assert (await publish_round(app, SLUG, n, ADMIN)).ok
        if n == 1:
            await play(app, 1)


async def test_results_csv_parses_back(app: App, tmp_path: Path) -> None:
    await two_rounds(app, tmp_path)
    reply = await results_csv(app, SLUG)
    rows = list(csv.DictReader(io.StringIO(reply.data)))
    assert len(rows) == 4 and reply.params["count"] == 4
    first = rows[0]
    assert (first["round"], first["table"], first["first_nick"], first["second_nick"]) == (
        "1", "1", "nick2", "nick1")
    assert (first["first_score"], first["second_score"]) == ("400", "300")
    assert (first["first_points"], first["second_points"]) == ("1", "0")
    assert (first["end"], first["rule"]) == ("finished", "e-SP 3.5")
    assert first["status"] == "confirmed"  # confirmed when round 2 was paired (e-SP 4.7)
    assert rows[3]["status"] == "pending" and rows[3]["first_score"] == ""


async def test_screlo_list_round_trips_through_the_import(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=3))
    reply = await screlo_list_csv(app)
    rows = list(csv.DictReader(io.StringIO(reply.data)))
    assert [(r["herna"], r["screlo"], r["partie"]) for r in rows] == [
        ("nick1", "2000.00", "10"), ("nick2", "1950.00", "20"), ("nick3", "1900.00", "30")]
    path = tmp_path / "screlo.csv"
    path.write_text(reply.data.replace("2000.00", "2012.50"), encoding="utf-8")
    imported = await import_screlo_list(app, path, ADMIN)
    assert imported.ok and imported.params["updated"] == 3
    assert (await player(app, "nick1")).screlo == 2012.5
