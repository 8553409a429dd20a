"""The console progress bar: in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

import io

from bot.progress import Progress, Steps, bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_fills_in_proportion() -> None:
    assert bar(0, 4, width=8) == "[--------] 0/4"
    assert bar(1, 4, width=8) == "[##------] 1/4"
    assert bar(4, 4, width=8) == "[########] 4/4"
    assert bar(0, 0, width=4) == "[####] 0/0"  # nothing to fetch is done


def test_a_terminal_sees_one_line_redrawn() -> None:
    out = Terminal()
    progress = Progress("herna.net", out)
    for n in range(1, 4):
        progress(n, 3)
    text = out.getvalue()
    assert text.count("\r") == 3 and text.count("\n") == 1 and text.endswith("3/3\n")


def test_a_log_gets_a_line_a_step() -> None:
    out = io.StringIO()
    progress = Progress("herna.net", out)
    progress(1, 2)
    progress(2, 2)
    assert out.getvalue() == "herna.net 1/2\nherna.net 2/2\n"


def test_steps_number_each_step_and_draw_a_long_count_a_few_times() -> None:
    out = Terminal()
    steps = Steps("stredisko:", 2, out, parts=4)
    first = steps("čítam")
    for n in range(1, 101):
        first(n, 100)
    steps("zapisujem")(1, 1)
    lines = out.getvalue().split("\n")
    assert lines[0].split("\r")[1:] == ["stredisko: 1/2 čítam …", *(
        f"stredisko: 1/2 čítam {bar(n, 100)}" for n in (1, 26, 51, 76, 100))]
    assert lines[1].endswith("stredisko: 2/2 zapisujem [########################] 1/1")


def test_a_stopped_step_ends_its_line() -> None:
    out = Terminal()
    steps = Steps("stredisko:", 3, out)
    steps("čítam")(5, 10)
    steps.stop()
    steps.stop()  # once
    assert out.getvalue().endswith("5/10\n") and out.getvalue().count("\n") == 1
