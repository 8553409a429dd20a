"""Replies and messages of the services → what Discord can carry.

Services speak in catalogue keys (`Reply`, `Message`); this module turns them into text in the
reader's language and cuts long text and long lists into pieces that fit Discord's limits, so a
40-table pairing or a 60-player standings never fails with "400 Bad Request" mid-tournament.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import discord

from bot.discord.duplicate_text import chat_variant
from bot.discord.i18n import CatalogueError, t
from bot.discord.markdown import literal, literal_params
from bot.i18n import one_citation
from bot.services.notifier import Message
from bot.services.replies import Reply

log = logging.getLogger("stredisko.discord.render")

# Discord's limits (https://discord.com/developers/docs/resources/message).
CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TITLE_LIMIT = 256
EMBED_FIELDS_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
EMBEDS_PER_MESSAGE = 10
EMBEDS_TOTAL_LIMIT = 6000  # all titles, descriptions, fields and footers of one message
#: a message parameter holding a board picture's data (issue 24: the duplicate board image)
IMAGE_PARAM = "image"
#: message key -> the buttons that go under it, made from its parameters and the reader's
#: locale (a cog registers its own: e.g. the head referee's decision on a filed protest)
MESSAGE_VIEWS: dict[str, Callable[[Mapping[str, Any], Any], discord.ui.View]] = {}

OK_COLOUR = discord.Colour.from_rgb(46, 125, 50)
REFUSED_COLOUR = discord.Colour.from_rgb(198, 40, 40)
INFO_COLOUR = discord.Colour.from_rgb(21, 101, 192)


@dataclass(frozen=True)
class Outgoing:
    """One Discord message: text and/or embeds, each already within the limits, and files
    (name, bytes) to attach."""

    content: str | None = None
    embeds: tuple[discord.Embed, ...] = field(default=())
    files: tuple[tuple[str, bytes], ...] = field(default=())
    view: Callable[[], discord.ui.View] | None = field(default=None, compare=False)

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `send`/`followup.send`/`edit_message`; each call gets fresh
        `discord.File`s (a File is read once), so a retried send attaches the same bytes, and
        a fresh view (its buttons persistent: `DynamicItem`s)."""
        kwargs: dict[str, Any] = {"content": self.content, "embeds": list(self.embeds)}
        if self.files:
            kwargs["files"] = [discord.File(io.BytesIO(data), filename=name)
                               for name, data in self.files]
        if self.view is not None:
            kwargs["view"] = self.view()
        return kwargs


def message_text(
    key: str, params: Mapping[str, Any], locale: Any = "sk", rule: str | None = None
) -> str:
    """The catalogue text of `key`; the rule is always cited, in the template or appended."""
    values = dict(params)
    if rule is not None:
        values.setdefault("rule", rule)
    text = t(key, locale, **literal_params(values))  # what people typed shows as typed
    if rule and rule not in text:
        text = one_citation(f"{text} ({rule})")  # the text may cite part of it already
    return text


def reply_text(reply: Reply, locale: Any = "sk") -> str:
    return message_text(reply.key, reply.params, locale, reply.rule)


