"""How Discord words the duplicate game's messages (issue 24 items 2–3).

The services queue `duplicate.online.*` messages with plain parameters (they also print on the
console and the CLI). On Discord a message key K with a template `chat.K` in the catalogue
(`locales/*/duplicate_chat.toml`) is shown with that template instead, with what only a chat
can show: a deadline as a Discord timestamp (`{deadline_ts}`: every reader sees it in his own
time zone, counting down), bold headlines, and the lists the services send (`lines`, `words`,
`moves`) as rows of an embed under the header (`chat.K_row`). When a chat template does not fit the
parameters a service sent, the service's own text is used (`bot.discord.render`), so a
message is never stuck in the outbox over wording.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.discord.i18n import SLOVAK, default_catalogue
from bot.discord.markdown import Markup
from bot.i18n import Term

CHAT = "chat."
#: the list parameters of the services' messages that Discord shows as rows (the services also
#: send them pre-rendered in `{text}` for the console)
LIST_PARAMS = ("lines", "words", "moves")


def discord_time(when: datetime) -> Markup:
    """A moment as Discord shows it to each reader: "18:03:00 (in 3 minutes)"."""
    stamp = int(when.timestamp())
    return Markup(f"<t:{stamp}:T> (<t:{stamp}:R>)")


def has_chat_text(key: str) -> bool:
    return CHAT + key in default_catalogue().languages[SLOVAK].messages


def chat_variant(key: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The chat template's key and its parameters for the service's message `key`, or None
    when the catalogue has no chat template for it (rendering it raises CatalogueError when a
    parameter the chat wording needs is missing)."""
    if not has_chat_text(key):
        return None
    values = dict(params)
    for name, value in params.items():
        if isinstance(value, datetime):
            values[f"{name}_ts"] = discord_time(value)
    if "rows" not in values:
        for name in LIST_PARAMS:
            rows = params.get(name)
            if isinstance(rows, list) and rows and all(isinstance(r, Mapping) for r in rows):
                values["rows"] = [_shoot_out_worded(row) for row in rows]
                break
    return CHAT + key, values


def _shoot_out_worded(row: Mapping[str, Any]) -> Mapping[str, Any]:
    """A standings row whose place 003 r. 49's shoot-out decided says so in the reader's
    language (the service's `note` is the console's Slovak): what decided, the word's score,
    the time, the move; any other row's note is empty."""
    if "rank" not in row:
        return row  # not a standings row
    shot = row.get("shoot_out")
    if not isinstance(shot, Mapping):
        return {**row, "note": ""}
    code = "tied-after-shoot-out" if row.get("decided_by") == "tied-after-shoot-out" \
        else "shoot-out"
    word = f", {shot['word']}" if shot.get("word") else ""
    text = Term("duplicate.shoot_out.text", decided=Term(f"duplicate.results.{code}"),
                score=shot["score"], seconds=float(shot["seconds"]), word=word,
                rule=row.get("rule", ""))
    return {**row, "note": Term("duplicate.shoot_out.note", text=text)}
