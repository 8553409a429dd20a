"""The Discord account in the organiser's files: `discord_id` in the propozície and the CSV
(the old columns keep working). A recorded account is the player's link from the start; one
that belongs to somebody else is refused with its line and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services.app import App
from bot.services.tournament.player_import import import_players_csv, parse_players_csv
from bot.services.tournament.propozicie import SetupError, parse_propozicie
from bot.services.tournament.setup import create_from_file
from bot.store import find_player_by_discord, list_tournaments

from .conftest import said
from .test_rounds import ADMIN, SLUG, create, player, propozicie, read

ANNA = 123456789012345678
BORIS = 223456789012345678


def _with_ids(text: str, ids: dict[str, int]) -> str:
    """The propozície with `discord_id = …` after the given players' herna lines."""
    for nick, discord_id in ids.items():
        text = text.replace(f'herna = "{nick}"', f'herna = "{nick}"\ndiscord_id = {discord_id}')
    return text


async def test_a_recorded_account_is_linked_from_the_start(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, _with_ids(propozicie(), {"nick1": ANNA}))
    linked = await read(app, find_player_by_discord, ANNA)
    assert linked is not None and linked.herna_nick == "nick1"
    assert (await player(app, "nick2")).discord_id is None


@pytest.mark.parametrize("value", ["12", "-5", str(2**70), '"123456789012345678"'])
def test_a_discord_id_that_is_not_one_names_its_line(value: str) -> None:
    text = propozicie().replace('herna = "nick2"', f'herna = "nick2"\ndiscord_id = {value}')
    with pytest.raises(SetupError) as error:
        parse_propozicie(text)
    assert "discord_id" in error.value.reason and error.value.line > 1


async def test_an_account_of_another_player_refuses_the_file(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, _with_ids(propozicie(), {"nick1": ANNA}))
    other = propozicie().replace(SLUG, "druhy").replace('herna = "nick6"',
                                                         'herna = "novy"')
    path = tmp_path / "druhy.toml"
    path.write_text(_with_ids(other, {"novy": ANNA}), encoding="utf-8")
    reply = await create_from_file(app, path, ADMIN)
    assert (reply.ok, reply.key) == (False, "identity.registry_taken")
    assert "riadok" in said(reply) and "nick1" in said(reply)
    assert [t.slug for t in await read(app, list_tournaments)] == [SLUG]  # nothing written


async def test_a_later_file_completes_the_registry_never_relinks(app: App,
                                                                 tmp_path: Path) -> None:
    await create(app, tmp_path)
    csv = tmp_path / "hraci.csv"
    csv.write_text("meno;herna;discord;discord_id\nHráč Číslo1;nick1;hrac1;"
                   f"{ANNA}\n", encoding="utf-8")
    assert (await import_players_csv(app, SLUG, csv, ADMIN)).ok
    known = await player(app, "nick1")
    assert (known.discord_id, known.discord_name) == (ANNA, "hrac1")
    csv.write_text(f"meno;herna;discord_id\nHráč Číslo1;nick1;{BORIS}\n", encoding="utf-8")
    reply = await import_players_csv(app, SLUG, csv, ADMIN)
    assert (reply.ok, reply.key) == (False, "identity.registry_other")
    assert (await player(app, "nick1")).discord_id == ANNA and "stredisko link" in said(reply)


def test_csv_columns_old_and_new() -> None:
    old = parse_players_csv("Gabriela Horváthová;gabi;gabi#0001;áno;áno;1780;75\n")
    assert (old[0].discord, old[0].discord_id) == ("gabi#0001", None)
    new = parse_players_csv(f"Hugo;hugo;;áno;nie;;0;{BORIS}\n")  # positional: the 8th column
    assert new[0].discord_id == BORIS
    with pytest.raises(SetupError) as error:
        parse_players_csv("meno;herna;discord_id\nHugo;hugo;gabi#0001\n")
    assert error.value.line == 2 and "discord_id" in error.value.reason
