"""The language layer: Slovak first, English as the only other language.

Shared by every adapter (Discord, the console rehearsal, the results page), so it knows nothing
of Discord. Messages live in TOML catalogues in `bot/locales/` (`sk.toml`, `en.toml`).
A message is a `str.format` template; these kinds of value are rendered for the reader:
- a placeholder whose format spec names a plural table (`{n:game}`) renders "3 partie";
- `{delta:signed}` renders a change with its sign: "+18,2", "−24,6" (a real minus), "0";
- a `datetime` renders in Europe/Bratislava time ("21. 11. 2026 9:00");
- a float renders with a decimal comma in Slovak ("2,5");
- a `Term` (a catalogue key given as a value) renders as that message in the reader's language
  (an input error names its field for whoever reads it: "prezývka" / "nick");
- any other text shows its control and direction characters escaped (`\\x1b`, `\\u202e`:
  `rules.free_text.shown`), so that no message — a refusal quoting the input, a channel post, a
  terminal line — carries a raw ESC or a bidi override, whoever typed it and whenever it was
  stored (issue 36.2).
A rendered message cites a rule once: a verdict text ends with its own citation, and a template
that follows it with the decision's `({rule})` must not show both (see `one_citation`).

Discord has no Slovak locale, so the language comes from the user's Discord locale: English for
"en-US"/"en-GB", Slovak for everything else (a Slovak player's client is often set to Czech).
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from bot.clock import BRATISLAVA
from rules.free_text import shown

SLOVAK = "sk"
ENGLISH = "en"
LANGUAGES = (SLOVAK, ENGLISH)
ENGLISH_LOCALES = frozenset({"en-US", "en-GB"})

LOCALES_DIR = Path(__file__).with_name("locales")

_EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class Term(str):
    """A catalogue key passed as a message parameter, rendered in the reader's language with
    its own `params` (Terms among them too). Made where the reader is not yet known (a refusal
    raised deep in a use case, a list row worded for the chat), it stays a key until a template
    is filled for someone."""

    params: dict[str, Any]

    def __new__(cls, key: str, **params: Any) -> Term:
        term = super().__new__(cls, key)
        term.params = params
        return term


class CatalogueError(ValueError):
    """A catalogue file is malformed, or a message key or parameter is missing."""


def language(locale: Any) -> str:
    """The catalogue language for a locale (a Discord `Locale` or its text): English only for
    English locales."""
    value = getattr(locale, "value", locale)
    return ENGLISH if value in ENGLISH_LOCALES else SLOVAK


def plural_form(n: int | float, lang: str) -> str:
    """The plural category of a number: Slovak one/few/many/fraction, English one/other."""
    if isinstance(n, float) and not n.is_integer():
        # Slovak uses the genitive singular after decimals ("2,5 bodu"); English the plural.
        return "fraction" if lang == SLOVAK else "other"
    count = abs(int(n))
    if lang == SLOVAK:
        if count == 1:
            return "one"
        return "few" if 2 <= count <= 4 else "many"
    return "one" if count == 1 else "other"


def format_number(n: int | float, lang: str) -> str:
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    text = f"{n:g}" if isinstance(n, float) else str(n)
    return text.replace(".", ",") if lang == SLOVAK else text


#: an online screlo as people read it — in chat, on the CLI and on the results page alike
#: (issue 19.7): one decimal; the data (the screlo list export, the store) keep their own
SCRELO_DECIMALS = 1


def screlo_shown(value: float) -> float:
    """The one rounding of an online screlo people read, wherever they read it."""
    return round(value, SCRELO_DECIMALS)


def screlo_change_shown(before: float, after: float) -> float:
    """The change shown beside a screlo before and after: the difference of the two shown
    values, so that what a reader sees adds up ("1600 → 1601,1 (+1,1)")."""
    return round(screlo_shown(after) - screlo_shown(before), SCRELO_DECIMALS)


MINUS = "\u2212"  # the typographic minus sign, not a hyphen
SIGNED = "signed"


def format_signed(n: int | float, lang: str) -> str:
    """A change with its sign: "+18,2", "−24,6"; no change is "0"."""
    text = format_number(abs(n), lang)
    if n > 0:
        return f"+{text}"
    return f"{MINUS}{text}" if n < 0 else text


# "(e-SP 4.3, 4.9)" → prefix "e-SP", items "4.3", "4.9"; an item without a prefix takes the
# previous one's ("e-SP 2.4, 5" cites e-SP 2.4 and e-SP 5).
_CITED_ITEM = re.compile(r"(?:(?P<prefix>(?:e-)?SP) )?(?P<item>[A-Z]?\d+(?:\.\d+)*[a-z]?)")
_PARENTHESES = re.compile(r"\(([^()]+)\)")
_NAMED_RULE = re.compile(r"(?<![\w-])((?:e-)?SP) ([A-Z]?\d+(?:\.\d+)*)")


def cited_rules(text: str) -> frozenset[str] | None:
    """The rules a parenthesised citation names ("e-SP 4.3, 4.9" → {"e-SP 4.3", "e-SP 4.9"});
    None when the text is not a citation (a time, a score, a name)."""
    rules: set[str] = set()
    prefix = None
    for part in text.split(","):
        found = _CITED_ITEM.fullmatch(part.strip())
        if found is None:
            return None
        prefix = found["prefix"] or prefix
        if prefix is None:
            return None
        rules.add(f"{prefix} {found['item']}")
    return frozenset(rules)


def _redundant(run: list[re.Match[str]]) -> set[int]:
    """Positions in a run of side-by-side parentheses of the citations another one in the run
    covers (of two equal ones, the first goes)."""
    cited = [(n, rules) for n, m in enumerate(run) if (rules := cited_rules(m[1])) is not None]
    return {n for n, rules in cited
            if any(rules < other or (rules == other and n < k) for k, other in cited)}


def _cited_before(text: str) -> str:
    """Drop each citation whose rules the text named before it, in a citation ("(e-SP 4.3,
    4.9)") or inline ("e-SP 3.6 a):")."""
    named: set[str] = set()
    kept: list[str] = []
    pos = 0
    for found in _PARENTHESES.finditer(text):
        before = text[pos:found.start()]
        named |= {f"{m[1]} {m[2]}" for m in _NAMED_RULE.finditer(before)}
        rules = cited_rules(found[1])
        if rules and rules <= named:
            kept.append(before.rstrip())
        else:
            kept.append(before + found[0])
            named |= rules or {f"{m[1]} {m[2]}" for m in _NAMED_RULE.finditer(found[1])}
        pos = found.end()
    return "".join(kept) + text[pos:]


