"""Pieces every table of the results page shares: the scrolling box and a player's name cell."""

from __future__ import annotations

from bot.publish.report import TournamentReport
from bot.publish.safe_html import escape


def scroll(table: str, label: str) -> str:
    """A table in its own horizontally scrolling box, so the page itself never gets wider."""
    return f'<div class="scroll" role="region" tabindex="0" aria-label="{label}">{table}</div>'


def player_cell(
    report: TournamentReport, player: str, extra: str = "", classes: str = ""
) -> str:
    """The name (and herna.net nick) of a player; `extra` is trusted markup put after them,
    `classes` more classes of the cell (trusted, e.g. "first won")."""
    p = report.players[player]
    nick = f'<span class="nick">{escape(p.nick)}</span>' if p.nick else ""
    cls = f"player {classes}".strip()
    return f'<td class="{cls}" data-player="{escape(player)}">{escape(p.name)}{extra}{nick}</td>'
