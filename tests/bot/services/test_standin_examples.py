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


FAMILIES = ROOT / "tests" / "rules" / "lexicon" / "data" / "families.toml"


def family_members() -> list[tuple[str, bool, int, str]]:
    data = tomllib.loads(FAMILIES.read_text(encoding="utf-8"))
    return [(word, group["valid"], group["line"], group["why"])
            for group in data["family"] for word in group["words"]]


@pytest.mark.parametrize(("word", "valid", "line", "why"), family_members(),
                         ids=[f"{w}-r{line}" for w, _, line, _ in family_members()])
def test_the_families_unprinted_members_on_the_stand_in(
        standin_lexicon: Lexicon, word: str, valid: bool, line: int, why: str) -> None:
    """Issue 42: the members of each family the rulebook does not print (data/families.toml)
    answer by rule on the stand-in too, and what the rule refuses is not in the lexicon."""
    verdict = judge(word, standin_lexicon, admissibility("sss"))
    assert verdict.valid is valid, f"seed 000 r. {line}: {word} ({why}): {verdict}"
    if not valid:
        assert word not in standin_lexicon.graph  # the move generator cannot play it


def test_the_issues_examples_of_the_families_on_the_stand_in(standin_lexicon: Lexicon) -> None:
    sss = admissibility("sss")
    for word in ("sigmou", "sigmy", "sigmu", "epsilonom", "epsilonu", "zéty", "zétou", "étou",
                 "thétou", "kapou", "tridsaťpäťkrát", "päťkrát", "kocúry", "soby", "nejde",
                 "alfou", "betou", "omegou"):
        assert judge(word, standin_lexicon, sss).valid, word
    for word in ("neide", "neidem", "neidú", "nenenávidieť", "nenenávidí", "neneleniť",
                 "nenevraží", "kocúri", "sloni", "sobi", "ahoj", "hurá", "kappa"):
        verdict = judge(word, standin_lexicon, sss)
        assert not verdict.valid and verdict.source == "pravidlá", verdict
        assert word not in standin_lexicon.graph


def test_no_engine_top_of_a_hall_game_is_refused_by_its_own_lexicon(
        standin_lexicon: Lexicon) -> None:
    """Issue 42: a hall game on the SSS tiles, the computer's top each round (the move
    generator on the built stand-in); every word each top forms — the main word and each cross
    word — is PLATNÉ by the same lexicon and rules (a refused word in the graph would be the
    computer's top)."""
    import random
    from collections import Counter

    from rules.duplicate.board import Board
    from rules.duplicate.scoring import score_placement
    from rules.duplicate.tiles import BLANK, TileSet
    from rules.duplicate.top import top_moves

    tiles, sss = TileSet.load("sss-100"), admissibility("sss")
    rng = random.Random(42)
    bag = [letter for letter, n in tiles.bag.items() for _ in range(n)]
    board, rack, words = Board.empty(), "", 0
    for _ in range(14):
        while len(rack) < tiles.rack_size and bag:
            rack += bag.pop(rng.randrange(len(bag)))
        tops = top_moves(board, rack, standin_lexicon.graph, tiles)
        if not tops.tops:
            break
        for top in tops.tops:
            placed = {(r, c): (letter, blank) for r, c, letter, blank in top.tiles}
            _, formed = score_placement(board, placed, top.across, tiles.values)
            for word in formed:
                verdict = judge(word.lower(), standin_lexicon, sss)
                assert verdict.valid, f"top {top.word} forms {word}: {verdict}"
                words += 1
        played = tops.tops[0].tiles  # the game goes on with the first top, as a hall's does
        board = board.place({(r, c): (letter, blank) for r, c, letter, blank in played})
        rack = "".join((Counter(rack) - Counter(BLANK if blank else letter.upper()
                                                for *_, letter, blank in played)).elements())
    assert words >= 14
