"""The online screlo chart: an inline SVG of diverging bars, one per player (no script).

Each row has a text line ("name: before → after") and under it a bar from the zero line,
green to the right for a gain, red to the left for a loss, with the change written at its end.
The SVG scales to its container's width through its viewBox, so it fits a phone.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import screlo_change_shown, screlo_shown
from bot.publish.report import ScreloChange
from bot.publish.safe_html import escape
from bot.publish.slovak import number, signed

WIDTH = 400
ROW = 44  # height of one player's row in viewBox units
LABEL_Y = 15  # baseline of the text line inside a row
BAR_Y = 21
BAR_HEIGHT = 15
CENTER = WIDTH / 2
MAX_BAR = 125  # leaves room for the value label beside the longest bar
MAX_LABEL = 28  # characters of a name an SVG text line can hold at this width


def _short(name: str) -> str:
    return name if len(name) <= MAX_LABEL else name[: MAX_LABEL - 1] + "…"


def screlo_chart(changes: Mapping[str, ScreloChange], names: Mapping[str, str]) -> str:
    """The SVG markup; players ordered by change (largest gain first), then by name."""
    if not changes:
        return ""
    order = sorted(changes, key=lambda p: (-changes[p].delta, names[p]))
    largest = max(abs(changes[p].delta) for p in order) or 1.0
    height = ROW * len(order) + 8
    rows: list[str] = []
    for i, player in enumerate(order):
        c = changes[player]
        # the shown change (as the chat shows it) decides the colour and direction
        delta = screlo_change_shown(c.before.value, c.after.value)
        top = i * ROW + 4
        length = abs(c.delta) / largest * MAX_BAR
        kind = "pos" if delta > 0 else "neg" if delta < 0 else "zero"
        x = CENTER if delta >= 0 else CENTER - length
        if delta >= 0:
            value_x, anchor = CENTER + length + 6, "start"
        else:
            value_x, anchor = CENTER - length - 6, "end"
        before = number(screlo_shown(c.before.value))
        after = number(screlo_shown(c.after.value))
        label = f"{_short(names[player])}: {before} → {after}"
        full = f"{names[player]}: {before} → {after} ({signed(delta)})"
        rows.append(
            f'<g class="bar {kind}" data-player="{escape(player)}">'
            f"<title>{escape(full)}</title>"
            f'<text class="label" x="4" y="{top + LABEL_Y}">{escape(label)}</text>'
            f'<line class="axis" x1="{CENTER}" y1="{top + BAR_Y - 3}" x2="{CENTER}" '
            f'y2="{top + BAR_Y + BAR_HEIGHT + 3}"/>'
            f'<rect x="{x:.1f}" y="{top + BAR_Y}" width="{max(length, 1.5):.1f}" '
            f'height="{BAR_HEIGHT}" rx="2"/>'
            f'<text class="value" x="{value_x:.1f}" y="{top + BAR_Y + 12}" '
            f'text-anchor="{anchor}">{escape(signed(delta))}</text></g>'
        )
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="screlo-title" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="screlo-title">Zmeny online screla po turnaji</title>'
        + "".join(rows)
        + "</svg>"
    )
