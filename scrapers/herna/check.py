"""herna.net first contact: try every expectation of `layout.EXPECTATIONS` on the live site.

Reads the login form, logs in, reads the archive's first page and its newest game's record,
and says of each expectation whether it holds, fails (and how), or cannot be checked on what
the site shows (an empty archive has no game to read). The pages read are kept, to be saved
scrubbed (`scrub`) for whoever adapts `layout.py`. Plain data out: the wording is the
caller's (bot/locales/*/herna_check.toml).
"""

from __future__ import annotations

import base64
import html
import html.entities
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any
from urllib.parse import quote

import lxml.etree
import lxml.html

import scrapers.herna.layout as layout
import scrapers.herna.parser as parser
from scrapers.herna.client import HernaClient
from scrapers.herna.errors import LayoutChanged, PageMissing, PageTooLarge
from scrapers.herna.layout import GAME_PAGE, HISTORY_PAGE, LOGIN_PAGE, Expectation

#: how much of a page's text a finding quotes
QUOTE = 60
#: the file each page read is saved to
FILE_NAMES = {LOGIN_PAGE: "1-prihlasenie.html", HISTORY_PAGE: "2-archiv.html",
              GAME_PAGE: "3-partia.html"}
MASK = "[odstránené]"
_GAME_LINK = re.compile(re.escape(layout.GAME_PATH).replace(r"\{game_id\}",
                                                            f"({layout.GAME_ID_FORMAT})"))


class Status(Enum):
    HOLDS = "holds"
    FAILS = "fails"
    UNCHECKED = "unchecked"


@dataclass(frozen=True, slots=True)
class Finding:
    """One expectation's outcome. `reason` names the catalogue text that says it
    (herna_check.reason.*), `params` fill it in."""

    name: str
    page: str
    what: str  # the selector or URL tried
    status: Status
    reason: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class SiteCheck:
    """One run against the site: `run` fills `findings` and `pages` (raw bodies by page); on a
    login or network fault it raises, and what was read so far stays here to be saved."""

    client: HernaClient
    findings: list[Finding] = field(default_factory=list)
    pages: dict[str, bytes] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)

    async def run(self) -> list[Finding]:
        login = await self._read(LOGIN_PAGE, layout.LOGIN_PATH, logged_in=False)
        self._expectations(LOGIN_PAGE, login, {})
        await self.client.login()  # LoginFailed: the caller's one line
        self._add("LOGIN_PATH", LOGIN_PAGE, f"POST {layout.LOGIN_PATH}", Status.HOLDS, "login_ok")
        history = await self._read(HISTORY_PAGE, layout.history_url())
        shown = _shows(history) if history is not None else {}
        self._expectations(HISTORY_PAGE, history, shown)
        self._parses(HISTORY_PAGE, parser.parse_history)
        game_id = shown.get("game_id")
        if game_id is None:
            self._unread(GAME_PAGE, "no_game")
            return self.findings
        game = await self._read(GAME_PAGE, layout.game_url(game_id))
        self._expectations(GAME_PAGE, game, {})
        self._parses(GAME_PAGE, lambda page: parser.parse_game(page, game_id))
        return self.findings

    @property
    def failed(self) -> list[Finding]:
        return [f for f in self.findings if f.status is Status.FAILS]

    async def _read(self, page: str, url: str, *, logged_in: bool = True) -> Any:
        """The page's tree, or None when the site would not give it (a finding says why)."""
        self.urls[page] = url
        name = layout.PAGE_URLS[page]
        try:
            body = await self.client.fetch(url, logged_in=logged_in)
        except (LayoutChanged, PageMissing, PageTooLarge) as exc:
            # the site's answer (a 4xx, a redirect elsewhere): a finding; a timeout, a refused
            # connection or a refused login is not, and goes to the caller
            self._add(name, page, url, Status.FAILS, "url", detail=str(exc))
            return None
        self.pages[page] = body
        self._add(name, page, url, Status.HOLDS, "url_ok")
        try:
            return parser.tree(body, page)
        except LayoutChanged as exc:
            self._add(name, page, url, Status.FAILS, "not_html", detail=exc.what)
            return None

    def _expectations(self, page: str, doc: Any, shown: dict[str, Any]) -> None:
        for expectation in (e for e in layout.EXPECTATIONS if e.page == page):
            if doc is None:
                self._add(expectation.name, page, expectation.selector, Status.UNCHECKED,
                          "page_unread")
            elif expectation.when is not None and not shown.get(expectation.when):
                self._add(expectation.name, page, expectation.selector, Status.UNCHECKED,
                          f"when_{expectation.when}")
            else:
                self.findings.append(try_expectation(expectation, doc))

    def _parses(self, page: str, parse: Any) -> None:
        body, name = self.pages.get(page), f"parse_{page}"
        if body is None:
            self._add(name, page, self.urls[page], Status.UNCHECKED, "page_unread")
            return
        try:
            parse(body)
        except LayoutChanged as exc:
            self._add(name, page, self.urls[page], Status.FAILS, "parser", detail=exc.what)
            return
        self._add(name, page, self.urls[page], Status.HOLDS, "parser_ok")

    def _unread(self, page: str, reason: str) -> None:
        for expectation in (e for e in layout.EXPECTATIONS if e.page == page):
            self._add(expectation.name, page, expectation.selector, Status.UNCHECKED, reason)

    def _add(self, name: str, page: str, what: str, status: Status, reason: str,
             **params: Any) -> None:
        self.findings.append(Finding(name, page, what, status, reason, params))


