"""The static results page of a duplicate event (issue 24.6), in the classic page's style.

Standings (points, % of the tops, the tie-break that decided: 003 r. 46–49), then per round
the rack, the top and the next best moves, the board after the top as a 15×15 CSS grid
(premium squares coloured, the top's tiles highlighted), every player's move with its
evaluation, points and % (003 r. 25), the approved and rejected words (r. 26), and the rack
seed's commitment and revealed seed. Preliminary and final results are labelled (r. 25, 29).

Same contract as `html.render`: one self-contained file, no script (the CSP forbids one), no
resource from the network, every text escaped (names and slips are user input). Every word
people read comes from the catalogue (`duplicate_page.*`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from bot.i18n import SLOVAK, default_catalogue, placeholders, t
from bot.publish.cells import scroll
from bot.publish.duplicate_report import DuplicateGameReport, DuplicateReport, DuplicateRound
from bot.publish.html import CSP, _section, page_css, write_page
from bot.publish.safe_html import escape
from bot.publish.slovak import local_time
from bot.services.duplicate.results import shoot_out_text
from rules.duplicate.board import STANDARD_LAYOUT
from rules.duplicate.players import RoundScore
from rules.duplicate.results import RoundResult, Standing, WordRuling, percent_text

#: premium squares of `STANDARD_LAYOUT` → the board cell's class
PREMIUM = {"T": "tw", "D": "dw", "t": "tl", "d": "dl"}
COLUMNS = "ABCDEFGHIJKLMNO"


def write_duplicate_page(report: DuplicateReport, directory: str | Path) -> Path:
    """Write `index.html` into `directory` atomically, as the classic results page does."""
    return write_page(render_duplicate(report), directory)


def render_duplicate(report: DuplicateReport) -> str:
    css = page_css("duplicate.css")
    title = escape(report.name)
    status = report.status
    sections = [_section("poradie", t("duplicate_page.standings"), _standings(report))]
    nav = [("poradie", t("duplicate_page.standings"))]
    for game in report.games:
        heading = _game_heading(report, game)
        sections.append(_section(f"partia-{game.number}", heading, _rounds(report, game)))
        nav.append((f"partia-{game.number}", heading))
    sections.append(_section("losovanie", t("duplicate_page.seed"), _seeds(report)))
    nav.append(("losovanie", t("duplicate_page.seed")))
    links = "".join(f'<li><a href="#{a}">{escape(label)}</a></li>' for a, label in nav)
    notes = "".join(f'<p class="meta">{escape(n)}</p>' for n in report.notes)
    generated = t("duplicate_page.generated", when=local_time(report.generated_at))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="sk"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{escape(t('duplicate_page.title', name=report.name))}</title>"
        f"<style>{css}</style></head><body>"
        f"<header><h1>{title}</h1>"
        f'<p class="meta">{escape(report.profile_title)}</p>'
        f'<p class="results-status {status}">'
        f"{escape(t(f'duplicate_page.{status}', rule=report.status_rule))}</p>"
        f'<p class="meta">{escape(generated)}</p>{notes}'
        f'<nav aria-label="Obsah"><ul>{links}</ul></nav></header>'
        f"<main>{''.join(sections)}</main>"
        f"<footer><p>{escape(t('duplicate_page.footer'))}</p></footer></body></html>\n"
    )


def _game_heading(report: DuplicateReport, game: DuplicateGameReport) -> str:
    if len(report.games) == 1:
        return t("duplicate_page.rounds")
    return t("duplicate_page.game", n=game.number)


def percent_shown(value: Fraction) -> str:
    """A percentage as people read it: one decimal, a decimal comma ("83,3 %")."""
    return percent_text(value, 1).replace(".", ",") + " %"


def _head(key: str, kind: str = "num", tip: str | None = None) -> str:
    title = f' title="{escape(t(tip))}"' if tip else ""
    return f'<th class="{kind}"{title}>{escape(t(key))}</th>'


def _player(report: DuplicateReport, player: str, classes: str = "") -> str:
    p = report.players[player]
    nick = f'<span class="nick">{escape(p.nick)}</span>' if p.nick else ""
    cls = f"player {classes}".strip()
    return f'<td class="{cls}" data-player="{escape(player)}">{escape(p.name)}{nick}</td>'


# -- standings ---------------------------------------------------------------------------------


def decided_text(s: Standing, shoot_out_rule: str) -> str:
    """What placed the player where he is, with its rule (003 r. 46–49): for a place the
    shoot-out decided, "rozhodol rozstrel" with his word's score and time (r. 49)."""
    shot = shoot_out_text(s, shoot_out_rule)
    if shot is not None:
        return shot
    text = t(f"duplicate.results.{s.decided_by}")
    if s.decided_by == "percent-sum":
        text += f": {percent_shown(s.percent_sum)}"
    return f"{text} ({s.rule})"


