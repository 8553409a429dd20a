"""The kill campaign: play the small tournament (`CLASSIC`), a duplicate game (`DUPLICATE`), the
same game in a live hall at the arbiter's console (`HALL`) or the tournament and the duplicate
game open at once in one App (`TWO_EVENTS`) with the process killed at chosen or random points,
restart it until it finishes, and compare everything that matters with a run that was never
killed (tests/bot/crash/test_crash.py, test_crash_duplicate.py, test_crash_hall.py and
test_crash_two_events.py run a fixed set; bench/kill_campaign.py a random one and prints the
figures).

Every run is a process of its own, forked from a zygote (zygote.py) that imported the drivers
once: a run ends as abruptly as before (os._exit at its crash point, or SIGKILL), without paying
Python's start-up and the imports each time.

What "the same" means: every result (status, end, points, scores, rule), the evidence at every
table (nothing recorded twice by a repeated step), every timer (fired once, at the same
moment), every outbox message (sent or dropped alike), the screlo history — and what reached
"Discord": the same messages, none missing, none twice — and none handed to "Discord" twice by
one process (its nonce would hide that only for minutes). The database passes its integrity check
and no sync run is left "running". A hall game also compares every answer its console printed:
a command the arbiter typed again after a kill must be answered as in the clean run.

`answered_first(game)` plays the game with the App as the bot's runner makes it (each caller
answered after his commit while his messages are delivered: driver.py `--answer-first`), killed
also just after such an answer (`answer:after`). It must end as the waiting mode's clean run.
"""

from __future__ import annotations

import atexit
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.i18n import t

DRIVER = Path(__file__).with_name("driver.py")
# runs are forked from a process that imported the drivers once (see zygote.py)
ZYGOTE = Path(__file__).with_name("zygote.py")
SCENARIO = Path(__file__).parents[1] / "rehearse" / "scenarios" / "small.toml"
POINTS = ("commit:before", "commit:after", "send:before", "send:after", "http")
KILLED = 137
RUN_TIMEOUT_S = 120
# What a crash itself gives the head admin to read: a sync run the kill cut short is closed as
# failed by the next run, and he is told. Counted apart, not as a doubled message.
CRASH_NOTICES = ("sync.fault.died",)
_NOT_A_NOTICE = "message_key NOT IN ({})".format(", ".join(f"'{k}'" for k in CRASH_NOTICES))
# when a message went out may differ (after a restart); whether it did may not
_OUTBOX = f"SELECT key, status FROM outbox WHERE {_NOT_A_NOTICE} ORDER BY key"
_TIMERS = "SELECT key, status, fired_at FROM timers ORDER BY key"


@dataclass(frozen=True)
class Game:
    """What a campaign plays: the driver and its scenario, the crash points the driver passes,
    and the end state compared with the clean run (name, SQL); `console`: the driver keeps
    what the arbiter's console printed (hall_driver.py), compared too (`console_rows`)."""

    driver: Path
    scenario: Path
    points: tuple[str, ...]
    tables: tuple[tuple[str, str], ...]
    console: bool = False
    name: str = ""  # how the bench names it (default: the scenario's file)
    answer_first: bool = False  # the bot's App: the caller answered before the delivery

    @property
    def title(self) -> str:
        return self.name or self.scenario.name


def answered_first(game: Game) -> Game:
    """`game` played by the bot's App (driver.py `--answer-first`), killed also right after an
    answer while its delivery is still to come or under way (`answer:after`)."""
    return replace(game, answer_first=True, points=(*game.points, "answer:after"),
                   name=f"{game.title}, answered first (the bot's App)")


