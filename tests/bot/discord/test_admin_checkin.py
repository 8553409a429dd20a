"""The head admin opens and closes the check-in through the real dispatch: the announcements in
the control centre, and who has and has not checked in — shown to him alone (e-SP 2.2)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.services.app import Tx
from bot.services.tournament import play
from bot.store import Change, TournamentStatus, get_tournament

from ..conftest import ADMIN_ID, NAMES, SLUG, START, World, enter_player, new_tournament
from .conftest import REFUSED, said
from .harness import RecordedMessage

CHECKIN_BUTTON = "stredisko:admin:prezentacia"


def _draft(tx: Tx) -> Any:
    """As the services' world (the same names, nicks and Discord ids) but still a draft, as
    a tournament is before its check-in; round 1 at 12:00 Bratislava time, check-in may last
    until 11:30."""
    by = Change.admin(ADMIN_ID, tx.now, "test setup")
    t = new_tournament(tx, by, [START + timedelta(hours=2)],
                       checkin_closes_at=START + timedelta(minutes=90))
    players = [enter_player(tx, t, by, name=name, herna_nick=f"{SLUG}-hrac{n + 1}",
                            discord_id=1001 + n, discord_name=f"hrac{n + 1}")
               for n, name in enumerate(NAMES)]
    return World(get_tournament(tx.db, t.id), players, [])


pytestmark = pytest.mark.admin_world(build=_draft)


def _lists(messages: list[RecordedMessage]) -> dict[str, list[str]]:
    """The check-in lists by their titles: "Prezentovaní: 3" → its lines."""
    return {e["title"]: e["description"].split("\n")
            for m in messages for e in m.embeds if e.get("title")}


async def test_the_admin_opens_check_in_and_sees_who_has_and_has_not(env: Any) -> None:
    ex = await env.admin_cmd("prezentacia otvor")
    assert ex.ephemeral and said(ex).startswith(
        "Prezentácia na turnaj Kvalifikačný turnaj online je otvorená (uzavretie: "
        "1. 3. 2025 11:30).")
    assert env.channel_text() == said(ex)  # announced in the control centre
    assert ex.message.buttons[0]["custom_id"] == CHECKIN_BUTTON

    env.clock.advance(timedelta(minutes=5))
    for n in (0, 2, 3):
        assert (await play.check_in(env.app, SLUG, env.world.discord(n))).ok
    click = await env.h.click(ex.message, env.admin, custom_id=CHECKIN_BUTTON)
    assert click.ephemeral and click.message is not ex.message  # the answer stays as it was
    assert "je otvorená" in ex.message.text
    assert _lists(click.followups or [click.message]) == {
        "Prezentovaní: 3": ["Ďuro Ďurkovič (kt-test-hrac1) — 1. 3. 2025 10:05",
                            "Ľubomír Čierny (kt-test-hrac3) — 1. 3. 2025 10:05",
                            "Šimon Ťažký (kt-test-hrac4) — 1. 3. 2025 10:05"],
        "Neprezentovaní: 2": ["Žofia Šťastná (kt-test-hrac2)", "Ivana Veľká (kt-test-hrac5)"],
    }
    assert "Ivana" not in env.channel_text()  # who is missing is the head admin's business


async def test_the_admin_closes_check_in_and_is_told_who_is_missing(env: Any) -> None:
    await env.admin_cmd("prezentacia otvor")
    env.clock.advance(timedelta(minutes=10))
    for n in (1, 4):
        assert (await play.check_in(env.app, SLUG, env.world.discord(n))).ok
    before = len(env.h.channel_messages)
    env.clock.advance(timedelta(minutes=5))
    ex = await env.admin_cmd("prezentacia zatvor")
    assert said(ex) == ("Prezentácia na turnaj Kvalifikačný turnaj online je uzavretá. "
                        "Prezentovaných hráčov: 2.")
    assert [m.text for m in env.h.channel_messages[before:]] == [said(ex)]
    # the tournament names its head admin: the missing ones reach him by DM
    (note,) = env.h.dms(env.admin)
    assert note.text.startswith("Turnaj Kvalifikačný turnaj online — bez prezentácie: 3 hráči — ")
    assert all(name in note.text for name in ("Ďuro Ďurkovič", "Ľubomír Čierny", "Šimon Ťažký"))
    t = await env.app.store.read(get_tournament, env.world.tournament.id)
    assert t.checkin_closes_at == START + timedelta(minutes=15)

    overview = await env.admin_cmd("prezentacia prehlad")
    assert overview.ephemeral
    lists = _lists(overview.followups)
    assert lists["Prezentovaní: 2"] == ["Žofia Šťastná (kt-test-hrac2) — 1. 3. 2025 10:10",
                                        "Ivana Veľká (kt-test-hrac5) — 1. 3. 2025 10:10"]
    assert len(lists["Neprezentovaní: 3"]) == 3


async def test_the_overview_in_english(env: Any) -> None:
    await env.admin_cmd("prezentacia otvor")
    ex = await env.h.slash("admin", user=env.admin, subcommand="prezentacia prehlad",
                           locale="en-US")
    lists = _lists(ex.followups)
    assert lists["Checked in: 0"] == ["—"] and len(lists["Not checked in: 5"]) == 5


async def test_players_cannot_open_close_or_look(env: Any) -> None:
    opened = await env.admin_cmd("prezentacia otvor")
    player = env.players[0]
    for sub in ("prezentacia otvor", "prezentacia zatvor", "prezentacia prehlad"):
        ex = await env.h.slash("admin", user=player, subcommand=sub)
        assert ex.ephemeral and ex.content == REFUSED, sub
    env.h.messages[opened.message.id].raw["flags"] = 0  # a replayed custom_id
    click = await env.h.click(opened.message, player, custom_id=CHECKIN_BUTTON)
    assert said(click) == REFUSED and "Ivana" not in said(click)
    t = await env.app.store.read(get_tournament, env.world.tournament.id)
    assert t.status is TournamentStatus.CHECKIN  # still open