def one_citation(text: str) -> str:
    """A message cites each rule once. A verdict text ends with its citation and the template
    adds the decision's `({rule})`, or a reason names the rule it is quoted for; the reader
    sees each citation once:
    - a citation naming only rules the message named before it goes:
      "vylúčený: e-SP 3.6 a): … (e-SP 3.6)" → "vylúčený: e-SP 3.6 a): …";
    - of citations side by side, one naming only rules another names goes:
      "nenastúpil (e-SP 4.9) (e-SP 4.3, 4.9)" → "nenastúpil (e-SP 4.3, 4.9)"."""
    if "SP " not in text:  # nothing cited: most messages
        return text
    text = _cited_before(text)
    runs: list[list[re.Match[str]]] = []
    for found in _PARENTHESES.finditer(text):
        if runs and text[runs[-1][-1].end():found.start()].isspace():
            runs[-1].append(found)
        else:
            runs.append([found])
    for run in reversed(runs):  # from the end: earlier positions stay valid
        drop = _redundant(run)
        if not drop:
            continue
        kept = [m for n, m in enumerate(run) if n not in drop]
        # each kept one after the first keeps the space that preceded it
        joined = kept[0][0] + "".join(
            text[run[run.index(m) - 1].end():m.start()] + m[0] for m in kept[1:])
        text = text[:run[0].start()] + joined + text[run[-1].end():]
    return text


def format_datetime(moment: datetime, lang: str) -> str:
    """A moment in Bratislava time: "21. 11. 2026 9:00" (sk) or "21 Nov 2026, 09:00" (en)."""
    if moment.tzinfo is None:
        raise ValueError("čas bez časového pásma nemožno zobraziť (očakáva sa UTC)")
    local = moment.astimezone(BRATISLAVA)
    if lang == SLOVAK:
        return f"{local.day}. {local.month}. {local.year} {local.hour}:{local.minute:02d}"
    month = _EN_MONTHS[local.month - 1]
    return f"{local.day} {month} {local.year}, {local.hour:02d}:{local.minute:02d}"


def format_time(moment: datetime, lang: str) -> str:
    """A moment's Bratislava time of day alone: "9:45" (sk) or "09:45" (en)."""
    local = moment.astimezone(BRATISLAVA)
    if lang == SLOVAK:
        return f"{local.hour}:{local.minute:02d}"
    return f"{local.hour:02d}:{local.minute:02d}"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a message template uses (`{n:game}` → "n")."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field
    )


