"""The head admin finishes the tournament through the real dispatch: first the warnings
(unclosed rounds, unconfirmed results) with a "finish anyway" button, then the final standings
with qualification points and online screlo changes announced in the control centre — for 64
players split to Discord's limits."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.discord.render import (
    CONTENT_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    EMBEDS_TOTAL_LIMIT,
)
from bot.services.app import Tx
from bot.store import Change, TournamentStatus, get_tournament, pairings_of_round, set_status

from ..conftest import ADMIN_ID, START, World, add_game, enter_player, new_tournament
from .conftest import REFUSED, said
from .harness import RecordedMessage

FORCE = "stredisko:admin:aj-tak:ukonci:0"
HEADER = "Turnaj Kvalifikačný turnaj online (sezóna 2024/2025) sa skončil."


def within_discord_limits(message: RecordedMessage) -> bool:
    """What Discord would accept (https://discord.com/developers/docs/resources/message)."""
    def size(embed: dict[str, Any]) -> int:
        fields = embed.get("fields") or []
        return (len(embed.get("title") or "") + len(embed.get("description") or "")
                + sum(len(f["name"]) + len(f["value"]) for f in fields)
                + len((embed.get("footer") or {}).get("text") or ""))

    embeds = message.embeds
    return (len(message.content) <= CONTENT_LIMIT and len(embeds) <= EMBEDS_PER_MESSAGE
            and sum(size(e) for e in embeds) <= EMBEDS_TOTAL_LIMIT
            and all(len(e.get("description") or "") <= EMBED_DESCRIPTION_LIMIT for e in embeds))


def standings_lines(messages: list[RecordedMessage]) -> list[str]:
    return [line for m in messages for e in m.embeds
            for line in (e.get("description") or "").split("\n") if line]


pytestmark = pytest.mark.admin_world(published=True)


async def test_finish_warns_first_then_finishes_with_the_button(env: Any) -> None:
    await add_game(env.app, env.world.tables[0], 400, 300)  # table 2 stays open
    env.clock.set(START + timedelta(minutes=45))
    await env.refresh()
    before = len(env.h.channel_messages)
    ex = await env.admin_cmd("ukonci")
    assert ex.ephemeral and said(ex).startswith(
        "Turnaj ešte nie je na konci (e-SP 4.7): neuzavreté kolá: 1, 2, 3; nepotvrdených "
        "výsledkov: 2. Najprv ich vyrieš, alebo turnaj ukonči aj tak:")
    assert "--force" not in said(ex)
    # the unsettled tables, each by the template its own status names
    assert "stôl 1: Ďuro Ďurkovič – Žofia Šťastná: predbežný výsledok, ešte nepotvrdený " \
        "(dohraná partia)" in said(ex)
    assert "stôl 2: Ľubomír Čierny – Šimon Ťažký: výsledok ešte nie je známy" in said(ex)
    assert [b["custom_id"] for b in ex.message.buttons] == [FORCE]
    assert ex.message.buttons[0]["label"] == "Ukončiť turnaj aj tak"
    assert len(env.h.channel_messages) == before
    t = await env.app.store.read(get_tournament, env.world.tournament.id)
    assert t.status is TournamentStatus.RUNNING

    await env.h.click(FORCE, env.admin)
    assert ex.message.components == [] and ex.message.text.startswith(HEADER)
    t = await env.app.store.read(get_tournament, env.world.tournament.id)
    assert t.status is TournamentStatus.FINISHED
    announced = env.h.channel_messages[before:]
    assert announced[0].content.startswith(HEADER)
    assert "s kvalifikačnými bodmi (SP A3)" in announced[0].content
    lines = standings_lines(announced)
    assert len(lines) == 4
    # the winner's rating moved; the players of the open table were not rated
    assert lines[0].startswith("1. Ďuro Ďurkovič: 1 bod, kvalifikačné body ")
    assert "online screlo 1800 → " in lines[0]
    assert sum("online screlo bez zmeny" in line for line in lines) == 2
    posted = len(env.h.channel_messages)
    again = await env.admin_cmd("ukonci")  # a retry: says so, the same final standings, once
    assert said(again).startswith("Turnaj Kvalifikačný turnaj online (sezóna 2024/2025) je už "
                                  "ukončený — nič som nemenil ani znova neoznamoval.")
    assert said(again).splitlines()[1:] == said(ex).splitlines()[1:]
    assert not again.message.buttons
    assert len(env.h.channel_messages) == posted


async def test_finish_warnings_in_english(env: Any) -> None:
    ex = await env.h.slash("admin", user=env.admin, subcommand="ukonci", locale="en-US")
    assert said(ex).startswith("The tournament is not at its end yet (e-SP 4.7): rounds not "
                               "closed: 1, 2, 3; results not confirmed: 2.")
    assert "table 1: Ďuro Ďurkovič – Žofia Šťastná" in said(ex)
    assert ex.message.buttons[0]["label"] == "Finish the tournament anyway"


async def test_a_player_cannot_finish_nor_press_finish_anyway(env: Any) -> None:
    ex = await env.admin_cmd("ukonci")
    env.h.messages[ex.message.id].raw["flags"] = 0  # a replayed custom_id
    refused = await env.h.slash("admin", user=env.players[0], subcommand="ukonci")
    click = await env.h.click(ex.message, env.players[0], custom_id=FORCE)
    assert refused.content == REFUSED and said(click) == REFUSED
    t = await env.app.store.read(get_tournament, env.world.tournament.id)
    assert t.status is TournamentStatus.RUNNING


# -- 64 players ----------------------------------------------------------------------------

FIRST = ["Ábel", "Božena", "Čestmír", "Ďalibor", "Éva", "Ľudmila", "Ňuňo", "Šarlota"]
# double-barrelled surnames, as some players have: the list must then be split
LAST = ["Ťažký-Podhradský", "Žiak-Kováčik", "Čierny-Záhorský", "Ďurčo-Mäsiarik",
        "Šťastný-Ľupták", "Ľalík-Ondrejovič", "Ňachaj-Vrbovský", "Úradník-Šimončič"]
PLAYERS = 64


def _tournament_of_64(tx: Tx) -> Any:
    """64 players seeded 2130 down to 1500 (not newcomers), one round at START."""
    by = Change.admin(ADMIN_ID, tx.now, "test setup")
    t = new_tournament(tx, by, [START])
    players = [enter_player(tx, t, by, name=f"{FIRST[n % 8]} {LAST[n // 8]}",
                            herna_nick=f"hrac{n + 1:02d}", discord_id=3001 + n,
                            discord_name=f"hrac{n + 1}", screlo=2130.0 - 10 * n, rated_games=40)
               for n in range(PLAYERS)]
    set_status(tx.db, t.id, TournamentStatus.RUNNING, by)
    return World(get_tournament(tx.db, t.id), players, [])


@pytest.mark.admin_world(build=_tournament_of_64)
async def test_64_players_final_standings_are_split_to_discords_limits(env: Any) -> None:
    paired = await env.admin_cmd("paruj", kolo=1)
    assert "1. kolo je spárované: 32" in said(paired)
    await env.h.click("stredisko:admin:zverejni:1", env.admin)
    tables = await env.app.store.read(pairings_of_round, env.world.tournament.id, 1)
    for table in tables:
        await add_game(env.app, table, 400, 300 + table.table_no)
    excluded = await env.admin_cmd("vyluc", hrac="hrac64", dovod="Nešportové správanie")
    assert "Vylúčenie z turnaja zapísané" in said(excluded)
    env.clock.set(START + timedelta(minutes=61))  # the dispute window of e-SP 4.7 is over
    closed = await env.admin_cmd("uzavri", kolo=1)
    assert "poradie po 1. kole" in said(closed)

    before = len(env.h.channel_messages)
    ex = await env.admin_cmd("ukonci")
    assert not ex.message.buttons  # nothing to warn about: finished at once
    channel = env.h.channel_messages[before:]
    assert channel[0].content.startswith(  # e-SP 4.7
        "Lehota na námietky v 1. kole uplynula: zapísané výsledky sú potvrdené")
    announced = channel[1:]
    shown = ex.followups  # the first replaced the deferred "thinking…" message
    assert all(within_discord_limits(m) for m in channel + shown)
    # the list is longer than one embed's 4096 characters: cut between lines, never inside
    assert sum(len(m.embeds) for m in announced) >= 2
    assert announced[0].content.startswith(HEADER) and shown[0].content.startswith(HEADER)

    lines = standings_lines(announced)
    assert len(lines) == PLAYERS and standings_lines(shown) == lines
    names = [line.split(": ")[0].split(". ", 1)[1] for line in lines]
    assert sorted(names) == sorted(p.name for p in env.world.players)
    assert [int(line.split(".")[0]) for line in lines] == list(range(1, PLAYERS + 1))
    out = [line for line in lines if "bez kvalifikačných bodov" in line]
    assert len(out) == 1 and "Nešportové správanie" in out[0]
    rated = [line for line in lines if "online screlo" in line and " → " in line]
    assert len(rated) == PLAYERS - 1
    assert all("kvalifikačné body" in line for line in rated)
