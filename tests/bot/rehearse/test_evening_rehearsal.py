"""The evening rehearsal (issue 44, done-when): two online qualifiers whose rounds interleave
(`kt-vecer-a` 18:00/19:00/20:00, `kt-vecer-b` 18:30/19:30/20:30), three players in both
(cyro, hugob, ivka), the online duplicate beside them, and a season file naming both
qualifiers — finishing in start order (`vecer.toml`: A at 21:00, then B at 21:30) and in the
other (`vecer-naopak.toml`: the head admin finishes A at 21:40, after B).

What two events share must come out as if each had run alone. "Alone" is the same season
rehearsal with that one [[part]] (the same file, channel and finish), on its own database;
the duplicate alone is its own rehearsal (`stredisko rehearse duplicate-skuska.toml`).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import toml_text
from bot.cli import main as cli_main
from bot.rehearse.command import run_command

ROOT = Path(__file__).parents[3]
EXAMPLES = ROOT / "examples"
VARIANTS = ("vecer", "vecer-naopak")
QUALIFIERS = ("kt-vecer-a", "kt-vecer-b")
NAMES = {"kt-vecer-a": "Večerná kvalifikácia A", "kt-vecer-b": "Večerná kvalifikácia B"}
DUPLICATE = "duplikat-skuska"
SEASON = "Večerné kvalifikácie 2026/27"
#: what a classic event's results are, as its rehearsal's JSON gives them (its herna.net
#: polls are not: a poll left out as idle depends on what else herna.net shows)
RESULTS = ("tournament", "rounds", "standings", "excluded", "proposals", "refusals")


def _json(scenario: Path, db: Path, html: Path) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli_main(["rehearse", str(scenario), "--json", "--db", str(db),
                         "--html", str(html)])
    assert code == 0
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def _registry(db: Path) -> dict[str, tuple[float, int]]:
    """herna nick (or the name, for a duplicate-only entrant) → (online screlo, rated games)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT herna_nick, name, screlo, rated_games FROM players")
        return {(name if ":" in nick else nick): (screlo, games)
                for nick, name, screlo, games in rows.fetchall()}


def _alone(folder: Path, variant: str, slug: str) -> Path:
    """A season rehearsal of `variant`'s one [[part]] for event `slug`, as written there."""
    text = (folder / f"{variant}.toml").read_text(encoding="utf-8")
    data = toml_text.loads(text)
    part = next(p for p in data["part"]
                if toml_text.loads((folder / p["file"]).read_text(encoding="utf-8"))
                ["tournament"]["slug"] == slug)
    lines = ["[season]", *(f"{k} = {json.dumps(v)}" for k, v in data["season"].items()),
             "", "[[part]]", *(f"{k} = {json.dumps(v)}" for k, v in part.items())]
    path = folder / f"{variant}-{slug}-samostatne.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Both variants together, each qualifier of each alone, and the duplicate alone — each
    on its own database."""
    base = tmp_path_factory.mktemp("vecer")
    folder = base / "rehearsal"
    shutil.copytree(EXAMPLES / "rehearsal", folder)
    shutil.copytree(EXAMPLES / "season", base / "season")
    got: dict[str, Any] = {"together": {}, "alone": {}, "registry": {}, "start": {},
                           "alone_lines": {}}
    for variant in VARIANTS:
        db = base / f"{variant}.db"
        got["together"][variant] = _json(folder / f"{variant}.toml", db, base / variant)
        got["registry"][variant] = _registry(db)
        for slug in QUALIFIERS:
            alone = _alone(folder, variant, slug)
            db = base / f"{alone.stem}.db"
            document = _json(alone, db, base / alone.stem)
            (event,) = document["events"]
            got["alone"][(variant, slug)] = event
            got["alone_lines"][(variant, slug)] = document["transcript"]
            got["registry"][(variant, slug)] = _registry(db)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(["rehearse", str(folder / "duplicate-skuska.toml"), "--json"]) == 0
    got["alone"][DUPLICATE] = json.loads(out.getvalue())
    for slug in reversed(QUALIFIERS):  # A's file first: it creates the shared players
        players = toml_text.loads((folder / f"{slug}.toml").read_text(encoding="utf-8"))
        got["start"].update({p["herna"]: (float(p["screlo"]), p["games"])
                             for p in players["player"]})
    return got


def _event(document: dict[str, Any], slug: str) -> dict[str, Any]:
    return next(e for e in document["events"] if e["slug"] == slug)


def _finished(lines: list[str], slug: str) -> int:
    return next(i for i, line in enumerate(lines)
                if f"[{slug} #" in line and f"Turnaj {NAMES[slug]} (sezóna" in line
                and "sa skončil" in line)


def _finish_order(lines: list[str]) -> list[str]:
    return sorted(QUALIFIERS, key=lambda slug: _finished(lines, slug))


def test_the_two_variants_finish_in_either_order(runs: dict[str, Any]) -> None:
    orders = {v: _finish_order(runs["together"][v]["transcript"]) for v in VARIANTS}
    assert orders == {"vecer": ["kt-vecer-a", "kt-vecer-b"],
                      "vecer-naopak": ["kt-vecer-b", "kt-vecer-a"]}
    lines = runs["together"]["vecer"]["transcript"]
    # the rounds interleave on the one clock, the duplicate game in between
    starts = [(line[1:6], slug) for line in lines for slug in QUALIFIERS
              if f"[{slug} #" in line and "[kanál] Začína sa " in line and ". kolo" in line]
    assert [slug for _, slug in starts] == ["kt-vecer-a", "kt-vecer-b"] * 3
    game = next(line for line in lines if f"[{DUPLICATE} #2003] [kanál] Začína sa 1. partia"
                in line)
    assert game.startswith("[18:40]")


def _both(runs: dict[str, Any], variant: str, slug: str) -> tuple[dict[str, Any],
                                                                  dict[str, Any]]:
    """Event `slug` of `variant` rehearsed together with the others, and alone."""
    return _event(runs["together"][variant], slug), runs["alone"][(variant, slug)]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("slug", QUALIFIERS)
def test_every_event_stands_as_it_does_alone(runs: dict[str, Any], variant: str,
                                             slug: str) -> None:
    together, alone = _both(runs, variant, slug)
    assert together["standings"] == alone["standings"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("slug", QUALIFIERS)
def test_every_event_has_the_results_it_has_alone(runs: dict[str, Any], variant: str,
                                                  slug: str) -> None:
    together, alone = _both(runs, variant, slug)
    assert {k: together[k] for k in RESULTS} == {k: alone[k] for k in RESULTS}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_duplicate_has_the_results_it_has_alone(runs: dict[str, Any], variant: str) -> None:
    together = _event(runs["together"][variant], DUPLICATE)
    alone = runs["alone"][DUPLICATE]
    for key in ("event", "games", "standings", "words", "refusals"):
        assert together[key] == alone[key], key


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rating_is_its_start_plus_each_events_change(runs: dict[str, Any],
                                                          variant: str) -> None:
    """A player's registry rating after both qualifiers = his rating at the start + A's change
    + B's change, games likewise (../shared/DESIGN.md §6b) — whichever finished first; each
    event's change is the one it makes alone."""
    start = runs["start"]
    registry = runs["registry"][variant]
    expected = {}
    for player, (screlo, games) in start.items():
        alone = [runs["registry"][(variant, slug)][player] for slug in QUALIFIERS
                 if player in runs["registry"][(variant, slug)]]
        expected[player] = (round(screlo + sum(s - screlo for s, _ in alone), 2),
                            games + sum(g - games for _, g in alone))
    got = {p: (round(registry[p][0], 2), registry[p][1]) for p in start}
    assert got == expected
    shared = [p for p in start if all(p in runs["registry"][(variant, s)] for s in QUALIFIERS)]
    assert sorted(shared) == ["cyro", "hugob", "ivka"]
    # nobody else's rating moved: the duplicate is not rated by the online screlo
    assert {p: v for p, v in registry.items() if p not in start} == {
        name: (None, 0) for name in ("Dana Šimková", "Emil Žiak", "Filip Hudec")}


