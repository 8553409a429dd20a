"""A package built without its bundled profiles (issue 34.2: the wheel lacked the duplicate
ones) says so — the installation is incomplete, what is missing and where it was looked for —
instead of blaming the user's file or listing an empty choice ("očakáva sa " and nothing)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

import bot.publish.board_image as board_image_module
import rules.duplicate.profile as duplicate_profile_module
import rules.duplicate.tiles as tiles_module
import rules.profile as profile_module
import rules.season.profile as season_profile_module
from bot.cli import main
from bot.publish.board_image import BoardImageError, render_board
from rules.profile import IncompleteInstallError, ProfileError

# the package `rules.lexicon` exports a function of the same name as this module
admissibility_module = import_module("rules.lexicon.admissibility")

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "examples" / "rehearsal" / "duplicate-skuska.toml"
INCOMPLETE = "inštalácia strediska je neúplná: chýbajú pribalené"

# (module, its folder constant, a loader of one bundled name, the Slovak kind in the line)
LOADERS: dict[str, tuple[Any, str, Callable[[], object], str]] = {
    "tiles": (tiles_module, "TILES_DIR", lambda: tiles_module.TileSet.load("sss-100"),
              "sady kameňov"),
    "duplicate": (duplicate_profile_module, "DUPLICATE_PROFILE_DIR",
                  lambda: duplicate_profile_module.duplicate_profile("cas-duplicate"),
                  "herné profily duplikátu"),
    "profile": (profile_module, "PROFILE_DIR", lambda: profile_module.Profile.load("sss-online"),
                "profily pravidiel"),
    "season": (season_profile_module, "SEASON_PROFILE_DIR",
               lambda: season_profile_module.season_profile("sss-msr"), "profily sezóny"),
    "lexicon": (admissibility_module, "LEXICON_PROFILE_DIR",
                lambda: admissibility_module.admissibility("sss"), "profily prípustnosti slov"),
}


def _clear_caches() -> None:
    duplicate_profile_module.duplicate_profile.cache_clear()
    board_image_module._tile_set.cache_clear()  # a board drawn earlier keeps its tile set
    season_profile_module.season_profile.cache_clear()
    admissibility_module.admissibility.cache_clear()


@pytest.fixture
def uninstalled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """Points one bundled folder at where a package without it would look: an absent folder."""

    def remove(which: str) -> Path:
        module, constant, _, _ = LOADERS[which]
        missing = tmp_path / "site-packages" / "rules" / "profiles" / which
        monkeypatch.setattr(module, constant, missing)
        return missing

    _clear_caches()  # a profile another test loaded must be looked for again
    yield remove
    _clear_caches()


@pytest.mark.parametrize("which", LOADERS)
def test_a_bundled_profile_missing_from_the_package_is_an_incomplete_installation(
        uninstalled: Callable[[str], Path], which: str) -> None:
    folder = uninstalled(which)
    _, _, load, kind = LOADERS[which]
    with pytest.raises(IncompleteInstallError) as caught:
        load()
    assert not isinstance(caught.value, ProfileError)  # no handler of bad input rewords it
    message = str(caught.value)
    assert message.startswith(f"{INCOMPLETE} {kind} — priečinok {folder} nemá žiadny súbor")
    assert "(hľadal sa súbor " in message and "preinštalujte stredisko" in message


def test_an_unknown_name_with_the_profiles_in_place_is_still_the_users_mistake() -> None:
    with pytest.raises(ProfileError, match=r"'sss-99' not found \(bundled: cas-100, sss-100"):
        tiles_module.TileSet.load("sss-99")


def test_the_duplicate_rehearsal_without_its_profiles_says_the_installation_is_incomplete(
        uninstalled: Callable[[str], Path], capsys: pytest.CaptureFixture[str]) -> None:
    folder = uninstalled("duplicate")
    code = main(["rehearse", str(SCENARIO)])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err == (f"stredisko: chyba: {INCOMPLETE} herné profily duplikátu — priečinok {folder} "
                   "nemá žiadny súbor *.toml; nejde o chybu vášho súboru, "
                   "preinštalujte stredisko\n")
    assert "očakáva sa" not in err and str(SCENARIO) not in err  # the user's file is not blamed


def test_duplicate_top_without_the_tile_sets_says_the_installation_is_incomplete(
        uninstalled: Callable[[str], Path], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    folder = uninstalled("tiles")
    board = tmp_path / "doska.txt"
    board.write_text("\n".join(["." * 15] * 15) + "\n", encoding="utf-8")
    words = tmp_path / "slova.txt"
    words.write_text("slovo\n", encoding="utf-8")
    code = main(["duplicate", "top", "--lexicon", str(words), "--board", str(board),
                 "--rack", "SLOVOA?"])
    _, err = capsys.readouterr()
    assert code == 1 and err.count("\n") == 1  # not bad input (2): the installation's fault
    assert err.startswith(f"stredisko: chyba: {INCOMPLETE} sady kameňov — priečinok {folder} ")
    assert "(hľadal sa súbor sss-100.toml)" in err


def test_a_board_image_without_the_tile_sets_fails_as_a_board_image_error(
        uninstalled: Callable[[str], Path]) -> None:
    """The Discord message then goes out as text (`render.board_picture`), saying why."""
    uninstalled("tiles")
    with pytest.raises(BoardImageError, match=INCOMPLETE):
        render_board("\n".join(["." * 15] * 15), tiles="cas-100")


def test_an_unknown_duplicate_profile_lists_the_bundled_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / SCENARIO.name
    scenario.write_text(SCENARIO.read_text(encoding="utf-8").replace(
        'profile = "cas-duplicate"', 'profile = "cas-duplikat"', 1), encoding="utf-8")
    (tmp_path / "duplicate-slova.txt").write_text("slovo\n", encoding="utf-8")
    code = main(["rehearse", str(scenario)])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.rstrip().endswith(
        "profile: „cas-duplikat“: očakáva sa cas-duplicate alebo greek-duplicate"), err


# -- one bundled file missing among the others (issue 43.3) ---------------------------------


@pytest.fixture
def one_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[str], Path]:
    """A copy of the bundled profiles with one file taken out, the package pointed at it."""
    copy = tmp_path / "rules" / "profiles"
    shutil.copytree(profile_module.PROFILE_DIR, copy)
    monkeypatch.setattr(profile_module, "PROFILE_DIR", copy)
    monkeypatch.setattr(profile_module, "MANIFEST", copy / "bundled.txt")
    for module, constant, _, _ in LOADERS.values():
        if module is not profile_module:
            inner = Path(getattr(module, constant)).relative_to(ROOT / "rules" / "profiles")
            monkeypatch.setattr(module, constant, copy / inner)
    _clear_caches()

    def remove(relative: str) -> Path:
        (copy / relative).unlink()
        return copy / relative

    yield remove
    _clear_caches()


@pytest.mark.parametrize(("relative", "load", "kind"), [
    ("sss-online.toml", lambda: profile_module.Profile.load("sss-online"), "profily pravidiel"),
    ("duplicate/tiles/sss-100.toml", lambda: tiles_module.TileSet.load("sss-100"),
     "sady kameňov"),
    ("season/sss-msr.toml", lambda: season_profile_module.season_profile("sss-msr"),
     "profily sezóny"),
])
def test_one_bundled_file_missing_is_the_installations_fault(
        one_missing: Callable[[str], Path], relative: str, load: Callable[[], object],
        kind: str) -> None:
    """The others still there: before, "profile 'sss-online' not found (bundled: cas,
    sss-live)" — English, and as if the user had mistyped a name the package itself uses."""
    path = one_missing(relative)
    with pytest.raises(IncompleteInstallError) as caught:
        load()
    assert str(caught.value) == (f"inštalácia strediska je neúplná: chýba pribalený súbor "
                                 f"{path.resolve()} ({kind}); nejde o chybu vášho "
                                 "súboru, preinštalujte stredisko")


def test_the_manifest_lists_every_bundled_profile_file() -> None:
    folder = ROOT / "rules" / "profiles"
    assert profile_module.shipped() == {p.relative_to(folder).as_posix()
                                        for p in folder.rglob("*.toml")}


def test_a_board_image_without_its_font_is_an_incomplete_installation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It was a raw FileNotFoundError; the Discord message then goes out as text."""
    monkeypatch.setattr(board_image_module, "FONT_FILE", "chybajuce-pismo.ttf")
    board_image_module.font.cache_clear()
    try:
        with pytest.raises(BoardImageError,
                           match=r"^inštalácia strediska je neúplná: chýba pribalené písmo "
                                 r".*chybajuce-pismo\.ttf; nejde o chybu vášho súboru"):
            render_board("\n".join(["." * 15] * 15), tiles="sss-100")
    finally:
        board_image_module.font.cache_clear()
