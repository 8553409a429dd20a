"""Hostile input through the real `stredisko` entry point, `main(argv)`: every number, name and
encoding that used to end in a traceback (issue 11) is one Slovak line naming the file and
its row, and the database is left exactly as it was."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlite_utils import Database

from bot.cli import main

EXAMPLES = Path(__file__).parents[2] / "examples"
SLUG = "kt-2026-11"
HUGE = str(10**20)
TWO_TO_70 = str(2**70)
PROPOZICIE = (EXAMPLES / "propozicie.toml").read_text(encoding="utf-8")

Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cli.db"


@pytest.fixture
def cli(db: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main([*argv, "--db", str(db), "--admin", "hlavny"])
        except SystemExit as exit_:  # argparse ends a usage error so
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


@pytest.fixture
def created(cli: Cli) -> None:
    code, _, err = cli("create", str(EXAMPLES / "propozicie.toml"))
    assert code == 0, err


def counts(db: Path) -> dict[str, int]:
    """Rows in every table: a refused input must not change any."""
    store = Database(db)
    try:
        return {name: store[name].count for name in store.table_names()}
    finally:
        store.conn.close()


def problem_lines(err: str) -> list[str]:
    """stderr without the progress line ("stredisko: importujem hráčov …")."""
    return [line for line in err.splitlines() if not line.endswith("…")]


def refused_once(db: Path, cli: Cli, *argv: str) -> str:
    """Run a command that must be refused; the one line it printed."""
    before = counts(db)
    code, out, err = cli(*argv)
    lines = problem_lines(err)
    assert (code, out) == (1, ""), err
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Error" not in err
    assert lines[0].endswith("Nič sa nezapísalo.") or "ulož ako UTF-8" in lines[0]
    assert counts(db) == before
    return lines[0]


# -- CSV files -----------------------------------------------------------------------------

_PLAYERS = "meno;herna;partie;screlo\n"
_SCRELO = "herna;screlo;partie\n"


@pytest.mark.parametrize(("command", "text", "says"), [
    ("import-players", f"{_PLAYERS}Ján Novák;jano;{HUGE};1800\n",
     f"riadok 2: stĺpec partie: {HUGE} je mimo rozsahu 0 – 100000"),
    ("import-screlo", f"{_SCRELO}anna77;1800;{HUGE}\n",
     f"riadok 2: stĺpec partie: {HUGE} je mimo rozsahu 0 – 100000"),
    ("import-screlo", f"{_SCRELO}anna77;nan;10\n", "riadok 2: stĺpec screlo: „nan“ nie je konečné"),
    ("import-screlo", f"{_SCRELO}anna77;1800;1\nborisk;inf;10\n",
     "riadok 3: stĺpec screlo: „inf“ nie je konečné"),
    ("import-screlo", f"{_SCRELO}anna77;1e300;10\n",
     "riadok 2: stĺpec screlo: 1e300 je mimo rozsahu 0 – 3000"),
    ("import-players", f"{_PLAYERS}Ján\x00Novák;jano;0;1800\n",
     "riadok 2: stĺpec meno: obsahuje neviditeľný riadiaci znak (U+0000)"),
    ("import-players", f"{_PLAYERS}{'J' * 10_000};jano;0;1800\n",
     "riadok 2: stĺpec meno: 10000 znakov je priveľa (najviac 100)"),
    ("import-players", f"{_PLAYERS}Ján Novák;{'j' * 41};0;1800\n",
     "riadok 2: stĺpec herna: 41 znakov je priveľa (najviac 40)"),
    ("import-players", "meno;herna;discord\nJán Novák;jano;ja\x1bno\n",
     "riadok 2: stĺpec discord: obsahuje neviditeľný riadiaci znak (U+001B)"),
    ("import-players", f"{_PLAYERS}Ján Novák;jano;0;\"{'x' * 200_000}\"\n",
     "riadok 2: súbor CSV sa nedá prečítať: field larger than field limit"),
    # str.isdigit() says yes to "²", int() says no: a digit check must be isdecimal()
    ("import-players", "meno;herna;discord_id\nJán Novák;jano;²\n",
     "riadok 2: stĺpec discord_id: „²“ nie je číslo Discord účtu"),
], ids=["players-games-1e20", "screlo-games-1e20", "screlo-nan", "screlo-inf", "screlo-1e300",
        "name-nul", "name-10000", "nick-41", "discord-escape", "cell-200k", "discord-id-²"])
def test_a_bad_csv_row_is_one_line_naming_file_and_row(
        db: Path, cli: Cli, created: None, tmp_path: Path,
        command: str, text: str, says: str) -> None:
    path = tmp_path / "subor.csv"
    path.write_text(text, encoding="utf-8")
    args = (command, SLUG, str(path)) if command == "import-players" else (command, str(path))
    line = refused_once(db, cli, *args)
    assert line.startswith(f"Súbor {path}, ") and says in line


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1250"])
def test_excel_csv_in_every_slovak_encoding_is_read(
        db: Path, cli: Cli, created: None, tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "hraci.csv"
    path.write_text("meno;herna;screlo\r\nCyril Ďurica ml.;durica;1 700,5\r\n"
                    "Šťastný Ľubomír;stastny;\r\n", encoding=encoding)
    code, out, err = cli("import-players", SLUG, str(path))
    assert code == 0, err
    assert "prihlásení hráči: 2, z toho noví v registri: 2" in out
    names = {row["name"]: row["screlo"] for row in Database(tmp_path / "cli.db")["players"].rows}
    assert names["Cyril Ďurica ml."] == 1700.5 and "Šťastný Ľubomír" in names


@pytest.mark.parametrize("data", [
    "meno;herna\nĽubomír;lubo\n".encode("utf-16"),
    b"meno;herna\n\x00\x00\x81\x98\xff;lubo\n",
], ids=["utf-16", "latin-garbage"])
def test_any_other_encoding_is_refused_saying_save_as_utf8(
        db: Path, cli: Cli, created: None, tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "hraci.csv"
    path.write_bytes(data)
    line = refused_once(db, cli, "import-players", SLUG, str(path))
    assert line == (f"Súbor {path} nie je v kódovaní UTF-8 ani Windows-1250: ulož ako UTF-8 "
                    "(v Exceli „CSV UTF-8“).")


# -- the propozície TOML ---------------------------------------------------------------------


@pytest.mark.parametrize(("change", "says"), [
    (("games = 121", f"games = {TWO_TO_70}"),
     f"riadok 27: [[player]] č. 1: games: {TWO_TO_70} je mimo rozsahu 0 – 100000"),
    (("game_limit_minutes = 50 ", "game_limit_minutes = 1000000000000 "),
     "riadok 12: [tournament]: game_limit_minutes: 1000000000000 je mimo rozsahu 1 – 1440"),
    (("waiting_minutes = 10 ", "waiting_minutes = -10 "),
     "riadok 11: [tournament]: waiting_minutes: -10 je mimo rozsahu 0 – 1440"),
    (("screlo = 1850", "screlo = nan"), "riadok 26: [[player]] č. 1: screlo: „nan“ nie je"),
    (("screlo = 1850", "screlo = inf"), "riadok 26: [[player]] č. 1: screlo: „inf“ nie je"),
    (("screlo = 1850", "screlo = 1e300"), "screlo: 1e+300 je mimo rozsahu 0 – 3000"),
    (("rounds = 3", "rounds = 100000000000000000000"), "rounds: 100000000000000000000 je mimo"),
    (('name = "Anna Nováková"', 'name = "Anna\\u0000Nováková"'),
     "riadok 24: [[player]] č. 1: name: obsahuje neviditeľný riadiaci znak (U+0000)"),
    (('name = "Anna Nováková"', f'name = "{"A" * 10_000}"'),
     "[[player]] č. 1: name: 10000 znakov je priveľa (najviac 100)"),
    (('name = "Online KT — skúška"', f'name = "{"K" * 10_000}"'),
     "riadok 5: [tournament]: name: 10000 znakov je priveľa (najviac 100)"),
    (('discord = "anna#1234"', 'discord = "@everyone\\u202e"'),
     "discord: obsahuje neviditeľný riadiaci znak (U+202E)"),
    (("games = 121", f"games = {'9' * 5000}"),
     "riadok 27: číslo s 5000 číslicami nemôže byť správne"),
    # invisible (issue 43.5): "KT" and "K", a zero-width space, "T" must not both be events
    (('name = "Online KT — skúška"', 'name = "Online K\\u200bT — skúška"'),
     "riadok 5: [tournament]: name: obsahuje neviditeľný riadiaci znak (U+200B)"),
    (('name = "Anna Nováková"', 'name = "Anna\\u00adNováková"'),
     "riadok 24: [[player]] č. 1: name: obsahuje neviditeľný riadiaci znak (U+00AD)"),
    (('"2026-11-21 09:00",', '"2026-11-21T09:00+05:00",'),
     "riadok 10: [tournament]: round_starts: „2026-11-21T09:00+05:00“ má časový posun"),
    (('"2026-11-21 09:00",', '"2026-11-21 08:00Z",'), "má časový posun; časy v propozíciách"),
], ids=["games-2^70", "limit-10^12", "waiting-negative", "screlo-nan", "screlo-inf",
        "screlo-1e300", "rounds-1e20", "name-nul", "name-10000", "tournament-10000",
        "discord-bidi", "int-5000-digits", "tournament-zwsp", "name-soft-hyphen",
        "round-start-offset", "round-start-utc"])
def test_a_bad_propozicie_value_is_one_line_naming_file_and_line(
        db: Path, cli: Cli, created: None, tmp_path: Path,
        change: tuple[str, str], says: str) -> None:
    assert change[0] in PROPOZICIE
    path = tmp_path / "propozicie.toml"
    path.write_text(PROPOZICIE.replace(change[0], change[1], 1).replace(SLUG, "kt-druhy"),
                    encoding="utf-8")
    line = refused_once(db, cli, "create", str(path))
    assert line.startswith(f"Propozície {path}, ") and says in line


def test_propozicie_in_cp1250_are_refused_saying_save_as_utf8(
        db: Path, cli: Cli, created: None, tmp_path: Path) -> None:
    path = tmp_path / "propozicie.toml"
    path.write_bytes(PROPOZICIE.replace(SLUG, "kt-druhy").encode("cp1250", "replace"))
    assert "ulož ako UTF-8" in refused_once(db, cli, "create", str(path))


# -- arguments ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "says"), [
    (("show", "pairings", SLUG, HUGE),
     f"stredisko show: chyba: argument KOLO: kolo: {HUGE} je mimo rozsahu 1 – 99"),
    (("rule", SLUG, "1", "1", "finished", "--score", TWO_TO_70, "0", "--reason", "x"),
     f"stredisko rule: chyba: argument --score: Skóre {TWO_TO_70} nie je možné: zadaj číslo "
     "od 0 do 1500."),
    (("rule", SLUG, "1", "1", "finished", "--score", "9" * 5000, "0", "--reason", "x"),
     "argument --score: skóre: „99999999999999999999…“ nie je číslo"),
    (("rule", SLUG, TWO_TO_70, "1", "finished", "--reason", "x"), "argument KOLO: kolo:"),
    (("rule", SLUG, "1", HUGE, "finished", "--reason", "x"),
     f"argument STÔL: stôl: {HUGE} je mimo rozsahu 1 – 999"),
    (("rule", SLUG, "1", "1", "resigned", "--loser", "x" * 10_000, "--reason", "x"),
     "argument --loser: prezývka: 10000 znakov je priveľa (najviac 40)"),
    (("rule", SLUG, "1", "1", "finished", "--reason", "zápis\x07"),
     "argument --reason: zdôvodnenie: obsahuje neviditeľný riadiaci znak (U+0007)"),
    (("pair", SLUG, HUGE), f"stredisko pair: chyba: argument KOLO: kolo: {HUGE} je mimo"),
    (("close", SLUG, "0"), "argument KOLO: kolo: 0 je mimo rozsahu 1 – 99"),
    (("publish", SLUG, HUGE), f"argument KOLO|PRIEČINOK: kolo: {HUGE} je mimo rozsahu"),
    (("pair", SLUG, "tri"), "argument KOLO: kolo: „tri“ nie je číslo"),
    (("show", "audit", "s" * 10_000), "argument SKRATKA: skratka turnaja: 10000 znakov"),
    (("decay", "2026/27" * 1000), "argument SEZÓNA: sezóna: 7000 znakov je priveľa (najviac 7)"),
    (("pair",), "stredisko pair: chyba: chýbajúce povinné argumenty: SKRATKA, KOLO"),
    (("rule", SLUG, "1", "1", "vyhral", "--reason", "x"),
     "argument KONIEC: 'vyhral' nie je na výber (možnosti: dohrana, prehra-na-cas, "),
    (("rule", SLUG, "1", "1", "finished", "--score", "1", "--reason", "x"),
     "argument --score: očakáva sa počet hodnôt: 2"),
    (("sync", SLUG, "--base-url", ""), "argument --base-url: „“ nie je adresa herna.net"),
    (("sync", SLUG, "--base-url", "  "), "nie je adresa herna.net"),
    (("sync", SLUG, "--base-url", "herna.net"), "„herna.net“ nie je adresa herna.net"),
    (("sync", SLUG, "--base-url", "http://"), "čakám http:// alebo https://"),
], ids=["show-1e20", "score-2^70", "score-5000-digits", "rule-round-2^70", "rule-table-1e20",
        "loser-10000", "reason-bell", "pair-1e20", "close-0", "publish-1e20", "pair-text",
        "slug-10000", "season-7000", "missing", "bad-choice", "one-score", "base-url-empty",
        "base-url-blank", "base-url-no-scheme", "base-url-no-host"])
def test_a_bad_argument_is_one_slovak_line_and_exit_2_before_the_database(
        db: Path, cli: Cli, argv: tuple[str, ...], says: str) -> None:
    code, out, err = cli(*argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and says in err, err
    assert err.rstrip().endswith("--help)")
    assert not db.exists()  # refused before the store was opened


def test_a_valid_rule_score_still_passes(cli: Cli, created: None) -> None:
    assert cli("pair", SLUG, "1")[0] == 0
    code, out, err = cli("rule", SLUG, "1", "1", "finished", "--score", "1500", "0",
                         "--reason", "zápis z herna.net")
    assert code == 0 and "1500:0" in out, err


def test_a_rehearsal_scenario_not_in_utf8_is_one_line(cli: Cli, db: Path, tmp_path: Path) -> None:
    path = tmp_path / "scenar.toml"
    path.write_bytes(PROPOZICIE.encode("cp1250", "replace"))
    code, out, err = cli("rehearse", str(path))
    assert (code, out) == (2, "") and not db.exists()
    assert err.splitlines() == [f"Súbor {path} nie je v kódovaní UTF-8: ulož ako UTF-8."]


# -- the database file and the players file (issue 20.10) ------------------------------------


@pytest.mark.parametrize("content", ["", "meno;prezývka\n", "name,nick\r\n"],
                         ids=["empty", "header-only", "header-only-crlf"])
def test_a_players_file_without_players_is_refused(
        db: Path, cli: Cli, created: None, tmp_path: Path, content: str) -> None:
    path = tmp_path / "hraci.csv"
    path.write_text(content, encoding="utf-8")
    line = refused_once(db, cli, "import-players", SLUG, str(path))
    assert "neobsahuje ani jedného hráča" in line and str(path) in line


@pytest.mark.parametrize("damage", ["not-sqlite", "truncated"])
def test_a_file_that_is_no_database_is_one_line_naming_it(
        db: Path, cli: Cli, created: None, tmp_path: Path, damage: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "zla.db"
    if damage == "not-sqlite":
        bad.write_bytes(b"meno;prezyvka\n" * 2000)
    else:
        store = Database(db)
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.conn.close()
        bad.write_bytes(db.read_bytes()[: 5 * 4096])
    before = bad.read_bytes()
    code = main(["show", "audit", SLUG, "--db", str(bad)])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "") and len(err.strip().splitlines()) == 1, err
    assert f"Súbor {bad} nie je databáza strediska" in err and "Traceback" not in err
    assert bad.read_bytes() == before


def test_a_write_lock_held_past_the_wait_names_the_other_process(
        db: Path, cli: Cli, created: None, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"  # 10 s by default: `[store] lock_wait_seconds`
    config.write_text("[store]\nlock_wait_seconds = 1.5\n", encoding="utf-8")
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the wait
        started = time.monotonic()
        code, out, err = cli("checkin", "open", SLUG, "--config", str(config))
        waited = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (code, out) == (1, "") and 1.4 <= waited < 6, (waited, err)
    assert f"Databázu {db} drží iný proces (zápis je zamknutý dlhšie ako 1,5 s" in err
    assert "locked" not in err and len(err.strip().splitlines()) == 1, err


def test_two_players_with_one_discord_name_are_refused_at_import(
        db: Path, cli: Cli, created: None, tmp_path: Path) -> None:
    path = tmp_path / "hraci.csv"
    path.write_text("meno;herna;discord\nEva Prvá;eva1;Eva.Nova\nEva Druhá;eva2;eva.nova\n",
                    encoding="utf-8")
    line = refused_once(db, cli, "import-players", SLUG, str(path))
    assert "riadok 3" in line and "Discord meno „eva.nova“ má v registri už hráč „eva1“" in line


def test_a_folder_where_the_propozicie_should_be_names_the_fix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`docker run -v "$PWD/propozicie.toml:…"` before the file existed leaves a root-owned
    folder; `cp` then copies into it and the same error came back in English (issue 43.2)."""
    from bot.cli import main

    folder = tmp_path / "propozicie.toml"
    folder.mkdir()
    code = main(["create", str(folder), "--db", str(tmp_path / "x.db")])
    *_, line = capsys.readouterr().err.splitlines()  # after "zakladám turnaj …"
    err = line
    assert code != 0, err
    assert "je to priečinok, nie súbor" in err and "rmdir propozicie.toml" in err
    assert "Errno" not in err and "Is a directory" not in err
