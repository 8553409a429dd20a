"""What users install (issue 34.2): the suite runs on an editable install, which reads every file
from the checkout, so a file the wheel lacks (the duplicate profiles once) went unseen. Here the
wheel is built from the tracked files and checked to hold every one of them under rules/, bot/
and scrapers/; then it is installed with the locked runtime dependencies into a clean virtual
environment and the commands a user starts with run from an empty folder, outside the checkout.

The wheels of requirements/runtime.txt are downloaded once per version of that lock into the
user's cache (`$XDG_CACHE_HOME` or ~/.cache, stredisko/wheels/): pip installs from there with
its hashes checked and without asking an index, which is most of its time."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from bot.publish.board_image import render_board

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "bot", "scrapers")
RUNTIME_LOCK = ROOT / "requirements" / "runtime.txt"
REHEARSALS = ROOT / "examples" / "rehearsal"
# The PEP 517 hook pip calls, called directly: the backend pyproject.toml names builds the wheel.
BUILD = ("import importlib, sys, tomllib; "
         "backend = tomllib.load(open('pyproject.toml', 'rb'))['build-system']['build-backend']; "
         "importlib.import_module(backend).build_wheel(sys.argv[1])")
WORDS = ["slovo", "slová", "lov", "sol", "vol", "volá", "chata", "mama", "xy"]
BOARD = ["." * 15] * 7 + [".....ŤAHŇA.....", *(["." * 15] * 7)]  # Ť, Ň: in the font
DRAW = ("import sys; from pathlib import Path; from bot.publish.board_image import render_board; "
        "Path(sys.argv[1]).write_bytes(render_board(sys.argv[2], highlight=[(7, 5), (7, 6)], "
        "rack='ĽÔ?ÄCHY'))")


def _run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def _checked(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = _run(args, cwd, env)
    assert done.returncode == 0, f"{' '.join(map(str, args))}: {done.stdout}\n{done.stderr}"
    return done.stdout


def _tracked(*paths: str) -> list[str]:
    """The files git tracks under `paths` (what a clone has), as paths from the root."""
    done = _run(["git", "ls-files", "-z", "--", *paths], ROOT)
    assert done.returncode == 0, f"git ls-files: {done.stderr}"
    return [name for name in done.stdout.split("\0") if name]


def _shipped(*packages: str) -> list[str]:
    """The files the packages hold in a clone, a linked folder's files under the link's own
    path (`bot/examples` → `examples/`: the wheel stores them there)."""
    found = []
    for name in _tracked(*packages):
        if (ROOT / name).is_symlink() and (ROOT / name).is_dir():
            target = (ROOT / name).resolve().relative_to(ROOT).as_posix()
            found += [f"{name}{inner.removeprefix(target)}" for inner in _tracked(target)]
        else:
            found.append(name)
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of the tracked files, built in a copy: setuptools writes build/ and *.egg-info
    next to the sources, and a stale build/lib of the checkout would slip into the wheel."""
    base = tmp_path_factory.mktemp("wheel")
    source, dist = base / "source", base / "dist"
    linked = {(ROOT / n).resolve().relative_to(ROOT).parts[0] for n in _tracked(*PACKAGES)
              if (ROOT / n).is_symlink()}  # examples/, which bot/examples links
    for name in _tracked():
        if "/" not in name or name.split("/", 1)[0] in (*PACKAGES, *linked):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name, follow_symlinks=False)
    _checked([sys.executable, "-c", BUILD, dist], source)
    (built,) = dist.glob("*.whl")
    return built


def test_the_wheel_holds_every_file_the_packages_track(wheel: Path) -> None:
    tracked = _shipped(*PACKAGES)
    assert any(not name.endswith(".py") for name in tracked)  # the data files are among them
    shipped = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in tracked if name not in shipped]
    assert missing == [], (f"{len(missing)} tracked files are not in the wheel; add them to "
                           f"[tool.setuptools.package-data] in pyproject.toml: {missing}")


def _wheelhouse(scratch: Path) -> Path:
    """The locked runtime wheels, downloaded (hash-checked) once per version of the lock."""
    lock = RUNTIME_LOCK.read_bytes()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    house = cache / "stredisko" / "wheels" / hashlib.sha256(lock).hexdigest()[:16]
    if house.is_dir():
        return house
    try:
        house.parent.mkdir(parents=True, exist_ok=True)
    except OSError:  # no writable cache (a read-only home): downloaded for this run only
        house = scratch / "wheels"
    partial = house.with_name(f"{house.name}.{os.getpid()}.part")
    shutil.rmtree(partial, ignore_errors=True)
    _checked([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
              "--require-hashes", "--dest", partial, "-r", RUNTIME_LOCK], ROOT)
    try:
        partial.rename(house)  # whole or not at all; a second run may have finished first
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)
    return house


def _clean_env() -> dict[str, str]:
    """The caller's environment without what would let the checkout or another Python in."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONNOUSERSITE"] = "1"
    return env  # bytecode is written: the first command compiles, the others reuse it


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment holding the locked runtime dependencies and the wheel, nothing
    else (no pip: this suite's pip installs into it; sqlite-utils's `pip` is the image's)."""
    folder = tmp_path_factory.mktemp("installed") / "venv"
    house = _wheelhouse(folder.parent)
    _checked([sys.executable, "-m", "venv", "--without-pip", folder], folder.parent)
    python = folder / "bin" / "python"
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    ours = folder.parent / "stredisko.txt"
    ours.write_text(f"{wheel} --hash=sha256:{digest}\n", encoding="utf-8")
    _checked([sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
              "--no-index", "--find-links", house, "--no-deps", "--require-hashes",
              "--no-compile", "-r", RUNTIME_LOCK, "-r", ours], folder.parent)
    return folder


