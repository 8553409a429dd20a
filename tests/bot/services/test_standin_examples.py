"""Every example word SP B1 10.1–10.8 gives gets the seed's answer under `sss` with the built
hunspell-sk stand-in (issue 35). The examples, each with its answer and seed line, are data:
tests/rules/lexicon/data/sp_b1_examples.toml.

The stand-in is built once per test session from Debian's hunspell-sk (installed when missing,
like chromium: tests/bot/apt.py) into a cache folder keyed by the dictionary and the code that
builds it, then compiled into a lexicon (`lexicon build --rules sss`); pytest-xdist workers
share one build. Building takes ~50 s of CPU (unmunch 8 s, hunspell -G most of the rest) and
the lexicon ~30 s; a cached build is read in a few seconds.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tomllib
from pathlib import Path

import pytest

from bot.services.lexicon import files as service
from bot.services.lexicon.standin import DICT_DIRS, DICTIONARIES, build_standin
from rules.lexicon import Lexicon, admissibility, judge

from ..apt import ensure_packages

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "tests" / "rules" / "lexicon" / "data" / "sp_b1_examples.toml"
#: what the stand-in and the lexicon are made by: a change to any of it rebuilds the cache
BUILT_BY = [ROOT / "bot" / "services" / "lexicon" / "standin.py",
            ROOT / "bot" / "services" / "lexicon" / "files.py",
            *sorted(path for path in (ROOT / "rules" / "lexicon").rglob("*")
                    if path.suffix in {".py", ".toml", ".txt"}),
            *sorted((ROOT / "rules" / "profiles" / "lexicon").glob("*.toml"))]


def examples() -> list[tuple[str, bool, int, str]]:
    data = tomllib.loads(EXAMPLES.read_text(encoding="utf-8"))
    return [(word, group["valid"], group["line"], group["why"])
            for group in data["example"] for word in group["words"]]


def _hunspell_sk() -> str | None:
    base = DICTIONARIES["sk"].base
    tools = shutil.which("unmunch") and shutil.which("hunspell")
    dic = next((folder / f"{base}.dic" for folder in DICT_DIRS
                if (folder / f"{base}.dic").is_file()), None)
    return str(dic) if tools and dic else None


def _cache_dir() -> Path:
    folder = Path(os.environ.get("STREDISKO_TEST_CACHE")
                  or Path.home() / ".cache" / "stredisko-tests")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def standin_lexicon() -> Lexicon:
    dic = Path(ensure_packages(_hunspell_sk, ["hunspell", "hunspell-sk", "hunspell-tools"],
                               "hunspell-sk"))
    digest = hashlib.sha256()
    for path in [dic, dic.with_suffix(".aff"), *BUILT_BY]:
        if path.is_file():
            digest.update(path.as_posix().encode() + path.read_bytes())
    key = digest.hexdigest()[:16]
    folder = _cache_dir()
    built = folder / f"sk-standin-{key}.lex"
    with (folder / "sk-standin.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one xdist worker builds, the others wait for it
        if not built.is_file():
            for old in folder.glob("sk-standin-*"):
                old.unlink()
            words = folder / f"sk-standin-{key}.txt"
            build_standin("sk", words)
            service.build(words, "sss", built)
            words.unlink()
    return service.load(built)


@pytest.mark.parametrize(("word", "valid", "line", "why"), examples(),
                         ids=[f"{w}-r{line}" for w, _, line, _ in examples()])
def test_every_example_of_sp_b1_gets_the_seeds_answer(
        standin_lexicon: Lexicon, word: str, valid: bool, line: int, why: str) -> None:
    verdict = judge(word, standin_lexicon, admissibility("sss"))
    assert verdict.valid is valid, (f"seed 000 r. {line}: {word} is "
                                    f"{'admissible' if valid else 'not admissible'} ({why}); "
                                    f"got {verdict.source}, {verdict.rule}: {verdict.reason}")
    assert standin_lexicon.standin and standin_lexicon.rules == "sss"


def test_the_examples_file_cites_lines_of_sp_b1_10_1_to_10_8() -> None:
    found = examples()
    assert len(found) >= 300
    assert all(432 <= line <= 752 for _, _, line, _ in found)  # 10.1 … 10.8 in seed 000
    assert {valid for _, valid, _, _ in found} == {True, False}
