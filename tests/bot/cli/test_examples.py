"""The bundled examples (issue 43.3): copied out by `stredisko examples DIR`, a bundled
scenario run by its name, and `rehearse --help` naming them and saying what its --db is."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.examples import bundled, scenario_names, scenario_path

ROOT = Path(__file__).resolve().parents[3]


def test_the_bundled_examples_are_the_repositorys() -> None:
    assert bundled().resolve() == (ROOT / "examples").resolve()
    names = scenario_names()
    assert {"kt-online-24", "duplicate-skuska", "sezona"} <= set(names)


def test_examples_copies_everything_once_and_never_overwrites(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "ukazky"
    (target / "season").mkdir(parents=True)
    mine = target / "season" / "sezona.toml"
    mine.write_text("# moja sezóna\n", encoding="utf-8")
    assert main(["examples", str(target)]) == 0
    out = capsys.readouterr().out
    files = sorted(p.relative_to(ROOT / "examples").as_posix()
                   for p in (ROOT / "examples").rglob("*") if p.is_file())
    assert out.splitlines()[0] == f"Do {target} som zapísal {len(files) - 1} súborov s ukážkami."
    assert "Ponechané (už existujú, neprepísané): season/sezona.toml." in out
    assert mine.read_text(encoding="utf-8") == "# moja sezóna\n"  # the user's own file stays
    for name in files:
        if name != "season/sezona.toml":
            assert (target / name).read_bytes() == (ROOT / "examples" / name).read_bytes()
    # the scenario's relative paths still hold: the season beside the rehearsals
    assert (target / "rehearsal" / "sezona.toml").is_file() and (target / "season").is_dir()


def test_examples_into_a_folder_whose_parent_is_missing_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "nie" / "je"
    assert main(["examples", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"stredisko: chyba: priečinok {target} nemožno vytvoriť: "
                                 f"{target.parent} neexistuje\n")
    assert not (tmp_path / "nie").exists()  # no folders made from the root down


def test_a_scenario_is_a_file_first_then_a_bundled_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert scenario_path("kt-online-24") == str(bundled() / "rehearsal" / "kt-online-24.toml")
    assert scenario_path("kt-online-24.toml") == scenario_path("kt-online-24")
    (tmp_path / "kt-online-24.toml").write_text("# môj\n", encoding="utf-8")
    assert scenario_path("kt-online-24.toml") == "kt-online-24.toml"  # one's own file wins
    assert scenario_path("neznamy") == "neznamy"  # the usual "no such file" follows
    assert scenario_path("x/kt-online-24") == "x/kt-online-24"  # a path is never a name


def test_rehearse_help_names_the_bundled_scenarios_and_its_own_database(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["rehearse", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in scenario_names():
        assert name in text.replace("- ", "-")  # argparse may wrap a name at its hyphen
    assert "stredisko examples PRIEČINOK" in text
    assert "databáza skúšky (predvolene dočasná, po skúške zmazaná" in text
    assert "inak stredisko.db" not in text  # that is the tournament database's default
