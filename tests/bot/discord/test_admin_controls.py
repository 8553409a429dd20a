"""The admin cog's persistent components after its split into modules: messages of a running
bot hold their custom_ids, so every template stays as it was, every DynamicItem of the package
is registered, and the cog registers them while loaded (and only then)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord

import bot.discord.cogs.admin as admin_package
from bot.clock import ManualClock
from bot.discord.client import StrediskoBot
from bot.discord.cogs.admin import DYNAMIC_ITEMS, admin_cog_factory
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.store import Store

from .harness import DiscordHarness

#: The templates as messages already sent carry them: changing one breaks those buttons. Issue
#: 37 added an optional event at the end (`:u<id>`, only from a bot serving several events):
#: every custom_id sent before still matches (test below).
EV = r"(?::u(?P<event>[0-9]+))?"
TEMPLATES = {
    "ForceButton": r"stredisko:admin:aj-tak:(?P<action>paruj|uzavri|ukonci):(?P<round>[0-9]+)" + EV,
    "PublishButton": r"stredisko:admin:zverejni:(?P<round>[0-9]+)" + EV,
    "ApproveButton": r"stredisko:admin:schval:(?P<pairing>[0-9]+):(?P<version>[0-9]+)" + EV,
    "RulingSelect": r"stredisko:admin:rozhodni:(?P<pairing>[0-9]+)" + EV,
    "DiscrepancyButton": r"stredisko:admin:nezhoda:(?P<id>[0-9]+):(?P<how>ponechat|vedomie)" + EV,
    "CheckinButton": r"stredisko:admin:prezentacia" + EV,
    "LinkButton": r"stredisko:admin:prepojenie:(?P<request>[0-9]+):(?P<how>schval|zamietni)" + EV,
}


def _package_dynamic_items() -> set[type]:
    found: set[type] = set()
    for info in pkgutil.iter_modules(admin_package.__path__):
        module = importlib.import_module(f"{admin_package.__name__}.{info.name}")
        found |= {obj for _, obj in inspect.getmembers(module, inspect.isclass)
                  if issubclass(obj, discord.ui.DynamicItem) and obj is not discord.ui.DynamicItem
                  and obj.__module__ == module.__name__}
    return found


def test_every_template_is_as_running_messages_hold_it() -> None:
    held = {cls.__name__: cls.__discord_ui_compiled_template__.pattern for cls in DYNAMIC_ITEMS}
    assert held == TEMPLATES


def test_every_dynamic_item_of_the_package_is_registered() -> None:
    assert _package_dynamic_items() == set(DYNAMIC_ITEMS)
    assert len(DYNAMIC_ITEMS) == len(set(DYNAMIC_ITEMS))


def test_built_items_match_their_own_templates() -> None:
    from bot.discord.cogs.admin.link_controls import LinkButton
    from bot.discord.cogs.admin.review_controls import (
        ApproveButton,
        DiscrepancyButton,
        RulingSelect,
    )
    from bot.discord.cogs.admin.round_controls import CheckinButton, ForceButton, PublishButton

    def built(event: int | None) -> list[Any]:
        return [ForceButton("uzavri", 3, event, "x"), PublishButton(2, event, "x"),
                ApproveButton(17, 4, event, "x"),
                RulingSelect(17, [discord.SelectOption(label="x", value="finished")], "x",
                             event),
                DiscrepancyButton(5, "vedomie", event, "x"), CheckinButton(event, "x"),
                LinkButton(8, "zamietni", event, "x")]

    before = ["stredisko:admin:aj-tak:uzavri:3", "stredisko:admin:zverejni:2",
              "stredisko:admin:schval:17:4", "stredisko:admin:rozhodni:17",
              "stredisko:admin:nezhoda:5:vedomie", "stredisko:admin:prezentacia",
              "stredisko:admin:prepojenie:8:zamietni"]
    # a bot pinned to one event sends the custom_ids it always sent; one serving several
    # appends the event (issue 37), and the template reads it back
    for event, ids in ((None, before), (7, [f"{i}:u7" for i in before])):
        items = built(event)
        assert [item.item.custom_id for item in items] == ids
        for item, custom_id in zip(items, ids, strict=True):
            match = type(item).__discord_ui_compiled_template__.fullmatch(custom_id)
            assert match is not None and match["event"] == (None if event is None else "7")


async def test_the_cog_registers_its_items_while_loaded(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "stredisko.db")
    try:
        app = App(store, ManualClock(datetime(2025, 3, 1, 9, tzinfo=UTC)), RecordingNotifier())
        bot = StrediskoBot(cogs=[admin_cog_factory(app, "kt-online")])
        async with DiscordHarness(bot):
            registered = set(bot._connection._view_store._dynamic_items.values())
            assert set(DYNAMIC_ITEMS) <= registered
            await bot.remove_cog("AdminCog")
            registered = set(bot._connection._view_store._dynamic_items.values())
            assert not set(DYNAMIC_ITEMS) & registered
    finally:
        await store.close()
