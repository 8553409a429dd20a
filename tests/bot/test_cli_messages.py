"""What the head administrator reads at the command line, through `main([...])` on a real
SQLite file: Slovak everywhere, the current round by default, a late pairing warned about,
no qualification points before the first result. "Now" is pinned with time-machine."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from bs4 import BeautifulSoup

from bot.cli import main

EXAMPLES = Path(__file__).parents[2] / "examples"
SLUG = "kt-2026-11"
ROUND_1 = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # 09:00 in Bratislava (propozicie.toml)
BEFORE = ROUND_1 - timedelta(hours=1)
ENGLISH = re.compile(r"\b(usage|options|arguments|only|takes|must|show this help)\b")

Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    db = str(tmp_path / "cli.db")

    def run(*argv: str, at: datetime = BEFORE) -> tuple[int, str, str]:
        with time_machine.travel(at, tick=False):
            code = main([*argv, "--db", db, "--admin", "hlavny"])
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def entered(cli: Cli) -> None:
    """The example tournament with its players, nothing paired yet."""
    assert cli("create", str(EXAMPLES / "propozicie.toml"))[0] == 0
    assert cli("import-players", SLUG, str(EXAMPLES / "players.csv"))[0] == 0


def test_show_pairings_without_a_round_shows_the_current_one(cli: Cli, entered: None) -> None:
    code, _, err = cli("show", "pairings", SLUG)
    assert (code, err.strip()) == (1, "Turnaj Online KT — skúška ešte nemá spárované žiadne kolo.")
    assert cli("pair", SLUG, "1")[0] == 0
    paired = cli("show", "pairings", SLUG)  # paired, not yet published: the one to check
    assert paired[0] == 0 and paired[1] == cli("show", "pairings", SLUG, "1")[1]
    assert "párovanie 1. kola" in paired[1]
    assert cli("publish", SLUG, "1")[0] == 0
    assert cli("rule", SLUG, "1", "1", "finished", "--score", "350", "420",
               "--reason", "zápis z herna.net")[0] == 0
    code, out, _ = cli("show", "results", SLUG)
    assert code == 0 and "výsledky 1. kola" in out and "350:420" in out


LATE = ("Pozor: oficiálny začiatok 1. kola (21. 11. 2026 9:00) už uplynul: hráči sa súperov "
        "dozvedia až po zverejnení a do časového limitu (9:50) im zostane menej času "
        "(e-SP 4.5).")


@pytest.mark.parametrize("late", [False, True], ids=["in-time", "late"])
def test_pairing_after_the_start_warns_and_still_pairs(cli: Cli, entered: None, late: bool) -> None:
    code, out, _ = cli("pair", SLUG, "1", at=ROUND_1 + timedelta(minutes=5) if late else BEFORE)
    assert code == 0 and "1. kolo je spárované" in out and "stôl 1:" in out
    assert (LATE in out) is late and "Pozor" not in out.replace(LATE, "")


def test_no_qualification_points_before_the_first_result(
    cli: Cli, entered: None, tmp_path: Path
) -> None:
    def page_qp() -> set[str]:
        assert cli("publish-page", SLUG, str(tmp_path / "web"))[0] == 0
        html = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
        return {td.get_text() for td in BeautifulSoup(html, "lxml").select("td.qp")}

    code, out, _ = cli("show", "standings", SLUG)
    assert code == 0 and "zatiaľ bez výsledku" in out and "kvalifikačné body" not in out
    assert page_qp() == {"—"}
    assert cli("pair", SLUG, "1")[0] == 0 and cli("publish", SLUG, "1")[0] == 0
    code, out, _ = cli("show", "standings", SLUG)
    assert code == 0 and "kvalifikačné body" not in out  # paired, still no result
    assert cli("rule", SLUG, "1", "1", "finished", "--score", "350", "420",
               "--reason", "zápis z herna.net")[0] == 0
    code, out, _ = cli("show", "standings", SLUG)
    assert code == 0 and "kvalifikačné body 40" in out
    assert "40" in page_qp()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--winner", "fifo"), "víťaza (--winner) možno uviesť len pri save_failed, nie pri "
                               "„finished“ (e-SP 4.9)."),
        (("--agreed",), "dohodu hráčov (--agreed) možno uviesť len pri save_failed"),
    ],
    ids=["winner", "agreed"],
)
def test_a_ruling_the_case_check_refuses_is_one_slovak_line(
    cli: Cli, entered: None, argv: tuple[str, ...], said: str
) -> None:
    assert cli("pair", SLUG, "1")[0] == 0
    code, out, err = cli("rule", SLUG, "1", "1", "finished", "--score", "350", "420", *argv,
                         "--reason", "preklep")
    assert code == 1 and out == ""
    assert err.strip().startswith("Takéto rozhodnutie nemožno zapísať: ") and said in err
    assert len(err.strip().splitlines()) == 1 and not ENGLISH.search(err), err


def test_no_show_ruling_names_the_player_who_moved(cli: Cli, entered: None) -> None:
    assert cli("pair", SLUG, "1")[0] == 0
    code, _, err = cli("rule", SLUG, "1", "1", "no_show", "--loser", "fifo", "--moved", "fifo",
                       "--reason", "neprišiel")
    assert code == 1
    assert err.strip() == ("Takéto rozhodnutie nemožno zapísať: hráč Filip Čierny (fifo) ťahal, "
                           "teda sa dostavil (e-SP 4.9).")


@pytest.mark.parametrize("argv", [(), ("show",), ("rule",)], ids=["main", "show", "rule"])
def test_help_is_slovak(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0 and out.startswith(" ".join(["použitie: stredisko", *argv]))
    assert "zobraziť túto pomoc a skončiť" in out and out.count("voľby:") == 1
    assert not ENGLISH.search(out), out


def test_export_without_a_tournament_is_one_slovak_line(cli: Cli) -> None:
    code, _, err = cli("export", "tsh")
    assert (code, err.strip()) == (1, "stredisko: chyba: Export tsh potrebuje skratku turnaja.")


def test_a_file_or_folder_the_system_refuses_is_said_in_slovak(
    cli: Cli, entered: None, tmp_path: Path
) -> None:
    blocker = tmp_path / "subor"
    blocker.write_text("nie priečinok", encoding="utf-8")
    code, _, err = cli("import-players", SLUG, str(tmp_path / "nie.csv"))
    assert code == 1 and err.strip().endswith(
        f"Súbor {tmp_path / 'nie.csv'} sa nedá prečítať: súbor alebo priečinok neexistuje")
    code, _, err = cli("create", str(tmp_path))
    assert code == 1 and err.strip().endswith("sa nedá prečítať: je to priečinok, nie súbor")
    code, _, err = cli("publish-page", SLUG, str(blocker / "web"))
    assert (code, err.strip()) == (
        1, f"stredisko: chyba: {blocker / 'web'}: časť cesty nie je priečinok")


def test_a_database_in_a_missing_folder_is_one_slovak_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nie" / "x.db"
    assert main(["show", "standings", SLUG, "--db", str(db)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"stredisko: chyba: Databázu {db} nemožno otvoriť ani založiť: "
        f"{db.parent}: súbor alebo priečinok neexistuje")


def test_a_tournament_finished_without_a_result_gives_no_qualification_points(
    cli: Cli, entered: None
) -> None:
    code, out, _ = cli("finish", SLUG, "--force")
    assert code == 0 and "kvalifikačné body" not in out
    assert "1. Cyril Ďurica: bez výsledku, bez kvalifikačných bodov" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("show", "standings", SLUG, "--admin", "  "),
         "stredisko: chyba: Chýba meno hlavného administrátora, ktorý koná: uveď --admin MENO."),
        (("rule", SLUG, "1", "1", "finished", "--reason"),
         "stredisko rule: chyba: argument --reason: očakáva sa počet hodnôt: 1 "
         "(pomoc: stredisko rule --help)"),
    ],
    ids=["blank-admin", "option-without-value"],
)
def test_more_mistakes_are_one_slovak_line(
    argv: tuple[str, ...], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main([*argv, "--db", str(tmp_path / "x.db")])
    except SystemExit as exited:  # argparse's usage error
        code = int(exited.code or 0)
    assert code in (1, 2) and capsys.readouterr().err.strip() == said
