"""The events one bot serves (issue 37, `bot.services.tournament.events`), a classic qualifier
and a duplicate evening in one real SQLite store: which are running and of which kind, whose
channel is whose, what a user is offered, the operator's channel and its one refusal; and the
nightly herna.net sync, which covers the classic events only."""

from __future__ import annotations

from pathlib import Path

from bot.services.app import App
from bot.services.policy import Actor
from bot.services.results.nightly import _nightly_slugs
from bot.services.tournament import events
from bot.store import Change, TournamentStatus, set_status

from ...conftest import make_world
from .conftest import discord, make_event

OPERATOR = Actor.operator("spravca")
CH_CLASSIC, CH_DUP = 1_100_000_000_000_000_701, 1_100_000_000_000_000_702


async def test_running_events_their_kinds_channels_and_users(app: App, words: Path) -> None:
    await make_world(app, slug="kt-jesen")
    await make_event(app, words, slug="dup-vecer")
    assert [(e.slug, e.kind) for e in await app.store.read(events.running)] == [
        ("kt-jesen", "classic"), ("dup-vecer", "duplicate")]
    assert [e.slug for e in await app.store.read(events.running, "duplicate")] == ["dup-vecer"]

    assert (await events.set_channel(app, "kt-jesen", CH_CLASSIC, OPERATOR)).ok
    assert (await events.set_channel(app, "dup-vecer", CH_DUP, OPERATOR)).ok
    # two unfinished events never share a channel (e-SP 2.6); nothing changes
    taken = await events.set_channel(app, "dup-vecer", CH_CLASSIC, OPERATOR)
    assert not taken.ok and taken.key == "events.channel_taken" and taken.rule == "e-SP 2.6"
    # only the operator (who holds the file) places events; a Discord account does not
    refused = await events.set_channel(app, "dup-vecer", None, Actor.discord(discord(0)))
    assert not refused.ok and refused.key == "policy.operator_only"

    def where(channel: int | None) -> list[str]:
        return [e.slug for e in app.store.call_sync(events.for_channel, channel, None)]

    assert where(CH_CLASSIC) == ["kt-jesen"] and where(CH_DUP) == ["dup-vecer"]
    assert where(None) == [] and where(1) == []

    # a duplicate player is offered his event, not the classic one he does not play in
    mine = await app.store.read(events.of_user, discord(0))
    assert [e.slug for e in mine] == ["dup-vecer"]


async def test_a_finished_event_keeps_its_channel_until_another_takes_it(
        app: App, words: Path) -> None:
    world = await make_world(app, slug="kt-stary")
    await events.set_channel(app, "kt-stary", CH_CLASSIC, OPERATOR)
    await app.run(lambda tx: set_status(tx.db, world.tournament.id, TournamentStatus.FINISHED,
                                        Change.admin("spravca", tx.now, "test")))
    assert [e.slug for e in app.store.call_sync(events.for_channel, CH_CLASSIC, None)] == [
        "kt-stary"]  # its results and standings stay where they were
    await make_event(app, words, slug="dup-novy")
    assert (await events.set_channel(app, "dup-novy", CH_CLASSIC, OPERATOR)).ok
    assert [e.slug for e in app.store.call_sync(events.for_channel, CH_CLASSIC, None)] == [
        "dup-novy"]


async def test_the_nightly_sync_leaves_duplicate_events_alone(app: App, words: Path) -> None:
    world = await make_world(app, slug="kt-jesen")
    dup = await make_event(app, words, slug="dup-vecer")
    for t in (world.tournament, dup.tournament):  # both finished, neither rated
        await app.run(lambda tx, t=t: set_status(tx.db, t.id, TournamentStatus.FINISHED,
                                                 Change.admin("spravca", tx.now, "test")))
    assert await app.run(_nightly_slugs) == ["kt-jesen"]