def _shows(doc: Any) -> dict[str, Any]:
    """What the history page shows, read as loosely as possible: whether it has game rows or
    the empty archive's row, a next page, and the newest game's id (the record to read)."""
    rows = f"{layout.HISTORY_TABLE} {layout.HISTORY_ROWS}"
    empty = bool(parser.select_all(doc, f"{rows} {layout.HISTORY_EMPTY}"))
    ids = [parser.text_of(n) for n in parser.select_all(doc, f"{rows} {layout.HISTORY_ID}")]
    # when the id cell is not where the layout says, any link to a game record will do
    links = [str(a.get("href", "")) for a in parser.select_all(doc, f"{rows} a[href]")]
    ids += [found[1] for href in links if (found := _GAME_LINK.search(href))]
    game_id = next((i for i in ids if re.fullmatch(layout.GAME_ID_FORMAT, i)), None)
    pager = parser.select_one(doc, layout.HISTORY_PAGER)
    found = re.search(layout.PAGER_PATTERN, parser.text_of(pager)) if pager is not None else None
    more = found is not None and int(found["page"]) < int(found["pages"])
    games = bool(parser.select_all(doc, rows)) and not empty
    return {"games": games, "empty": empty, "more_pages": more, "game_id": game_id}


def try_expectation(e: Expectation, doc: Any) -> Finding:
    """One expectation on one parsed page (`parser.tree`)."""
    found = parser.select_all(doc, e.selector)

    def result(status: Status, reason: str, **params: Any) -> Finding:
        return Finding(e.name, e.page, e.selector, status, reason, params)

    if not found:
        return result(Status.FAILS, "missing")
    if e.count is not None and len(found) != e.count:
        return result(Status.FAILS, "count", expected=e.count, found=len(found))
    if e.pattern is None:
        return result(Status.HOLDS, "found", found=len(found))
    for node in found:
        texts = [parser.text_of(node)]
        if e.lines:
            texts = [line for line in "".join(node.itertext()).splitlines() if line.strip()]
        for text in texts:
            match = re.search(e.pattern, text) if e.search else re.fullmatch(e.pattern, text)
            if match is None:
                return result(Status.FAILS, "format", text=text[:QUOTE], pattern=e.pattern)
    return result(Status.HOLDS, "format_ok", found=len(found))


# --- the pages, saved without secrets --------------------------------------------------------
# a session id or token carried in a URL or a script: "sid=…", ";jsessionid=…", "csrf_token=…"
_SESSION_PARAM = re.compile(
    r"""(\b(?:jsessionid|phpsessid|session[_-]?id|sessid|sid|csrf[_-]?token|token)["']?\s*[=:]\s*
    ["']?)([^&"'\s<>;,]+)""", re.IGNORECASE | re.VERBOSE)
# an HTTP Basic credential echoed by the site (a debug page, a proxy's error)
_BASIC_AUTH = re.compile(r"(\bBasic\s+)([A-Za-z0-9+/_-]{6,}={0,2})", re.IGNORECASE)
# what a page may put between a secret's letters without changing what it shows
_BETWEEN = r"(?:<wbr\s*/?>|&shy;|&#173;|&#xad;|\u00ad|\u200b|&#8203;|&#x200b;)*"
#: a secret is also found cut short ("heslo-Taj…") down to this many characters
SHORTEST_CUT = 5
#: a hidden field's value is a secret wherever it appears from this length on
SHORTEST_TOKEN = 8


def _char_forms(c: str) -> list[str]:
    """The ways a page may write one character: itself (NFC or NFD), as an HTML entity
    (decimal, hex, named), a JS escape, URL-encoded."""
    code = ord(c)
    forms = {re.escape(c), f"&#0*{code};", f"&#[xX]0*{code:x};", re.escape(quote(c, safe="")),
             re.escape(f"\\u{code:04x}"), re.escape(f"\\u{code:04X}")}
    if code < 256:
        forms |= {re.escape(f"\\x{code:02x}"), re.escape(f"\\x{code:02X}")}
    escaped = html.escape(c)
    if escaped != c:
        forms.add(re.escape(escaped))
    named = html.entities.codepoint2name.get(code)
    if named:
        forms.add(f"&{named};")
    decomposed = unicodedata.normalize("NFD", c)
    if decomposed != c:
        forms.add(re.escape(decomposed))
    if c == " ":
        forms.add(r"\+")
    return sorted(forms, key=len, reverse=True)


