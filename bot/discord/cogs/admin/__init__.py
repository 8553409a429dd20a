"""The head administrator's side of the control centre: the `/admin` command group.

- `cog` — the commands (each calls one use case of `bot.services`) and `DYNAMIC_ITEMS`;
- `review` — one review item: its evidence side by side, every score in the table's order;
- `review_controls` / `round_controls` — the persistent buttons, select and modals (their
  custom_ids are held by messages of a running bot and never change), answered by `clicks`;
- `rulings` — the rulings the select offers and how a choice becomes a ruling;
- `checkin`, `pairings`, `queries`, `texts` — the check-in lists, imported pairing lists,
  the store reads no service offers, and how replies, moments and ends are worded.

The cog, its factory and what other code renders with are importable from here; the
buttons, select and modals from their modules.
"""

from bot.discord.cogs.admin.checkin import checkin_messages
from bot.discord.cogs.admin.clicks import COG_NAME
from bot.discord.cogs.admin.cog import DYNAMIC_ITEMS, AdminCog, admin_cog_factory
from bot.discord.cogs.admin.pairings import parse_pairings
from bot.discord.cogs.admin.review import admin_names, item_messages
from bot.discord.cogs.admin.review_controls import review_view
from bot.discord.cogs.admin.round_controls import checkin_view
from bot.discord.cogs.admin.texts import render

__all__ = [
    "COG_NAME", "DYNAMIC_ITEMS", "AdminCog", "admin_cog_factory", "admin_names",
    "checkin_messages", "checkin_view", "item_messages", "parse_pairings", "render",
    "review_view",
]
