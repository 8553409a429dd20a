"""The crosstable of the results page, read as chess-results or TSH pages are read.

A cell shows the player's result first (1, 0, ½; K a loss by forfeit, 1K a win by forfeit; a
double forfeit 0:0 is K for both), then the opponent's rank and who started (Z the player
started, D the opponent did — not "+"/"−", which chess and TSH readers take for a win or a
loss), then the score. A legend above the table says so. The rank and name columns stay at
the left and the points column at the right while the rounds scroll between them on a phone.
"""

from __future__ import annotations

from bot.i18n import t
from bot.publish.cells import player_cell, scroll
from bot.publish.report import TournamentReport
from bot.publish.safe_html import escape
from bot.publish.slovak import game_points, number
from rules.model import End, Result


def crosstable(report: TournamentReport) -> str:
    """The legend and the table (a paragraph saying so when nothing was played yet)."""
    numbers = sorted(report.rounds)
    if not report.standings or not numbers:
        return '<p class="empty">Zatiaľ sa nehralo.</p>'
    rank = {s.player: s.rank for s in report.standings}
    games = {(player, n): result for n, player, result in report.games()}
    head = "".join(f'<th class="game">{n}.</th>' for n in numbers)
    rows = []
    for s in report.standings:
        cells = "".join(cell(s.player, n, games.get((s.player, n)), rank) for n in numbers)
        rows.append(
            f'<tr><td class="num rank">{s.rank}.</td>{player_cell(report, s.player)}'
            f'{cells}<td class="num total">{number(s.points)}</td></tr>'
        )
    table = (
        '<table class="cross"><thead><tr><th class="num rank">#</th><th class="player">Hráč</th>'
        f'{head}<th class="num total">{t("page.points")}</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
    )
    return f'<p class="legend">{t("page.cross_legend")}</p>' + scroll(table, "Krížová tabuľka")


def symbol(result: Result, player: str) -> tuple[str, str]:
    """The result as the cell's first line shows it and its class: ("1", "win"), ("K", …)."""
    points = result.points_of(player)
    if player in result.forfeited:
        return t("page.forfeit_loss"), "forfeit-loss"
    shown = game_points(points)
    if result.forfeited:  # forfeited against the opponent only
        return shown + t("page.forfeit_win"), "forfeit-win"
    if result.second is None:
        return shown, "alone"
    other = result.points_of(result.case.opponent(player) or "")
    return shown, "win" if points > other else "loss" if points < other else "draw"


def cell(player: str, n: int, result: Result | None, rank: dict[str, int]) -> str:
    if result is None:
        return f'<td class="game none" data-round="{n}">—</td>'
    shown, kind = symbol(result, player)
    tip = {"forfeit-loss": "page.forfeit_loss_tip", "forfeit-win": "page.forfeit_win_tip"}
    title = f' title="{escape(t(tip[kind]))}"' if kind in tip else ""
    top = f'<span class="res {kind}"{title}>{escape(shown)}</span>'
    if result.second is None:
        label = t("page.bye") if result.case.end is End.BYE else t("page.missed")
        who = f'<span class="opp">{escape(label)}</span>'
        attrs = 'data-opponent=""'
    else:
        opponent = result.case.opponent(player) or ""
        started = result.first == player
        letter = t("page.started") if started else t("page.second")
        tip_key = "page.started_tip" if started else "page.second_tip"
        who = (
            f'<span class="opp">{rank.get(opponent, "?")} · '
            f'<abbr class="start" title="{escape(t(tip_key))}">{escape(letter)}</abbr></span>'
        )
        attrs = (
            f'data-opponent="{escape(opponent)}" '
            f'data-start="{"first" if started else "second"}"'
        )
    score = f"{result.score_of(player)}:{result.conceded_by(player)}"
    return (
        f'<td class="game {kind}" data-round="{n}" data-result="{escape(shown)}" {attrs}>'
        f'{top}{who}<span class="sc">{score}</span></td>'
    )
