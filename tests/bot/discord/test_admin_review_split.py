"""A review item longer than Discord's limits reaches the head admin whole (issue 13.7): long
evidence is spread over fields and messages, never cut at 1,024 or 2,000 characters."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.discord.cogs.admin import item_messages
from bot.discord.cogs.admin.queries import review_item
from bot.discord.render import CONTENT_LIMIT, FIELD_VALUE_LIMIT
from bot.services.policy import Actor
from bot.services.tournament import play

from ..conftest import SLUG, START, add_game
from .conftest import embed_fields
from .harness import RecordedMessage

pytestmark = pytest.mark.admin_world(published=True)


def _within_limits(messages: list[RecordedMessage]) -> None:
    for m in messages:
        assert len(m.content) <= CONTENT_LIMIT
        assert all(len(f["value"]) <= FIELD_VALUE_LIMIT for e in m.embeds for f in e["fields"])


async def test_long_disputes_are_shown_whole_over_several_fields(env: Any) -> None:
    """Both players of table 1 dispute the record at length (the 1000 characters /namietka
    takes, three times): every word reaches the head admin, in order."""
    await add_game(env.app, env.world.tables[0], 410, 300)
    env.clock.set(START + timedelta(minutes=45))
    texts = [f"Spor {n}: " + " ".join(f"slovo{n}-{i}" for i in range(100))[:900].strip()
             for n in range(1, 4)]
    for n, text in enumerate(texts):
        reply = await play.dispute(env.app, SLUG, env.world.discord(n % 2), text)
        assert reply.ok, reply
    ex = await env.admin_cmd("rozhodni", kolo=1, stol=1)
    _within_limits(ex.followups)
    fields = {name: value for m in ex.followups for name, value in embed_fields(m).items()}
    parts = [name for name in fields if name.startswith("Námietky")]
    assert len(parts) > 1 and parts[0].endswith(f"(1/{len(parts)})")
    shown = "\n".join(fields[name] for name in parts)
    assert all(text in shown for text in texts)
    assert [shown.index(text) for text in texts] == sorted(shown.index(t) for t in texts)
    assert ex.followups[-1].components  # the buttons under the item's last message


async def test_a_status_longer_than_one_message_is_split_not_cut(env: Any) -> None:
    """The item's text (status, verdict, note) over 2000 characters: further messages, the
    embed with the last one."""
    item = await env.app.run(review_item, SLUG, Actor.operator("test"), 1, 1)
    verdict = " ".join(f"veta{i}." for i in range(600))  # ~4,500 characters
    pieces = item_messages({**item, "status": "pending", "verdict": {"text": verdict}}, "sk")
    assert len(pieces) >= 3 and not pieces[0].embeds and pieces[-1].embeds
    assert all(len(p.content or "") <= CONTENT_LIMIT for p in pieces)
    assert verdict in " ".join((p.content or "").replace("\n", " ") for p in pieces)
