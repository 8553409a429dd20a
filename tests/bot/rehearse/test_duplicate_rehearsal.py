"""The duplicate rehearsal (issue 24.7): `stredisko rehearse` plays a scripted duplicate game
offline through the duplicate services, the real store and timers, and prints the rounds, the
standings after each part and the final results — the same every run.

What each slip scores is worked out by hand from the scenarios' comments and the rules (the
real score of a placement from the sss-100 values and the premium squares):
- duplicate-small.toml, round 1: cyril's "8H RAK" is R1 A1 K2 on 8H–J8, doubled by the centre
  = 8, declared 9 → 0 (003 r. 45); dana's KRA is not in the word list → 0 (003 r. 1, 43);
  round 2: anna's second slip replaces her first (003 r. 41) and counts as declared, 10;
  cyril's slip reached Discord 2 s after the limit → 0 (003 r. 19); dana left during round 2
  → 0 from round 3 on (004 §7); boris's "P5 VLNA" is off the board → refused, nothing stored;
- after the game (003 r. 27–29): dana's protest that KRA was wrongly rejected is upheld, so
  her round 1 is judged again (004 §5D): KRA K2 R1 A1 on 8H, doubled = 8 as declared → 8;
  cyril's protest against NIŤ is rejected (nothing changes); boris's names a round 9 the game
  never had → refused, nothing to decide.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as cli_main
from bot.rehearse.command import run_command

SCENARIOS = Path(__file__).parent / "scenarios"
SMALL = SCENARIOS / "duplicate-small.toml"
EXAMPLE = Path(__file__).parents[3] / "examples" / "rehearsal" / "duplicate-skuska.toml"


def rehearse_json(path: Path) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(path), out, err, as_json=True) == 0, err.getvalue()
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return rehearse_json(SMALL)


def outcomes(document: dict[str, Any]) -> dict[tuple[int, str], tuple[str, int, str]]:
    """(round, player) -> (outcome, points, rule)."""
    return {(r["round"], s["player"]): (s["outcome"], s["points"], s["rule"])
            for r in document["games"][0]["rounds"] for s in r["slips"]}


def test_two_runs_are_the_same(small: dict[str, Any]) -> None:
    assert rehearse_json(SMALL) == small


def test_every_slip_scores_what_the_rules_give(small: dict[str, Any]) -> None:
    got = outcomes(small)
    assert got[(1, "Anna Nováková")] == ("scored", 18, "003 r. 45")
    assert got[(1, "Cyril Ďurica")] == ("declared-higher", 0, "003 r. 45")
    assert got[(1, "Dana Šimková")] == ("scored", 8, "003 r. 45")  # KRA, after the protest
    assert got[(2, "Anna Nováková")] == ("scored", 10, "003 r. 45")
    assert got[(2, "Cyril Ďurica")] == ("late", 0, "003 r. 19")
    assert got[(2, "Dana Šimková")][:2] == ("no-slip", 0)
    assert got[(3, "Dana Šimková")] == got[(4, "Dana Šimková")] == ("left", 0,
                                                                     "004 §7 (analogy)")
    assert got[(3, "Boris Kováč")] == ("scored", 5, "003 r. 45")


def test_rounds_tops_and_who_found_them(small: dict[str, Any]) -> None:
    rounds = small["games"][0]["rounds"]
    tops = [(r["rack"], r["tops"][0]["coord"] if r["tops"] else None, r["top_score"],
             r["found"]) for r in rounds]
    # the racks of the seed (rules.duplicate.draw_rack) and the tops of the word list
    assert tops == [("AIKNRÁŤ", "H6", 18, 2), ("AKLRSVÁ", "6F", 11, 1),
                    ("AKNRSVÓ", "F4", 5, 2), ("DNRSVÉÓ", "5E", 4, 2), ("DIRSVÉÓ", None, 0, 0)]
    game = small["games"][0]
    assert game["state"] == "final" and game["seed"] == "0123456789abcdef0123456789abcdef"
    assert [p for p in game["parts"]] == ["1", "2"]
    assert game["parts"]["1"][0] == {"player": "Boris Kováč", "points": 29, "top": 29,
                                     "percent": "100.0"}


def test_final_results_and_the_refused_slip(small: dict[str, Any]) -> None:
    assert [(s["rank"], s["player"], s["points"], s["top"]) for s in small["standings"]] == [
        (1, "Anna Nováková", 37, 38), (2, "Boris Kováč", 34, 38), (3, "Dana Šimková", 8, 38),
        (4, "Cyril Ďurica", 4, 38)]
    [refusal, _] = small["refusals"]
    assert (refusal["player"], refusal["round"], refusal["key"]) == (
        "boris", 3, "duplicate.online.slip_unreadable")
    assert "P5" in refusal["text"]


def test_the_last_top_of_a_part_waits_for_the_next_part(small: dict[str, Any]) -> None:
    """003 r. 22: round 2 ends part 1; its top (6F LÁN) is announced with round 3's rack."""
    lines = small["transcript"]
    top = next(line for line in lines if "[kanál]" in line and "6F LÁN" in line)
    opened = next(line for line in lines if "[kanál]" in line and "3. kolo" in line
                  and "AKNRSVÓ" in line)
    assert top[:7] == opened[:7]  # the same minute
    assert lines.index(top) < lines.index(opened)


