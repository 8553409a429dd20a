"""A bot frozen after it lost its lease posts nothing more (issue 36.1), with two real
`stredisko run` processes and Discord's REST API stood in for by an HTTP server on 127.0.0.1.

Bot A is frozen (SIGSTOP: a laptop asleep, a VM paused) in the middle of a delivery pass, right
after handing its third of eight messages to "Discord"; after the lease's dead time bot B
takes the lease over and delivers what is pending; A is woken (SIGCONT) long after. Every
message must be posted exactly once, and A must post nothing after it wakes.

Time is scaled (`SCALE`): the driver shrinks the product's own constants (the lease's renewal
and dead time, the nonce window the outbox counts on, the outbox's poll) by the same factor,
and "Discord" collapses a repeated nonce within that scaled window, as Discord does within
minutes. A is woken `FROZEN` (200 s scaled) after it froze — and never before B's last post is
older than the window (a process's start-up is not scaled), so a repeat cannot hide behind a
nonce: as in the report, where A's copies came ~250 s later."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.clock import SystemClock
from bot.services.app import App
from bot.services.delivery import lease
from bot.services.delivery.outbox import NONCE_WINDOW
from bot.services.notifier import RecordingNotifier
from bot.store import Store
from bot.store.lease import current_lease
from bot.store.outbox import OutboxStatus, list_outbox

from .conftest import RUN_ADMIN, config_file, run_tournament
from .harness import BOT_USER, CONTROL_CHANNEL_ID
from .test_runner import ROOT, _driver

#: 60 s of dead time → 4 s, the 2-minute nonce window → 8 s; `FENCING_SCALE=1` runs the real
#: timings (about 4 minutes)
SCALE = float(os.environ.get("FENCING_SCALE", 1 / 15))
WINDOW = NONCE_WINDOW.total_seconds() * SCALE
DEAD = lease.DEAD_AFTER.total_seconds() * SCALE
FROZEN = 200 * SCALE
MESSAGES = 8
FREEZE_AT = 3  # A is frozen right after its third post has reached "Discord"
RETRY_AFTER = 0.5  # the 429's wait: far shorter than the freeze around it

#: The driver's additions: the product's timings scaled, Discord's REST API at the stand-in
#: (each process's requests under its own pid), and a real HTTP session at login.
PRELUDE = """
import os
from bot.discord import runner as _runner
from bot.services.delivery import lease as _lease
from bot.services.delivery import outbox as _outbox
_scale = float(os.environ["LEASE_SCALE"])
_lease.RENEW_EVERY *= _scale
_lease.DEAD_AFTER *= _scale
_outbox.NONCE_WINDOW *= _scale
_runner.OUTBOX_EVERY_S *= _scale
discord.http.Route.BASE = f"{os.environ['FAKE_DISCORD']}/{os.getpid()}/api/v10"
_offline_login = discord.Client.login

async def _login(self, token):
    await self.http.static_login(token)  # GET /users/@me from the stand-in
    await _offline_login(self, token)

