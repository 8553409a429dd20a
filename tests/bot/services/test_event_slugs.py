"""An event's short name fits the chat's `udalost` option (issue 44.5): `stredisko create`
refuses a slug longer than 64 characters — typed, or made from a long name — with one line
naming the limit, and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services.app import App
from bot.services.tournament.propozicie import SetupError, parse_propozicie
from bot.services.tournament.setup import create_from_file
from bot.store import list_tournaments

from .test_rounds import ADMIN, SLUG, propozicie, read


def test_the_chat_option_and_the_limit_agree() -> None:
    from typing import get_args

    from bot.discord.cogs.scoped import Udalost
    from bot.services.tournament.events import SLUG_MAX

    [option, _] = get_args(Udalost)
    assert SLUG_MAX == 64 == option.max_value


@pytest.mark.parametrize("change", [
    (f'slug = "{SLUG}"', f'slug = "{"k" * 65}"'),
    (f'slug = "{SLUG}"', f'slug = "{"kt-" * 33}x"'),  # 100 characters
    ('name = "Online KT — skúška"\nslug = "' + SLUG + '"',
     'name = "' + "Kvalifikácia " * 6 + '"'),  # the slug made from the name: 77
])
def test_a_slug_longer_than_the_option_is_refused(change: tuple[str, str]) -> None:
    text = propozicie()
    assert change[0] in text
    with pytest.raises(SetupError) as caught:
        parse_propozicie(text.replace(change[0], change[1], 1))
    assert "najviac 64" in caught.value.reason and "\n" not in caught.value.reason
    assert len(caught.value.reason) < 200


def test_a_slug_of_64_is_accepted() -> None:
    text = propozicie().replace(f'slug = "{SLUG}"', f'slug = "{"k" * 64}"')
    assert parse_propozicie(text).slug == "k" * 64


async def test_create_writes_nothing_for_a_long_slug(app: App, tmp_path: Path) -> None:
    path = tmp_path / "propozicie.toml"
    path.write_text(propozicie().replace(f'slug = "{SLUG}"', f'slug = "{"k" * 65}"'),
                    encoding="utf-8")
    refused = await create_from_file(app, path, ADMIN)
    assert not refused.ok and refused.key == "setup.invalid"
    assert await read(app, list_tournaments) == []