def _ladder(lines: list[str], slug: str) -> list[int]:
    return [i for i, line in enumerate(lines)
            if f"Rebríček sezóny {SEASON} po turnaji {NAMES[slug]}" in line]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_ladder_is_announced_at_both_finishes(runs: dict[str, Any], variant: str) -> None:
    """Each finish recomputes the season and announces who moved, relative to the ladder
    last announced: at the first, every player of that qualifier (32 places, nobody before);
    at the second, its players the first did not have. The page is rewritten both times."""
    document = runs["together"][variant]
    lines = document["transcript"]
    first, second = _finish_order(lines)
    players = {slug: {p["herna"] for p in toml_text.loads(
        (EXAMPLES / "rehearsal" / f"{slug}.toml").read_text(encoding="utf-8"))["player"]}
        for slug in QUALIFIERS}
    expected = {first: players[first], second: players[second] - players[first]}
    ends = {slug: _finished(lines, slug) for slug in QUALIFIERS}
    for slug, after in ((first, ends[second]), (second, len(lines))):
        found = _ladder(lines, slug)
        assert len(found) == 1, (slug, found)
        assert ends[slug] < found[0] < after
        named = set(re.findall(r"\(([^()]+)\)", lines[found[0]])) & (
            players[first] | players[second])
        assert named == expected[slug], slug
    assert not any("rebríček sezóny sa neprepočítal" in line for line in lines)
    pages = [(p["after"], p["rewritten"]) for p in document["season"]["pages"]]
    assert pages == [(first, True), (second, True)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_game_of_the_other_event_is_reported_as_unexplained(runs: dict[str, Any],
                                                              variant: str) -> None:
    lines = runs["together"][variant]["transcript"]
    strays = [line for line in lines if "nepriradil" in line]
    assert strays == [], f"{len(strays)} false notes, the first: {strays[:1]}"
    for slug in QUALIFIERS:  # and none alone either: every game there is at a table
        assert not any("nepriradil" in line for line in runs["alone_lines"][(variant, slug)])


@pytest.mark.parametrize(("part", "finish", "reason"), [
    ("kt-vecer-a.toml", "2026-12-05 20:59", "turnaj sa dá ukončiť najskôr 2026-12-05 21:00"),
    ("duplicate-skuska.toml", "2026-12-05 21:40", "koniec sa určuje len online turnaju"),
])
def test_a_finish_the_part_cannot_have_is_a_scenario_error_on_its_line(
        tmp_path: Path, part: str, finish: str, reason: str) -> None:
    folder = tmp_path / "rehearsal"
    shutil.copytree(EXAMPLES / "rehearsal", folder)
    shutil.copytree(EXAMPLES / "season", tmp_path / "season")
    scenario = folder / "vecer.toml"
    text = scenario.read_text(encoding="utf-8")
    anchor = f'file = "{part}"\n'
    assert anchor in text
    scenario.write_text(text.replace(anchor, f'{anchor}finish = "{finish}"\n'),
                        encoding="utf-8")
    line = text[:text.index(anchor)].count("\n") + 2
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(scenario), out, err) == 2
    assert err.getvalue().startswith(f"{scenario}:{line}: "), err.getvalue()
    assert reason in err.getvalue() and out.getvalue() == ""
