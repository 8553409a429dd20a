"""The duplicate results page's content (issue 24.6): what it says, read back from the HTML.
The layout in a real browser is tested in test_duplicate_page_browser.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from bot.publish.duplicate_page import render_duplicate, write_duplicate_page
from bot.publish.duplicate_report import DuplicateRound, placed_squares
from bot.publish.report import Player, ReportError
from rules.duplicate import ShootOut, duplicate_profile, score_game, standings, verify

from .duplicate_sample import BOARDS, EMPTY, SEED, XSS_NAME, sample_duplicate


@pytest.fixture
def soup() -> BeautifulSoup:
    return BeautifulSoup(render_duplicate(sample_duplicate()), "lxml")


def texts(soup: BeautifulSoup, selector: str) -> list[str]:
    return [el.get_text(" ", strip=True) for el in soup.select(selector)]


def test_standings_show_points_percent_and_what_decided(soup):
    rows = soup.select("table.dup-standings tbody tr")
    assert [r["class"] for r in rows] == [["winner"], ["in"], ["in"], ["in"]]
    cells = [[td.get_text(" ", strip=True) for td in r.find_all("td")] for r in rows]
    # anna and boris both have 74 of the tops' 94: the sum of the rounds' % decided (003 r. 48)
    assert cells[0][:5] == ["1.", "Anna Nováková-Šťastná anka", "74", "78,7 %", "250,0 %"]
    assert cells[1][:5] == ["2.", "Boris Kováč", "74", "78,7 %", "223,3 %"]
    assert "súčet percentuálnych" in cells[1][5] and cells[1][5].endswith("(003 r. 48)")
    assert cells[2][5].endswith("(003 r. 46–47)")
    # the winner's name is bold (its cell has the class the stylesheet makes bold)
    assert "won" in rows[0].select_one("td.player")["class"]


def test_every_round_has_rack_top_board_moves_and_words(soup):
    rounds = soup.select("section.dup-round")
    assert [r["id"] for r in rounds] == ["p1-kolo-1", "p1-kolo-2", "p1-kolo-3"]
    assert texts(soup, "section.dup-round h3") == ["1. kolo (1. časť)", "2. kolo (1. časť)",
                                                    "3. kolo (2. časť)"]
    first = rounds[0]
    assert "".join(texts(first, ".rack .tile")) == "LOOSVAK"
    assert texts(first, "p.top strong") == ["8D SLOVO, 24 b."]
    assert texts(first, "ol.subtops li") == ["8E LOVO, 12 b."]
    assert texts(first, ".found") == ["Top našlo 1 z 4."]
    assert texts(first, ".words li") == ["Schválené: LOVO, SLOVO", "Neschválené: žiadne"]
    assert texts(rounds[1], ".words li.rejected") == ["Neschválené: SLOVOZZZ"]
    # every player of the game has a row in every round, best first
    for block in rounds:
        assert len(block.select("table.dup-moves tbody tr")) == 4


def test_each_evaluation_says_what_and_cites_its_rule(soup):
    outcome = {(tr.find_parent("section")["id"], tr.select_one("td.player")["data-player"]):
               tr.select_one("td.outcome").get_text() for tr in soup.select("table.dup-moves tr")
               if tr.select_one("td.player")}
    assert outcome["p1-kolo-1", "anna"] == "top (003 r. 45)"
    assert outcome["p1-kolo-1", "boris"] == "platné (003 r. 45)"
    assert outcome["p1-kolo-1", "cyril"] == "neskoro (003 r. 19)"
    assert outcome["p1-kolo-1", "dana"] == "uvedená vyššia hodnota než skutočná (003 r. 45)"
    assert outcome["p1-kolo-2", "cyril"] == (
        "neplatné: ťah používa písmená, ktoré nie sú v zásobníku (003 r. 1, 43)")  # cited once
    assert outcome["p1-kolo-2", "dana"] == (
        "neplatné: slovo SLOVOZZZ nie je prípustné (003 r. 1, 43)")
    assert outcome["p1-kolo-3", "cyril"] == (
        "platné (003 r. 45); oprava po partii: KVAK uznané — je v KSSJ (004 §5D)")
    assert outcome["p1-kolo-3", "dana"] == "bez lístka (003 r. 19)"


def test_points_and_percent_of_each_move(soup):
    row = soup.select("#p1-kolo-2 table.dup-moves tbody tr")[1]  # boris: 22 of the top's 30
    assert [row.select_one(c).get_text() for c in ("td.move", "td.points", "td.pct")] == [
        "H6 OLO", "22", "73,3 %"]


def test_board_is_fifteen_by_fifteen_with_premiums_and_the_top_highlighted(soup):
    board = soup.select_one("#p1-kolo-2 .board")
    squares = board.select("span.sq")
    assert len(squares) == 225 and len(board.select("span.hd")) == 31
    at = {(i // 15, i % 15): sq for i, sq in enumerate(squares)}
    assert "tw" in at[0, 0]["class"] and "dw" in at[1, 1]["class"]
    assert "tl" in at[1, 5]["class"] and "dl" in at[0, 3]["class"]
    new = {sq for sq, el in at.items() if "new" in el["class"]}
    assert new == {(4, 7), (5, 7), (6, 7)}  # KOLO's K, O, L — its last O was on the board
    assert "".join(at[4 + i, 7].get_text() for i in range(4)) == "KOLO"
    blank = soup.select_one("#p1-kolo-3 .board").select("span.sq")[4 * 15 + 6]
    assert blank.get_text() == "A" and "blank" in blank["class"]


def test_preliminary_and_final_are_labelled():
    final = BeautifulSoup(render_duplicate(sample_duplicate(final=True)), "lxml")
    early = BeautifulSoup(render_duplicate(sample_duplicate(final=False)), "lxml")
    assert texts(final, ".results-status.final") == ["Konečné výsledky (003 r. 29)"]
    assert not early.select(".results-status.final")
    label = texts(early, ".results-status.preliminary")[0]
    assert label.startswith("Predbežné výsledky") and label.endswith("(003 r. 25, 27)")
    # the seed is revealed only with the final results; the commitment is always there
    assert any(SEED in p for p in texts(final, ".seed .hash"))
    assert not any(SEED in p for p in texts(early, ".seed .hash"))
    commitment = texts(early, ".seed .hash")[0].rsplit(" ", 1)[1]
    assert verify(SEED, commitment)


def test_user_input_is_text_never_markup(tmp_path: Path):
    page = write_duplicate_page(sample_duplicate(), tmp_path / "site")
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "lxml")
    assert soup.find_all(["script", "img"]) == []
    assert XSS_NAME in texts(soup, "table.dup-standings td.player")[3]
    assert "script-src" not in soup.find("meta", attrs={"http-equiv": True})["content"]


def test_parts_that_do_not_fit_are_refused():
    report = sample_duplicate()
    game = report.games[0]
    with pytest.raises(ReportError, match="rounds scored"):
        dataclasses.replace(game, rounds=game.rounds[:2])
    with pytest.raises(ReportError, match="15 lines"):
        DuplicateRound(1, "A", (), "...\n")
    with pytest.raises(ReportError, match="without a name"):
        dataclasses.replace(report, players={})


def test_placed_squares_are_what_changed():
    assert placed_squares(EMPTY, BOARDS[0]) == {(7, c) for c in range(3, 8)}
    assert placed_squares(BOARDS[2], BOARDS[2]) == frozenset()


def test_several_games_each_have_their_section_and_seed():
    report = sample_duplicate()
    game = report.games[0]
    second = dataclasses.replace(game, number=2, seed=None)
    both = dataclasses.replace(report, games=(game, second), standings=tuple(
        standings([game.result, second.result], duplicate_profile("cas-duplicate"))))
    soup = BeautifulSoup(render_duplicate(both), "lxml")
    assert texts(soup, "main > section > h2") == ["Poradie", "1. partia", "2. partia",
                                                  "Losovanie zásobníkov"]
    ids = [el["id"] for el in soup.select("[id]")]
    assert len(ids) == len(set(ids)) and "p2-kolo-3" in ids
    assert texts(soup, ".seed h3") == ["1. partia", "2. partia"]
    assert texts(soup, ".seed .hash")[3] == "Kľúč sa zverejní po skončení partie."
    # the games' points are summed (003 r. 46–47)
    assert texts(soup, "table.dup-standings tbody td.points")[0] == "148"


def test_the_engines_reason_keeps_its_rule_beside_the_outcomes():
    report = sample_duplicate()
    reason = "ťah používa písmená, ktoré nie sú v zásobníku (004 §6)"
    game = dataclasses.replace(report.games[0], faults={(2, "cyril"): reason})
    soup = BeautifulSoup(render_duplicate(dataclasses.replace(report, games=(game,))), "lxml")
    cell = soup.select_one('#p1-kolo-2 td.player[data-player="cyril"]').parent
    assert cell.select_one("td.outcome").get_text() == (
        "neplatné: ťah používa písmená, ktoré nie sú v zásobníku (004 §6; 003 r. 1, 43)")


def test_a_tie_the_shoot_out_decided_says_so_with_the_score_and_the_time():
    """Eva plays exactly as Boris: level on points and on Σ % (003 r. 47–48). Until both
    shoot-out results are in they share the place; then the higher word, then the shorter
    time decides, and the page says "rozhodol rozstrel" with each one's score and time."""
    report = sample_duplicate()
    game = report.games[0].result.game
    twin = dataclasses.replace(game, players=(*game.players, "eva"), slips=game.slips + tuple(
        dataclasses.replace(s, player="eva") for s in game.slips if s.player == "boris"))
    profile = duplicate_profile("cas-duplicate")
    result = score_game(twin, profile)
    players = {**report.players, "eva": Player("eva", "Eva Malá")}
    games = (dataclasses.replace(report.games[0], result=result),)

    def decided(shots: dict[str, ShootOut]) -> list[list[str]]:
        page = dataclasses.replace(report, players=players, games=games,
                                   standings=tuple(standings([result], profile, shots)))
        rows = BeautifulSoup(render_duplicate(page), "lxml").select(
            "table.dup-standings tbody tr")
        return [[r.select_one("td.rank").get_text(strip=True),
                 r.select_one("td.player").get_text(strip=True),
                 r.select_one("td.decided").get_text(strip=True)] for r in rows[1:3]]

    waiting = decided({"eva": ShootOut(31, 80.0)})
    assert [row[0] for row in waiting] == ["2.", "2."]
    assert waiting[1][2] == "rovnosť trvá: rozhodne rozstrel (003 r. 49)"
    assert decided({"boris": ShootOut(31, 95.5, "8H KOSA"), "eva": ShootOut(31, 120.0)}) == [
        ["2.", "Boris Kováč", "rozhodol rozstrel (vyššie bodované slovo, potom čas) — slovo "
                              "31 b., čas 95,5 s, 8H KOSA (003 r. 49)"],
        ["3.", "Eva Malá", "rozhodol rozstrel (vyššie bodované slovo, potom čas) — slovo "
                           "31 b., čas 120 s (003 r. 49)"]]
    level = decided({"boris": ShootOut(31, 95.5), "eva": ShootOut(31, 95.5)})
    assert [row[0] for row in level] == ["2.", "2."]
    assert level[1][2] == ("rovnosť trvá aj po rozstrele: hráči sa delia o miesto — slovo "
                           "31 b., čas 95,5 s (003 r. 49)")