def split_text(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """Cut text into pieces of at most `limit` characters, at line breaks where possible,
    else at spaces, else anywhere; no piece is empty."""
    if limit < 1:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        for part in _split_line(line, limit):
            candidate = f"{current}\n{part}" if current else part
            if len(candidate) <= limit:
                current = candidate
            else:
                if current.strip():
                    pieces.append(current)
                current = part
    if current.strip():
        pieces.append(current)
    return pieces


def _split_line(line: str, limit: int) -> Iterable[str]:
    while len(line) > limit:
        cut = line.rfind(" ", 0, limit + 1)
        if cut < limit // 2:  # no space, or only near the start: a hard cut wastes less
            cut = limit
        yield line[:cut]
        line = line[cut:].lstrip(" ")
    yield line


def text_messages(text: str) -> list[Outgoing]:
    """Plain text as one or more messages of at most 2000 characters."""
    return [Outgoing(content=piece) for piece in split_text(text, CONTENT_LIMIT)]


def _embed_size(embed: discord.Embed) -> int:
    return len(embed)  # discord.Embed.__len__ counts exactly what Discord's 6000 limit counts


def _pack(embeds: Sequence[discord.Embed], content: str | None) -> list[Outgoing]:
    """Embeds into messages: at most 10 per message and 6000 characters in total."""
    messages: list[Outgoing] = []
    batch: list[discord.Embed] = []
    size = 0
    for embed in embeds:
        n = _embed_size(embed)
        if batch and (len(batch) == EMBEDS_PER_MESSAGE or size + n > EMBEDS_TOTAL_LIMIT):
            messages.append(Outgoing(embeds=tuple(batch)))
            batch, size = [], 0
        batch.append(embed)
        size += n
    if batch:
        messages.append(Outgoing(embeds=tuple(batch)))
    if content is not None:
        first = messages[0] if messages else Outgoing()
        messages[:1] = [Outgoing(content=content, embeds=first.embeds)]
    return messages


def _titles(title: str | None, count: int) -> list[str | None]:
    """Page titles: the title as is on one page; numbered "title (2/3)" over several."""
    if count == 1:
        return [title[:EMBED_TITLE_LIMIT] if title else None]
    head = f"{title[: EMBED_TITLE_LIMIT - 12]} " if title else ""
    return [f"{head}({i}/{count})" for i in range(1, count + 1)]


def list_messages(
    title: str | None,
    lines: Sequence[str],
    *,
    content: str | None = None,
    colour: discord.Colour = INFO_COLOUR,
    footer: str | None = None,
) -> list[Outgoing]:
    """A long list (standings, pairings) as embeds whose descriptions hold whole lines.

    Every embed holds at most 4096 characters (and leaves room so ten of them never pass the
    6000-character total of one message); further embeds and messages follow as needed.
    `content` goes with the first message, `footer` under the last embed.
    """
    # 6000 per message shared by up to ten embeds: keep each comfortably below the total.
    budget = min(EMBED_DESCRIPTION_LIMIT, EMBEDS_TOTAL_LIMIT - EMBED_TITLE_LIMIT - 200)
    pages = split_text("\n".join(lines), budget) or [""]
    titles = _titles(title, len(pages))
    embeds = [
        discord.Embed(title=name, description=page, colour=colour)
        for name, page in zip(titles, pages, strict=True)
    ]
    if footer:
        embeds[-1].set_footer(text=footer[:2048])
    return _pack(embeds, content)


def field_messages(
    title: str | None,
    fields: Sequence[tuple[str, str]],
    *,
    content: str | None = None,
    colour: discord.Colour = INFO_COLOUR,
    inline: bool = False,
) -> list[Outgoing]:
    """Name/value pairs as embed fields: at most 25 per embed and never more characters than
    one message may carry; names and values cut to fit."""
    fitted = [
        (_fit(name, FIELD_NAME_LIMIT) or "\u200b", _fit(value, FIELD_VALUE_LIMIT) or "\u200b")
        for name, value in fields
    ]
    budget = EMBEDS_TOTAL_LIMIT - EMBED_TITLE_LIMIT
    chunks: list[list[tuple[str, str]]] = [[]]
    size = 0
    for pair in fitted:
        n = len(pair[0]) + len(pair[1])
        if chunks[-1] and (len(chunks[-1]) == EMBED_FIELDS_LIMIT or size + n > budget):
            chunks.append([])
            size = 0
        chunks[-1].append(pair)
        size += n
    embeds = []
    for name, chunk in zip(_titles(title, len(chunks)), chunks, strict=True):
        embed = discord.Embed(title=name, colour=colour)
        for field_name, value in chunk:
            embed.add_field(name=field_name, value=value, inline=inline)
        embeds.append(embed)
    return _pack(embeds, content)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def row_lines(
    key: str,
    rows: Sequence[Mapping[str, Any]],
    locale: Any = "sk",
    params: Mapping[str, Any] | None = None,
) -> list[str]:
    """The services' contract for lists (as `bot/console.py` renders them): each row with the
    catalogue key `<key>_row`, or the key the row names under "key"; the row's values on top
    of the message's own parameters."""
    lines = []
    for row in rows:
        row_key = str(row.get("key") or f"{key}_row")
        try:
            values = {k: v for k, v in {**(params or {}), **row}.items() if k != "key"}
            lines.append(t(row_key, locale, **literal_params(values)))
        except CatalogueError:
            # A missing row template must not hide the list: show the values plainly.
            log.warning("no catalogue template %s; showing the row's values", row_key)
            lines.append(" · ".join(literal(str(v)) for k, v in row.items()
                                    if k != "key" and v not in ("", None)))
    return lines


def _rows(value: Any) -> list[Mapping[str, Any]] | None:
    if isinstance(value, list | tuple) and value and all(isinstance(r, Mapping) for r in value):
        return list(value)
    return None


def _with_rows(
    key: str,
    params: Mapping[str, Any],
    rule: str | None,
    rows: list[Mapping[str, Any]] | None,
    locale: Any,
    colour: discord.Colour,
    text: str | None = None,
) -> list[Outgoing]:
    values = {k: v for k, v in params.items() if k != "rows"}
    if text is None:
        text = message_text(key, values, locale, rule)
    if not rows:
        return text_messages(text)
    if rule is not None:
        values.setdefault("rule", rule)
    lines = row_lines(key, rows, locale, values)
    if len(text) > CONTENT_LIMIT:
        return text_messages(text) + list_messages(None, lines, colour=colour)
    return list_messages(None, lines, content=text, colour=colour)


def render_reply(reply: Reply, locale: Any = "sk", *, text: str | None = None) -> list[Outgoing]:
    """A service's answer: its text (citing the rule), then the rows it carries, if any.
    `text` replaces the service's own text (a chat-specific header, e.g. over a button) while
    the rows still render with the reply's key and parameters."""
    colour = OK_COLOUR if reply.ok else REFUSED_COLOUR
    rows = _rows(reply.data) or _rows(reply.params.get("rows"))
    return _with_rows(reply.key, reply.params, reply.rule, rows, locale, colour, text)


def render_message(message: Message, locale: Any = "sk", *, attach: bool = True,
                   event: str | None = None) -> list[Outgoing]:
    """A notification (announcement, DM, admin note) in the reader's language; `event`: the
    name of the event it is about, which then leads its text ("**KT november** · …", issue
    44.5: a player in two events must know which one a DM means) unless the text names it
    already. A message whose
    parameters carry `image` (a duplicate board: {"board", "highlight", "tiles", "rack"}) gets
    the PNG drawn from them attached to its first piece, drawn now from the stored parameters
    (the outbox row stays small; a re-send attaches identical bytes). `attach=False` leaves it
    out (reading a channel back compares text only)."""
    params = {k: v for k, v in message.params.items() if k != IMAGE_PARAM}
    pieces = _chat_pieces(message.key, params, locale, event)
    buttons = MESSAGE_VIEWS.get(message.key)
    if buttons is not None:
        last = pieces[-1]
        pieces[-1] = Outgoing(last.content, last.embeds, last.files,
                              partial(buttons, message.params, locale))
    image = message.params.get(IMAGE_PARAM)
    if attach and isinstance(image, Mapping):
        picture = board_picture(image, message.params.get("round"))
        if picture is not None:
            first = pieces[0]
            pieces[0] = Outgoing(first.content, first.embeds, (*first.files, picture),
                                 first.view)
    return pieces


def _pieces(key: str, params: Mapping[str, Any], locale: Any,
            event: str | None = None) -> list[Outgoing]:
    rows = _rows(params.get("rows"))
    text = None
    if event:  # named first — unless its text names the event already
        values = {k: v for k, v in params.items() if k != "rows"}
        text = message_text(key, values, locale, params.get("rule"))
        if event not in text and literal(event) not in text:
            text = t("discord.event.named", locale, event=literal(event)) + text
    return _with_rows(key, params, params.get("rule"), rows, locale, INFO_COLOUR, text)


def _chat_pieces(key: str, params: Mapping[str, Any], locale: Any,
                 event: str | None = None) -> list[Outgoing]:
    """The message in its chat wording when the catalogue has one (`duplicate_text`), else
    in the service's own; a chat wording that does not fit the parameters falls back."""
    try:
        chat = chat_variant(key, params)
        if chat is not None:
            return _pieces(chat[0], chat[1], locale, event)
    except CatalogueError as exc:
        log.warning("chat wording of %s not used: %s", key, exc)
    return _pieces(key, params, locale, event)


def board_picture(image: Mapping[str, Any], round_no: Any = None) -> tuple[str, bytes] | None:
    """The board PNG as an attachment (name, bytes); None — and a warning — when the stored
    parameters cannot be drawn: the message still goes out, as text, rather than never."""
    from bot.publish.board_image import BoardImageError, render_params  # Pillow, when needed

    try:
        data = render_params(image)
    except BoardImageError as exc:
        log.warning("board image not drawn: %s", exc)
        return None
    name = f"doska-kolo-{round_no}.png" if isinstance(round_no, int) else "doska.png"
    return name, data