def test_the_cli_prints_rounds_parts_and_final_results(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rehearse", str(EXAMPLE)]) == 0
    text = capsys.readouterr().out
    assert "/tah Cyril Ďurica 8H SUP 12 →" in text
    for part in (1, 2, 3):
        assert f"Poradie po {part}. časti" in text
    assert "Konečné výsledky (003 r. 46–49):" in text
    assert " 11. kolo (3. časť) EEFIMÁÓ" in text


def test_the_bundled_example_tells_its_story() -> None:
    """The cases the example's header lists, each scored as the rules say; the tops of its 11
    rounds add up to 98 (8+8+8+6+16+4+9+22+5+10+2)."""
    document = rehearse_json(EXAMPLE)
    got = outcomes(document)
    assert got[(1, "Cyril Ďurica")][:2] == ("word-rejected", 0)
    assert got[(1, "Dana Šimková")][:2] == ("declared-higher", 0)
    assert got[(1, "Filip Hudec")][:2] == ("late", 0)
    assert got[(5, "Anna Nováková")] == ("declared-lower", 15, "003 r. 45")
    assert got[(5, "Emil Žiak")][:2] == ("scored", 16)
    assert all(got[(n, "Boris Kováč")][0] == "left" for n in range(7, 12))
    assert got[(8, "Dana Šimková")][:2] == ("invalid", 0)
    assert {s["top"] for s in document["standings"]} == {98}
    assert sum(r["top_score"] for r in document["games"][0]["rounds"]) == 98


def test_players_read_clean_citations_the_data_keeps_the_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44.7: a player reads "004 §7 per analógiu" and "003 r. 41" — our reading's
    label and the setting's name stay in the stored scores; a duplicate entrant who leaves is
    told 004 §7, not the classic e-SP 3.6."""
    assert cli_main(["rehearse", str(EXAMPLE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not [ln for ln in lines if "(analogy)" in ln or "Interpretation" in ln
                or "slips." in ln]
    assert "[DM Boris Kováč] 1. partia, 7. kolo: tvoj ťah bez lístka — 0 bodov: hráč odišiel " \
           "z partie: 0 bodov za zvyšné kolá (004 §7 per analógiu)." in " ".join(lines)
    replaced = next(ln for ln in lines if "/tah Emil Žiak C2 LAMPA 16 →" in ln)
    assert replaced.endswith("Nahrádza tvoj predchádzajúci lístok tohto kola (003 r. 41).")
    left = [ln for ln in lines if "Boris Kováč" in ln and "dstúpeni" in ln]
    assert len(left) == 2 and all(ln.endswith("(004 §7 per analógiu).") for ln in left), left
    assert not any("e-SP" in ln for ln in lines)  # nothing of the classic rules
    got = outcomes(rehearse_json(EXAMPLE))
    assert got[(7, "Boris Kováč")] == ("left", 0, "004 §7 (analogy)")


def test_part_standings_break_ties_as_the_final_results_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44.7: after part 2 Boris and Dana are level on 43 points; 003 r. 48 (the sum of
    round percentages) puts Dana first — in the channel's standings, in the final's order and
    in the rehearsal's summary and JSON alike (the summary listed them by name)."""
    assert cli_main(["rehearse", str(EXAMPLE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the channel's: after parts 1 and 2, then the game's end (its last part)
    heads = ("Priebežné poradie po 1. časti", "Priebežné poradie po 2. časti",
             "Predbežné výsledky 1. partie")
    for part, head in enumerate(heads, start=1):
        start = next(i for i, ln in enumerate(lines) if head in ln)
        channel = [ln.split("] ", 1)[1].split(" — ")[0] for ln in lines[start + 1:start + 7]]
        summary = next(i for i, ln in enumerate(lines) if ln.startswith(f"Poradie po {part}."))
        listed = [ln.strip().split(":")[0] for ln in lines[summary + 1:summary + 7]]
        assert listed == channel, (part, listed, channel)
    document = rehearse_json(EXAMPLE)
    second = [(s["player"], s["points"]) for s in document["games"][0]["parts"]["2"]]
    assert second[3:5] == [("Dana Šimková", 43), ("Boris Kováč", 43)]


def test_an_event_in_a_round_the_game_never_reaches_is_a_scenario_error(tmp_path: Path) -> None:
    """The small game ends after round 5 (no move): a slip in round 9 names its line, exit 2."""
    text = SMALL.read_text(encoding="utf-8") + (
        '\n[[event]]\ntype = "slip"\nplayer = "anna"\nround = 9\nafter = "0:30"\n'
        'move = "8H NA"\ndeclared = 2\n')
    scenario = tmp_path / "late-round.toml"
    scenario.write_text(text, encoding="utf-8")
    (tmp_path / "duplicate-small.txt").write_bytes((SCENARIOS / "duplicate-small.txt")
                                                   .read_bytes())
    line = text.count("\n", 0, text.rindex("[[event]]")) + 1
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(scenario), out, err) == 2
    assert err.getvalue().startswith(f"{scenario}:{line}: ") and "9. kolo" in err.getvalue()


def test_html_writes_the_duplicate_results_page(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(SMALL), out, err, html=str(tmp_path)) == 0, err.getvalue()
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert str(tmp_path / "index.html") in out.getvalue()
    # the final standings and the revealed seed are on the page the head admin publishes
    assert "Konečné" in page and "Anna Nováková" in page
    assert 'class="board' in page


def test_protests_are_filed_decided_and_corrected_before_the_final_results(
        small: dict[str, Any]) -> None:
    rounds = small["games"][0]["rounds"]
    corrected = [(r["round"], s["player"]) for r in rounds for s in r["slips"] if s["corrected"]]
    assert corrected == [(1, "Dana Šimková")]  # the upheld one; the rejected changed nothing
    assert {"round": 1, "word": "KRA", "approved": True} in small["words"]
    assert small["games"][0]["state"] == "final"
    [_, refused] = small["refusals"]
    assert (refused["player"], refused["round"], refused["type"], refused["key"]) == (
        "boris", 9, "protest", "duplicate.online.no_round")
    lines = small["transcript"]

    def at(text: str) -> int:
        return next(n for n, line in enumerate(lines) if text in line)

    rejected_kra = at("[DM Dana Šimková]")  # her round 1 evaluation during the game
    filed = at("/namietka Dana Šimková 1. kolo KRA")
    corrected_dm = at("Oprava po partii: tvoj výsledok v 1. kole (1. partia) je teraz 8, "
                      "predtým 0 (004 §5D)")
    decided = at("/duplikat rozhodnutie hlavný rozhodca 1 vyhovieť")
    rejected = at("/duplikat rozhodnutie hlavný rozhodca 2 zamietnuť")
    final = at("Konečné výsledky 1. partie")
    assert rejected_kra < filed < corrected_dm < decided < rejected < final
    assert not any("rozhodnutie hlavný rozhodca 3" in line for line in lines)


def with_protests(tmp_path: Path, extra: str) -> Path:
    """The small scenario with `extra` protests after its own, beside its words."""
    (tmp_path / "duplicate-small.txt").write_bytes((SCENARIOS / "duplicate-small.txt")
                                                   .read_bytes())
    path = tmp_path / "s.toml"
    path.write_text(SMALL.read_text("utf-8") + extra, encoding="utf-8")
    return path


BAD = '''
[[protest]]
player = "anna"
round = 2
word = "LÁN"
claim = "prijaté"
reason = "?"
decision = "zamietnuť"
decision_reason = "—"
'''


@pytest.mark.parametrize(("key", "value", "message"), [
    ("claim", '"zlé"', "claim: „zlé“: slovo bolo neprávom „prijaté“ alebo „odmietnuté“"),
    ("decision", '"možno"', "decision: „možno“: rozhodnutie je „vyhovieť“ alebo „zamietnuť“"),
    ("player", '"zuzana"', "player: neznámy hráč „zuzana“"),
    ("word", '"K2"', "word: „K2“: sporné slovo sú len písmená (najviac 40)"),
])
def test_a_bad_protest_is_a_scenario_error_on_its_line(tmp_path: Path, key: str, value: str,
                                                       message: str) -> None:
    extra = BAD.replace(f'\n{key} = ', f'\n{key} = {value}\n# was: ', 1)
    path = with_protests(tmp_path, extra)
    line = SMALL.read_text("utf-8").count("\n") + extra.split(f"\n{key} = ")[0].count("\n") + 2
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(path), out, err) == 2
    assert err.getvalue().strip() == f"{path}:{line}: [[protest]] č. 4: {message}"


def hall(tmp_path: Path, extra: str = "") -> Path:
    """The small scenario played in a hall: the arbiter opens, types and closes each round."""
    path = with_protests(tmp_path, extra)
    path.write_text(path.read_text("utf-8").replace('mode = "online"', 'mode = "hall"', 1),
                    encoding="utf-8")
    return path


RACK_1 = '\n[[event]]\ntype = "rack"\nround = 1\nrack = "{rack}"\n'


def test_a_hall_game_at_the_console_ends_as_the_same_game_online(
        tmp_path: Path, small: dict[str, Any]) -> None:
    """003 "opisované scrabble": the arbiter types round 1's rack as drawn from the bag and
    draws the others from the seed, types the slips he collected (the one after the limit is
    late, 003 r. 19) and closes each round — the same racks, scores, standings, words and
    refusals as the online game; the transcript shows his console."""
    document = rehearse_json(hall(tmp_path, RACK_1.format(rack="ŤRKNIÁA")))
    # but for one slip: Anna's second slip of round 2 replaces her first online (003 r. 41,
    # Interpretation); in a hall two paper slips handed in count neither (r. 42, issue 35)
    online = outcomes(small)
    assert online[(2, "Anna Nováková")] == ("scored", 10, "003 r. 45")
    online[(2, "Anna Nováková")] = ("several-slips", 0, "003 r. 42; slips.several = none")
    assert outcomes(document) == online
    assert document["refusals"] == small["refusals"]
    assert document["words"] == [w for w in small["words"] if (w["round"], w["word"]) != (
        2, "KILA")]  # a slip that counts for nothing rules on no word
    points = {s["player"]: s["points"] for s in small["standings"]}
    points["Anna Nováková"] -= 10
    assert {s["player"]: s["points"] for s in document["standings"]} == points
    assert [r["rack"] for r in document["games"][0]["rounds"]] == [
        r["rack"] for r in small["games"][0]["rounds"]]
    lines = document["transcript"]
    console = [line.split("] ", 2)[-1].split(" → ")[0] for line in lines if "[sála]" in line]
    assert console[:3] == ["stredisko duplicate rack duplikat-maly 1 „ŤRKNIÁA“",
                           "stredisko duplicate slip duplikat-maly 1 „Anna Nováková“ "
                           "„H6 NIŤ“ --declared 18",
                           "stredisko duplicate slip duplikat-maly 1 „Boris Kováč“ "
                           "„8H NIŤ“ --declared 18"]
    assert "stredisko duplicate close duplikat-maly 1" in console
    assert "stredisko duplicate draw duplikat-maly 2" in console
    assert any("Lístok prijatý po limite" in line and "Cyril Ďurica" in line for line in lines)
    # the console shows what the arbiter types: the late slip with --late (without it the real
    # command would take it as handed in on time)
    [late] = [c for c in console if c.startswith("stredisko duplicate slip duplikat-maly 2 "
                                                  "„Cyril Ďurica“")]
    assert late.endswith(" --late"), late
    assert all(not c.endswith("--late") for c in console if c != late)
    assert not any("/tah" in line for line in lines)  # nobody hands in slips by Discord


def test_a_rack_that_cannot_be_is_a_scenario_error_on_its_line(tmp_path: Path) -> None:
    path = hall(tmp_path, RACK_1.format(rack="QQQ"))
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(path), out, err) == 2
    rows = path.read_text("utf-8").splitlines()
    line = len(rows) - rows[::-1].index("[[event]]")  # the rack event's header
    assert err.getvalue().strip() == (
        f"{path}:{line}: [[event]] č. 15: Zásobník odmietnutý: písmeno Q v tejto súprave "
        "kameňov nie je (003 r. 1, 31).")


def test_an_online_game_takes_no_typed_rack(tmp_path: Path) -> None:
    """Online the program draws every rack (003 r. 11): a typed one is a scenario error."""
    path = with_protests(tmp_path, RACK_1.format(rack="AIKNRÁŤ"))
    out, err = io.StringIO(), io.StringIO()
    assert run_command(str(path), out, err) == 2
    assert "zásobník píše rozhodca len v sále" in err.getvalue()
