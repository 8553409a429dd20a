"""The static page of a season's ladder (issue 14), in the style of the results page: the same
stylesheet, no script, no resource from the network, every text escaped (names are user input).

The words are the CLI's and the chat's (`bot.services.season.ladder`, the catalogue's
`season.*`), so the page says exactly what they say: each row's counted and not counted events, the
cut line, every tie with the criterion that decided it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.i18n import SLOVAK
from bot.publish.cells import scroll as _scroll
from bot.publish.html import CSP, _section, page_css, write_page
from bot.publish.safe_html import escape
from bot.publish.slovak import number
from bot.services.season.ladder import (
    SeasonView,
    by_place,
    code_text,
    counted_text,
    cut_line,
    not_counted_text,
    parts_of,
    pending_lines,
    tie_line,
    title,
)
from rules.season import LadderRow


def write_season_page(view: SeasonView, directory: str | Path) -> Path:
    """Write `index.html` into `directory` atomically, as the results page does."""
    return write_page(render_season(view), directory)


def render_season(view: SeasonView) -> str:
    css = page_css("season.css")
    heading = escape(view.ladder.season)
    sections = [_section("rebricek", "Rebríček", _ladder(view))]
    if view.ladder.ties:
        sections.append(_section("rovnosti", "Rovnosti bodov", _ties(view)))
    for n, (name, part) in enumerate(parts_of(view.ladder), start=1):  # ČAS: its ladders
        part_view = dataclasses.replace(view, ladder=part)
        body = _ladder(part_view) + (_ties(part_view) if part.ties else "")
        heading = code_text("group", name)
        sections.append(_section(f"cast-{n}", escape(heading[:1].upper() + heading[1:]), body))
    sections.append(_section("podujatia", "Podujatia", _events(view)))
    pending = "".join(f'<p class="meta pending">{escape(line)}</p>'
                      for line in pending_lines(view, SLOVAK))
    notes = "".join(f'<p class="meta">{escape(code_text("note", n))}</p>'
                    for n in view.ladder.notes)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="sk"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{heading} — rebríček</title><style>{css}</style></head><body>"
        f"<header><h1>{heading}</h1>"
        f'<p class="meta">{escape(title(view, SLOVAK))}</p>'
        f'<p class="meta">{escape(cut_line(view, SLOVAK) or "")}</p>{pending}{notes}</header>'
        f"<main>{''.join(sections)}</main>"
        f"<footer><p>Rebríček podľa {escape(view.ladder.rule)}: čo sa komu započítalo a "
        "prečo, uvádza každý riadok.</p></footer></body></html>\n"
    )


def _items(items: list[str]) -> str:
    if not items:
        return "—"
    return '<ul class="items">' + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


def _row(view: SeasonView, row: LadderRow, cut: bool) -> str:
    classes = " ".join(c for c in ("qualified" if row.qualified else "in",
                                   "cut" if cut else "") if c)
    group = escape(code_text("group", row.group)) if row.group else ""
    return (
        f'<tr class="{classes}"><td class="num rank">{row.rank}.</td>'
        f'<td class="player" data-player="{escape(row.player)}">{escape(view.name(row.player))}'
        f'<span class="nick">{escape(row.player)}</span></td>'
        f'<td class="num total">{_total(row)}</td>'
        f'<td class="group">{"áno" if row.qualified else "nie"}{" — " + group if group else ""}'
        f'</td><td class="reason counted">'
        f'{_items([counted_text(c) for c in row.counted])}</td>'
        f'<td class="reason skipped">'
        f'{_items([not_counted_text(n) for n in row.not_counted])}</td></tr>'
    )


def _total(row: LadderRow) -> str:
    place = by_place(row)  # a ladder that is one event's order has places, not points
    return number(row.total, 2) if place is None else f"{place}. miesto"


def _ladder(view: SeasonView) -> str:
    if not view.ladder.rows:
        return '<p class="empty">Zatiaľ nikto nemá body.</p>'
    last = view.last_qualified
    rows = "".join(_row(view, r, r is last) for r in view.ladder.rows)
    table = (
        '<table class="ladder"><thead><tr><th class="num">#</th><th>Hráč</th>'
        '<th class="num">Body</th><th>Postup</th><th>Započítané</th><th>Nezapočítané</th>'
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )
    rule = f'<p class="meta">Rebríček podľa {escape(view.ladder.rule)}.</p>'
    return rule + _scroll(table, "Rebríček")


def _ties(view: SeasonView) -> str:
    return _items([tie_line(view, tie, SLOVAK) for tie in view.ladder.ties])


def _events(view: SeasonView) -> str:
    rows = "".join(
        f"<tr><td>{escape(e.date.strftime('%-d. %-m. %Y'))}</td><td>{escape(e.name)}</td>"
        f"<td>{escape(code_text('kind', e.kind))}</td><td class=\"num\">{e.size}</td></tr>"
        for e in sorted(view.season.events, key=lambda e: (e.date, e.name)))
    table = ('<table class="events"><thead><tr><th>Dátum</th><th>Podujatie</th><th>Druh</th>'
             f'<th class="num">Hráčov</th></tr></thead><tbody>{rows}</tbody></table>')
    return _scroll(table, "Podujatia")
