"""The demo tournament (`make demo`: examples/rehearsal/kt-online-24.toml — time losses such as
Renáta's 402:371, 0:0 double forfeits, forfeits, byes, an exclusion) exported and read back by
the other programs' rules: tsh's (re-implemented in tsh_rules) must give every player
stredisko's points, wins and rated games; py4swiss's own TrfParser must accept the TRF file
and give stredisko's totals, ranks and every round's result."""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from py4swiss.trf import TrfParser
from py4swiss.trf.results import ScoringPointSystem

from bot.cli import main
from bot.clock import SystemClock
from bot.services.app import App
from bot.services.exports.games import Sheet, sheet
from bot.services.exports.trf import trf_file
from bot.services.exports.tsh import TshExport, tsh_files
from bot.services.notifier import RecordingNotifier
from bot.store import Store

from ..conftest import Rehearsed
from .tsh_rules import TshPlayer, parse, standings, tfile_encoding

SLUG = "kt-online-24"


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory, kt24: Rehearsed) -> Path:
    return kt24.copy_db(tmp_path_factory.mktemp("demo"))


@pytest.fixture
async def demo(demo_db: Path) -> AsyncIterator[App]:
    store = await Store.open(demo_db)
    yield App(store, SystemClock(), RecordingNotifier())
    await store.close()


async def _sheet(app: App) -> Sheet:
    return await app.run(lambda tx: sheet(tx, SLUG))


def _rated_games(s: Sheet) -> dict[int, int]:
    return {line.number: sum(1 for seat in line.seats if seat.outcome and seat.outcome.rated
                             and seat.opponent is not None) for line in s.lines}


# -- TSH -----------------------------------------------------------------------------------


async def test_tsh_computes_stredisko_standings(demo: App) -> None:
    s = await _sheet(demo)
    files: TshExport = (await tsh_files(demo, SLUG)).data
    records = standings(parse(files.text))
    rated = _rated_games(s)
    got = [(r.wins, r.full_wins, r.rated_games) for r in records]
    want = [(line.standing.points, line.standing.wins, rated[line.number]) for line in s.lines]
    assert got == want
    # per round, too: tsh's result is stredisko's points (None: a round tsh counts neither way)
    for line, record in zip(s.lines, records, strict=True):
        points = [seat.outcome.points if seat.table and seat.outcome else 0.0
                  for seat in line.seats]
        assert [p if p is not None else 0.0 for p in record.rounds] == points, line.name


async def test_the_recorded_scores_alone_would_mislead_tsh(demo: App) -> None:
    """Why the convention: read with the scores stredisko recorded and the paired opponents
    (what the export wrote before), tsh gets other totals — the time loss 402:371 a win."""
    s = await _sheet(demo)
    files: TshExport = (await tsh_files(demo, SLUG)).data
    naive = [TshPlayer(p.name, p.rating, [int(x) for x in p.etc["paired"]],
                       [int(x) for x in p.etc.get("recorded", map(str, p.scores))], p.etc)
             for p in parse(files.text)]
    wins = [r.wins for r in standings(naive)]
    differ = [line.name for line, w in zip(s.lines, wins, strict=True)
              if w != line.standing.points]
    assert "Renáta Tóthová" in differ and len(differ) >= 5


async def test_renata_time_loss_and_the_double_forfeits(demo: App) -> None:
    files: TshExport = (await tsh_files(demo, SLUG)).data
    by_name = {p.name: p for p in parse(files.text)}
    renata = by_name["Tóthová, Renáta"]
    assert (renata.scores[0], renata.etc["recorded"][0]) == (370, "402")  # lost 402:371 on time
    assert renata.pairings[6] == 0 and renata.scores[6] == -50  # 0:0 double forfeit: a loss
    tibor = by_name["Šťastný, Tibor"]
    assert tibor.scores[3:] == [-100, -100, 0, 0] and tibor.etc["off"] == ["0"]


def test_cli_writes_the_t_file_and_config_beside_it(demo_db: Path, tmp_path: Path) -> None:
    target = tmp_path / "tsh" / "kt.t"  # the event's own folder: the export makes it
    code, _, err = _cli("export", "tsh", SLUG, "--db", str(demo_db), "-o", str(target))
    assert code == 0, err
    config = (target.parent / "config.tsh").read_text(encoding="utf-8")
    assert "division A kt.t" in config and tfile_encoding(config) == "utf8"
    assert "Ďurica, Cyril 2040" in target.read_text(encoding="utf-8")
    assert "config.tsh" in err
    code, out, err = _cli("export", "tsh", SLUG, "--db", str(demo_db))
    assert code == 0 and len(out.splitlines()) == 24 and "config.tsh" in err


# -- TRF -----------------------------------------------------------------------------------


@pytest.fixture
async def trf(demo: App, tmp_path: Path) -> Path:
    path = tmp_path / "kt.trf"
    path.write_text((await trf_file(demo, SLUG)).data, encoding="utf-8")
    return path


async def test_py4swiss_reads_stredisko_totals_and_ranks(demo: App, trf: Path) -> None:
    parsed = TrfParser.parse(trf, strict=True)  # validates points, pairs and colours too
    s = await _sheet(demo)
    assert [(p.starting_number, p.name, p.points_times_ten / 10, p.rank)
            for p in parsed.player_sections] == [
        (line.number, line.name.split()[-1] + ", " + " ".join(line.name.split()[:-1]),
         line.standing.points, line.standing.rank) for line in s.lines]
    assert parsed.x_section.number_of_rounds == 7
    assert parsed.tournament_section.tournament_name == "Online KT — skúška (24 hráčov)"


async def test_py4swiss_reads_every_round_result(demo: App, trf: Path) -> None:
    parsed = TrfParser.parse(trf, strict=True)
    points = ScoringPointSystem()
    for line, section in zip((await _sheet(demo)).lines, parsed.player_sections, strict=True):
        assert len(section.results) == len(line.seats)
        for seat, result in zip(line.seats, section.results, strict=True):
            want = seat.outcome.points if seat.table and seat.outcome else 0.0
            assert points.get_points_times_ten(result) == want * 10, (line.name, seat)
            assert result.id == (seat.opponent or 0)
            if seat.opponent is not None and seat.table:
                assert (result.color.value == "w") == seat.started


async def test_trf_codes_of_the_special_rows(demo: App, trf: Path) -> None:
    codes = {p.name: "".join(r.result.value for r in p.results)
             for p in TrfParser.parse(trf).player_sections}
    assert codes["Tóthová, Renáta"][0] == "0"  # time loss 402:371, rated (e-SP 3.5)
    assert codes["Šťastný, Tibor"][3:] == "--ZZ"  # no-shows, then excluded (e-SP 3.6 a)
    assert codes["Baláž, Hugo"][4] == "+"
    assert codes["Vargová, Oľga"][5] == "U"  # the bye (e-SP 4.9)
    assert codes["Šimková, Dana"][6] == codes["Hrušovský, Adam"][6] == "-"  # both lose


def test_cli_export_trf(demo_db: Path, tmp_path: Path) -> None:
    target = tmp_path / "kt.trf"
    code, _, err = _cli("export", "trf", SLUG, "--db", str(demo_db), "--out", str(target))
    assert code == 0 and "Export (trf)" in err
    assert TrfParser.parse(target, strict=True).player_sections[0].name == "Ďurica, Cyril"
    code, out, err = _cli("export", "trf", "--db", str(demo_db))
    assert (code, out) == (1, "") and "Export trf potrebuje skratku turnaja." in err
