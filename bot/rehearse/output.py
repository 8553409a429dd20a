"""What a rehearsal shows: the transcript (the control-centre channel, DMs, admin notes and the
players' commands, each line with its Bratislava time) and the JSON document of the results.

Messages and replies are rendered by `bot.console` (no second renderer); the JSON is read from
the store through the services' own views, with the scenario's player ids everywhere.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.clock import Clock, local
from bot.console import ConsoleNotifier, render_reply
from bot.i18n import t
from bot.services import lookup
from bot.services.app import Tx
from bot.services.notifier import Message
from bot.services.replies import Reply
from bot.services.tournament.views import build_report, tables_of
from bot.store import list_entries

#: how herna.net's ends read in the transcript's game lines
GAME_ENDS_SK = {
    "finished": "dohraná", "passes": "ukončená po pasoch", "resigned": "vzdaná",
    "time_loss": "prekročený čas", "disconnected": "odpojenie", "draw": "remíza",
    "unfinished": "nedohraná (stále beží)",
}
HERNA = "herna.net"
ADMIN_LABEL = "hlavný administrátor"


def stamp(moment: datetime) -> str:
    return f"[{local(moment):%H:%M}]"


def local_text(moment: datetime) -> str:
    return f"{local(moment):%Y-%m-%d %H:%M}"


class Transcript:
    """A `Notifier` that writes every message as `bot.console` renders it, time-stamped by the
    rehearsal's clock, and keeps the players' commands with their replies."""

    def __init__(self, clock: Clock, name_of: Callable[[int], str]) -> None:
        self.clock = clock
        self.lines: list[str] = []
        self._buffer = io.StringIO()
        self._console = ConsoleNotifier(self._buffer, name_of)

    def add(self, lines: list[str]) -> None:
        prefix = stamp(self.clock.now())
        self.lines.extend(f"{prefix} {line}" for line in lines)

    def _drain(self) -> None:
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        self.add(text.splitlines())

    async def announce(self, tournament_id: int, message: Message) -> None:
        await self._console.announce(tournament_id, message)
        self._drain()

    async def direct(self, player_id: int, message: Message) -> None:
        await self._console.direct(player_id, message)
        self._drain()

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        await self._console.to_admin(tournament_id, message)
        self._drain()

    def command(self, command: str, who: str, args: str, reply: Reply) -> list[str]:
        """`/vysledok Anna Nováková 365:312 → the reply`; returns the reply's lines."""
        said = render_reply(reply)
        head = " ".join(part for part in (f"/{command}", who, args) if part)
        self.add([f"{head} → {said[0]}", *(f"    {line}" for line in said[1:])])
        return said

    def game(self, game_id: str, first: str, second: str, score: tuple[int, int],
             end: str) -> None:
        self.add([f"[{HERNA}] partia č. {game_id}: {first} – {second} "
                  f"{score[0]}:{score[1]} ({GAME_ENDS_SK.get(end, end)})"])


def command_name(key: str) -> str:
    """A slash command's Slovak name from the catalogue ("app.vysledok" → "vysledok")."""
    return t(f"{key}.name")


# -- the JSON document --------------------------------------------------------------------


def document_tx(tx: Tx, slug: str, file_id: dict[int, str]) -> dict[str, Any]:
    """The rehearsal's result as the spec's JSON document (without proposals and refusals,
    which the engine adds): rounds, standings, excluded, screlo."""
    tournament = lookup.tournament(tx, slug)
    report = build_report(tx, tournament)

    def fid(player: int | str | None) -> str | None:
        return None if player is None else file_id.get(int(player), str(player))

    rounds: dict[int, list[dict[str, Any]]] = {}
    for table in tables_of(tx.db, tournament):
        p, r = table.pairing, table.result
        bye = p.second_id is None
        rounds.setdefault(p.round_no, []).append({
            "table": p.table_no, "first": fid(p.first_id), "second": fid(p.second_id),
            "first_points": None if r is None else r.first_points,
            "second_points": None if r is None or bye else r.second_points,
            "first_score": None if r is None else r.first_score,
            "second_score": None if r is None or bye else r.second_score,
            "end": None if r is None else r.end_kind,
            "rule": None if r is None else r.rule,
            "status": "pending" if r is None else str(r.status),
        })
    standings = [{
        "rank": s.rank, "player": fid(s.player), "points": s.points, "wins": s.wins,
        "median_buchholz": s.median_buchholz, "buchholz": s.buchholz, "score": s.score,
        "out": s.out is not None, "qualification_points": s.qualification_points,
    } for s in report.standings]
    excluded = {fid(e.player_id): e.out for e in list_entries(tx.db, tournament.id) if e.out}
    screlo = {fid(player): {"screlo": round(change.after.value, 2), "games": change.after.games}
              for player, change in sorted(report.screlo.items(), key=lambda kv: int(kv[0]))}
    return {
        "tournament": {"name": tournament.name, "slug": tournament.slug,
                       "profile": tournament.profile, "rounds": tournament.rounds_planned},
        "rounds": [{"round": n, "results": rows} for n, rows in sorted(rounds.items())],
        "standings": standings, "excluded": excluded, "screlo": screlo,
    }


def proposal_entry(item: dict[str, Any], file_id: dict[int, str], applied: bool,
                   code: str | None = None) -> dict[str, Any]:
    """One open item of the review queue (`admin.review_queue`) as the JSON lists it."""
    players = [file_id.get(p["id"], str(p["id"])) for p in item["players"]]
    verdict, result = item.get("verdict") or {}, item.get("result")
    proposed = None
    if verdict.get("kind") == "proposal" and result is not None:
        proposed = {"end": result["end"], "first_points": result["points"][0],
                    "second_points": result["points"][1], "first_score": result["scores"][0],
                    "second_score": result["scores"][1], "rule": result["rule"]}
    return {"round": item["round"], "table": item["table"], "first": players[0],
            "second": players[1] if len(players) > 1 else None,
            "code": code or verdict.get("code"), "proposed": proposed, "applied": applied}
