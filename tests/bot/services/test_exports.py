"""Exports parse back: the results CSV with the csv module, the screlo list through the
import it is made for (TSH and TRF: test_export_tsh, test_export_trf, test_export_demo). The
CSV ones in both formats: "excel" (the default, for Slovak Excel, issue 19.3) and "stroj"."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from bot.services.app import App
from bot.services.exports.association import MACHINE, results_csv, screlo_list_csv
from bot.services.exports.spreadsheet import BOM, FORMULA_STARTS
from bot.services.tournament.rounds import import_pairings, publish_round
from bot.services.tournament.screlo_import import import_screlo_list

from .test_rounds import ADMIN, SLUG, create, play, player, propozicie

# names a spreadsheet would take for formulas (OWASP "CSV Injection")
HOSTILE = {1: "=cmd|' /C calc'!A0", 2: "+1+1", 3: "-2+3", 4: "@SUM(A1)"}


async def two_rounds(app: App, tmp_path: Path, names: dict[int, str] | None = None) -> None:
    """Round 1 (imported): nick2–nick1, nick4–nick3, the starters win 400:300; round 2:
    nick1–nick3, nick4–nick2, no results yet. `names`: player n's name instead of the usual."""
    text = propozicie(players=4)
    for n, name in (names or {}).items():
        text = text.replace(f'name = "Hráč Číslo{n}"', f'name = "{name}"')
    await create(app, tmp_path, text)
    for n, tables in ((1, [("nick2", "nick1"), ("nick4", "nick3")]),
                      (2, [("nick1", "nick3"), ("nick4", "nick2")])):
        assert (await import_pairings(app, SLUG, n, tables, ADMIN)).ok
        assert (await publish_round(app, SLUG, n, ADMIN)).ok
        if n == 1:
            await play(app, 1)


async def test_results_csv_parses_back(app: App, tmp_path: Path) -> None:
    await two_rounds(app, tmp_path)
    reply = await results_csv(app, SLUG, MACHINE)
    assert not reply.data.startswith(BOM) and "\r" not in reply.data
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
    reply = await screlo_list_csv(app, MACHINE)
    rows = list(csv.DictReader(io.StringIO(reply.data)))
    assert [(r["herna"], r["screlo"], r["partie"]) for r in rows] == [
        ("nick1", "2000.00", "10"), ("nick2", "1950.00", "20"), ("nick3", "1900.00", "30")]
    path = tmp_path / "screlo.csv"
    path.write_text(reply.data.replace("2000.00", "2012.50"), encoding="utf-8")
    imported = await import_screlo_list(app, path, ADMIN)
    assert imported.ok and imported.params["updated"] == 3
    assert (await player(app, "nick1")).screlo == 2012.5


def excel_rows(data: str) -> list[list[str]]:
    """Read as a Slovak spreadsheet does: the BOM marks UTF-8, ";" separates."""
    assert data.startswith(BOM)
    return list(csv.reader(io.StringIO(data[len(BOM):], newline=""), delimiter=";"))


def decimal(cell: str) -> float:
    """A number as Slovak Excel reads it: a decimal comma, never a point."""
    assert "." not in cell, cell
    return float(cell.replace(",", "."))


async def test_a_hostile_results_export_has_no_formula_cell(app: App, tmp_path: Path) -> None:
    await two_rounds(app, tmp_path, HOSTILE)
    reply = await results_csv(app, SLUG)
    assert "\r\n" in reply.data and reply.data.count("\n") == reply.data.count("\r\n")
    rows = excel_rows(reply.data)
    header, body = rows[0], rows[1:]
    assert header == ["kolo", "stôl", "prvý hráč", "herna prvého", "druhý hráč",
                      "herna druhého", "skóre prvého", "skóre druhého", "body prvého",
                      "body druhého", "koniec partie", "pravidlo", "stav"]
    formulas = [cell for row in rows for cell in row if cell.startswith(FORMULA_STARTS)]
    assert formulas == []
    names = {row[2] for row in body} | {row[4] for row in body}
    assert names == {"'" + name for name in HOSTILE.values()}  # kept, only neutralised
    first = dict(zip(header, body[0], strict=True))
    assert (first["prvý hráč"], first["druhý hráč"]) == ("'+1+1", "'" + HOSTILE[1])
    assert (decimal(first["skóre prvého"]), decimal(first["skóre druhého"])) == (400, 300)
    assert (decimal(first["body prvého"]), decimal(first["body druhého"])) == (1, 0)
    assert (first["koniec partie"], first["stav"]) == ("dohraná partia", "potvrdený")
    assert first["pravidlo"] == "e-SP 3.5"
    pending = dict(zip(header, body[3], strict=True))
    assert (pending["stav"], pending["skóre prvého"], pending["koniec partie"]) == ("čaká", "", "")


async def test_an_excel_screlo_list_round_trips_through_the_import(
        app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=3))
    rows = excel_rows((await screlo_list_csv(app)).data)
    assert rows[0] == ["herna", "meno", "screlo", "partie", "sezóna"]
    assert [(r[0], decimal(r[2]), int(r[3])) for r in rows[1:]] == [
        ("nick1", 2000, 10), ("nick2", 1950, 20), ("nick3", 1900, 30)]
    rows[1][2] = "2012,5"  # edited in Excel: a decimal comma
    path = tmp_path / "screlo.csv"
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(rows)
    path.write_text(BOM + out.getvalue(), encoding="utf-8", newline="")
    imported = await import_screlo_list(app, path, ADMIN)
    assert imported.ok and imported.params["updated"] == 3
    assert (await player(app, "nick1")).screlo == 2012.5


async def test_neutralised_nicks_and_names_round_trip_through_the_import(
        app: App, tmp_path: Path) -> None:
    """Issue 36.6: a nick or name the export guarded with an apostrophe ("'+421905") came
    back with it, matched nobody, and the round trip lost those players. The import reads a
    cell as Excel shows it: the guard's apostrophe before a formula's first character goes."""
    text = propozicie(players=4)
    for n, nick in enumerate(("+421905", "=x", "-ja", "@ty"), start=1):
        text = text.replace(f'herna = "nick{n}"', f'herna = "{nick}"')
        text = text.replace(f'name = "Hráč Číslo{n}"', f'name = "{HOSTILE[n]}"')
    await create(app, tmp_path, text)
    rows = excel_rows((await screlo_list_csv(app)).data)
    assert {r[0] for r in rows[1:]} == {"'+421905", "'=x", "'-ja", "'@ty"}
    for row in rows[1:]:
        row[2] = "1500"
    for row, keep_name_only in zip(rows[1:], (True, False, False, False), strict=True):
        if keep_name_only:  # matched by the name alone
            row[0] = ""
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(rows)
    path = tmp_path / "screlo.csv"
    path.write_text(BOM + out.getvalue(), encoding="utf-8", newline="")
    imported = await import_screlo_list(app, path, ADMIN)
    assert imported.ok and imported.params["updated"] == 4, imported
    assert (await player(app, "=x")).screlo == 1500
