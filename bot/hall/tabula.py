"""The hall's demonstration board as a page (issue 41.1; 003 r. 14, 15, 18, 22, 24–26, 32): what
the arbiter's laptop shows full screen on the projector, and `/stav.json`, the same state for
other displays. Served by `stredisko duplicate tabula SLUG` on 127.0.0.1 unless told otherwise.

Like the word page (`bot.hall.page`) it has no script and no external asset (the CSP forbids
both): it works with no network and nothing can be injected. It follows the event by reloading
itself every second (`<meta http-equiv="refresh">`): every render reads the store, so the page
is never more than a second behind the arbiter, and the clock it shows is the stored deadline
against the server's clock — a reload, a second screen or a restarted laptop show the same.

Readable from the back of a hall: sizes in viewport units (the rack's letters about 9 % of the
height at 16:9), white or amber on black and black on cream (contrast above 7:1), the
30-second mark and the end said in words and shown by a shape (a dashed frame and ▲, an
inverted box and ■), not by colour alone (003 r. 18). Long lists are cut to what fits and
counted ("… a ďalšie: n"), so nothing scrolls or overflows at 1024×768 to 1920×1080.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.i18n import SLOVAK, t
from bot.publish.safe_html import escape
from rules.duplicate.board import STANDARD_LAYOUT

CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
REFRESH_S = 1
STANDINGS_ROWS = 8  # beside the board, after a part
RESULTS_ROWS = 14  # the end: the results column
WORD_ROWS = 28  # the end: the words, two columns of 14

STYLE = """
*{box-sizing:border-box;margin:0;padding:0}
html,body{width:100%;height:100%;background:#000;color:#fff;
  font-family:"DejaVu Sans",system-ui,sans-serif}
main{display:grid;grid-template-columns:min(100vh,54vw) 1fr;width:100vw;height:100vh}
.board{display:grid;grid-template-columns:repeat(15,1fr);grid-template-rows:repeat(15,1fr);
  width:min(100vh,54vw);height:min(100vh,54vw);gap:1px;background:#1d4d3b;
  font-size:calc(min(100vh,54vw) / 15 * .58);font-weight:700}
