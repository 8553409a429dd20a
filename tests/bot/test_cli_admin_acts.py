"""`stredisko paid` / `unpaid` (e-SP 2.2), `approve` and a `rule` without its score (e-SP 4.9),
run through `main([...])` on a real SQLite file (issue 19 items 1 and 2)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.results.lifecycle import refresh_pairing
from bot.services.tournament import play
from bot.services.tournament.rounds import avoided
from bot.store import (
    ResultStatus,
    Store,
    find_player_by_nick,
    get_result,
    get_tournament_by_slug,
    list_audit,
    list_entries,
)
from rules import End

from .conftest import START, World, add_game

EXAMPLES = Path(__file__).parents[2] / "examples"
SLUG = "kt-2026-11"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cli.db"


@pytest.fixture
def cli(db: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", str(db), "--admin", "hlavny"])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def _players_csv(tmp_path: Path) -> Path:
    path = tmp_path / "hraci.csv"
    path.write_text("meno;herna;zaplatil\nMária Ťažká;maria;nie\nĽubica Šťastná;lubka;áno\n",
                    encoding="utf-8")
    return path


def _read(db: Path, fn, *args):  # type: ignore[no-untyped-def]
    async def go():  # type: ignore[no-untyped-def]
        store = await Store.open(db)
        try:
            return await store.read(fn, *args)
        finally:
            await store.close()
    return asyncio.run(go())


def test_a_late_payer_is_marked_paid_and_then_paired(cli, db: Path, tmp_path: Path) -> None:  # type: ignore
    assert cli("create", str(EXAMPLES / "propozicie.toml"))[0] == 0
    code, out, _ = cli("import-players", SLUG, str(_players_csv(tmp_path)))
    assert code == 0 and "Nezaplatené štartovné: 1 hráč" in out and "e-SP 2.2" in out
    assert f"stredisko paid {SLUG}" in out

    # a typo refuses the whole list: nothing is recorded, not even the good nick
    code, _, err = cli("paid", SLUG, "maria", "nikto")
    assert code == 1 and "nikto" in err and "Nič sa nezapísalo" in err
    tournament = _read(db, get_tournament_by_slug, SLUG)
    assert _read(db, lambda d: list_audit(d, tournament_id=tournament.id,
                                          action="entry.paid")) == []

    code, out, _ = cli("paid", SLUG, "MARIA", "lubka")
    assert code == 0 and "štartovné zaplatené (e-SP 2.2): Mária Ťažká" in out
    assert "Už predtým zaplatené: Ľubica Šťastná" in out
    paid = _read(db, lambda d: list_audit(d, tournament_id=tournament.id, action="entry.paid"))
    assert len(paid) == 1 and paid[0].actor_id == "hlavny" and "e-SP 2.2" in paid[0].reason

    code, out, _ = cli("unpaid", SLUG, "lubka")
    assert code == 0 and "Všetci bez zaplateného štartovného: Ľubica Šťastná" in out
    code, out, _ = cli("pair", SLUG, "1")
    assert code == 0
    assert "Mimo párovania pre nezaplatené štartovné (e-SP 2.2): Ľubica Šťastná" in out
    assert "Mária Ťažká (maria)" in out and "(lubka)" not in out
    # the Slovak words of `show` and `export`, the English ones kept as aliases
    for slovak, english in [("parovanie", "pairings"), ("Výsledky", "results"),
                            ("poradie", "standings"), ("zmeny", "audit")]:
        said = cli("show", slovak, SLUG)
        assert said[0] == 0 and said == cli("show", english, SLUG), slovak
    assert cli("export", "vysledky", SLUG)[1] == cli("export", "results", SLUG)[1] != ""


async def test_approve_and_a_rule_without_its_score(
        app: App, world: World, clock: ManualClock, db_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI on the world's database (the operator holds the file: trusted, e-SP 2.6)."""
    async def cli(*argv: str) -> tuple[int, str, str]:
        # its own thread: the command runs its own event loop (asyncio.run)
        code = await asyncio.to_thread(main, [*argv, "--db", str(db_path), "--admin", "hlavny"])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    first, second = world.tables
    nicks = [p.herna_nick for p in world.players]
    # table 2: no record, nothing proposed — a disconnection needs its score, none is invented
    code, _, err = await cli("rule", world.slug, "1", "2", "disconnected", "--loser", nicks[3],
                       "--reason", "odpojil sa")
    assert code == 1 and "--score" in err and "Nič sa nezapísalo" in err
    assert await app.store.read(get_result, second.id) is None
    code, _, err = await cli("approve", world.slug, "1", "2")
    assert code == 1 and "stôl 2: nie je tu návrh na schválenie" in err

    # table 1: herna.net says 300:350 and a disconnection of the first player: a proposal
    await add_game(app, first, 300, 350, end="disconnected", on=world.players[0].id)
    clock.set(START + timedelta(minutes=60))  # after the game's time limit
    await app.run(lambda tx: refresh_pairing(tx, first.id, tx.by_scheduler()))
    proposed = await app.store.read(get_result, first.id)
    assert proposed.status is ResultStatus.PROPOSED
    code, out, _ = await cli("rule", world.slug, "1", "1", "disconnected", "--loser", nicks[0],
                       "--reason", "odpojenie potvrdené")
    assert code == 0 and "300:350 — skóre prevzaté z návrhu" in out, out
    ruled = await app.store.read(get_result, first.id)
    assert (ruled.first_score, ruled.second_score) == (300, 350)
    assert "[kanál] Výsledok 1. kola, stôl 1" in out and "Oprava" not in out

    # the same pairing ruled again: players hear of a correction, not of a second result
    code, out, _ = await cli("rule", world.slug, "1", "1", "odpojenie", "--loser", nicks[0],
                             "--score", "310", "350", "--reason", "skóre podľa snímky")
    assert code == 0 and "[kanál] Oprava výsledku 1. kola, stôl 1" in out, out
    assert "[kanál] Výsledok" not in out


