"""The console progress bar: in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

import io

from bot.progress import Progress, bar


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