CLASSIC = Game(DRIVER, SCENARIO, POINTS, (
    ("results", "SELECT pairing_id, status, end_kind, first_points, second_points, first_score, "
                "second_score, rated, rule FROM results ORDER BY pairing_id"),
    ("evidence", "SELECT pairing_id, kind, actor_id, at, payload FROM evidence "
                 "ORDER BY pairing_id, at, kind, payload"),
    ("timers", _TIMERS),
    ("outbox", _OUTBOX),
    ("ratings", "SELECT player_id, tournament_id, after_value, after_games "
                "FROM rating_history ORDER BY player_id"),
))
#: a whole online duplicate game (issue 24.4): same racks and deadlines, every slip kept, each
#: scored once (one version per player and round: a repeat would add a second), the same
#: timers fired at the same moments, the same outbox — and after the game each protest filed
#: once and decided once, one correction for the upheld one (003 r. 27–29, 004 §5D)
DUPLICATE = Game(
    DRIVER.with_name("duplicate_driver.py"),
    SCENARIO.with_name("duplicate-small.toml"),
    ("commit:before", "commit:after", "send:before", "send:after", "board:before",
     "board:after", "deadline", "close:after"), (
        ("games", "SELECT number, seed, commitment, state, started_at, ended_at, ended_rule "
                  "FROM dup_games ORDER BY number"),
        ("rounds", "SELECT game_id, number, part, rack, source, draw, bag, opened_at, deadline, "
                   "closed_at, board_before, board_after, tops FROM dup_rounds "
                   "ORDER BY game_id, number"),
        ("slips", "SELECT round_id, player_id, text, coord, word, declared, received_at, "
                  "source, replaced_by IS NULL FROM dup_slips "
                  "ORDER BY round_id, player_id, received_at"),
        ("scores", "SELECT round_id, player_id, version, outcome, points, rule, reason, "
                   "verdict FROM dup_scores ORDER BY round_id, player_id, version"),
        ("protests", "SELECT game_id, round_no, player_id, word, claim, reason, filed_at, "
                     "status, decided_at, decided_by, decision FROM dup_protests ORDER BY id"),
        ("corrections", "SELECT game_id, round_no, word, accepted, reason, rule, protest_id, at "
                        "FROM dup_corrections ORDER BY id"),
        ("timers", _TIMERS),
        ("outbox", _OUTBOX),
    ))


#: the same game in a live hall, run from the arbiter's console (hall_driver.py): the same tables
#: (no timer closes a hall's round: the arbiter types every step) and what the console printed
HALL = replace(DUPLICATE, driver=DRIVER.with_name("hall_driver.py"),
               points=("commit:before", "commit:after", "send:before", "send:after",
                       "board:before", "board:after", "typed:after", "print:after"),
               console=True, name="duplicate-small.toml in a hall")


#: both at once (issue 37.4): the classic tournament and the duplicate game open together in one
#: database, one App, one outbox and one timer scheduler (two_events_driver.py), killed at every
#: crash point of either. Every table of both games, and what only one App serving two events
#: could get wrong: each event's status, entries (the standings' withdrawals), rounds and
#: result versions (a result put twice adds one) — and the audit log, line by line, but for the
#: herna.net sync runs (a run a kill cut short is run again: its start and end logged anew)
TWO_EVENTS = Game(
    DRIVER.with_name("two_events_driver.py"), DRIVER.with_name("two-events.toml"),
    tuple(dict.fromkeys((*CLASSIC.points, *DUPLICATE.points))),
    (*dict((*CLASSIC.tables, *DUPLICATE.tables)).items(),
     ("events", "SELECT slug, status, channel_id, admin_ids, settings FROM tournaments "
                "ORDER BY slug"),
     ("entries", "SELECT tournament_id, player_id, registration_no, paid, checked_in_at, "
                 "withdrawn_at, withdrawn_reason, excluded_at, excluded_reason FROM entries "
                 "ORDER BY tournament_id, player_id"),
     ("classic rounds", "SELECT tournament_id, number, starts_at, limit_at, paired_at, "
                        "published_at, closed_at, dispute_closes_at FROM rounds "
                        "ORDER BY tournament_id, number"),
     ("versions", "SELECT pairing_id, version, status, first_points, second_points, "
                  "first_score, second_score, rule, actor_kind, actor_id, reason "
                  "FROM result_versions ORDER BY pairing_id, version"),
     ("audit", "SELECT at, actor_kind, actor_id, tournament_id, action, subject, reason, data "
               "FROM audit WHERE action NOT LIKE 'sync.%' "
               "ORDER BY at, tournament_id, action, subject, data")),
    name="two events at once (two-events.toml)")