@dataclass(frozen=True)
class Language:
    """One catalogue: flat message templates and plural tables (word per plural category)."""

    code: str
    messages: Mapping[str, str]
    plurals: Mapping[str, Mapping[str, str]]

    @classmethod
    def load(cls, code: str, path: Path) -> Language:
        """Read `path` (e.g. `sk.toml`) and every `*.toml` in the folder of the same name
        (`sk/`), so each part of the application keeps its messages in a file of its own."""
        parts = [path, *sorted(path.with_suffix("").glob("*.toml"))]
        messages: dict[str, str] = {}
        plurals: dict[str, Mapping[str, str]] = {}
        for part in parts:
            try:
                data = tomllib.loads(part.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise CatalogueError(f"{part}: {exc}") from exc
            more_plurals = data.pop("plural", {})
            more = _flatten(data)
            bad = [key for key, value in more.items() if not isinstance(value, str)]
            if bad:
                raise CatalogueError(f"{part}: not text: {', '.join(sorted(bad))}")
            twice = sorted((set(more) & set(messages)) | (set(more_plurals) & set(plurals)))
            if twice:
                raise CatalogueError(f"{part}: defined twice: {', '.join(twice)}")
            messages.update(more)
            plurals.update(more_plurals)
        return cls(code=code, messages=messages, plurals=plurals)

    def plural(self, n: int | float, word: str) -> str:
        forms = self.plurals[word]
        form = plural_form(n, self.code)
        # English has no fraction form; Slovak catalogues must give all four.
        return forms.get(form) or forms["other"]


class _Formatter(string.Formatter):
    """One message's formatter: a later time on the day of the message's first date shows
    the time alone ("od 1. 3. 2025 9:00 do 9:45", not the full date twice)."""

    def __init__(self, lang: Language, fallback: Mapping[str, str]) -> None:
        self.lang = lang
        self.fallback = fallback  # the Slovak messages: a term English lacks
        self.day: date | None = None  # the local day of the first moment shown

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Term):
            template = self.lang.messages.get(value) or self.fallback.get(value)
            if template is None:
                raise CatalogueError(f"unknown term {value!r}")
            value = _Formatter(self.lang, self.fallback).vformat(template, (), value.params)
        elif isinstance(value, str):  # what people typed, stored or echoed: never raw ESC
            value = shown(value)
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if format_spec == SIGNED:
            # not a number (a player without a change): shown as given
            return format_signed(value, self.lang.code) if number else str(value)
        if format_spec in self.lang.plurals and number:
            number = format_number(value, self.lang.code)
            return f"{number} {self.lang.plural(value, format_spec)}"
        if isinstance(value, datetime) and not format_spec:
            day = value.astimezone(BRATISLAVA).date() if value.tzinfo else None
            if self.day is not None and day == self.day:
                return format_time(value, self.lang.code)
            self.day = self.day or day
            return format_datetime(value, self.lang.code)
        if isinstance(value, float) and not format_spec:
            return format_number(value, self.lang.code)
        return super().format_field(value, format_spec)


class Catalogue:
    """Both languages; `t()` falls back to Slovak when an English message is missing."""

    def __init__(self, languages: Mapping[str, Language]) -> None:
        if SLOVAK not in languages:
            raise CatalogueError("the Slovak catalogue is required")
        self.languages = dict(languages)
        sk = self.languages[SLOVAK].messages
        en = self.languages.get(ENGLISH)
        # Slovak command text → English text, for the translator (keys under "app.").
        self._english = {
            text: en.messages[key]
            for key, text in sk.items()
            if key.startswith("app.") and en is not None and key in en.messages
        }

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR) -> Catalogue:
        return cls({code: Language.load(code, directory / f"{code}.toml") for code in LANGUAGES})

    def t(self, key: str, locale: Any = SLOVAK, **params: Any) -> str:
        lang = self.languages.get(language(locale)) or self.languages[SLOVAK]
        template = lang.messages.get(key)
        if template is None:
            lang = self.languages[SLOVAK]
            template = lang.messages.get(key)
        if template is None:
            raise CatalogueError(f"unknown message key {key!r}")
        try:
            formatter = _Formatter(lang, self.languages[SLOVAK].messages)
            return one_citation(formatter.vformat(template, (), params))
        except KeyError as exc:
            raise CatalogueError(f"message {key!r} needs parameter {exc.args[0]!r}") from exc

    def english_for(self, slovak_text: str) -> str | None:
        """The English text of a Slovak `app.*` string (command names and descriptions)."""
        return self._english.get(slovak_text)


@cache
def default_catalogue() -> Catalogue:
    return Catalogue.load()


def t(key: str, locale: Any = SLOVAK, **params: Any) -> str:
    """The message `key` in the language of `locale`, with `params` filled in."""
    return default_catalogue().t(key, locale, **params)


