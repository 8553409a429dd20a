"""A pairing list the head admin imports (`/admin import`): typed in, or an attached text
file, one table per line — the nick who starts, then the opponent's nick or "volno"."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import discord

from bot.discord.client import Refusal
from bot.services import bounds
from bot.services.replies import Refusal as ServiceRefusal
from bot.services.tournament.csv_text import decode_csv

IMPORT_FILE_LIMIT = 64 * 1024  # a pairing list of 100 tables is a few kB
BYE_WORDS = frozenset({"volno", "voľno", "bye"})

AttachmentReader = Callable[[discord.Attachment], Awaitable[bytes]]


def parse_pairings(text: str) -> list[tuple[str, str | None]]:
    """One table per line (or per `;`): the nick who starts, then the opponent's nick or
    "volno" for a bye; a leading table number and separators like "–" or ":" are ignored."""
    tables: list[tuple[str, str | None]] = []
    for n, raw in enumerate(re.split(r"[;\n]", text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = [w for w in re.split(r"[\s,:–—]+", line) if w and w != "-"]
        if words and words[0].rstrip(".").isdecimal() and len(words) > 2:
            words = words[1:]  # "1. ana bob" or "1 ana bob": the table number
        if len(words) != 2 or not all(_could_be_nick(word) for word in words):
            raise Refusal("discord_admin.bad_line", line=n, text=bounds.printable(line, 100))
        first, second = words
        tables.append((first, None if second.lower() in BYE_WORDS else second))
    if not tables:
        raise Refusal("discord_admin.no_tables")
    return tables


def _could_be_nick(word: str) -> bool:
    """A word no herna.net nick could be (too long, control characters) is a bad line."""
    try:
        bounds.nick(word)
    except bounds.OutOfBounds:
        return False
    return True


async def read_attachment(attachment: discord.Attachment) -> bytes:
    return await attachment.read()


async def read_pairing_file(attachment: discord.Attachment, read: AttachmentReader) -> str:
    """The attached list as text; too big or not UTF-8 is refused before anything is saved."""
    if attachment.size > IMPORT_FILE_LIMIT:
        raise Refusal("discord_admin.bad_file", filename=attachment.filename,
                      limit=IMPORT_FILE_LIMIT)
    # UTF-8, or cp1250 as Excel on Slovak Windows saves it (bot/services/tournament/csv_text.py)
    try:
        return decode_csv(await read(attachment), attachment.filename)
    except (ServiceRefusal, discord.HTTPException):
        raise Refusal("discord_admin.bad_file", filename=attachment.filename,
                      limit=IMPORT_FILE_LIMIT) from None
