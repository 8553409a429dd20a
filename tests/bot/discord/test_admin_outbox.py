"""`/admin odchadzajuce` through discord.py's real dispatch: the head admin lists the outbox,
sends a dropped message again and drops a pending one; a role holder who is not a named head
admin is refused (e-SP 2.6)."""

from __future__ import annotations

from datetime import timedelta

from bot.services.app import Tx
from bot.store import Change, list_audit
from bot.store.outbox import OutboxStatus, drop_message, list_outbox, queue_message
from bot.store.times import to_text

from .conftest import HEAD_ADMIN_ROLE_ID, Env, said
from .harness import FakeUser


async def _two_messages(env: Env) -> tuple[int, int]:
    """One message dropped (its round closed during an outage) and one still pending (Discord
    refused it; its retry is not due yet)."""
    tid = env.world.tournament.id

    def make(tx: Tx) -> None:
        queue_message(tx.db, "channel", tid, "play.withdrawn", {"player": "X", "rule": "e-SP 3.6"},
                      tx.now, tournament_id=tid, round_no=1)
        queue_message(tx.db, "dm", env.world.players[0].id, "play.withdrawn_ok",
                      {"tournament": "T", "rule": "e-SP 3.6"}, tx.now,
                      tournament_id=tid)
        first = list_outbox(tx.db)[0]
        drop_message(tx.db, first, "1. kolo je uzavreté", Change.scheduler(tx.now))
        tx.db.execute("UPDATE outbox SET attempts = 3, last_error = '503', next_attempt_at = ? "
                      "WHERE message_key = 'play.withdrawn_ok'",
                      [to_text(tx.now + timedelta(hours=1))])

    await env.app.store.call(lambda db: make(Tx(db, env.clock.now(), env.app)))
    dropped, pending = await env.app.store.read(list_outbox)
    return dropped.id, pending.id


async def test_the_head_admin_lists_resends_and_drops(env: Env) -> None:
    dropped, pending = await _two_messages(env)
    listed = await env.admin_cmd("odchadzajuce zoznam")
    text = said(listed)
    assert listed.ephemeral and f"č. {dropped} · zahodená · play.withdrawn" in text
    assert "1. kolo je uzavreté" in text and f"č. {pending} · čaká" in text

    again = await env.admin_cmd("odchadzajuce znova", cislo=dropped)
    assert "ako nová správa" in said(again)
    assert "X" in env.channel_text()  # sent again, as a new message
    blank = await env.admin_cmd("odchadzajuce zahod", cislo=pending, dovod="  ")
    assert "dôvod" in said(blank)
    gone = await env.admin_cmd("odchadzajuce zahod", cislo=pending, dovod="omylom")
    assert "je zahodená" in said(gone)
    rows = {row.id: row for row in await env.app.store.read(list_outbox)}
    assert rows[pending].status is OutboxStatus.DROPPED
    assert "omylom" in (rows[pending].last_error or "")
    (copy,) = [row for row in rows.values() if row.id not in (dropped, pending)]
    assert (copy.message_key, copy.status, copy.round_no) == (
        "play.withdrawn", OutboxStatus.SENT, None)
    resent = await env.app.store.read(lambda db: list_audit(db, action="outbox.resent"))
    assert [entry.data["was"] for entry in resent] == ["dropped"]
    twice = await env.admin_cmd("odchadzajuce zahod", cislo=pending, dovod="znova")
    assert "už nečaká" in said(twice)
    unknown = await env.admin_cmd("odchadzajuce znova", cislo=999)
    assert "neexistuje" in said(unknown)


async def test_a_role_holder_who_is_not_named_is_refused(env: Env) -> None:
    dropped, _ = await _two_messages(env)
    stranger = FakeUser(4242424242, "Iný rozhodca", roles=[HEAD_ADMIN_ROLE_ID])
    env.h.users[stranger.id] = stranger
    ex = await env.h.slash("admin", user=stranger, subcommand="odchadzajuce znova",
                           options={"cislo": dropped})
    assert "nie je v zozname" in said(ex) or "len hlavný administrátor" in said(ex)
    assert len(await env.app.store.read(list_outbox)) == 2  # nothing queued again


async def test_resending_twice_needs_este_raz(env: Env) -> None:
    """Issue 36.5: the same resend typed twice posts once; the head admin who really wants
    the message out once more says so (`este_raz`)."""
    dropped, _ = await _two_messages(env)
    await env.admin_cmd("odchadzajuce znova", cislo=dropped)
    posted = env.channel_text().count("X")
    twice = await env.admin_cmd("odchadzajuce znova", cislo=dropped)
    assert twice.ephemeral and "už bola znova doručená" in said(twice)
    assert "este_raz" in said(twice) and env.channel_text().count("X") == posted
    forced = await env.admin_cmd("odchadzajuce znova", cislo=dropped, este_raz=True)
    assert "ako nová správa" in said(forced)
    assert env.channel_text().count("X") > posted
    copies = [row for row in await env.app.store.read(list_outbox) if row.id > dropped + 1]
    assert [row.status for row in copies] == [OutboxStatus.SENT] * 2
