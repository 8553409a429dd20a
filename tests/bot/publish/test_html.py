"""Structure of the written results page, read back with BeautifulSoup (lxml)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from bot.i18n import screlo_change_shown, screlo_shown
from bot.i18n import t as text_of
from bot.publish import (
    Player,
    ResultStatus,
    ScreloChange,
    TableResult,
    TournamentReport,
    criteria_for,
    render,
    write_results_page,
)
from bot.publish.slovak import END_LABELS
from rules.model import End, Rating, Result
from rules.profile import Profile


def soup_of(report: TournamentReport, tmp_path: Path) -> BeautifulSoup:
    path = write_results_page(report, tmp_path / "web")
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def texts(cells: list[Tag]) -> list[str]:
    return [c.get_text(" ", strip=True) for c in cells]


def test_write_creates_folder_returns_path_and_replaces_atomically(report, tmp_path):
    folder = tmp_path / "a" / "b"
    first = write_results_page(report, folder)
    assert first == folder / "index.html"
    renamed = dataclasses.replace(report, name="Iný názov")
    second = write_results_page(renamed, folder)
    assert second == first
    assert "Iný názov" in first.read_text(encoding="utf-8")
    assert sorted(p.name for p in folder.iterdir()) == ["index.html"]  # no partial file left


def test_page_is_self_contained_slovak_and_phone_ready(report, tmp_path):
    soup = soup_of(report, tmp_path)
    assert soup.html["lang"] == "sk"
    viewport = soup.find("meta", attrs={"name": "viewport"})
    assert viewport is not None and "width=device-width" in viewport["content"]
    csp = soup.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert csp is not None and "default-src 'none'" in csp["content"]
    assert soup.find_all("script") == []
    assert soup.find_all("link") == []
    for tag in soup.find_all(src=True) + soup.find_all(href=True):
        assert not str(tag.get("src") or tag["href"]).startswith(("http", "//")), tag
    assert "overflow-x: auto" in soup.style.get_text()
    # every table sits in its own scrolling box
    for table in soup.find_all("table"):
        assert "scroll" in table.parent["class"], table["class"]


def test_generated_time_is_shown_in_bratislava_time(report, tmp_path):
    header = soup_of(report, tmp_path).header.get_text(" ", strip=True)
    assert "Stav k 7. 3. 2025 20:05 SEČ" in header  # 19:05 UTC in winter
    summer = dataclasses.replace(report, generated_at=datetime(2025, 7, 1, 19, 5, tzinfo=UTC))
    assert "Stav k 1. 7. 2025 21:05 SELČ" in soup_of(summer, tmp_path).header.get_text()
    rounds = soup_of(report, tmp_path).find(id="kolo-1").get_text(" ", strip=True)
    assert "Oficiálny začiatok: 7. 3. 2025 18:00 SEČ" in rounds


def test_standings_list_every_player_in_order_with_the_profile_columns(report, tmp_path):
    table = soup_of(report, tmp_path).select_one("table.standings")
    heads = texts(table.thead.find_all("th"))
    assert heads == [
        "#", "Hráč", "Body", "Kval. body", "V–P–R", "Rozdiel", "Výhry", "Medián Buch.",
        "Buchholz", "Skóre (Dal)", "Screlo pred", "Screlo po",
    ]  # fmt: skip
    rows = table.tbody.find_all("tr")
    assert [r.find("td", class_="player")["data-player"] for r in rows] == list("adceb")
    first = texts(rows[0].find_all("td"))
    # a: beat b, bye, c forfeited, drew with d: 3 wins, no loss, 1 draw
    assert first == [
        "1.", "Ján Kováč jkovac", "3,5", "40", "3–0–1", "+20", "3", "3", "5,5", "1001",
        "1850", "1856,2",
    ]  # fmt: skip
    excluded = rows[3]
    assert "out" in excluded["class"]
    cells = texts(excluded.find_all("td"))
    assert cells[3] == "—" and cells[-2:] == ["—", "—"]  # no qualification points, no screlo
    assert excluded.find("sup", class_="out-mark").get_text() == "1"
    # the reason is a note under the table, not a cell of the row
    page = soup_of(report, tmp_path)
    note = page.select_one('.out-notes li[data-player="e"]').get_text(" ", strip=True)
    assert note == "1 Mária Nováková: vylúčený: 2 kontumácie bez ťahu (e-SP 3.6 a)"
    assert texts(rows[4].find_all("td"))[3:6] == ["30", "0–4–0", "−120"]
    assert "Poradie podľa e-SP 2.4." in page.find(id="poradie").get_text()


def test_record_has_no_draw_column_without_a_draw(report, tmp_path):
    """W–L when nobody drew; a double forfeit 0:0 is a loss for both, not a draw."""
    rounds = {n: tables for n, tables in report.rounds.items() if n != 4}  # round 4 has the draw
    soup = soup_of(dataclasses.replace(report, rounds=rounds), tmp_path)
    heads = texts(soup.select("table.standings thead th"))
    assert "V–P" in heads and "V–P–R" not in heads
    rows = soup.select("table.standings tbody tr")
    records = {r.find("td", class_="player")["data-player"]: r.select_one("td.record").get_text()
               for r in rows}
    assert records == {"a": "3–0", "d": "2–1", "c": "2–1", "e": "1–2", "b": "0–3"}


def test_no_qualification_points_before_any_result(report, tmp_path):
    soup = soup_of(dataclasses.replace(report, rounds={}), tmp_path)
    assert {td.get_text() for td in soup.select("table.standings td.qp")} == {"—"}


def test_excluded_map_alone_marks_a_player_out(report, tmp_path):
    # The standings may come without `out` set; the report's `excluded` still shows.
    standings = [dataclasses.replace(s, out=None) for s in report.standings]
    soup = soup_of(dataclasses.replace(report, standings=standings), tmp_path)
    row = soup.select("table.standings tbody tr")[3]
    assert "out" in row["class"] and row.find("td", class_="qp").get_text() == "—"
    assert "e-SP 3.6" in soup.select_one('.out-notes li[data-player="e"]').get_text()


@pytest.mark.parametrize(
    ("profile", "round_robin", "shown", "hidden"),
    [
        (Profile.load("sss-online"), False, ["Skóre (Dal)", "Medián Buch."], ["Neustadtl (SB)"]),
        (Profile.load("sss-live"), False, ["Rozdiel"], ["Skóre (Dal)"]),
        (
            Profile.load("sss-live"),
            True,
            ["Neustadtl (SB)", "Rozdiel"],
            ["Výhry", "Buchholz", "Skóre (Dal)"],
        ),
    ],
    ids=["online-swiss", "live-swiss", "round-robin"],
)
def test_standing_columns_follow_the_profile(report, tmp_path, profile, round_robin, shown, hidden):
    criteria, rule = criteria_for(profile, round_robin=round_robin)
    assert rule == (profile.standings.round_robin_rule if round_robin else profile.standings.rule)
    page = soup_of(dataclasses.replace(report, criteria=criteria), tmp_path)
    heads = texts(page.select("table.standings thead th"))
    assert all(h in heads for h in shown), heads
    assert not any(h in heads for h in hidden), heads
    first_row = texts(page.select("table.standings tbody tr")[0].find_all("td"))
    assert len(first_row) == len(heads)
    if "neustadtl" in criteria:
        assert first_row[heads.index("Neustadtl (SB)")] == "1,25"
    assert heads.count("Rozdiel") == 1  # the spread is always shown, once
    assert first_row[heads.index("Rozdiel")] == "+20"


def cross_cells(soup: BeautifulSoup, player: str) -> dict[int, Tag]:
    row = soup.select_one(f'table.cross td.player[data-player="{player}"]').parent
    return {int(td["data-round"]): td for td in row.find_all("td", class_="game")}


def test_crosstable_cells_show_the_result_first_then_who_started(report, tmp_path):
    soup = soup_of(report, tmp_path)
    heads = texts(soup.select("table.cross thead th"))
    assert heads == ["#", "Hráč", "1.", "2.", "3.", "4.", "Body"]
    a = cross_cells(soup, "a")
    assert texts([a[n] for n in (1, 2, 3, 4)]) == [
        "1 5 · Z 420:380",  # beat b (rank 5), a started
        "1 voľno 20:0",
        "1K 3 · Z 370:320",  # c disconnected: forfeited against c, a won by forfeit
        "½ 2 · Z 300:300",
    ]
    b = cross_cells(soup, "b")
    assert texts([b[1], b[2]]) == ["0 1 · D 380:420", "0 3 · Z 400:350"]  # lost though started
    assert b[3].find("span", class_="res").get_text() == "K"  # double forfeit: K for both
    assert cross_cells(soup, "e")[3].find("span", class_="res").get_text() == "K"
    e = cross_cells(soup, "e")
    assert texts([e[2]]) == ["K 2 · D 0:100"]
    assert e[4].get_text(strip=True) == "—"  # excluded: no game in round 4
    assert a[1]["data-opponent"] == "b" and a[1]["data-start"] == "first"
    assert b[1]["data-start"] == "second" and b[1]["data-result"] == "0"
    # the legend explains every symbol a cell can show
    legend = soup.select_one("#tabulka p.legend").get_text(" ", strip=True)
    for told in ("1 výhra", "0 prehra", "½ remíza", "K kontumačná prehra", "1K výhra kontumáciou",
                 "obojstrannej kontumácii 0:0 majú K obaja", "Z hráč začínal",
                 "D začínal súper", "voľno"):
        assert told in legend, told
    # rows follow the standings, the last column repeats the points
    rows = soup.select("table.cross tbody tr")
    assert [texts(r.find_all("td"))[-1] for r in rows] == ["3,5", "2,5", "2", "1", "0"]


def test_round_tables_show_end_rule_and_status(report, tmp_path):
    soup = soup_of(report, tmp_path)
    assert [h.get_text() for h in soup.select("section.round-block h3")] == [
        "1. kolo", "2. kolo", "3. kolo", "4. kolo",
    ]  # fmt: skip
    heads = texts(soup.select_one("table.round thead").find_all("th"))
    assert heads == [
        "Stôl", "Začína", "Druhý", "Skóre", "Body", "Ako sa skončila", "Pravidlo", "Stav",
    ]  # fmt: skip
    round2 = [texts(r.find_all("td")) for r in soup.select("#kolo-2 table.round tbody tr")]
    assert round2[0] == [
        "1", "Zuzana Šťastná zuza", "Peter Ďurica", "400:350", "0 : 1",
        "prehra na čas (Zuzana Šťastná)", "e-SP 3.5", "potvrdený",
    ]  # fmt: skip
    assert round2[1][5] == "nedostavenie sa (Mária Nováková) kontumácia proti: Mária Nováková"
    assert round2[1][6] == "e-SP 4.3, 4.9"
    assert round2[2][2:5] == ["—", "20:0", "1"]
    assert round2[2][5] == "voľno"
    statuses = [td.get_text() for td in soup.select("table.round td.status")]
    assert {"predbežný", "sporný", "návrh pre hl. administrátora", "potvrdený"} <= set(statuses)


def test_every_forfeit_shows_its_rule(report, tmp_path):
    soup = soup_of(report, tmp_path)
    forfeits = [(n, t) for n, tables in report.rounds.items() for t in tables if t.result.forfeited]
    assert len(forfeits) == 4
    for n, t in forfeits:
        row = soup.select(f"#kolo-{n} table.round tbody tr")[t.table - 1]
        assert "forfeited" in row["class"]
        assert row.find("td", class_="rule").get_text() == t.result.rule
        assert row.find("span", class_="forfeit").get_text().startswith("kontumácia proti")
    both = soup.select("#kolo-3 table.round tbody tr")[1]
    assert both.find("span", class_="forfeit").get_text() == "kontumácia proti obom"


def one_game(table: TableResult) -> TournamentReport:
    """A report of a single game between Xénia (x) and Ypsilon (y), without standings."""
    players = {"x": Player("x", "Xénia"), "y": Player("y", "Ypsilon")}
    when = datetime(2025, 1, 1, tzinfo=UTC)
    return TournamentReport("T", "P", when, players, {1: [table]}, standings=[])


@pytest.mark.parametrize("end", list(End))
def test_every_end_has_its_slovak_label(end, result: Callable[..., Result], tmp_path):
    second = None if end is End.BYE else "y"
    loser = "y" if end in {End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED, End.NO_SHOW} else None
    game = result(end, "x", second, (10, 5), (1, 0), f"pravidlo-{end.value}", loser=loser)
    row = soup_of(one_game(TableResult(1, game)), tmp_path).select_one("table.round tbody tr")
    assert row.find("td", class_="end").get_text().startswith(END_LABELS[end])
    assert row.find("td", class_="rule").get_text() == f"pravidlo-{end.value}"


@pytest.mark.parametrize(
    ("winner", "agreed", "suffix"),
    [
        (None, True, "výsledok podľa dohody hráčov"),
        ("x", False, "hráči sa zhodli na víťazovi (Xénia)"),
        (None, False, "hráči sa nezhodli na víťazovi"),
    ],
)
def test_save_failed_says_what_the_players_agreed_on(result, tmp_path, winner, agreed, suffix):
    game = result(End.SAVE_FAILED, "x", "y", (50, 0), (1, 0), "e-SP 4.6", winner=winner,
                  agreed=agreed)  # fmt: skip
    soup = soup_of(one_game(TableResult(1, game, ResultStatus.PROPOSED)), tmp_path)
    assert soup.select_one("td.end").get_text() == f"zápis sa neuložil — {suffix}"
    assert "Poradie zatiaľ nie je k dispozícii." in soup.find(id="poradie").get_text()


def test_player_names_are_escaped(report, tmp_path):
    hostile_name, hostile_nick = report.players["d"].name, report.players["d"].nick
    assert "<script>" in hostile_name and "<img" in hostile_nick
    path = write_results_page(report, tmp_path)
    raw = path.read_text(encoding="utf-8")
    assert "<script>" not in raw and "<img" not in raw
    soup = BeautifulSoup(raw, "lxml")
    assert soup.find_all(["script", "img"]) == []
    cells = soup.select('td.player[data-player="d"]')
    assert len(cells) == 1 + 1 + 4  # standings, crosstable, rounds 1, 2 (second), 3, 4
    for cell in cells:
        assert cell.find(string=True, recursive=False) == hostile_name
        assert cell.find("span", class_="nick").get_text() == hostile_nick
    # the name is text in the chart too, and the title carries it whole
    bar = soup.select_one('svg g[data-player="d"]')
    assert bar.title.get_text().startswith(hostile_name)
    assert soup.title.get_text() == "1. online kvalifikácia 2025 — výsledky"
    hostile = dataclasses.replace(report, name="</title><script>x()</script>")
    raw = render(hostile)
    assert "<script>" not in raw
    assert BeautifulSoup(raw, "lxml").h1.get_text() == "</title><script>x()</script>"


def test_screlo_chart_bars(report, tmp_path):
    svg = soup_of(report, tmp_path).select_one("#screlo svg.chart")
    assert svg["viewbox"].startswith("0 0 ")  # lxml lower-cases attribute names
    bars = svg.find_all("g", class_="bar")
    assert [g["data-player"] for g in bars] == ["d", "a", "c", "b"]  # largest gain first
    kinds = {g["data-player"]: next(c for c in g["class"] if c != "bar") for g in bars}
    assert kinds == {"d": "pos", "a": "pos", "c": "zero", "b": "neg"}
    values = {g["data-player"]: g.find("text", class_="value").get_text() for g in bars}
    assert values == {"d": "+20,5", "a": "+6,2", "c": "0", "b": "−24,6"}
    label = bars[1].find("text", class_="label").get_text()
    assert label == "Ján Kováč: 1850 → 1856,2"
    widths = {g["data-player"]: float(g.rect["width"]) for g in bars}
    assert widths["b"] > widths["d"] > widths["a"] > widths["c"]
    # a loss grows to the left of the zero line, a gain to the right
    axis = float(bars[0].line["x1"])
    assert float(bars[0].rect["x"]) == axis
    assert float(bars[3].rect["x"]) + widths["b"] == pytest.approx(axis, abs=0.1)


def test_no_screlo_no_chart_and_empty_tournament(tmp_path):
    report = TournamentReport(
        name="Prázdny", profile_title="P", generated_at=datetime(2025, 1, 1, tzinfo=UTC),
        players={}, rounds={}, standings=[],
    )  # fmt: skip
    soup = soup_of(report, tmp_path)
    assert soup.find(id="screlo") is None
    assert soup.select('nav a[href="#screlo"]') == []
    assert "Zatiaľ sa nehralo." in soup.find(id="tabulka").get_text()
    assert "Zatiaľ nie sú žiadne výsledky." in soup.find(id="kola").get_text()


def test_screlo_before_shows_the_seed_until_the_tournament_is_rated(report, tmp_path):
    seeds = {"a": 1850.0, "b": 1740.0, "c": 1600.0, "d": 2010.5, "e": 1500.0}
    running = dataclasses.replace(report, screlo={}, seeds=seeds)
    table = soup_of(running, tmp_path).select_one("table.standings")
    heads = texts(table.thead.find_all("th"))
    assert heads[-1] == "Screlo pred" and "Screlo po" not in heads
    assert [r.find_all("td")[-1].get_text() for r in table.tbody.find_all("tr")] == [
        "1850", "2010,5", "1600", "1500", "1740"]
    rated = soup_of(dataclasses.replace(report, seeds=seeds), tmp_path)
    excluded = rated.select("table.standings tbody tr")[3].find_all("td")
    assert texts(excluded[-2:]) == ["1500", "—"]  # seeded, not rated: no "after"


def test_screlo_is_rounded_as_the_chat_rounds_it(report, tmp_path):
    """Issue 19.7: one rounding (bot.i18n.screlo_shown) for the chat's final standings and
    the page's columns and chart: 1600,04 → 1601,06 reads "1600 → 1601,1 (+1,1)" in both."""
    change = ScreloChange(Rating(1600.04, 10), Rating(1601.06, 11))
    chat = text_of("finish.done_row", rank=1, name="Ján Kováč", points=3.5, qp=40,
                   screlo_before=screlo_shown(1600.04), screlo_after=screlo_shown(1601.06),
                   screlo_delta=screlo_change_shown(1600.04, 1601.06))
    assert chat.endswith("online screlo 1600 → 1601,1 (+1,1)")
    soup = soup_of(dataclasses.replace(report, screlo={**report.screlo, "a": change}), tmp_path)
    row = soup.select_one('table.standings td.player[data-player="a"]').parent
    assert [td.get_text() for td in row.select("td.screlo")] == ["1600", "1601,1"]
    bar = soup.select_one('svg.chart g.bar[data-player="a"]')
    assert bar.title.get_text() == "Ján Kováč: 1600 → 1601,1 (+1,1)"
    assert bar.select_one("text.value").get_text() == "+1,1"


def test_a_stored_direction_override_does_not_reorder_the_page(report, tmp_path):
    """Issue 36.2: new names cannot hold a direction override or an ESC, but a database from
    before that rule may; its pages show them as escapes, so a name cannot turn the rest of its
    cell (or the page's title) around."""
    player = dataclasses.replace(report.players["d"], name="Anna \u202eávokáN\x1b[0m")
    hostile = dataclasses.replace(report, name="Turnaj \u202e1 olok",
                                  players={**report.players, "d": player})
    raw = write_results_page(hostile, tmp_path).read_text(encoding="utf-8")
    assert "\u202e" not in raw and "\x1b" not in raw
    soup = BeautifulSoup(raw, "lxml")
    assert soup.h1.get_text() == "Turnaj \\u202e1 olok"
    cell = soup.select_one('td.player[data-player="d"]')
    assert cell.find(string=True, recursive=False) == "Anna \\u202eávokáN\\x1b[0m"