def console_rows(folder: Path) -> list[tuple[Any, ...]]:
    """Every answer the console printed, once each: (step, command, exit code, lines). A
    command typed again after a kill and answered alike adds no row; answered otherwise, it
    does. A close typed again says first that the round was closed before (its one line of
    recognition, dropped here: the rest must be alike)."""
    path = folder / "console"
    entries = [json.loads(line) for line in
               path.read_text(encoding="utf-8").splitlines() if line] if path.exists() else []
    rows = set()
    for e in entries:
        lines = e["lines"]
        if e["argv"][0] == "close" and lines and lines[0] == t(
                "duplicate.online.closed_already", round=int(e["argv"][2])):
            lines = lines[1:]
        rows.add((e["step"], " ".join(e["argv"]), e["code"], "\n".join(lines)))
    return sorted(rows)


@dataclass(frozen=True)
class Final:
    """The end state of one whole run, as compared between runs."""

    state: dict[str, list[tuple[Any, ...]]]  # the game's tables, by name
    delivered: Counter[tuple[str, int, str]]
    repeats: int  # deliveries Discord recognised by their nonce (not posted again)
    resent: int  # of those, handed over again by the process that had handed them (no restart)
    notices: int  # CRASH_NOTICES delivered
    integrity: str
    running_syncs: int


@dataclass
class Comparison:
    lost: int = 0  # messages the clean run delivered and this one did not
    duplicated: int = 0  # copies beyond the clean run's of a message it delivered too
    leaked: int = 0  # messages the clean run never delivered at all
    resent: int = 0  # messages one process handed "Discord" twice (its nonce hid the copy)
    differences: list[str] = field(default_factory=list)  # other state that differs
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows not as in the clean run

    @property
    def clean(self) -> bool:
        return not (self.lost or self.duplicated or self.leaked or self.resent
                    or self.differences)


@dataclass
class Outcome:
    kills: int
    restarts: int
    comparison: Comparison
    repeats: int
    notices: int


def _query(db: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in db.execute(sql).fetchall()]


def final_state(folder: Path, game: Game = CLASSIC) -> Final:
    db = sqlite3.connect(folder / "db")
    try:
        state = {name: _query(db, sql) for name, sql in game.tables}
        if game.console:
            state["console"] = console_rows(folder)
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        running = db.execute(
            "SELECT count(*) FROM sync_runs WHERE outcome = 'running'").fetchone()[0]
    finally:
        db.close()
    lines = [json.loads(line) for line in
             (folder / "sink").read_text(encoding="utf-8").splitlines() if line]
    fresh = [m for m in lines if not m["repeat"]]
    delivered = Counter((m["where"], m["target"], m["text"]) for m in fresh
                        if m["key"] not in CRASH_NOTICES)
    handed = Counter((m["run"], m["nonce"]) for m in lines)
    return Final(state, delivered, repeats=len(lines) - len(fresh),
                 resent=sum(n - 1 for n in handed.values()),
                 notices=sum(m["key"] in CRASH_NOTICES for m in fresh), integrity=integrity,
                 running_syncs=running)


def compare(clean: Final, other: Final) -> Comparison:
    out = Comparison()
    out.lost = sum((clean.delivered - other.delivered).values())
    extra = other.delivered - clean.delivered
    out.leaked = sum(n for message, n in extra.items() if message not in clean.delivered)
    out.duplicated = sum(extra.values()) - out.leaked
    out.resent = other.resent
    for name, rows in clean.state.items():
        mine = Counter(other.state.get(name, []))
        out.rows[name] = sum(((Counter(rows) - mine) + (mine - Counter(rows))).values())
        if other.state.get(name) != rows:
            out.differences.append(name)
    if other.integrity != "ok":
        out.differences.append(f"integrity: {other.integrity}")
    if other.running_syncs:
        out.differences.append(f"{other.running_syncs} sync runs left running")
    return out


