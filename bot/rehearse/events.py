"""The scenario's events, each through the service the player's (or the head admin's) command
calls, printed as the command with its reply; a refusal is counted for the JSON (`refusals`).
Game records go on the simulator when the tournament is created, each visible from its start
and shown in progress until the event's time, as herna.net shows a game being played; the
game event itself only prints the record once it has ended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.rehearse.output import ADMIN_LABEL, Transcript, command_name, local_text
from bot.rehearse.scenario import Event, Scenario, ruling_round
from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Reply
from bot.services.tournament import admin, play
from bot.services.tournament.propozicie import Propozicie
from bot.store import find_pairing, get_pairing
from rules import End
from rules.scoring import END_NAMES_SK
from scrapers.herna import EndKind, GameRecord
from scrapers.herna.generate import STANDARD_TABLE
from scrapers.herna.records import TableSettings
from scrapers.herna.simulator import Simulator

ADMIN_ID = 1  # the head administrator the rehearsal acts as (creates, pairs, rules)
DISCORD_BASE = 900_000  # synthetic Discord ids: DISCORD_BASE + the player's place in the file
FIRST_GAME_ID = 1000
# rulings whose end means both players moved (as `stredisko rule` assumes by default)
_PLAYED = {End.FINISHED, End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED, End.OVER_LIMIT,
           End.SAVE_FAILED, End.AGREED_DRAW}

_RULE = "rozhodni"  # /admin rozhodni
_COMMANDS = {"checkin": "app.prezentacia", "absent": "app.nepritomny", "arrived": "app.pritomny",
             "draw": "app.remiza", "report": "app.vysledok", "dispute": "app.namietka",
             "withdraw": "app.odstupit"}


def _no_args(e: Event) -> str:
    return ""


_ARGS: dict[str, Callable[[Event], str]] = {
    "report": lambda e: f"{e.score[0]}:{e.score[1]}" if e.score else "",
    "dispute": lambda e: f"„{e.text}“",
}


def game_record(prop: Propozicie, e: Event, game_id: str) -> GameRecord:
    """The herna.net record a `game` event stands for: the players' nicks, the table settings
    of the event or else of the propozície, ended at the event's time (unless unfinished)."""
    assert e.first and e.second and e.score and e.end and e.started
    nick = {p.file_id: p.herna for p in prop.players}
    settings = TableSettings(tempo=e.tempo or prop.tempo or STANDARD_TABLE.tempo,
                             language=e.language or prop.language_version
                             or STANDARD_TABLE.language,
                             dictionary=STANDARD_TABLE.dictionary)
    end = EndKind(e.end)
    return GameRecord(
        game_id=game_id, first=nick[e.first], second=nick[e.second],
        first_score=e.score[0], second_score=e.score[1], end=end,
        ended_on=nick[e.on] if e.on else None, started=e.started,
        ended=None if end is EndKind.UNFINISHED else e.at,
        first_moves=e.moves[0], second_moves=e.moves[1], settings=settings)


def scenario_games(prop: Propozicie, events: Iterable[Event], first: int = FIRST_GAME_ID
                   ) -> list[tuple[Event, GameRecord]]:
    """The `game` events with their records, numbered from `first` in the events' order:
    what the simulator serves (in the rehearsal, and for `simulator --games FILE`)."""
    games = [e for e in events if e.type == "game"]
    return [(e, game_record(prop, e, str(game_id)))
            for game_id, e in enumerate(games, start=first)]


class _Cast(Protocol):
    """A rehearsal's scenario, classic or duplicate: its players are in its propozície."""

    @property
    def propozicie(self) -> Propozicie: ...


def discord_id(scenario: _Cast, player: str) -> int:
    """The Discord id of a scenario player, in a classic or a duplicate rehearsal: the one his
    [[player]] gives (a season rehearsal gives one person the same account in every event),
    else a synthetic one (his place in the file)."""
    players = scenario.propozicie.players
    ids = [p.file_id for p in players]
    given = players[ids.index(player)].discord_id
    return given if given is not None else DISCORD_BASE + ids.index(player)


