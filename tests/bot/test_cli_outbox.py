"""`stredisko outbox [list|resend ČÍSLO|drop ČÍSLO --reason …]` through `main([...])` on a real
SQLite file: the operator sees what waits and what was dropped, queues one again for the bot,
drops one with a reason; bad input is one Slovak line with exit 2."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.clock import SystemClock
from bot.store import Change, Store, list_audit
from bot.store.outbox import (
    OutboxStatus,
    drop_message,
    list_outbox,
    mark_sent,
    queue_message,
)

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    db = tmp_path / "cli.db"

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main([*argv, "--db", str(db), "--admin", "hlavny"])
        except SystemExit as usage:  # argparse's refusal
            code = int(usage.code or 0)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    run.db = db  # type: ignore[attr-defined]
    assert run("create", str(EXAMPLES / "propozicie.toml"))[0] == 0
    return run


def _outbox(db: Path, write: bool = False) -> list:  # type: ignore[type-arg]
    async def go() -> list:  # type: ignore[type-arg]
        store = await Store.open(db)
        try:
            if write:
                def make(conn) -> None:  # type: ignore[no-untyped-def]
                    now = SystemClock().now()
                    for text in ("A", "B"):
                        queue_message(conn, "channel", 1, "play.withdrawn",
                                      {"player": text, "rule": "e-SP 3.6"}, now,
                                      tournament_id=1, round_no=1)
                    drop_message(conn, list_outbox(conn)[0], "1. kolo je uzavreté",
                                 Change.scheduler(now))
                await store.call(make)
            return await store.read(list_outbox)
        finally:
            await store.close()

    return asyncio.run(go())


def test_list_resend_drop(cli) -> None:  # type: ignore[no-untyped-def]
    dropped, pending = _outbox(cli.db, write=True)
    code, out, _ = cli("outbox")
    assert code == 0
    assert f"č. {dropped.id} · zahodená · play.withdrawn" in out and "kolo je uzavreté" in out
    assert f"č. {pending.id} · čaká" in out
    code, out, err = cli("outbox", "resend", str(dropped.id))
    assert code == 0 and "ako nová správa" in out and "Zaradené na odoslanie" in err
    code, out, _ = cli("outbox", "drop", str(pending.id), "--reason", "omylom")
    assert code == 0 and "je zahodená" in out
    rows = _outbox(cli.db)
    assert [row.status for row in rows] == [OutboxStatus.DROPPED, OutboxStatus.DROPPED,
                                            OutboxStatus.PENDING]  # the copy waits for the bot
    assert rows[2].round_no is None and rows[2].key != dropped.key
    code, out, _ = cli("outbox", "list", "--all")
    assert code == 0 and out.count("č. ") == 3

    async def audit() -> list:  # type: ignore[type-arg]
        store = await Store.open(cli.db)
        try:
            return await store.read(lambda db: list_audit(db, action="outbox.resent"))
        finally:
            await store.close()

    (entry,) = asyncio.run(audit())
    assert (entry.actor_id, entry.data["was"]) == ("hlavny", "dropped")


@pytest.mark.parametrize(("argv", "says"), [
    (("outbox", "resend"), "potrebuje číslo"),
    (("outbox", "drop", "1"), "potrebuje dôvod"),
    (("outbox", "drop", "1", "--reason", " "), "zdôvodnenie"),
    (("outbox", "resend", "¹²"), "nie je číslo správy"),
    (("outbox", "poslat"), "AKCIA"),
])
def test_bad_input_is_one_slovak_line(cli, argv: tuple[str, ...], says: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1


def test_an_unknown_message_is_refused(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("outbox", "resend", "77")
    assert code == 1 and "Správa č. 77 neexistuje" in err


def _mark_sent(db: Path, row_id: int) -> None:
    """What the bot does once it delivered the message."""
    async def go() -> None:
        async with await Store.open(db) as store:
            await store.call(mark_sent, row_id, SystemClock().now())

    asyncio.run(go())


def test_resending_twice_asks_for_again_and_the_audit_says_it_in_slovak(cli) -> None:  # type: ignore[no-untyped-def]
    """Issue 36.5: `resend N` typed twice queued two copies and players saw the message
    twice. A message already sent again, or waiting to be, is copied again only with
    --again; `stredisko show audit` words the resend in Slovak."""
    dropped, _ = _outbox(cli.db, write=True)
    assert cli("outbox", "resend", str(dropped.id))[0] == 0
    copy = _outbox(cli.db)[-1]
    code, out, err = cli("outbox", "resend", str(dropped.id))
    assert (code, out) == (1, "") and len(err.strip().splitlines()) == 1
    assert f"už čaká na opätovné odoslanie ako č. {copy.id}" in err and "--again" in err
    assert len(_outbox(cli.db)) == 3  # no second copy
    _mark_sent(cli.db, copy.id)
    for number in (dropped.id, copy.id):  # the original, or the copy that went out
        code, _, err = cli("outbox", "resend", str(number))
        assert code == 1 and f"už bola znova doručená (č. {copy.id})" in err
    assert len(_outbox(cli.db)) == 3
    code, out, _ = cli("outbox", "resend", str(dropped.id), "--again")
    assert code == 0 and "ako nová správa" in out
    rows = _outbox(cli.db)
    assert len(rows) == 4 and rows[-1].status is OutboxStatus.PENDING
    assert rows[-1].key not in {row.key for row in rows[:-1]}  # a new nonce: a new post
    code, out, _ = cli("show", "audit", "kt-2026-11")
    assert code == 0 and out.count("správa zaradená na opätovné odoslanie") == 2
    assert "outbox.resent" not in out and "správa neodoslaná, už neplatila" in out


def test_resending_a_pending_message_twice_queues_nothing_new(cli) -> None:  # type: ignore[no-untyped-def]
    _, pending = _outbox(cli.db, write=True)
    for _ in range(2):
        code, out, _ = cli("outbox", "resend", str(pending.id))
        assert code == 0 and "sa pošle znova" in out
    assert len(_outbox(cli.db)) == 2  # the same row, the same nonce: posted once