def _argv(folder: Path, crash: str | None, counts: bool, game: Game) -> list[str]:
    argv = [str(game.scenario), str(folder / "db"), str(folder / "sink"),
            str(folder / "progress")]
    if crash:
        argv += ["--crash", crash]
    if counts:
        argv += ["--counts", str(folder / "counts.json")]
    if game.answer_first:
        argv.append("--answer-first")
    return argv


class Zygote:
    """One fork server (zygote.py): the drivers imported once, a fresh forked process per run."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(ZYGOTE)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in, self._out, self._buffer = self.process.stdin, self.process.stdout, b""
        assert self._answer(RUN_TIMEOUT_S) == {"ready": True}, "the zygote did not start"

    def start(self, folder: Path, argv: list[str], game: Game) -> int:
        """Fork a run of `game`'s driver with `argv`; its pid."""
        request = {"driver": game.driver.name, "argv": argv, "stderr": str(folder / "stderr")}
        self._in.write((json.dumps(request) + "\n").encode())
        self._in.flush()
        answer = self._answer(RUN_TIMEOUT_S)
        assert answer is not None, "the zygote did not fork"
        return int(answer["pid"])

    def _answer(self, timeout: float) -> dict[str, Any] | None:
        """The zygote's next line, or None when none came within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                return None
            chunk = os.read(self._out.fileno(), 4096)
            if not chunk:
                raise RuntimeError(f"the zygote ended ({self.process.wait()})")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return dict(json.loads(line))

    def wait(self, timeout: float) -> int | None:
        """The run's exit code (minus the signal that ended it), or None after `timeout`."""
        answer = self._answer(timeout)
        return None if answer is None else int(answer["code"])

    def close(self) -> None:
        self._in.close()  # its end of input ends it
        self.process.wait(timeout=30)


class _Zygotes:
    """Idle zygotes; a run takes one (a new one when all are busy: one per concurrent run)."""

    def __init__(self) -> None:
        self._idle: list[Zygote] = []
        self._lock = threading.Lock()
        atexit.register(self.close)

    def warm(self) -> None:
        """One zygote started and idle: a timed run does not pay for its imports."""
        with self.one():
            pass

    @contextmanager
    def one(self) -> Iterator[Zygote]:
        with self._lock:
            zygote = self._idle.pop() if self._idle else None
        zygote = zygote or Zygote()
        try:
            yield zygote
        except BaseException:
            zygote.process.kill()  # its state is unknown: not used again
            zygote.process.wait()
            raise
        with self._lock:
            self._idle.append(zygote)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for zygote in idle:
            zygote.close()


ZYGOTES = _Zygotes()


def _ended(code: int, folder: Path) -> int:
    if code not in (0, KILLED):
        stderr = (folder / "stderr").read_text(encoding="utf-8", errors="replace")
        raise RuntimeError(f"the driver failed ({code}):\n{stderr[-3000:]}")
    return code


def _kill(zygote: Zygote, pid: int) -> int:
    with suppress(ProcessLookupError):  # it ended (and was reaped) just now: its code follows
        os.kill(pid, signal.SIGKILL)
    code = zygote.wait(RUN_TIMEOUT_S)
    assert code is not None, f"run {pid} outlived SIGKILL"
    return code


def run(folder: Path, crash: str | None = None, *, counts: bool = False,
        game: Game = CLASSIC) -> int:
    """One process of the driver; its exit code (KILLED when the crash point was reached)."""
    with ZYGOTES.one() as zygote:
        pid = zygote.start(folder, _argv(folder, crash, counts, game), game)
        code = zygote.wait(RUN_TIMEOUT_S)
        if code is None:
            _kill(zygote, pid)
            raise RuntimeError(f"the driver ran over {RUN_TIMEOUT_S} s")
        return _ended(code, folder)


def sigkill_after(folder: Path, seconds: float, game: Game = CLASSIC) -> int:
    """Start the driver and SIGKILL it after `seconds` (if it is still running)."""
    with ZYGOTES.one() as zygote:
        pid = zygote.start(folder, _argv(folder, None, False, game), game)
        code = zygote.wait(seconds)
        if code is None:
            code = _kill(zygote, pid)
        return KILLED if code == -signal.SIGKILL else _ended(code, folder)