@dataclass
class Events:
    scenario: Scenario
    app: App
    sim: Simulator
    transcript: Transcript
    slug: str
    store_id: dict[str, int]  # file id -> store id
    refusals: list[dict[str, Any]] = field(default_factory=list)
    first_game_id: int = FIRST_GAME_ID  # herna.net game ids (several events share the simulator)
    _draws: dict[int, str] = field(default_factory=dict)  # pairing id -> who proposed
    _games: dict[int, GameRecord] = field(default_factory=dict)  # event index -> its record

    def publish_games(self) -> None:
        """Put every game on the simulator: visible from `started`, in progress until `at`
        (an `unfinished` game stays in progress). Ids follow the events' order."""
        for e, record in scenario_games(self.scenario.propozicie, self.scenario.events,
                                        self.first_game_id):
            self.sim.add_game(record, release_at=e.started, finish_at=e.at)
            self._games[e.index] = record

    async def run(self, e: Event) -> None:
        """Play one event through the service a player's (or the admin's) command calls."""
        if e.type == "game":
            await self._game(e)
            return
        assert e.player is not None
        me = discord_id(self.scenario, e.player)
        app, slug = self.app, self.slug
        if e.type == "checkin":
            reply = await play.check_in(app, slug, me)
        elif e.type == "absent":
            reply = await play.report_absence(app, slug, me)
        elif e.type == "arrived":
            reply = await play.arrive(app, slug, me)
        elif e.type == "draw":
            reply = await self._draw(e, me)
        elif e.type == "report":
            assert e.score is not None
            reply = await play.report_result(app, slug, me, *e.score)
        elif e.type == "dispute":
            reply = await play.dispute(app, slug, me, e.text or "")
        elif e.type == "withdraw":
            reply = await play.withdraw(app, slug, me, confirmed=True)
        else:
            await self._ruling(e)
            return
        self._said(e, reply, _COMMANDS[e.type], _ARGS.get(e.type, _no_args)(e))

    def _said(self, e: Event, reply: Reply, key: str, args: str,
              who: str | None = None) -> None:
        """Print the command with its reply; a refusal is also counted for the JSON."""
        name = who or self.scenario.name_of(e.player or "")
        command = key if key.startswith("admin ") else command_name(key)
        said = self.transcript.command(command, name, args, reply)
        if not reply.ok:
            self.refusals.append({"at": local_text(e.at), "player": e.player, "type": e.type,
                                  "key": reply.key, "text": " ".join(said)})

    async def _game(self, e: Event) -> None:
        """The game has ended (or, unfinished, reached its event time): print its record."""
        assert e.score and e.end
        record = self._games[e.index]
        self.transcript.game(record.game_id, record.first, record.second, e.score, e.end)

    async def _draw(self, e: Event, me: int) -> Reply:
        """The pair's first `draw` proposes; the other player's next one confirms."""
        assert e.player is not None
        pairing_id = await self.app.run(self._table_tx, self.store_id[e.player])
        proposer = self._draws.get(pairing_id) if isinstance(pairing_id, int) else None
        if proposer is not None and proposer != e.player:
            return await play.confirm_draw(self.app, self.slug, me)
        reply = await play.propose_draw(self.app, self.slug, me)
        if reply.ok and isinstance(pairing_id, int):
            self._draws[pairing_id] = e.player
        return reply

    def _table_tx(self, tx: Tx, player_id: int, round_no: int | None = None) -> int | None:
        """The pairing id of the player's table in `round_no` (default: the current round)."""
        t = lookup.tournament(tx, self.slug)
        if round_no is None:
            current = lookup.current_round(tx, t)
            round_no = None if current is None else current.number
        found = None if round_no is None else find_pairing(tx.db, t.id, round_no, player_id)
        return None if found is None else found.id

    async def _ruling(self, e: Event) -> None:
        assert e.player is not None and e.end is not None
        number = e.round or ruling_round(self.scenario, e.at)
        me = self.store_id[e.player]
        pairing_id = await self.app.run(self._table_tx, me, number or 0)
        args = f"{number or '?'}. kolo: {END_NAMES_SK[End(e.end)]} — {e.reason}"
        if not isinstance(pairing_id, int):
            reply = Reply(False, "common.not_paired", {"round": number or 0})
        else:
            params = await self.app.run(self._ruling_params, e, pairing_id)
            reply = await admin.rule(self.app, self.slug, ADMIN_ID, pairing_id,
                                     (End(e.end), params), e.reason or "")
        self._said(e, reply, f"admin {_RULE}", args, f"({ADMIN_LABEL}) "
                   f"{self.scenario.name_of(e.player)}")

    def _ruling_params(self, tx: Tx, e: Event, pairing_id: int) -> dict[str, Any]:
        """(end, params) of `admin.rule`: scores in the pairing's order, players by store id."""
        pairing = get_pairing(tx.db, pairing_id)
        players = [p for p in (pairing.first_id, pairing.second_id) if p is not None]
        params: dict[str, Any] = {}
        if e.score is not None:
            own, other = e.score
            first = self.store_id[e.player or ""] == pairing.first_id
            params["first_score"], params["second_score"] = (own, other) if first else (
                other, own)
        if e.on:
            params["loser"] = self.store_id[e.on]
        if e.winner:
            params["winner"] = self.store_id[e.winner]
        if e.agreed:
            params["agreed"] = True
        params["moved"] = players if End(e.end or "") in _PLAYED else []
        return params
