"""Render herna.net's pages from records with the templates in `templates/` (the simulator's
HTML, and the source of the saved test pages). Layout details come from `layout.py`."""

from __future__ import annotations

import html
import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from functools import cache
from importlib import resources
from string import Template

import scrapers.herna.layout as layout
from scrapers.herna.records import EndKind, GameRecord

_LETTERS = "AÁÄBCČDĎEÉFGHIÍJKLĹĽMNŇOÓÔPRŔSŠTŤUÚVXYÝZŽ"
_COLUMNS = "ABCDEFGHIJKLMNO"


@cache
def _template(name: str) -> Template:
    text = resources.files("scrapers.herna").joinpath("templates", name).read_text("utf-8")
    return Template(text)


def _fill(name: str, **values: object) -> str:
    """Fill a template; every value is escaped (nicks are user input)."""
    return _template(name).substitute({k: html.escape(str(v)) for k, v in values.items()})


def _page(title: str, content: str, user: str) -> str:
    return _template("page.html").substitute(
        title=html.escape(title), content=content, user=html.escape(user)
    )


def login_page(error: str | None = None, next_url: str = "") -> str:
    shown = f'<p class="chyba">{html.escape(error)}</p>' if error else ""
    body = _template("login.html").substitute(error=shown, next=html.escape(next_url))
    return _page("Prihlásenie", body, "")


def home_page(user: str) -> str:
    return _page("Úvod", _fill("home.html", user=user), user)


def history_page(
    games: Sequence[GameRecord], page: int, pages: int, nick: str | None = None, user: str = ""
) -> str:
    """One page of the archive; `games` are that page's games, newest first."""
    rows = "".join(
        _fill(
            "history_row.html",
            url=layout.game_url(g.game_id),
            game_id=g.game_id,
            started=layout.page_time(g.started),
            first=g.first,
            second=g.second,
            first_score=g.first_score,
            second_score=g.second_score,
            status=layout.status_text(g.end, g.ended_on),
        )
        for g in games
    )
    if not games:
        rows = '    <tr><td class="ziadne" colspan="5">Žiadne partie.</td></tr>\n'
    newer = older = ""
    if page > 1:
        newer = (
            f'<a rel="prev" href="{html.escape(layout.history_url(nick, page - 1))}">« Novšie</a>'
        )
    if page < pages:
        older = (
            f'<a rel="next" href="{html.escape(layout.history_url(nick, page + 1))}">Staršie »</a>'
        )
    who = f" – {html.escape(nick)}" if nick else ""
    body = _template("history.html").substitute(
        who=who, rows=rows, page=page, pages=pages, newer=newer, older=older
    )
    return _page("Archív partií", body, user)


def game_page(record: GameRecord, user: str = "") -> str:
    players = "".join(
        _fill(
            "player_row.html",
            nick=nick,
            starts=layout.STARTER_MARK if nick == record.first else "",
            score=record.score_of(nick),
        )
        for nick in _seat_order(record)
    )
    moves = "\n".join(
        html.escape(
            layout.MOVE_LINE.format(no=no, nick=nick, move=move, points=points, total=total)
        )
        for no, (nick, move, points, total) in enumerate(_moves(record), start=1)
    )
    body = _template("game.html").substitute(
        game_id=html.escape(record.game_id),
        tempo=html.escape(record.settings.tempo),
        language=html.escape(record.settings.language),
        dictionary=html.escape(record.settings.dictionary),
        started=layout.page_time(record.started),
        ended=layout.page_time(record.ended) if record.ended else layout.NO_TIME,
        status=html.escape(layout.status_text(record.end, record.ended_on)),
        players=players,
        moves=moves,
    )
    return _page(f"Partia č. {record.game_id}", body, user)


def in_progress(record: GameRecord, now: datetime) -> GameRecord:
    """How a finished game looked at `now`, while it was still being played."""
    if record.ended is None or now >= record.ended:
        return record
    span = (record.ended - record.started).total_seconds() or 1.0
    part = min(max((now - record.started).total_seconds() / span, 0.0), 1.0)
    return replace(
        record,
        end=EndKind.UNFINISHED,
        ended_on=None,
        ended=None,
        first_score=int(record.first_score * part),
        second_score=int(record.second_score * part),
        first_moves=int(record.first_moves * part),
        second_moves=int(record.second_moves * part),
    )


def _seat_order(record: GameRecord) -> tuple[str, str]:
    """Seats on the page do not follow who started (the parser must read the mark)."""
    return tuple(sorted(record.nicks, key=str.casefold))  # type: ignore[return-value]


def _moves(record: GameRecord) -> list[tuple[str, str, int, int]]:
    """A plausible, deterministic move list: (nick, move, points, running total)."""
    rng = random.Random(record.game_id)
    turns: list[str] = []
    left = {record.first: record.first_moves, record.second: record.second_moves}
    while any(left.values()):
        for nick in record.nicks:
            if left[nick]:
                turns.append(nick)
                left[nick] -= 1
    points = {nick: _split(record.score_of(nick), record.moves_of(nick), rng) for nick in left}
    totals = dict.fromkeys(left, 0)
    out = []
    for nick in turns:
        gained = points[nick].pop()
        totals[nick] += gained
        word = "".join(rng.choice(_LETTERS) for _ in range(rng.randint(2, 7)))
        where = f"{rng.choice(_COLUMNS)}{rng.randint(1, 15)}"
        out.append((nick, f"{where} {word}", gained, totals[nick]))
    return out


def _split(total: int, parts: int, rng: random.Random) -> list[int]:
    if parts == 0:
        return []
    if total <= 0:
        return [total] + [0] * (parts - 1)
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
