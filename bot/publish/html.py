"""The static results page of one online tournament: standings, crosstable, rounds, screlo.

One self-contained `index.html` (the stylesheet is inlined) with no script and no resource from
the network, so it can be uploaded anywhere or sent as a file. Every piece of text from the
report goes through `escape`: player names and nicks are user input. A Content-Security-Policy
forbids scripts outright, so even a missed escape could not run code.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from bot.publish.cells import player_cell, scroll
from bot.publish.chart import screlo_chart
from bot.publish.crosstable import crosstable
from bot.publish.report import TournamentReport
from bot.publish.safe_html import escape
from bot.publish.slovak import STATUS_LABELS, forfeit_note, game_points, how_it_ended, local_time
from bot.publish.standings import standings

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'"


def write_results_page(report: TournamentReport, directory: str | Path) -> Path:
    """Write `index.html` into `directory` (created if missing) and return its path."""
    return write_page(render(report), directory)


def write_page(page: str, directory: str | Path) -> Path:
    """Write `page` as `index.html` into `directory` (created if missing) and return its path.

    The file is written next to the old one and then renamed over it, so a visitor never
    gets a half-written page.
    """
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "index.html"
    partial = folder / ".index.html.part"
    partial.write_text(page, encoding="utf-8")
    os.replace(partial, target)
    return target


def page_css(*extra: str) -> str:
    """The pages' shared stylesheet, then a page's own (`extra`: file names in bot/publish),
    to be inlined."""
    files = resources.files("bot.publish")
    return "".join(files.joinpath(name).read_text(encoding="utf-8")
                   for name in ("style.css", *extra))


def render(report: TournamentReport) -> str:
    """The whole page as a string."""
    css = page_css()
    title = escape(report.name)
    sections = [
        _section("poradie", "Poradie", standings(report)),
        _section("tabulka", "Krížová tabuľka", crosstable(report)),
        _section("kola", "Výsledky kôl", _rounds(report)),
    ]
    if report.screlo:
        names = {p: report.name_of(p) for p in report.screlo}
        chart = screlo_chart(report.screlo, names)
        sections.append(
            _section("screlo", "Zmeny online screla", f'<div class="chart-box">{chart}</div>')
        )
    nav = "".join(
        f'<li><a href="#{anchor}">{label}</a></li>'
        for anchor, label in (
            ("poradie", "Poradie"),
            ("tabulka", "Krížová tabuľka"),
            ("kola", "Kolá"),
            ("screlo", "Screlo"),
        )
        if anchor != "screlo" or report.screlo
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="sk"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{title} — výsledky</title><style>{css}</style></head><body>"
        f"<header><h1>{title}</h1>"
        f'<p class="meta">{escape(report.profile_title)}</p>'
        f'<p class="meta">Stav k {escape(local_time(report.generated_at))}</p>'
        f'<nav aria-label="Obsah"><ul>{nav}</ul></nav></header>'
        f"<main>{''.join(sections)}</main>"
        "<footer><p>Časy sú uvedené v miestnom čase (Bratislava). "
        "Oficiálnym zdrojom informácií je riadiace stredisko turnaja (e-SP 2.6).</p></footer>"
        "</body></html>\n"
    )


def _section(anchor: str, heading: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{heading}</h2>{body}</section>'


def _won(first: float, second: float | None) -> tuple[str, str]:
    """Classes of the two player cells: the one with more points "won" (his name in bold, so
    that "355:402" beside "1 : 0" cannot read as the lower score winning)."""
    if second is None or first == second:
        return "", ""
    return ("won", "lost") if first > second else ("lost", "won")


def _rounds(report: TournamentReport) -> str:
    if not report.rounds:
        return '<p class="empty">Zatiaľ nie sú žiadne výsledky.</p>'
    names = {p: report.name_of(p) for p in report.players}
    parts = []
    for n in sorted(report.rounds):
        start = report.round_starts.get(n)
        when = (
            f'<p class="meta">Oficiálny začiatok: {escape(local_time(start))}</p>' if start else ""
        )
        rows = []
        for t in sorted(report.rounds[n], key=lambda t: t.table):
            r = t.result
            won = _won(r.first_points, r.second_points if r.second else None)
            second = (player_cell(report, r.second, classes=f"second {won[1]}") if r.second
                      else '<td class="player second">—</td>')
            points = game_points(r.first_points)
            if r.second:
                points += f" : {game_points(r.second_points)}"
            forfeit = forfeit_note(r, names)
            note = f'<span class="forfeit">{escape(forfeit)}</span>' if forfeit else ""
            first = player_cell(report, r.first, classes=f"first {won[0]}")
            rows.append(
                f'<tr class="{"forfeited" if forfeit else "played"}">'
                f'<td class="num tableno">{t.table}</td>{first}{second}'
                f'<td class="num score">{r.first_score}:{r.second_score}</td>'
                f'<td class="num points">{points}</td>'
                f'<td class="end">{escape(how_it_ended(r, names))}{note}</td>'
                f'<td class="rule">{escape(r.rule)}</td>'
                f'<td class="status {t.status.value}">{STATUS_LABELS[t.status]}</td></tr>'
            )
        table = (
            '<table class="round"><thead><tr><th class="num">Stôl</th><th>Začína</th>'
            "<th>Druhý</th><th>Skóre</th><th>Body</th><th>Ako sa skončila</th>"
            f"<th>Pravidlo</th><th>Stav</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
        parts.append(
            f'<section class="round-block" id="kolo-{n}"><h3>{n}. kolo</h3>{when}'
            f"{scroll(table, f'{n}. kolo')}</section>"
        )
    return "".join(parts)