async def test_approve_from_the_command_line(
        app: App, world: World, clock: ManualClock, db_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    clock.set(START + timedelta(minutes=12))
    table = world.tables[0].id
    await app.run(lambda tx: refresh_pairing(tx, table, tx.by_scheduler("waiting end")))
    code = await asyncio.to_thread(
        main, ["approve", world.slug, "1", "1", "--db", str(db_path), "--admin", "hlavny"])
    out = capsys.readouterr().out
    assert code == 0 and "Návrh schválený: 1. kolo, stôl 1" in out, out
    result = await app.store.read(get_result, table)
    assert (result.status, result.end_kind) == (ResultStatus.PROVISIONAL, End.NO_SHOW)
    assert "návrh schválený bez zmeny" in out and "hlavným administrátorom" not in out


def test_avoid_may_name_a_player_imported_from_a_csv(cli, db: Path, tmp_path: Path) -> None:  # type: ignore
    """SP 1.3: `avoid` by herna nick, the player entered later from a players CSV."""
    text = (EXAMPLES / "propozicie.toml").read_text(encoding="utf-8").replace(
        '# avoid = [["anna", "boris"]]', 'avoid = [["anna", "lubka"], ["cyril", "nikto"]]')
    propozicie = tmp_path / "propozicie.toml"
    propozicie.write_text(text, encoding="utf-8")
    assert cli("create", str(propozicie))[0] == 0
    assert cli("import-players", SLUG, str(_players_csv(tmp_path)))[0] == 0
    tournament = _read(db, get_tournament_by_slug, SLUG)

    async def pairs() -> list[tuple[str, str]]:
        store = await Store.open(db)
        try:
            def read(tx: Tx) -> list[tuple[str, str]]:
                playing = {e.player_id for e in list_entries(tx.db, tournament.id)}
                return avoided(tx, tournament, playing)
            return await App(store, ManualClock(START), RecordingNotifier()).run(read)
        finally:
            await store.close()

    anna = _read(db, find_player_by_nick, "anna77")
    lubka = _read(db, find_player_by_nick, "lubka")
    # the nick resolves to the imported player; a nick nobody entered keeps nobody apart
    assert asyncio.run(pairs()) == [(str(anna.id), str(lubka.id))]
    assert cli("paid", SLUG, "maria")[0] == 0
    code, out, _ = cli("pair", SLUG, "1")
    assert code == 0 and "Anna Nováková (anna77)" in out
    tables = [line for line in out.splitlines() if "anna77" in line]
    assert len(tables) == 1 and "lubka" not in tables[0]
