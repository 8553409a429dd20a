"""The hall computer's word-check page as HTML (issue 22 item 5): what ČAS's SAMOOBSLUHA and
SSS's El Siño users do today — the challenger types the word himself and reads the answer.

One big input; the answer in green (PLATNÉ) or red (NEPLATNÉ) in letters large enough to read
from the table, with the reason, the list that decided, its rule and the lexicon's id; the last
checks listed below. No script, no external asset (the CSP forbids both): the form submits
`GET /?slovo=…`, so a page is a URL. Everything shown that a person typed goes through
`escape`.

A word is never broken mid-way (issue 35): its font shrinks until it fits its box on one line
(`bot.hall.fit` measures it; CSS container units do the rest). A verdict decided by a list that
is not the association's own — a stand-in, or a list reconstructed from the rules' OCR'd text —
says so inside the answer's box, where the arbiter reads the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.hall.fit import width_em
from bot.i18n import language, t
from bot.publish.safe_html import escape
from bot.services.lexicon.word_check import makeshift, verdict_lines
from rules.lexicon import Admissibility, Lexicon, WordVerdict

CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'"

STYLE = """
*{box-sizing:border-box}
body{margin:0;font:18px/1.4 system-ui,"DejaVu Sans",sans-serif;color:#111;background:#f4f4f1}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.2rem 0 .8rem}
form{display:flex;flex-wrap:wrap;gap:.6rem}
label{position:absolute;left:-9999px}
input{flex:1 1 14rem;min-width:0;font-size:2.6rem;padding:.4rem .6rem;border:3px solid #333;
  border-radius:.4rem;text-transform:lowercase}
button{flex:0 0 auto;font-size:1.6rem;padding:.4rem 1.2rem;border:0;border-radius:.4rem;
  background:#222;color:#fff}
.answer{margin:1rem 0;padding:1rem;border-radius:.6rem;color:#fff;container-type:inline-size}
.answer .headline{font-size:clamp(2.4rem,9vw,5.5rem);font-weight:800;line-height:1.1;margin:0}
.fit{display:inline-block;max-width:100%;overflow-wrap:anywhere;
  font-size:max(18px,min(1em,calc(100cqi / var(--em))))}
.answer .caveat{margin:.6rem 0 0;padding:.3rem .6rem;border-radius:.3rem;background:#fff;
  color:#b3141b;font-size:1.25rem;font-weight:800}
.answer .details{font-size:1.15rem;margin:.5rem 0 0;white-space:pre-line;
  overflow-wrap:anywhere}
.answer.valid{background:#146c2e}.answer.invalid{background:#b3141b}
.answer.error{background:#5c4a00}
h2{font-size:1.2rem;margin:1.2rem 0 .4rem}
ol{list-style:none;margin:0;padding:0}
li{display:flex;flex-wrap:wrap;gap:.2rem .6rem;align-items:baseline;padding:.35rem .5rem;
  border-bottom:1px solid #ccc;font-size:1.25rem;container-type:inline-size}
li .mark{font-weight:700;min-width:7.5rem}
li.valid .mark{color:#146c2e}li.invalid .mark{color:#b3141b}
li .word{font-weight:700}
li .rule{flex:1 1 12rem;color:#444;font-size:1rem;text-align:right}
footer{margin-top:1.2rem;color:#444;font-size:.95rem}
.standin{color:#b3141b;font-weight:700}
"""


@dataclass(frozen=True, slots=True)
class Answer:
    """What the page shows large: a verdict, or a query that is no word (its one sentence)."""

    verdict: WordVerdict | None = None
    error: str = ""
    query: str = ""


def render_page(lexicon: Lexicon, rules: Admissibility, recent: Iterable[WordVerdict],
                answer: Answer | None = None, locale: str = "sk") -> str:
    """The whole page: the form (keeping a refused query in the input), the answer, the last
    checks, newest first, and which lexicon and rules answered."""
    lang = language(locale)
    value = answer.query if answer is not None and answer.error else ""
    parts = [
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(t('word.page.title', lang))}</title><style>{STYLE}</style></head>",
        f"<body><main><h1>{escape(t('word.page.heading', lang))}</h1>",
        '<form method="get" action="/" autocomplete="off">',
        f'<label for="slovo">{escape(t("word.page.label", lang))}</label>',
        f'<input id="slovo" name="slovo" value="{escape(value)}" autofocus required '
        f'maxlength="64" spellcheck="false" autocapitalize="none">',
        f'<button type="submit">{escape(t("word.page.submit", lang))}</button></form>',
        _answer(answer, makeshift(answer.verdict, lexicon, rules, lang)
                if answer is not None and answer.verdict is not None else "", lang),
        f"<h2>{escape(t('word.page.recent', lang))}</h2>",
        _recent(list(recent), lang),
        _footer(lexicon, rules, lang),
        "</main></body></html>",
    ]
    return "\n".join(part for part in parts if part)


def _answer(answer: Answer | None, caveat: str, lang: str) -> str:
    """The answer's box: the verdict with the word on one line, what `makeshift` says about
    the list that decided (if anything), the details."""
    if answer is None:
        return ""
    if answer.verdict is None:
        return (f'<section class="answer error" role="status"><p class="details">'
                f"{escape(answer.error)}</p></section>")
    verdict = answer.verdict
    headline, details = verdict_lines(verdict, lang)
    before, _, after = headline.rpartition(verdict.word)  # the template's "{verdict}: {word}"
    kind = "valid" if verdict.valid else "invalid"
    warning = f'<p class="caveat">{escape(caveat)}</p>' if caveat else ""
    return (f'<section class="answer {kind}" role="status"><p class="headline">'
            f"{escape(before)}{_fitted(verdict.word)}{escape(after)}</p>{warning}"
            f'<p class="details">{escape(details)}</p></section>')


def _fitted(word: str) -> str:
    """`word` on one line, its font shrunk to fit its box if it must (see `bot.hall.fit`);
    only a query too long for any board (a 64-letter one at 390 px) reaches the 18 px floor
    and wraps rather than shrinks out of sight."""
    return f'<span class="word fit" style="--em:{width_em(word)}">{escape(word)}</span>'


def _recent(verdicts: list[WordVerdict], lang: str) -> str:
    if not verdicts:
        return f"<p>{escape(t('word.page.none', lang))}</p>"
    items = []
    for v in verdicts:
        kind = "valid" if v.valid else "invalid"
        mark = t("lexicon.valid" if v.valid else "lexicon.invalid", lang)
        items.append(f'<li class="{kind}"><span class="mark">{escape(mark)}</span>'
                     f"{_fitted(v.word)}"
                     f'<span class="rule">{escape(v.source)} · {escape(v.rule)}</span></li>')
    return '<ol class="recent">' + "".join(items) + "</ol>"


def _footer(lexicon: Lexicon, rules: Admissibility, lang: str) -> str:
    about = t("word.page.lexicon", lang, title=lexicon.title, lexicon=lexicon.id,
              rules=rules.title)
    standin = (f' <span class="standin">{escape(t("word.page.standin", lang))}</span>'
               if lexicon.standin else "")
    return f"<footer>{escape(about)}{standin}</footer>"
