"""Who runs a sync run, and whether that process is still alive.

A sync run is 'running' from its start until its pass finishes it; a process killed mid-pass
(kill -9, a crash, a container restart) leaves it 'running' for ever. The next run's start
closes such runs as failed. How a dead run is told from a live one (another process may be
syncing right now: the bot's round poll while an admin runs `stredisko sync`):

- each run keeps its owner: the host, the process id and a token made once per process;
- on the same host, a run whose process id is gone is dead; so is one whose process id is
  ours but whose token is not (the id was reused: in a container the bot is always pid 1);
- otherwise (another host, or the id now held by another live process) only age tells: a run
  older than `STALE_AFTER` is dead. Every read of herna.net ends by its deadline (15 minutes by
  default), so no live pass comes near it. Runs started before owners were kept are judged by
  age alone.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import datetime, timedelta
from typing import Any

from bot.store import SyncRun

#: A run this old is dead whoever owns it: far beyond any bounded pass.
STALE_AFTER = timedelta(hours=2)

_TOKEN: dict[int, str] = {}  # pid -> token: a forked child gets its own


def this_process() -> dict[str, Any]:
    """The owner marker of runs this process starts."""
    pid = os.getpid()
    token = _TOKEN.setdefault(pid, uuid.uuid4().hex)
    return {"host": socket.gethostname(), "pid": pid, "token": token}


def why_dead(run: SyncRun, now: datetime) -> str | None:
    """Why a 'running' run cannot finish any more (in Slovak: the head admin reads it), or None
    while its process may still be at work."""
    age = now - run.started_at
    if age > STALE_AFTER:
        hours = int(age.total_seconds() // 3600)
        return f"beží už {hours} h od začiatku, dlhšie ako ktorékoľvek čítanie z herna.net"
    owner = run.summary.get("owner")
    if not isinstance(owner, dict):
        return None
    me = this_process()
    if owner.get("host") != me["host"]:
        return None
    pid = owner.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return "nevie sa, ktorý proces ju viedol"
    if pid == me["pid"]:
        return None if owner.get("token") == me["token"] else (
            f"proces {pid} sa medzitým reštartoval")
    return None if _alive(pid) else f"proces {pid} na {me['host']} už nebeží"


def process_alive(pid: int) -> bool:
    """Whether a process with this id exists on this host."""
    return _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by another user
        return True
    return True
