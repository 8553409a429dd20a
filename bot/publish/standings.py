"""The standings table of the results page.

Columns in the order a phone reader needs them: rank, name, points and qualification points
first (they fit a 390 px screen without scrolling, and rank and name stay in view while the
rest scrolls), then the W–L(–D) record, the spread, the profile's other tie-break criteria in
their order and the online screlo before and after the tournament. A player outside the
ranking keeps an ordinary row: the reason is a numbered note under the table, not a tall cell.
"""

from __future__ import annotations

from collections import Counter

from bot.i18n import screlo_shown, t
from bot.publish.cells import player_cell, scroll
from bot.publish.report import TournamentReport
from bot.publish.safe_html import escape
from bot.publish.slovak import CRITERION_LABELS, number, signed
from rules.model import Standing

TIE = ' <span class="tie" title="rovnosť vo všetkých kritériách: rozhodlo nasadenie">*</span>'
#: criteria shown in columns of their own, not among the tie-breaks
OWN_COLUMNS = ("points", "spread")


def records(report: TournamentReport) -> dict[str, Counter[str]]:
    """Each player's wins, losses and draws by his game points (1 / 0 / ½; a double forfeit
    0:0 is a loss for both, a bye with its point a win)."""
    counts: dict[str, Counter[str]] = {p: Counter() for p in report.players}
    for _, player, result in report.games():
        points = result.points_of(player)
        kind = "loss" if points <= 0 else "win" if points >= 1 else "draw"
        counts[player][kind] += 1
    return counts


def _record(count: Counter[str], draws: bool) -> str:
    parts = [count["win"], count["loss"], *([count["draw"]] if draws else [])]
    return "–".join(str(n) for n in parts)


def _criterion(s: Standing, criterion: str) -> str:
    value = getattr(s, criterion)
    return number(value, 2) if isinstance(value, float) else str(value)  # Neustadtl has ¼s


def _head(text: str, tip: str, kind: str = "num") -> str:
    return f'<th class="{kind}" title="{escape(tip)}">{escape(text)}</th>'


def standings(report: TournamentReport) -> str:
    if not report.standings:
        return '<p class="empty">Poradie zatiaľ nie je k dispozícii.</p>'
    tiebreaks = [c for c in report.criteria if c not in OWN_COLUMNS]
    counts = records(report)
    draws = any(c["draw"] for c in counts.values())
    started = bool(report.rounds)  # qualification points only once there are results
    heads = [
        '<th class="num rank">#</th><th class="player">Hráč</th>',
        _head(*CRITERION_LABELS["points"], kind="num points"),
        _head(t("page.qualification"), t("page.qualification_tip"), kind="num qp"),
        _head(t("page.record_draws" if draws else "page.record"), t("page.record_tip")),
        _head(t("page.spread"), t("page.spread_tip")),
        *(_head(*CRITERION_LABELS[c]) for c in tiebreaks),
    ]
    screlo: tuple[str, ...] = (
        ("before", "after") if report.screlo else ("before",) if report.seeds else ())
    heads += [_head(t(f"page.screlo_{k}"), t("page.screlo_tip")) for k in screlo]
    if any(c.registry is not None for c in report.screlo.values()):  # issue 44.1
        screlo += ("now",)
        heads.append(_head(t("page.screlo_now"), t("page.screlo_now_tip")))
    rows, notes = [], []
    for s in report.standings:
        out = report.out_reason(s)
        mark = ""
        if out:
            notes.append((len(notes) + 1, s.player, out))
            mark = f'<sup class="out-mark" title="{escape(t("page.out_mark"))}">{len(notes)}</sup>'
        cells = [
            f'<td class="num rank">{s.rank}.{TIE if s.tied else ""}</td>',
            player_cell(report, s.player, mark),
            f'<td class="num points">{number(s.points)}</td>',
            f'<td class="num qp">{s.qualification_points if started and not out else "—"}</td>',
            f'<td class="num record">{_record(counts[s.player], draws)}</td>',
            f'<td class="num spread">{signed(s.spread, 0)}</td>',
            *(f'<td class="num">{_criterion(s, c)}</td>' for c in tiebreaks),
        ]
        change = report.screlo.get(s.player)
        values = {"before": report.screlo_before(s.player),
                  "after": change.after.value if change else None,
                  "now": None if change is None else (change.registry or change.after).value}
        cells += [f'<td class="num screlo">{_screlo(values[k])}</td>' for k in screlo]
        rows.append(f'<tr class="{"out" if out else "in"}">{"".join(cells)}</tr>')
    rule = f'<p class="meta">Poradie podľa {escape(report.standings_rule)}.</p>'
    table = (
        f'<table class="standings"><thead><tr>{"".join(heads)}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    return (rule if report.standings_rule else "") + scroll(table, "Poradie") + _notes(
        report, notes
    )


def _notes(report: TournamentReport, notes: list[tuple[int, str, str]]) -> str:
    if not notes:
        return ""
    items = "".join(
        f'<li data-player="{escape(player)}"><sup>{n}</sup> {escape(report.name_of(player))}: '
        f'<span class="reason">{escape(reason)}</span></li>'
        for n, player, reason in notes
    )
    return f'<div class="out-notes"><p>{t("page.out_notes")}</p><ul>{items}</ul></div>'


def _screlo(value: float | None) -> str:
    """A screlo rounded as the chat rounds it (bot.i18n.screlo_shown)."""
    return "—" if value is None else number(screlo_shown(value))