def _standing_row(report: DuplicateReport, s: Standing) -> str:
    winner = s.rank == 1
    mark = (f'<span class="above-top" title="{escape(t("duplicate_page.above_top"))}">'
            "↑</span>") if s.above_top else ""
    return (
        f'<tr class="{"winner" if winner else "in"}"><td class="num rank">{s.rank}.</td>'
        f'{_player(report, s.player, "won" if winner else "")}'
        f'<td class="num points">{s.points}{mark}</td>'
        f'<td class="num pct">{percent_shown(s.percent)}</td>'
        f'<td class="num psum">{percent_shown(s.percent_sum)}</td>'
        f'<td class="decided">{escape(decided_text(s, report.shoot_out_rule))}</td></tr>'
    )


def _standings(report: DuplicateReport) -> str:
    if not report.standings:
        return f'<p class="empty">{escape(t("duplicate_page.standings_empty"))}</p>'
    heads = (_head("duplicate_page.rank", "num rank") + _head("duplicate_page.player", "player")
             + _head("duplicate_page.points", "num points")
             + _head("duplicate_page.percent", "num pct", "duplicate_page.percent_tip")
             + _head("duplicate_page.percent_sum", "num psum", "duplicate_page.percent_sum_tip")
             + _head("duplicate_page.decided", "decided"))
    rows = "".join(_standing_row(report, s) for s in report.standings)
    table = (f'<table class="dup-standings"><thead><tr>{heads}</tr></thead>'
             f"<tbody>{rows}</tbody></table>")
    rule = t("duplicate_page.standings_rule", rule=report.standings_rule)
    return f'<p class="meta">{escape(rule)}</p>' + scroll(table, t("duplicate_page.standings"))


# -- rounds ------------------------------------------------------------------------------------


def _rounds(report: DuplicateReport, game: DuplicateGameReport) -> str:
    words: dict[int, list[WordRuling]] = {}
    for w in game.result.words:
        words.setdefault(w.round, []).append(w)
    parts = len({r.part for r in game.rounds}) > 1
    return "".join(_round(report, game, scored, game.round(scored.round),
                          words.get(scored.round, []), parts)
                   for scored in game.result.rounds)


def _round(report: DuplicateReport, game: DuplicateGameReport, scored: RoundResult,
           shown: DuplicateRound, words: list[WordRuling], parts: bool) -> str:
    n = shown.number
    heading = (t("duplicate_page.round_part", n=n, part=shown.part) if parts
               else t("duplicate_page.round", n=n))
    anchor = f"p{game.number}-kolo-{n}"
    return (
        f'<section class="dup-round" id="{anchor}"><h3>{escape(heading)}</h3>'
        f'<div class="round-grid"><div class="round-facts">{_rack(shown.rack)}{_tops(shown)}'
        f"{_found(scored)}</div>{board_html(shown)}</div>"
        f"{_moves(report, game, scored)}{_words(words, report.words_rule)}</section>"
    )


def _rack(rack: str) -> str:
    tiles = "".join(f'<span class="tile{" blank" if ch == "?" else ""}">{escape(ch)}</span>'
                    for ch in rack)
    return (f'<p class="rack"><span class="label">{escape(t("duplicate_page.rack"))}</span> '
            f'<span class="tiles">{tiles}</span></p>')


def _tops(shown: DuplicateRound) -> str:
    if not shown.tops:
        return (f'<p class="top"><span class="label">{escape(t("duplicate_page.top"))}</span> '
                f'{escape(t("duplicate_page.no_top"))}</p>')
    top, *more = shown.tops
    out = (f'<p class="top"><span class="label">{escape(t("duplicate_page.top"))}</span> '
           f"<strong>{escape(_move(top.coord, top.word, top.score))}</strong></p>")
    if more:
        items = "".join(f"<li>{escape(_move(m.coord, m.word, m.score))}</li>" for m in more)
        out += (f'<p class="label">{escape(t("duplicate_page.subtops"))}</p>'
                f'<ol class="subtops">{items}</ol>')
    return out


def _move(coord: str, word: str, score: int) -> str:
    return t("duplicate_page.top_move", coord=coord, word=word, score=score)


def _found(scored: RoundResult) -> str:
    found = sum(1 for s in scored.scores.values() if _is_top(s, scored.top))
    text = t("duplicate_page.found_top", found=found, players=len(scored.scores))
    return f'<p class="meta found">{escape(text)}</p>'


def _is_top(score: RoundScore, top: int) -> bool:
    return top > 0 and score.points >= top and score.outcome in ("scored", "declared-lower")


def board_html(shown: DuplicateRound) -> str:
    """The board after the round's top: 15×15 squares with the column letters above and the
    row numbers at the left; premium squares coloured, the top's tiles highlighted."""
    label = t("duplicate_page.board", n=shown.number)
    cells = ['<span class="hd corner"></span>']
    cells += [f'<span class="hd">{c}</span>' for c in COLUMNS]
    for r, line in enumerate(shown.board_after.splitlines()):
        cells.append(f'<span class="hd">{r + 1}</span>')
        for c, ch in enumerate(line):
            classes = ["sq", PREMIUM.get(STANDARD_LAYOUT[r][c], "")]
            if ch != ".":
                classes += ["tile", "blank" if ch.islower() else "", "new" if (r, c) in
                            shown.placed else ""]
            text = "" if ch == "." else escape(ch.upper())
            cells.append(f'<span class="{" ".join(x for x in classes if x)}">{text}</span>')
    legend = escape(t("duplicate_page.board_legend"))
    return (f'<figure class="board-box"><div class="board" role="img" aria-label="{label}">'
            f'{"".join(cells)}</div><figcaption>{escape(label)}. {legend}</figcaption></figure>')