discord.Client.login = _login
"""


@dataclass(frozen=True, slots=True)
class Post:
    pid: int
    nonce: str
    at: float  # time.monotonic()
    shown: bool  # a new message in the channel (False: a repeat Discord collapsed by nonce)


class FakeDiscord(ThreadingHTTPServer):
    """Discord's REST API as the bot uses it here: who it is, posting to a channel (a nonce
    repeated within `window` seconds returns the first message, as `enforce_nonce` does), and
    reading a channel's history back. Freezes the process `freeze[0]` at its `freeze[1]`-th
    post, before answering it."""

    daemon_threads = True

    def __init__(self, window: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.window = window
        self.lock = threading.Lock()
        self.posts: list[Post] = []
        self.messages: list[dict[str, Any]] = []
        self.first: dict[str, tuple[float, dict[str, Any]]] = {}  # nonce → first post
        self.freeze: tuple[int, int] | None = None
        #: (pid, n): that process's n-th post is answered 429 (a bucket's limit, retry after
        #: `RETRY_AFTER`) and the process frozen inside discord.py's wait before its retry
        self.limit: tuple[int, int] | None = None
        self.frozen = threading.Event()
        self.unexpected: list[str] = []
        self.attempts: Counter[int] = Counter()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def limited(self, pid: int) -> bool:
        """Whether this post of `pid` is the one answered 429 (counted among its attempts)."""
        with self.lock:
            self.attempts[pid] += 1
            return self.limit == (pid, self.attempts[pid])

    def post(self, pid: int, channel: str, body: dict[str, Any]) -> dict[str, Any]:
        now, nonce = time.monotonic(), str(body.get("nonce"))
        with self.lock:
            first = self.first.get(nonce)
            shown = first is None or now - first[0] > self.window
            if shown:
                snowflake = discord.utils.time_snowflake(datetime.now(UTC)) + len(self.messages)
                message = {
                    "id": str(snowflake), "channel_id": channel, "author": BOT_USER.payload(),
                    "content": body.get("content") or "", "embeds": body.get("embeds") or [],
                    "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None,
                    "tts": False, "mention_everyone": False, "mentions": [],
                    "mention_roles": [], "attachments": [], "pinned": False, "type": 0,
                    "nonce": nonce}
                self.messages.append(message)
                self.first[nonce] = (now, message)
            else:
                message = first[1]  # type: ignore[index]
            self.posts.append(Post(pid, nonce, now, shown))
            mine = sum(1 for p in self.posts if p.pid == pid)
        if self.freeze == (pid, mine):
            os.kill(pid, signal.SIGSTOP)  # mid-pass: this post is out, the next ones not
            self.frozen.set()
        return message

    def history(self, channel: str, after: int, limit: int) -> list[dict[str, Any]]:
        with self.lock:
            found = [m for m in self.messages
                     if m["channel_id"] == channel and int(m["id"]) > after]
        return sorted(found, key=lambda m: -int(m["id"]))[:limit]  # newest first


class _Handler(BaseHTTPRequestHandler):
    server: FakeDiscord

    def _route(self) -> tuple[int, list[str], dict[str, list[str]]]:
        url = urlsplit(self.path)
        pid, _, rest = url.path.strip("/").partition("/api/v10/")
        return int(pid), rest.split("/"), parse_qs(url.query)

    def _answer(self, status: int, payload: object,
                headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        pid, parts, query = self._route()
        if parts == ["users", "@me"]:
            self._answer(200, {**BOT_USER.payload(), "verified": True, "mfa_enabled": False})
        elif len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            self._answer(200, self.server.history(parts[1], int(query.get("after", ["0"])[0]),
                                                  int(query.get("limit", ["50"])[0])))
        else:
            self.server.unexpected.append(f"{pid} GET {self.path}")
            self._answer(404, {"code": 0, "message": "404: Not Found"})

    def do_POST(self) -> None:
        pid, parts, _ = self._route()
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
        if len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            if self.server.limited(pid):
                # Discord's own 429 (discord.py tells it from Cloudflare's by `Via`): the
                # client waits, then sends again without asking anyone — frozen meanwhile
                self._answer(429, {"message": "You are being rate limited.",
                                   "retry_after": RETRY_AFTER, "global": False},
                             {"Via": "1.1 google"})
                os.kill(pid, signal.SIGSTOP)
                self.server.frozen.set()
                return
            self._answer(200, self.server.post(pid, parts[1], body))
        else:
            self.server.unexpected.append(f"{pid} POST {self.path}")
            self._answer(404, {"code": 0, "message": "404: Not Found"})

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _bot(tmp_path: Path, name: str, fake: FakeDiscord) -> subprocess.Popen[bytes]:
    """One `stredisko run` on the shared database; its log in `name`.log."""
    env = {**os.environ, "DISCORD_TOKEN": "fake", "PYTHONPATH": str(ROOT),
           "LEASE_SCALE": str(SCALE), "FAKE_DISCORD": fake.url}
    with (tmp_path / f"{name}.log").open("wb") as log:
        return subprocess.Popen(
            [sys.executable, str(_driver(tmp_path, PRELUDE)), str(config_file(tmp_path)),
             str(tmp_path / name), str(RUN_ADMIN.id)],
            cwd=tmp_path, env=env, stdout=log, stderr=log)


def _until(what: str, done: Any, proc: subprocess.Popen[bytes], log: Path,
           timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what}: timed out\n{log.read_text()}"
        assert proc.poll() is None, f"{what}: the bot ended\n{log.read_text()}"
        time.sleep(0.05)


def _queue(db: Path, tournament_id: int) -> None:
    """What the CLI does while the bot runs: messages queued for it (`delivery="queue"`)."""
    async def go() -> None:
        async with await Store.open(db) as store:
            cli = App(store, SystemClock(), RecordingNotifier(), delivery="queue")
            for n in range(1, MESSAGES + 1):
                await cli.run(lambda tx, n=n: tx.announce(
                    tournament_id, "play.withdrawn", player=f"Hráč {n}", rule="e-SP 3.6"))

    asyncio.run(go())


def _all_sent(conn: Any) -> bool:
    rows = list_outbox(conn)
    return len(rows) == MESSAGES and all(row.status is OutboxStatus.SENT for row in rows)


def _read(db: Path, fn: Any) -> Any:
    with Store(db) as store:
        return store.read_sync(fn)


@pytest.mark.parametrize("where", ["after_a_post", "in_a_rate_limit_wait"])
def test_a_bot_frozen_past_its_lease_posts_nothing_when_it_wakes(
        tmp_path: Path, where: str) -> None:
    """Frozen after a post has reached Discord, or inside discord.py's HTTP client — in the
    wait after a 429, whose retry no code of ours sees (issue 43.4): the lease is checked at
    the last moment each request can leave (`bot/discord/fencing.py`)."""
    db = tmp_path / "stredisko.db"
    t = run_tournament(db, channel_id=CONTROL_CHANNEL_ID)
    fake = FakeDiscord(WINDOW)
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    bots: list[subprocess.Popen[bytes]] = []
    try:
        a = _bot(tmp_path, "a", fake)
        bots.append(a)
        _until("A starts", (tmp_path / "a").exists, a, tmp_path / "a.log")
        if where == "after_a_post":
            fake.freeze = (a.pid, FREEZE_AT)
        else:  # the next post after FREEZE_AT is answered 429: A freezes in the wait
            fake.limit = (a.pid, FREEZE_AT + 1)
        _queue(db, t.id)  # A's outbox poll picks them up and starts posting
        assert fake.frozen.wait(60), (tmp_path / "a.log").read_text()
        frozen_at = time.monotonic()

        time.sleep(DEAD + 1)  # A's heartbeat is older than the lease's dead time
        b = _bot(tmp_path, "b", fake)
        bots.append(b)
        _until("B takes over and delivers", lambda: _read(db, _all_sent), b,
               tmp_path / "b.log")
        last_b = max(p.at for p in fake.posts if p.pid == b.pid)
        time.sleep(max(frozen_at + FROZEN, last_b + WINDOW + 1) - time.monotonic())

        woken_at = time.monotonic()
        os.kill(a.pid, signal.SIGCONT)
        a_code = a.wait(60)
        b.send_signal(signal.SIGTERM)
        b_code = b.wait(60)
    finally:
        for proc in bots:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        fake.shutdown()
    a_log, b_log = (tmp_path / "a.log").read_text(), (tmp_path / "b.log").read_text()

    shown = Counter(p.nonce for p in fake.posts if p.shown)
    assert len(shown) == MESSAGES and set(shown.values()) == {1}, shown  # each once
    assert [p for p in fake.posts if p.pid == a.pid and p.at >= woken_at] == []
    assert sum(1 for p in fake.posts if p.pid == a.pid) == FREEZE_AT
    assert a_code == 1 and "lease was taken over by another bot" in a_log, a_log
    assert b_code == 0 and "lease taken over from" in b_log, b_log
    assert "Traceback" not in a_log + b_log and fake.unexpected == []
    rows = _read(db, list_outbox)
    assert [row.status for row in rows] == [OutboxStatus.SENT] * MESSAGES
    assert _read(db, current_lease) is None  # B stopped cleanly and gave the lease back