def clean_run(folder: Path, game: Game = CLASSIC) -> tuple[Final, dict[str, int], float]:
    """The run nobody kills: its end state, how often it passed each crash point, seconds."""
    folder.mkdir(parents=True, exist_ok=True)
    ZYGOTES.warm()  # the run's seconds are its own: a SIGKILL is placed by a share of them
    started = time.perf_counter()
    assert run(folder, counts=True, game=game) == 0
    counts = json.loads((folder / "counts.json").read_text(encoding="utf-8"))
    return final_state(folder, game), counts, time.perf_counter() - started


def killed_run(folder: Path, kills: list[str | float], clean: Final,
               game: Game = CLASSIC) -> Outcome:
    """Kill the driver at each of `kills` in turn ("point:n", or seconds for a SIGKILL after
    that long), then let it finish; compare with the clean run."""
    folder.mkdir(parents=True, exist_ok=True)
    killed = restarts = 0
    for kill in kills:
        code = (sigkill_after(folder, kill, game) if isinstance(kill, float)
                else run(folder, kill, game=game))
        killed += code == KILLED
        restarts += 1
        if code == 0:
            break
    else:
        while run(folder, game=game) != 0:  # never: no crash is asked for any more
            restarts += 1
    final = final_state(folder, game)
    return Outcome(killed, restarts, compare(clean, final), final.repeats, final.notices)


#: a planned kill: (point, share of the clean run's passages), a share of its time (SIGKILL),
#: or a crash spec as the driver takes it ("point:n@step")
Kill = tuple[str, float] | float | str


def planned_kills(plan: Sequence[Kill], counts: dict[str, int],
                  seconds: float) -> list[str | float]:
    """"point:n" with n the share of the clean run's passages (at least the first); a bare
    share is a SIGKILL after that share of the clean run's time; a spec stays as it is."""
    return [k if isinstance(k, str) else k * seconds if isinstance(k, float) else
            f"{k[0]}:{max(1, round(k[1] * counts[k[0]]))}" for k in plan]


def planned_campaign(folder: Path, plans: Sequence[Sequence[Kill]],
                     counts: dict[str, int], seconds: float, clean: Final,
                     game: Game = CLASSIC) -> list[Outcome]:
    """Each plan a killed run of its own (two at a time, under `folder`): every one must
    really have been killed and end as the clean run did. Their outcomes, for the counts a
    test asks about (repeats, notices)."""
    cases = [planned_kills(plan, counts, seconds) for plan in plans]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(
            lambda n: killed_run(folder / f"case{n}", cases[n], clean, game),
            range(len(cases))))
    for n, outcome in enumerate(outcomes):
        for retry in range(1, 3):
            if outcome.kills or not any(isinstance(k, float) for k in cases[n]):
                break
            # a timed SIGKILL came after the run had ended: it ran faster than the clean run
            # (a loaded machine's clean run is slow) — again, sooner, on a fresh folder
            cases[n] = [k / 2 if isinstance(k, float) else k for k in cases[n]]
            outcome = outcomes[n] = killed_run(folder / f"case{n}-sooner{retry}", cases[n],
                                               clean, game)
    unkilled = [cases[n] for n, o in enumerate(outcomes) if o.kills < 1]
    assert unkilled == [], f"never killed: {unkilled}"
    failing = [f"{cases[n]}: {o.comparison}" for n, o in enumerate(outcomes)
               if not o.comparison.clean]
    assert not failing, "\n".join(failing)
    return outcomes


def random_kills(rng: random.Random, counts: dict[str, int], run_seconds: float,
                 how_many: int, points: tuple[str, ...] = POINTS) -> list[str | float]:
    """`how_many` kills in a row: a random point at a random passage (each restart passes the
    points again from 1), or a SIGKILL at a random moment."""
    kills: list[str | float] = []
    for _ in range(how_many):
        if rng.random() < 0.25:
            kills.append(round(rng.uniform(0.2, run_seconds), 2))
        else:
            point = rng.choice([p for p in points if counts.get(p)] or list(points))
            kills.append(f"{point}:{rng.randint(1, max(1, counts.get(point, 1)))}")
    return kills
