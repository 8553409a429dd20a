"""`stredisko season SEASON.toml [--db] [--json] [--html]` through the real entry point
(`bot.cli.main`) on a real SQLite file holding a finished tournament: the ladder as text, as one
JSON document and as a page; a bad file exits 2 with `FILE:LINE: reason`, anything else 1."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.clock import ManualClock
from bot.i18n import default_catalogue
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.store import Store, TournamentStatus
from rules.season import season_profile, season_profiles

from .conftest import START, Rehearsed, make_world

EXAMPLES = Path(__file__).parents[2] / "examples" / "season"
# 34 players declared in the file: p01 … p34
IDS = [f"p{n:02d}" for n in range(1, 35)]


def season_file(tmp_path: Path) -> Path:
    """M-SR: a live qualifier p01 … p33 (the 33rd place scores nothing); a second one of 40
    players in the same order but p27 and p28 swapped, p33 31st and the champion p34 32nd
    and out; the finished online tournament of the database (its four players score 40, 35,
    32, 30). The champion qualifies directly; of the 31 seats left, the four and p01 … p26
    take 30, and p27 (6 + 5) and p28 (5 + 6) tie for the last: no criterion of A3 7.1 tells
    them apart, so both advance."""
    players = "".join(f'[[player]]\nid = "{p}"\nname = "Hráč {p}"\n' for p in IDS[:-1])
    players += '[[player]]\nid = "p34"\nname = "<b>Majster</b>"\n'
    first = ", ".join(f'"{p}"' for p in IDS[:33])
    second = ", ".join(f'"{p}"' for p in [*IDS[:26], "p28", "p27", *IDS[28:30], "p33", "p34"])
    text = ('[season]\nname = "M-SR test"\ncompetition = "sss-msr"\nchampion = "p34"\n'
            + players
            + f'[[event]]\nname = "KT A"\nkind = "live-qt"\ndate = 2026-10-01\nplaces = [{first}]\n'
            + f'[[event]]\nname = "KT B"\nkind = "live-qt"\ndate = 2026-10-08\nfield = 40\n'
              f'places = [{second}]\nout = ["p34"]\n'
            + '[[event]]\nname = "Online KT"\nkind = "online-qt"\ndate = 2026-11-21\n'
              'tournament = "kt-test"\n')
    path = tmp_path / "sezona.toml"
    path.write_text(text, encoding="utf-8")
    return path


def finished_db(path: Path) -> Path:
    async def build() -> None:
        store = await Store.open(path)
        try:
            app = App(store, ManualClock(START), RecordingNotifier())
            await make_world(app, status=TournamentStatus.FINISHED)
        finally:
            await store.close()

    asyncio.run(build())
    return path


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    db = finished_db(tmp_path / "stredisko.db")

    def go(*argv: str) -> tuple[int, str, str]:
        code = main(["season", *argv, "--db", str(db)])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return go


def test_json_is_one_document_with_the_ladder_rows(run: Any, tmp_path: Path) -> None:
    code, out, err = run(str(season_file(tmp_path)), "--json")
    assert code == 0, err
    doc = json.loads(out)
    rows = doc["ladder"]
    assert {"player", "rank", "total", "qualified", "counted"} <= set(rows[0])
    assert all(set(c) >= {"event", "points", "coefficient"} for r in rows for c in r["counted"])
    # the four players of the database's tournament are there by their herna nicks
    assert {f"kt-test-hrac{n}" for n in range(1, 5)} <= {r["player"] for r in rows}
    qualified = [r["player"] for r in rows if r["qualified"]]
    assert len(qualified) == doc["cut"]["qualified"] == 32 and "p34" in qualified  # champion
    champion = next(r for r in rows if r["player"] == "p34")
    assert champion["group"] == "champion"
    assert [n["reason"] for n in champion["not_counted"]] == ["out"]
    first = rows[0]
    assert (first["player"], first["rank"], first["total"]) == ("p01", 1, 80.0)
    assert first["counted"][0] == {"event": "KT A", "points": 40.0, "coefficient": 1.0,
                                   "value": 40.0, "slot": "live-qt", "rule": "SP A3 7.1",
                                   "organizer": False, "place": None}
    # p28's 6 came from the field of 40, p27's from the field of 33 (A3 7.1's last criterion)
    assert [t for t in doc["ties"] if t["at_cut"]] == [{
        "players": ["p28", "p27"], "criterion": "field-size", "at_cut": True, "decided": True,
        "criterion_text": "rozhodol väčší počet hráčov na podujatí", "rule": "SP A3 7.1",
        "line": "ms"}]
    assert [(r["player"], r["qualified"]) for r in rows if r["player"] in ("p27", "p28")] == [
        ("p28", True), ("p27", False)]
    assert doc["cut"] == {"qualified": 32, "last_qualified_rank": 31}


def test_text_shows_counted_not_counted_the_cut_and_each_tie(run: Any, tmp_path: Path) -> None:
    path = season_file(tmp_path)
    doc = json.loads(run(str(path), "--json")[1])
    code, text, err = run(str(path))
    assert code == 0, err
    assert text.startswith("Rebríček sezóny M-SR test (kvalifikácia na M-SR, SP A3 7.1) — "
                           "podujatia: 3")
    assert ("1. Hráč p01 (p01): 80 bodov — postupuje (M-SR)\n"
            "    započítané: KT A 40 bodov × 1 = 40 (živý kvalifikačný turnaj); KT B 40 bodov × "
            "1 = 40 (živý kvalifikačný turnaj)") in text
    assert "(0 bodov): vylúčený alebo odstúpil: body za miesto nezíska nikto (e-SP 3.6" in text
    assert ("31. Hráč p28 (p28): 11 bodov — postupuje (M-SR)\n"
            "    započítané: KT B 6 bodov × 1 = 6 (živý kvalifikačný turnaj); KT A 5 bodov × 1 = "
            "5 (živý kvalifikačný turnaj)\n"
            "── hranica postupu: postupuje 32 hráčov; posledný postupujúci: 31. "
            "miesto, 11 bodov ──\n"
            "32. Hráč p27 (p27): 11 bodov (MS-B)\n") in text
    assert "38. <b>Majster</b> (p34): 0 bodov — postupuje (úradujúci majster, postupuje " \
        "priamo)" in text
    assert "KT A (0 bodov): miesto za poslednou bodovanou pozíciou tabuľky (SP A3 7.1)" in text
    assert text.endswith("Rovnosti bodov a čo ich rozhodlo:\n"
                         "- Hráč p28, Hráč p27 (na hranici postupu — M-SR): rozhodol väčší počet "
                         "hráčov na podujatí (SP A3 7.1)\n")
    assert len(doc["ties"]) == 1


def test_html_is_a_page_in_the_results_page_style(run: Any, tmp_path: Path) -> None:
    code, _, err = run(str(season_file(tmp_path)), "--html", str(tmp_path / "web"))
    assert code == 0, err
    page = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "<script" not in page
    assert "&lt;b&gt;Majster&lt;/b&gt;" in page and "<b>Majster" not in page  # escaped
    assert page.count('class="qualified cut"') == 1
    assert "--accent" in page  # the results page's stylesheet, inlined


def test_a_bad_file_exits_2_with_file_and_line(run: Any, tmp_path: Path) -> None:
    path = season_file(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('"p05", ', '"p05", "nikto", ', 1),
                    encoding="utf-8")
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "nikto" in text)
    code, out, err = run(str(path))
    assert (code, out) == (2, "")
    assert err == f"{path}:{line}: neznámy hráč „nikto“: nie je v registri ani v [[player]]\n"
    code, _, err = run(str(tmp_path / "chyba.toml"))
    assert (code, err) == (2, f"{tmp_path / 'chyba.toml'}:1: súbor alebo priečinok neexistuje\n")
    code, _, err = run(str(tmp_path))
    assert (code, err) == (2, f"{tmp_path}:1: je to priečinok, nie súbor\n")


def test_an_unfinished_tournament_is_shown_as_pending(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44.2: the ladder of the finished events, the unfinished one named as pending —
    in the text, the JSON and the page."""
    async def build() -> None:
        store = await Store.open(tmp_path / "bezi.db")
        try:
            await make_world(App(store, ManualClock(START), RecordingNotifier()))
        finally:
            await store.close()

    asyncio.run(build())
    path = season_file(tmp_path)
    db = str(tmp_path / "bezi.db")
    assert main(["season", str(path), "--db", db, "--html", str(tmp_path / "web")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "Rebríček sezóny M-SR test (kvalifikácia na M-SR, SP A3 7.1) — podujatia: 2, hráči: 34.",
        "Ešte sa nezapočítava (podujatie sa neskončilo): Online KT"]
    assert not any("kt-test-hrac" in line for line in lines)
    page = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert "Ešte sa nezapočítava (podujatie sa neskončilo): Online KT" in page
    assert main(["season", str(path), "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pending"] == ["Online KT"]


def _one_event_season(tmp_path: Path, competition: str, kind: str, slug: str) -> Path:
    path = tmp_path / f"{competition}-{kind}.toml"
    path.write_text(f'[season]\nname = "Sezóna"\ncompetition = "{competition}"\n'
                    f'[[event]]\nname = "Podujatie"\nkind = "{kind}"\ndate = 2026-11-21\n'
                    f'tournament = "{slug}"\n', encoding="utf-8")
    return path


def test_an_event_of_the_wrong_format_is_refused_where_a_rule_fixes_it(
        run: Any, tmp_path: Path) -> None:
    """ČAS PoS: the duplicate cup's live qualifiers are duplicate events — a classic
    tournament's order is no result of one; its online tournament's rules say nothing of
    the format, so the classic one counts there."""
    live = _one_event_season(tmp_path, "cas-duplicate-cup", "cas-live", "kt-test")
    code, out, err = run(str(live))
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"{live}:8: turnaj „kt-test“ je klasický turnaj (švajčiarsky systém), no podujatie "
        "druhu „cas-live“ sa podľa ČAS PoS: Živé turnaje hrá ako turnaj v duplikátnom "
        "(opisovanom) scrabble — jeho poradie sem nepatrí")
    code, out, err = run(str(_one_event_season(tmp_path, "cas-duplicate-cup", "cas-online",
                                               "kt-test")))
    assert code == 0 and "Podujatie" in out, err


def test_a_duplicate_event_is_no_swiss_qualifier(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """SP A4 8.1: a qualifier is played by the Swiss system — a duplicate event's final order
    cannot stand for an online qualifier of M-SR; an internet tournament's format is open."""
    from tests.bot.services.test_duplicate_feed import SLUG, _cli_db

    db = tmp_path / "dup.db"
    _cli_db(db, ("preliminary", "final"))
    qualifier = _one_event_season(tmp_path, "sss-msr", "online-qt", SLUG)
    assert main(["season", str(qualifier), "--db", str(db)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{qualifier}:8: turnaj „{SLUG}“ je turnaj v duplikátnom (opisovanom) scrabble, no "
        "podujatie druhu „online-qt“ sa podľa SP A4 8.1 hrá ako klasický turnaj (švajčiarsky "
        "systém) — jeho poradie sem nepatrí")
    internet = _one_event_season(tmp_path, "sss-msr", "internet", SLUG)
    assert main(["season", str(internet), "--db", str(db)]) == 0, capsys.readouterr().err


def test_a_database_that_cannot_be_read_exits_1(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "db").mkdir()
    assert main(["season", str(season_file(tmp_path)), "--db", str(tmp_path / "db")]) == 1
    assert capsys.readouterr().err.startswith("stredisko: chyba:")


@pytest.fixture(scope="module")
def rehearsed(tmp_path_factory: pytest.TempPathFactory, kt24: Rehearsed) -> Path:
    """The database the bundled examples read: `make demo`'s rehearsal, finished."""
    return kt24.copy_db(tmp_path_factory.mktemp("skuska"))


def test_the_bundled_examples_run_on_the_rehearsal(
        rehearsed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["season", str(EXAMPLES / "msr-2026-27.toml"), "--db", str(rehearsed)]) == 0
    text = capsys.readouterr().out
    assert "Filip Čierny (fifo): 63 bodov — postupuje (M-SR)" in text  # 1st online, 10th live
    assert ("- Zuzana Lukáčová, Iveta Ďurčová (na hranici postupu — M-SR): rozhodlo vyššie "
            "umiestnenie v Slovenskom pohári (SP A3 7.1)") in text
    assert "Tibor Šťastný (tibo): 28 bodov" in text  # excluded online (e-SP 3.6 a): no points
    assert main(["season", str(EXAMPLES / "pohar-2026-27.toml"), "--db", str(rehearsed),
                 "--json"]) == 0
    cup = json.loads(capsys.readouterr().out)
    assert cup["rule"] == "SP A5 9.1" and cup["ladder"][0]["player"] == "cyro"
    msr = next(c for c in cup["ladder"][0]["counted"] if c["slot"] == "msr")
    assert (msr["points"], msr["coefficient"], msr["value"]) == (40.0, 2.0, 80.0)


@pytest.mark.parametrize(("name", "line"), [("msr-2026-27.toml", 50),
                                            ("pohar-2026-27.toml", 26)])
def test_without_the_rehearsal_the_examples_name_the_first_unknown_player(
        name: str, line: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["season", str(EXAMPLES / name), "--db", str(tmp_path / "nic.db")]) == 2
    assert capsys.readouterr().err == (
        f"{EXAMPLES / name}:{line}: neznámy hráč „anna77“: nie je v [[player]] (bez databázy "
        "sa registra nepýtam)\n")
    assert not (tmp_path / "nic.db").exists()  # only read: never created


def test_every_code_of_the_rules_has_its_words() -> None:
    """Each reason, tie criterion, group, note, error and event kind rules.season can give
    has Slovak (and English) words in the catalogue: none shows as a bare code."""
    import rules.season as rs

    codes = {"reason": rs.NOT_COUNTED_REASONS, "criterion": rs.TIE_CRITERIA,
             "group": rs.GROUPS, "note": rs.NOTES, "error": rs.ERROR_CODES,
             "kind": tuple(k for name in ("sss-msr", "sss-cup", "cas-duplicate-cup")
                           for k in season_profile(name).kinds),
             "competition": tuple(season_profiles())}
    keys = {f"season.{kind}.{code}" for kind, listed in codes.items() for code in listed}
    for lang in ("sk", "en"):
        assert keys - set(default_catalogue().languages[lang].messages) == set()


def test_a_lot_is_never_decided_silently(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """ČAS: equal results all the way down are decided by lot — "los" until the organiser's
    draw is in the file, then the drawn order, said to be the lot's."""
    example = EXAMPLES / "cas-2026.toml"
    assert main(["season", str(example), "--db", str(tmp_path / "nic.db")]) == 0
    text = capsys.readouterr().out
    assert ("- Hana Horáková, Ivo Němec (na hranici postupu — rebríček internetových turnajov): "
            "los — poradie určí žreb, stredisko ho nerozhoduje samo (ČAS PoS: Internetové "
            "turnaje)") in text
    assert "O poradí alebo mieste rozhoduje los, ktorý ešte nebol vyžrebovaný" in text
    drawn = tmp_path / "cas.toml"
    drawn.write_text(example.read_text(encoding="utf-8").replace(
        'competition = "cas-duplicate-cup"\n',
        'competition = "cas-duplicate-cup"\nlots = [["ivo", "hana"]]\n'), encoding="utf-8")
    nothing = str(tmp_path / "nic.db")
    assert main(["season", str(drawn), "--json", "--db", nothing]) == 0
    ties = json.loads(capsys.readouterr().out)["ties"]
    lot = next(t for t in ties if set(t["players"]) == {"ivo", "hana"})
    assert (lot["players"], lot["criterion"], lot["decided"]) == (["ivo", "hana"], "lot", True)
    assert main(["season", str(drawn), "--db", nothing]) == 0
    assert ("Ivo Němec, Hana Horáková (na hranici postupu — rebríček internetových turnajov): "
            "rozhodol los vyžrebovaný organizátorom (lots v súbore sezóny)"
            ) in capsys.readouterr().out


def test_a_ladder_of_one_events_order_shows_places_not_points(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ČAS: the correspondence competition's ladder is its standing at 31.10 — a place, not
    "0 bodov"."""
    nothing = str(tmp_path / "nic.db")
    assert main(["season", str(EXAMPLES / "cas-2026.toml"), "--db", nothing]) == 0
    text = capsys.readouterr().out
    assert ("8. Karel Pokorný (karel): 1. miesto — postupuje (korešpondenčná súťaž)\n"
            "    započítané: Křížovka a hádanka: 1. miesto (korešpondenčná súťaž ČAS)") in text
    assert "postupuje 3 hráči; posledný postupujúci: 3. miesto ──" in text  # no "0 bodov"
    assert not re.search(r"(?<![0-9])0 bodov", text)
    assert main(["season", str(EXAMPLES / "cas-2026.toml"), "--db", nothing, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["ladder"]
    karel = next(r for r in rows if r["player"] == "karel")
    assert [(c["place"], c["points"]) for c in karel["counted"]] == [(1, 0)]
    assert main(["season", str(EXAMPLES / "cas-2026.toml"), "--db", nothing,
                 "--html", str(tmp_path / "web")]) == 0
    assert '<td class="num total">1. miesto</td>' in (tmp_path / "web" / "index.html").read_text(
        encoding="utf-8")


def test_when_no_criterion_decides_all_tied_advance_and_it_is_said(
        run: Any, tmp_path: Path) -> None:
    """With both qualifiers of 33 players, p27 and p28 stay level in every criterion of
    A3 7.1: both advance, 33 qualify, and the text says the board rounds to an even number."""
    path = season_file(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("field = 40", "field = 33"),
                    encoding="utf-8")
    doc = json.loads(run(str(path), "--json")[1])
    assert doc["cut"]["qualified"] == 33
    assert [(t["players"], t["criterion"], t["decided"]) for t in doc["ties"]] == [
        (["p27", "p28"], "all-advance", False)]
    assert [n["code"] for n in doc["notes"]] == ["all-tied-advance"]
    code, text, _ = run(str(path))
    assert code == 0 and text.endswith(
        "- Hráč p27, Hráč p28 (na hranici postupu — M-SR): rovnosť trvá: postupujú všetci "
        "(počet postupujúcich potom správna rada zaokrúhli na párny) (SP A3 7.1)\n"
        "Na hranici postupu nerozhodlo žiadne kritérium: postupujú všetci rovnocenní a "
        "správna rada potom zaokrúhli počet na párny (SP A3 7.1).\n")


# -- hostile season files (issue 20.4) --------------------------------------------------------

CAS = (EXAMPLES / "cas-2026.toml").read_text(encoding="utf-8")


def _season_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["season", str(path), "--db", str(path.parent / "nie.db")])
    out, err = capsys.readouterr()
    return code, out, err


def _with_lots(tmp_path: Path, lots: str) -> Path:
    path = tmp_path / "cas.toml"
    text = CAS.replace('competition = "cas-duplicate-cup"\n',
                       f'competition = "cas-duplicate-cup"\nlots = {lots}\n', 1)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("lots", "says"), [
    ('[["hana", "ivo"], ["ivo", "hana"]]', "„ivo“ pred „hana“ tu, inde naopak"),
    ('[["hana", "ivo"], ["ivo", "jana"], ["jana", "hana"]]', "žreby si odporujú"),
    ('[["hana", "ivo", "hana"]]', "lots: hráč „hana“ je tam dvakrát"),
    ('[\n  ["hana", "ivo"],\n  ["ivo",\n   "hana"],\n]', "žreby si odporujú"),
], ids=["reversed", "cycle", "twice-in-a-lot", "over-lines"])
def test_contradictory_lots_are_refused_with_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lots: str, says: str) -> None:
    path = _with_lots(tmp_path, lots)
    code, out, err = _season_cli(path, capsys)
    line = CAS.index('competition = "cas-duplicate-cup"')
    first = CAS.count("\n", 0, line) + 2  # the lots line, right after competition
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1, err
    assert says in err, err
    where = int(re.match(rf"{re.escape(str(path))}:(\d+): ", err)[1])  # type: ignore[index]
    assert first <= where <= first + 3, (where, err)


def test_consistent_lots_still_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _with_lots(tmp_path, '[["hana", "ivo"], ["ivo", "jana"], ["hana", "jana"]]')
    code, _, err = _season_cli(path, capsys)
    assert code == 0, err


@pytest.mark.parametrize(("make", "says"), [
    (lambda: '[season]\nname = "x"\ncompetition = "sss-msr"\n'
             + "".join(f'[[event]]\nname = "E{n}"\nkind = "live-qt"\ndate = 2026-10-01\n'
                       f'places = ["a"]\n' for n in range(1001)),
     "najviac 1000 tabuliek [[event]], je ich 1001"),
    (lambda: CAS.replace('competition = "cas-duplicate-cup"\n', 'competition = '
                         '"cas-duplicate-cup"\nlots = [' + ", ".join(['["a", "b"]'] * 16_000)
                         + "]\n", 1), "najviac 1000 žrebov, je ich 16000"),
    (lambda: '[season]\nname = "x"\ncompetition = "sss-msr"\n[[event]]\nname = "E"\n'
             'kind = "live-qt"\ndate = 2026-10-01\nplaces = ['
             + ", ".join(['"a"'] * 1_000_000) + "]\n", "väčší ako 1 000 000 bajtov"),
    (lambda: '[season]\nname = "x"\ncompetition = "sss-msr"\n[[event]]\nname = "E"\n'
             'kind = "live-qt"\ndate = 2026-10-01\nplaces = ["a"]\nranks = ['
             + ", ".join(["1"] * 20_000) + "]\n", "najviac 10000 miest, je ich 20000"),
], ids=["1001-events", "16k-lots", "1M-list", "20k-ranks"])
def test_oversized_files_and_lists_are_refused_at_once_in_one_short_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, says: str) -> None:
    path = tmp_path / "velka.toml"
    path.write_text(make(), encoding="utf-8")
    code, out, err = _season_cli(path, capsys)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1, err[:500]
    assert says in err and len(err) < 600, err[:600]


def test_an_endless_file_is_refused_unread(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["season", "/dev/zero"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and "väčší ako 1 000 000 bajtov" in err
    assert len(err.strip().splitlines()) == 1 and "MemoryError" not in err


def test_a_refused_huge_list_prints_a_short_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong type of a long list quotes it: the line is cut, not 3 MB."""
    path = tmp_path / "zla.toml"
    path.write_text('[season]\nname = "x"\ncompetition = "sss-msr"\ndeclined = "'
                    + "x" * 200_000 + '"\n[[event]]\nname = "E"\nkind = "live-qt"\n'
                    'date = 2026-10-01\nplaces = ["a"]\n', encoding="utf-8")
    code, _, err = _season_cli(path, capsys)
    assert code == 2 and len(err) < 700 and "skrátené, spolu" in err, err[:700]
