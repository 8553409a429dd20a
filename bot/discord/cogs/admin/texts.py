"""How the admin cog words what it shows: a service's answer under our own warning header,
stored moments in Bratislava time, and the names of the rules' ends."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.discord.i18n import CatalogueError, format_datetime, language, t
from bot.discord.markdown import literal_params
from bot.discord.render import Outgoing, render_reply
from bot.services.replies import Reply
from bot.store import from_text
from rules import End

FORFEIT_RULE = "e-SP 4.9"  # only the head administrator rules forfeits

#: The service warnings that a "… anyway" button overrides: our header and the button label.
WARNINGS = {
    "round.close_warnings": ("discord_admin.close_warnings", "uzavri"),
    "round.open_results": ("discord_admin.pair_warnings", "paruj"),
    "finish.warnings": ("discord_admin.finish_warnings", "ukonci"),
    "round.import_warnings": ("discord_admin.import_warnings", "import"),
}
FORCE_LABELS = {
    "uzavri": "discord_admin.force_close_button",
    "paruj": "discord_admin.force_pair_button",
    "ukonci": "discord_admin.force_finish_button",
    "import": "discord_admin.force_import_button",
}


def render(reply: Reply, locale: Any) -> list[Outgoing]:
    """A service's answer with its rows; a warning that a button overrides gets our header
    (the service's text speaks of the CLI's --force)."""
    header = WARNINGS.get(reply.key)
    if header is None:
        return render_reply(reply, locale)
    params = {k: v for k, v in reply.params.items() if k != "rows"}
    text = t(header[0], locale, **{**literal_params(params), "rule": reply.rule or ""})
    return render_reply(reply, locale, text=text)


def when(value: Any, locale: Any) -> str:
    """A stored moment (datetime or the store's text) in Bratislava time."""
    if isinstance(value, str):
        try:
            value = from_text(value)
        except ValueError:
            return value
    if isinstance(value, datetime) and value.tzinfo is not None:
        return format_datetime(value, language(locale))
    return str(value)


def end_name(end: Any, locale: Any) -> str:
    """One of the rules' ends (`rules.End`) as the catalogue names it."""
    try:
        return t(f"discord_admin.end.{End(end).value}", locale)
    except (ValueError, CatalogueError):
        return str(end or "?")
