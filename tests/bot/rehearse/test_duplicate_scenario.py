"""A duplicate rehearsal's scenario (issue 24.7): its own tables are checked before anything
runs, each error naming its line (marked `# !` below) in Slovak; a good file parses."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.rehearse.duplicate_scenario import (
    is_duplicate,
    is_duplicate_file,
    load_duplicate_scenario,
    parse_duplicate_scenario,
)
from bot.services.tournament.propozicie import SetupError

SMALL = Path(__file__).parent / "scenarios" / "duplicate-small.toml"
EXAMPLE = Path(__file__).parents[3] / "examples" / "rehearsal" / "duplicate-skuska.toml"

BASE = """\
[tournament]
name = "Skúška chýb duplikátu"
format = "duplicate"
rounds = 1
round_starts = ["2026-12-05 18:00"]

[duplicate]
profile = "cas-duplicate"
lexicon = "duplicate-small.txt"

[[player]]
id = "anna"
name = "Anna Nováková"

[[player]]
id = "boris"
name = "Boris Kováč"
"""
SEED = """
[rehearsal]
seed = "0123456789abcdef0123456789abcdef"
"""


def marked_line(text: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if "# !" in line)


def refused(text: str) -> str:
    with pytest.raises(SetupError) as caught:
        parse_duplicate_scenario(text)
    assert caught.value.line == marked_line(text), caught.value.reason
    return caught.value.reason


def test_the_small_scenario_parses_in_round_then_time_order() -> None:
    scenario = load_duplicate_scenario(SMALL)
    assert scenario.seed == "0123456789abcdef0123456789abcdef"
    assert [p.file_id for p in scenario.propozicie.players] == ["anna", "boris", "cyril", "dana"]
    keys = [(e.round, e.after) for e in scenario.events]
    assert keys == sorted(keys)
    second = scenario.of_round(2)
    assert [e.type for e in second].count("leave") == 1
    # "after" as seconds and as m:ss mean the same
    assert next(e for e in scenario.of_round(1) if e.player == "boris").after == \
        timedelta(seconds=70)
    late = next(e for e in second if e.player == "cyril")
    assert (late.after, late.move, late.declared) == (timedelta(minutes=3, seconds=2),
                                                      "6F LÁN", 11)


def test_the_bundled_example_parses() -> None:
    scenario = load_duplicate_scenario(EXAMPLE)
    assert len(scenario.propozicie.players) == 6 and scenario.last_round == 11


def test_only_a_duplicate_tournament_is_one() -> None:
    assert is_duplicate(BASE) and is_duplicate_file(SMALL)
    assert not is_duplicate(BASE.replace('format = "duplicate"\n', ""))
    assert not is_duplicate("[tournament\n")  # unreadable: the classic reader says why
    assert not is_duplicate_file(SMALL.with_name("nothing-here.toml"))


def test_a_minimal_file_parses() -> None:
    scenario = parse_duplicate_scenario(BASE + SEED)
    assert scenario.events == () and scenario.last_round == 0


@pytest.mark.parametrize(("text", "words"), [
    (BASE + "\n[rehearsals]  # !\nseed = \"00\"\n", "neznáma tabuľka"),
    (BASE + "\n[rehearsal]  # !\n", "seed"),
    (BASE + "\n[rehearsal]\nseed = \"abc\"  # !\n", "šestnástkové"),
    (BASE + "\n[rehearsal]\nseed = \"zz23456789abcdef0123456789abcdef\"  # !\n", "šestnástkové"),
    (BASE + SEED + '\n[[event]]\ntype = "slip"\nplayer = "zuzana"  # !\nround = 1\n'
     'after = "1:00"\nmove = "8H SLOVO"\ndeclared = 10\n', "neznámy hráč"),
    (BASE + SEED + '\n[[event]]\ntype = "pass"  # !\nplayer = "anna"\nround = 1\n'
     'after = "1:00"\n', "neznámy typ"),
    (BASE + SEED + '\n[[event]]  # !\nplayer = "anna"\nround = 1\nafter = "1:00"\n',
     "type"),
    (BASE + SEED + '\n[[event]]\ntype = "slip"\nplayer = "anna"\nround = 0  # !\n'
     'after = "1:00"\nmove = "8H SLOVO"\ndeclared = 10\n', "mimo rozsahu"),
    (BASE + SEED + '\n[[event]]\ntype = "slip"\nplayer = "anna"\nround = 1\n'
     'after = "1:75"  # !\nmove = "8H SLOVO"\ndeclared = 10\n', "m:ss"),
    (BASE + SEED + '\n[[event]]\ntype = "slip"\nplayer = "anna"\nround = 1\n'
     'after = 5000  # !\nmove = "8H SLOVO"\ndeclared = 10\n', "minút"),
    (BASE + SEED + '\n[[event]]  # !\ntype = "slip"\nplayer = "anna"\nround = 1\n'
     'move = "8H SLOVO"\n', "after"),
    (BASE + SEED + '\n[[event]]\ntype = "slip"\nplayer = "anna"\nround = 1\n'
     'after = "1:00"\nmove = "8H SLOVO"\ndeclared = "desať"  # !\n', "celé číslo"),
    (BASE + SEED + '\n[[event]]\ntype = "slip"\nplayer = "anna"\nround = 1\n'
     f'after = "1:00"\nmove = "8H {"A" * 70}"  # !\ndeclared = 10\n', "znakov"),
    (BASE + SEED + '\n[[event]]\ntype = "leave"\nplayer = "anna"\nround = 1\n'
     'after = "1:00"\ndeclared = 3  # !\n', "nepatrí"),
    (BASE + SEED + '\n[[event]]\ntype = "leave"\nplayer = "anna"\nround = 2\n'
     'after = "0:10"\n\n[[event]]  # !\ntype = "slip"\nplayer = "anna"\nround = 3\n'
     'after = "1:00"\nmove = "8H SLOVO"\ndeclared = 10\n', "odišiel"),
])
def test_errors_name_their_line_in_slovak(text: str, words: str) -> None:
    assert words in refused(text)
