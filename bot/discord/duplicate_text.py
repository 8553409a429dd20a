"""How Discord words the duplicate game's messages (issue 24 items 2–3).

The services queue `duplicate.online.*` messages with plain parameters (they also print on the
console and the CLI). On Discord a message key K with a template `chat.K` in the catalogue
(`locales/*/duplicate_chat.toml`) is shown with that template instead, with what only a chat
can show: a deadline as a Discord timestamp (`{deadline_ts}`: every reader sees it in his own
time zone, counting down), the outcome codes in words, and the lists the services send
(`lines`, `words`, `moves`) as rows under the header. When a chat template does not fit the
parameters a service sent, the service's own text is used (`bot.discord.render`), so a
message is never stuck in the outbox over wording.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.discord.i18n import SLOVAK, CatalogueError, default_catalogue, t
from bot.discord.markdown import Markup

CHAT = "chat."
#: the list parameters of the services' messages that Discord shows as rows
LIST_PARAMS = ("lines", "words", "moves")
_CLAIMS = {"wrongly-accepted": "app.namietka.duplikat.uznane",
           "wrongly-rejected": "app.namietka.duplikat.zamietnute"}


def discord_time(when: datetime) -> Markup:
    """A moment as Discord shows it to each reader: "18:03:00 (in 3 minutes)"."""
    stamp = int(when.timestamp())
    return Markup(f"<t:{stamp}:T> (<t:{stamp}:R>)")


def has_chat_text(key: str) -> bool:
    return CHAT + key in default_catalogue().languages[SLOVAK].messages


def chat_variant(key: str, params: Mapping[str, Any], locale: Any = SLOVAK
                 ) -> tuple[str, dict[str, Any]] | None:
    """The chat template's key and its parameters for the service's message `key`, or None
    when the catalogue has no chat template for it. CatalogueError when a parameter the chat
    wording needs is missing."""
    if not has_chat_text(key):
        return None
    values = dict(params)
    for name, value in params.items():
        if isinstance(value, datetime):
            values[f"{name}_ts"] = discord_time(value)
    chat_key = CHAT + key
    short = key.rsplit(".", 1)[-1]
    if short in ("top", "no_top"):
        others = str(params.get("others") or "")
        values["others_text"] = t(f"{CHAT}duplicate.online.others_text", locale,
                                  others=others) if others else ""
        if short == "top" and params.get("delayed"):
            chat_key = f"{CHAT}duplicate.online.top_delayed"
    if short == "evaluation":
        values["outcome_text"] = outcome_text(params, locale)
        top = params.get("top")
        values["top_text"] = "" if top in ("", None) else t(
            f"{CHAT}duplicate.online.top_text", locale, top=top)
    if short == "protest_filed":
        values["claim_text"] = t(_CLAIMS.get(str(params.get("claim")), ""), locale) \
            if params.get("claim") in _CLAIMS else str(params.get("claim", ""))
    if short == "protest_decided_dm":
        values["verdict"] = t(f"{CHAT}duplicate.{'upheld' if params.get('upheld') else 'rejected'}",
                              locale)
    if "rows" not in values:
        for name in LIST_PARAMS:
            rows = params.get(name)
            if isinstance(rows, list) and rows and all(isinstance(r, Mapping) for r in rows):
                values["rows"] = [_row(name, r, locale) for r in rows]
                break
    return chat_key, values


def outcome_text(values: Mapping[str, Any], locale: Any = SLOVAK) -> str:
    """A slip's outcome in words (the codes of `rules.duplicate.players.OUTCOMES`); a rejected
    word is named."""
    code = str(values.get("outcome") or "")
    try:
        text = t(f"duplicate.slip.{code}", locale)
    except CatalogueError:
        text = code
    reason = values.get("reason")
    if code == "word-rejected" and reason:
        text = f"{text} ({reason})"
    return text


def _row(name: str, row: Mapping[str, Any], locale: Any) -> dict[str, Any]:
    values = dict(row)
    if name == "words":
        values["verdict"] = t(f"{CHAT}duplicate.online."
                              f"{'approved' if row.get('approved') else 'refused'}", locale)
    if name == "moves":
        values["outcome_text"] = outcome_text(row, locale)
    return values