.sq{position:relative;display:flex;align-items:center;justify-content:center;
  background:#d8d2bb;color:#1c1c1c;line-height:1}
.sq.T{background:#cc3434}.sq.D{background:#f0a0a0}.sq.t{background:#2979bd}
.sq.d{background:#a6d3f2}
.sq.tile{background:#f3d9a4}.sq.blank{background:#e4e4e4}
.sq.top{background:#ffc428;outline:.14em solid #c62828;outline-offset:-.14em;z-index:1}
.sq sub{position:absolute;right:.08em;bottom:.04em;font-size:.42em}
.side{display:flex;flex-direction:column;gap:1.4vh;padding:2vh 1.6vw;min-width:0;
  overflow:hidden}
.phase{font-size:min(6vh,3.2vw);font-weight:800;text-transform:uppercase;line-height:1.1}
.where{font-size:min(3.2vh,1.8vw);color:#e8e8e8}
.clock{display:flex;align-items:center;gap:1vw;padding:.6vh 1vw;border:.5vh solid #000}
.clock .digits{font-size:min(15vh,8.4vw);font-weight:800;line-height:1;
  font-variant-numeric:tabular-nums}
.clock .text{font-size:min(3.4vh,1.9vw);font-weight:700}
.clock.posledne{border:.8vh dashed #ffd400;color:#ffd400}
.clock.koniec{background:#fff;color:#000;border:.8vh solid #fff}
.clock.none .digits{color:#e8e8e8}
.rack{display:flex;gap:.08em;font-size:min(10vh,4.9vw);font-weight:800}
.rtile{position:relative;width:1.04em;height:1.18em;display:flex;align-items:center;
  justify-content:center;background:#f3d9a4;color:#1c1c1c;border-radius:.08em;line-height:1}
.rtile sub{position:absolute;right:.06em;bottom:.03em;font-size:.3em}
.label{font-size:min(2.6vh,1.5vw);color:#e8e8e8}
.top,.withheld{font-size:min(3.4vh,1.9vw)}
.top b{color:#ffd400}
.list{flex:1 1 0;min-height:0;overflow:hidden;list-style:none;font-size:min(3vh,1.7vw)}
.list li{display:flex;gap:.6em;line-height:1.3;white-space:nowrap}
.list .rank{min-width:2.2em;text-align:right}
.list .name{flex:1 1 auto;overflow:hidden;text-overflow:ellipsis}
.end{grid-template-columns:2fr 3fr}
.end section{display:flex;flex-direction:column;gap:1.4vh;padding:2vh 1.6vw;min-width:0;
  overflow:hidden}
.end .list{font-size:min(3.4vh,1.9vw)}
.end .words{columns:2;column-gap:2vw;font-size:min(2.8vh,1.5vw)}
.words li{break-inside:avoid;gap:.4em}
.ok{color:#7CFC8A}.no{color:#ffb3b3}
"""


def render_board(state: dict[str, Any], refresh: int = REFRESH_S) -> str:
    """The page of `state` (`bot.services.duplicate.board.board_state`), reloading itself
    every `refresh` seconds."""
    title = t("duplicate.board.title", SLOVAK, event=state["event"])
    body = _end(state) if state["results"] else _play(state)
    return (f'<!DOCTYPE html><html lang="sk"><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="{refresh}">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f'<body class="phase-{state["phase"]}">{body}</body></html>')


def _where(state: dict[str, Any]) -> str:
    if state["game"] is None:
        return t("duplicate.board.no_game", SLOVAK)
    if state["round"] is None:
        return t("duplicate.board.game_only", SLOVAK, game=state["game"])
    return t("duplicate.board.game_round", SLOVAK, game=state["game"], part=state["part"],
             round=state["round"])


def _header(state: dict[str, Any]) -> str:
    return (f'<div class="phase" id="phase">{escape(state["phase_text"])}</div>'
            f'<div class="where" id="where">{escape(state["event"])} · '
            f"{escape(_where(state))}</div>")


def _play(state: dict[str, Any]) -> str:
    parts = [_header(state), _clock(state)]
    if state["rack"]:
        tiles = "".join(_rack_tile(r) for r in state["rack"])
        parts.append(f'<div class="label">{escape(t("duplicate.board.rack", SLOVAK))}</div>'
                     f'<div class="rack" id="rack">{tiles}</div>')
    parts.append(_top(state))
    if state["standings"]:
        label = t("duplicate.board.standings_part", SLOVAK, part=state["standings_after_part"])
        parts.append(f'<div class="label">{escape(label)}</div>')
        parts.append(_standings(state["standings"], STANDINGS_ROWS))
    return (f'<main><section class="board" id="board">{_squares(state)}</section>'
            f'<aside class="side">{"".join(parts)}</aside></main>')


def _clock(state: dict[str, Any]) -> str:
    kind = state["clock"]
    if kind is None:
        return (f'<div class="clock none" id="clock"><span class="digits">–:––</span>'
                f'<span class="text">{escape(t("duplicate.board.clock_none", SLOVAK))}</span>'
                "</div>")
    left = int(state["seconds_left"] or 0)
    text = t(f"duplicate.board.clock_{kind}", SLOVAK, seconds=state["warning_seconds"])
    return (f'<div class="clock {kind}" id="clock" data-seconds="{left}">'
            f'<span class="digits">{left // 60}:{left % 60:02d}</span>'
            f'<span class="text">{escape(text)}</span></div>')


def _rack_tile(tile: dict[str, Any]) -> str:
    letter = "" if tile["letter"] == "?" else escape(tile["letter"])
    return f'<span class="rtile">{letter}<sub>{tile["value"]}</sub></span>'


def _top(state: dict[str, Any]) -> str:
    withheld = state["top_withheld"]
    if withheld:
        return (f'<div class="withheld" id="top">'
                f'{escape(t("duplicate.board.top_withheld", SLOVAK, **withheld))}</div>')
    top = state["last_top"]
    if top is None:
        return ""
    if top["word"] is None:
        none = t("duplicate.board.no_top", SLOVAK, round=top["round"])
        return f'<div class="top" id="top">{escape(none)}</div>'
    head = escape(t("duplicate.board.last_top", SLOVAK, round=top["round"]))
    return (f'<div class="top" id="top">{head}: <b>{escape(top["coord"])} '
            f'{escape(top["word"])}</b> · {top["score"]}</div>')


def _squares(state: dict[str, Any]) -> str:
    marked = {(r, c) for r, c in state["highlight"]}
    cells = []
    for r, row in enumerate(state["board"]):
        for c, ch in enumerate(row):
            if ch == ".":
                cells.append(f'<div class="sq {STANDARD_LAYOUT[r][c]}"></div>'
                             if STANDARD_LAYOUT[r][c] != "." else '<div class="sq"></div>')
                continue
            kind = "blank" if ch.islower() else "tile"
            top = " top" if (r, c) in marked else ""
            cells.append(f'<div class="sq {kind}{top}">{escape(ch.upper())}</div>')
    return "".join(cells)


def _standings(rows: list[dict[str, Any]], limit: int) -> str:
    def row(r: dict[str, Any]) -> str:
        score = t("duplicate.board.standing_row", SLOVAK, points=r["points"],
                  percent=str(r["percent"]).replace(".", ","))  # Slovak decimal comma
        return (f'<li><span class="rank">{r["rank"]}.</span><span class="name">'
                f'{escape(r["name"])}</span><span>{escape(score)}</span></li>')

    shown = "".join(row(r) for r in rows[:limit])
    return f'<ol class="list standings" id="standings">{shown}{_more(len(rows) - limit)}</ol>'


def _more(n: int) -> str:
    return f'<li class="more">{escape(t("duplicate.board.more", SLOVAK, n=n))}</li>' \
        if n > 0 else ""


def _end(state: dict[str, Any]) -> str:
    kind = state["results"]
    results = (f'<section>{_header(state)}<div class="label">'
               f'{escape(t(f"duplicate.board.results_{kind}", SLOVAK))}</div>'
               f'{_standings(state["standings"], RESULTS_ROWS)}</section>')
    return (f'<main class="end">{results}<section><div class="label">'
            f'{escape(t("duplicate.board.words", SLOVAK))}</div>{_words(state["words"])}'
            "</section></main>")


def _words(words: Iterable[dict[str, Any]]) -> str:
    rows = list(words)
    def row(w: dict[str, Any]) -> str:
        verdict = t("duplicate.board.word_" + ("approved" if w["approved"] else "rejected"),
                    SLOVAK)
        return (f'<li><span>{w["round"]}.</span><span>{escape(w["word"])}</span>'
                f'<span class="{"ok" if w["approved"] else "no"}">{escape(verdict)}</span></li>')

    shown = "".join(row(w) for w in rows[:WORD_ROWS])
    return f'<ol class="list words" id="words">{shown}{_more(len(rows) - WORD_ROWS)}</ol>'
