"""`stredisko demo`: the built-in example tournament, scored by `rules`, printed in Slovak."""

from __future__ import annotations

import pytest

from bot.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _standings(out: str) -> list[list[str]]:
    """The rows under the "Poradie" heading, split into columns."""
    lines = out.splitlines()
    start = lines.index("Poradie") + 2  # skip the heading and the column names
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_demo_prints_the_standings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "demo")
    assert (code, err) == (0, "")
    assert "Por.  Hráč     Body Výhry M-Buchholz Buchholz Skóre Kval. body" in out
    rows = _standings(out)
    # rank, player, points, wins, median Buchholz, Buchholz, score, qualification points
    assert rows[0] == ["1.", "Šimon", "3", "3", "2", "4", "1247", "40"]
    assert rows[1] == ["2.", "Mária", "2", "2", "1,5", "4,5", "1201", "35"]
    assert rows[3] == ["4.", "Ján", "2", "1", "1,5", "4", "957", "30"]  # fewer wins than 2., 3.
    assert [r[1] for r in rows] == [
        "Šimon", "Mária", "Zuzana", "Ján", "Žofia", "Peter", "Tomáš", "Ľubica", "Igor",
    ]  # fmt: skip
    # Igor is excluded (e-SP 3.6 a): ranked by his games, no points, and place 9's 24 points
    # go to nobody
    assert rows[-1] == ["9.✗", "Igor", "0", "0", "0", "3,5", "0", "0"]
    assert [int(r[-1]) for r in rows] == [40, 35, 32, 30, 28, 27, 26, 25, 0]


@pytest.mark.parametrize(
    "game",
    [
        "Mária – Peter      450:400  1:0     e-SP 4.8, 4.9  (odpojenie",  # lead 20 -> 50
        "Žofia – Ján        300:300  0,5:0,5 e-SP 3.5  (remíza dohodou)",  # 420:300 -> 300:300
        "Zuzana – Igor      100:0    1:0     e-SP 4.3, 4.9  (nedostavenie sa",
        "Tomáš               20:0    1       e-SP 4.9  (voľno)",
        "Žofia – Zuzana       0:50   0:1     e-SP 4.6, 4.9  (zlyhalo uloženie",
        "Ľubica – Mária     390:350  0:1     e-SP 3.5  (prehra na čas)",
    ],
)
def test_demo_lists_each_game_with_its_rule(capsys: pytest.CaptureFixture[str], game: str) -> None:
    _, out, _ = _run(capsys, "demo")
    assert game in out


def test_demo_names_the_exclusion(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "demo")
    assert "  Igor: e-SP 3.6 a): 2 partie prehraté kontumačne bez vlastného ťahu" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--profil", "nic"], "stredisko: chyba: profile 'nic' not found"),
        # the example has an agreed draw, which the live rules do not know
        (["demo", "--profil", "sss-live"], "stredisko: chyba: end: 'agreed_draw' does not exist"),
    ],
)
def test_errors_are_one_line_and_a_non_zero_exit(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_a_subcommand_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    assert "PRÍKAZ" in capsys.readouterr().err