def test_the_installed_wheel_runs_from_an_empty_folder(venv: Path, tmp_path: Path) -> None:
    env, bin_ = _clean_env(), venv / "bin"
    work = tmp_path / "prazdny"
    work.mkdir()

    def stredisko(*args: str | Path, code: int = 0) -> str:
        done = _run([bin_ / "stredisko", *args], work, env)
        assert done.returncode == code, (f"stredisko {' '.join(map(str, args))}: exit "
                                         f"{done.returncode}\n{done.stdout[-2000:]}\n{done.stderr}")
        return done.stdout

    # nothing comes from the checkout: every package is the installed one
    where = _checked([bin_ / "python", "-c", "import bot, rules, scrapers; "
                      "print(bot.__file__, rules.__file__, scrapers.__file__)"], work, env)
    assert all(Path(f).is_relative_to(venv) for f in where.split()), where

    # the examples come with the package (issue 43.3): copied out, and a scenario by its name
    out = stredisko("examples", "ukazky")
    count = len(_tracked("examples"))
    assert count > 4 and out.startswith(f"Do ukazky som zapísal {count} súborov s ukážkami."), out
    assert (work / "ukazky" / "propozicie.toml").read_bytes() == (
        ROOT / "examples" / "propozicie.toml").read_bytes()
    assert (work / "ukazky" / "season" / "msr-2026-27.toml").is_file()

    # the classic rehearsal (README "Skúška turnaja") with its results page, by name
    out = stredisko("rehearse", "kt-online-24", "--html", "kt")
    assert "konečné poradie (e-SP 2.4)" in out and "Stránka výsledkov zapísaná: kt" in out
    _has_css(work / "kt" / "index.html", "style.css")

    # the duplicate rehearsal online (README "Skúška duplikátu"), with its page
    out = stredisko("rehearse", REHEARSALS / "duplicate-skuska.toml", "--html", "duplikat")
    assert "Konečné výsledky (003 r. 46–49):" in out and "  1. Anna Nováková: " in out, out
    _has_css(work / "duplikat" / "index.html", "duplicate.css")

    # … and in a hall at the arbiter's console (`mode = "hall"`), its word list beside it
    hall = work / "sala"
    hall.mkdir()
    shutil.copy2(REHEARSALS / "duplicate-slova.txt", hall)
    online = (REHEARSALS / "duplicate-skuska.toml").read_text(encoding="utf-8")
    assert 'mode = "online"' in online
    (hall / "skuska.toml").write_text(online.replace('mode = "online"', 'mode = "hall"', 1),
                                      encoding="utf-8")
    out = stredisko("rehearse", hall / "skuska.toml")
    assert "stredisko duplicate " in out and "Konečné výsledky (003 r. 46–49):" in out, out

    # `duplicate top` on a bundled tile set
    (work / "slova.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    (work / "doska.txt").write_text("\n".join(["." * 15] * 15) + "\n", encoding="utf-8")
    top = json.loads(stredisko("duplicate", "top", "--lexicon", "slova.txt", "--tiles",
                               "sss-100", "--board", "doska.txt", "--rack", "SLOVOA?", "--json"))
    assert (top["top_score"], top["tops"]) == (14, [{"word": "SLOVO", "coord": c, "score": 14}
                                                    for c in ("H4", "8D", "8H", "H8")])

    # `word` with a small list: the bundled B2 decides two-letter words whatever the list says
    out = stredisko("word", "ja", "xy", "chata", "--lexicon", "slova.txt", code=1)
    assert "ja — PLATNÉ (zdroj: B2" in out and "xy — NEPLATNÉ (zdroj: B2" in out, out
    assert "chata — PLATNÉ" in out

    # `lexicon build`, and a word checked against the built lexicon
    out = stredisko("lexicon", "build", "slova.txt", "--rules", "sss", "-o", "sk.lex")
    assert "2-písmenové slová rozhoduje len B2" in out and (work / "sk.lex").is_file()
    out = stredisko("word", "chata", "--lexicon", "./sk.lex")
    assert out.startswith("Lexikón lx-") and "chata — PLATNÉ" in out, out

    # a duplicate board image: a PNG, the same bytes as the checkout draws (font, tile values)
    _checked([bin_ / "python", "-c", DRAW, "doska.png", "\n".join(BOARD)], work, env)
    drawn = (work / "doska.png").read_bytes()
    with Image.open(io.BytesIO(drawn)) as image:
        assert (image.format, image.width) == ("PNG", 632)
        image.verify()
    assert drawn == render_board("\n".join(BOARD), highlight=[(7, 5), (7, 6)], rack="ĽÔ?ÄCHY")


def _has_css(page: Path, sheet: str) -> None:
    """The results page carries its bundled style sheet (inlined)."""
    first = (ROOT / "bot" / "publish" / sheet).read_text(encoding="utf-8").splitlines()[0]
    assert first in page.read_text(encoding="utf-8"), f"{page} lacks {sheet}"