def outcome_text(score: RoundScore, top: int, fault: str | None = None) -> str:
    """A player's evaluation in the round, with the rule it rests on: „top“, „neplatné: …“
    (`fault`: the engine's reason in words, if known), „neskoro (003 r. 19)“ …; corrections
    after the game follow it (004 §5D)."""
    if _is_top(score, top):
        text = t("duplicate_page.verdict.top")
    elif score.outcome == "invalid":
        text = t("duplicate_page.verdict.invalid",
                 reason=fault or _fault(score.reason, score.rule))
    elif score.outcome == "word-rejected":
        text = t("duplicate_page.verdict.word-rejected", word=score.reason or "")
    else:
        text = t(f"duplicate_page.verdict.{score.outcome}")
    fixes = "; ".join(
        t("duplicate_page.corrected", word=c.word, reason=c.reason, rule=c.rule,
          verdict=t("duplicate_page.corrected_" + ("accepted" if c.accepted else "rejected")))
        for c in score.corrected)
    return cite(text, score.rule) + (f"; {fixes}" if fixes else "")


def cite(text: str, rule: str) -> str:
    """`text` with `rule` cited once: a reason that ends with its own citation gets the rule
    inside it („… (004 §6; 003 r. 1, 43)“), one that already cites it stays as it is."""
    if text.endswith(f"({rule})") or text.endswith(f"; {rule})"):
        return text
    if text.endswith(")") and " (" in text:
        return f"{text[:-1]}; {rule})"
    return f"{text} ({rule})"


def _fault(code: str | None, rule: str) -> str:
    """The move engine's reason in words when its message needs nothing but the rule (its
    other messages name a square or a word the stored result does not keep)."""
    key = f"duplicate.reason.{code}"
    template = default_catalogue().languages[SLOVAK].messages.get(key)
    if template is None or not placeholders(template) <= {"rule"}:
        return t("duplicate_page.verdict.fault")
    return t(key, rule=rule)


def _moves(report: DuplicateReport, game: DuplicateGameReport, scored: RoundResult) -> str:
    n = scored.round
    order = sorted(scored.scores.values(),
                   key=lambda s: (-s.points, report.name_of(s.player).casefold(), s.player))
    rows = []
    for s in order:
        move = s.slip.move if s.slip is not None else t("duplicate_page.no_move")
        top = _is_top(s, scored.top)
        rows.append(
            f'<tr class="{"top" if top else "other"} {escape(s.outcome)}">'
            f"{_player(report, s.player)}"
            f'<td class="move">{escape(move)}</td>'
            f'<td class="outcome">'
            f"{escape(outcome_text(s, scored.top, game.faults.get((n, s.player))))}</td>"
            f'<td class="num points">{s.points}</td>'
            f'<td class="num pct">{percent_shown(scored.percent(s.player))}</td></tr>'
        )
    heads = (_head("duplicate_page.player", "player") + _head("duplicate_page.move", "move")
             + _head("duplicate_page.outcome", "outcome")
             + _head("duplicate_page.points", "num points")
             + _head("duplicate_page.percent", "num pct", "duplicate_page.percent_tip"))
    table = (f'<table class="dup-moves"><thead><tr>{heads}</tr></thead>'
             f"<tbody>{''.join(rows)}</tbody></table>")
    return scroll(table, t("duplicate_page.round", n=n))


def _words(words: Iterable[WordRuling], rule: str) -> str:
    words = list(words)
    approved = [w.word for w in words if w.approved]
    rejected = [w.word for w in words if not w.approved]

    def line(key: str, items: list[str], cls: str) -> str:
        text = ", ".join(items) if items else t("duplicate_page.no_words")
        return (f'<li class="{cls}"><span class="label">{escape(t(key))}:</span> '
                f"{escape(text)}</li>")

    return (f'<div class="words"><p class="label">{escape(t("duplicate_page.words", rule=rule))}'
            f'</p><ul>{line("duplicate_page.approved", approved, "approved")}'
            f'{line("duplicate_page.rejected", rejected, "rejected")}</ul></div>')


# -- the seed ----------------------------------------------------------------------------------


def _seeds(report: DuplicateReport) -> str:
    blocks = []
    for game in report.games:
        heading = (f"<h3>{escape(t('duplicate_page.game', n=game.number))}</h3>"
                   if len(report.games) > 1 else "")
        seed = (t("duplicate_page.revealed", value=game.seed) if game.seed
                else t("duplicate_page.not_revealed"))
        blocks.append(
            f'<div class="seed">{heading}'
            f'<p class="hash">{escape(t("duplicate_page.commitment", value=game.commitment))}</p>'
            f'<p class="hash">{escape(seed)}</p></div>')
    return "".join(blocks) + f'<p class="meta">{escape(t("duplicate_page.replay"))}</p>'