def _secret_pattern(secret: str) -> str:
    """One pattern for every written form of `secret`, character by character (entities,
    escapes, NFD, <wbr> between letters), also cut short after `SHORTEST_CUT` characters."""
    chars = [f"(?:{'|'.join(_char_forms(c))})" for c in unicodedata.normalize("NFC", secret)]
    cut = min(len(chars), max(SHORTEST_CUT, 1))
    tail = ""
    for part in reversed(chars[cut:]):  # each further character optional: a cut secret
        tail = f"(?:{_BETWEEN}{part}{tail})?"
    return _BETWEEN.join(chars[:cut]) + tail


def _base64_forms(secret: str) -> set[str]:
    """The secret inside base64 at each byte alignment (alone, or in "user:password" as a
    Basic auth header carries it): the characters only its bytes decide, and also the last
    group where the secret ends the data (padded or not) — without it, 1–4 characters of an
    encoded password stayed on the page (issue 36.6)."""
    data = secret.encode()
    forms = set()
    for offset in range(3):
        encoded = base64.b64encode(bytes(offset) + data).decode()
        start = (offset + 2) // 3 * 4
        end = (offset + len(data)) // 3 * 4
        core = encoded[start:end]
        if len(core) >= 8:
            ending = encoded[start:]  # the secret as the data's last bytes
            forms |= {form.replace("+", "-").replace("/", "_") if url else form
                      for form in (core, ending, ending.rstrip("=")) for url in (False, True)}
    return forms


def hidden_values(text: str) -> set[str]:
    """The values of hidden inputs and token metas, read by parsing the page (an attribute
    holding ">" before `value` does not hide it, as it would from a pattern)."""
    try:
        doc = lxml.html.document_fromstring(text.encode("utf-8", "surrogateescape"))
    except (ValueError, lxml.etree.ParserError):
        return set()
    found = {str(v) for v in doc.xpath(
        "//input[translate(@type, 'HIDEN', 'hiden')='hidden']/@value")}
    found |= {str(v) for v in doc.xpath(
        "//meta[contains(translate(@name, 'CSRFTOKENIS', 'csrftokenis'), 'csrf')"
        " or contains(translate(@name, 'CSRFTOKENIS', 'csrftokenis'), 'token')"
        " or contains(translate(@name, 'CSRFTOKENIS', 'csrftokenis'), 'session')]/@content")}
    return {v for v in found if v.strip()}


def scrub_text(text: str, secrets: Iterable[str]) -> str:
    """`text` without hidden form values, token metas, session ids in URLs, Basic credentials,
    and any written form of the given secrets (the user name, the password, the cookies'
    values): what is printed on the terminal goes through here too."""
    secrets = [s for s in secrets if s]
    for value in sorted(hidden_values(text), key=len, reverse=True):
        attribute = rf"""(\b(?:value|content)\s*=\s*["']?){re.escape(value)}"""
        text = re.sub(attribute, rf"\1{MASK}", text, flags=re.IGNORECASE)
        if len(value) >= SHORTEST_TOKEN:
            secrets.append(value)
    text = _SESSION_PARAM.sub(rf"\1{MASK}", text)
    text = _BASIC_AUTH.sub(rf"\1{MASK}", text)
    whole = set(secrets)
    if len(secrets) >= 2:  # a Basic header carries "user:password"
        whole.add(f"{secrets[0]}:{secrets[1]}")
    encoded = {form for secret in whole for form in _base64_forms(secret)}
    for form in sorted(encoded, key=len, reverse=True):
        text = text.replace(form, MASK)
    patterns = [_secret_pattern(s) for s in sorted(set(secrets), key=len, reverse=True)]
    for pattern in patterns:  # "a&b" before its part "a"
        text = re.sub(pattern, MASK, text, flags=re.IGNORECASE)
    return text


def scrub(body: bytes, secrets: Iterable[str]) -> bytes:
    """The page as `scrub_text` leaves it, in the page's own bytes."""
    text = body.decode(layout.ENCODING, errors="surrogateescape")
    return scrub_text(text, secrets).encode(layout.ENCODING, errors="surrogateescape")


def save_pages(pages: dict[str, bytes], folder: Path, secrets: Iterable[str]) -> list[Path]:
    """Write each page read, scrubbed, to `folder` (created); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    secrets = list(secrets)
    written = []
    for page, body in pages.items():
        path = folder / FILE_NAMES[page]
        path.write_bytes(scrub(body, secrets))
        written.append(path)
    return written
