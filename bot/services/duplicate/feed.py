"""What the results page and the season ladder read of a duplicate event (issue 24.6): its
results as the duplicate services keep them (`bot.services.duplicate.results.game_result`:
the stored findings of every slip, the corrections, `rules.duplicate.score_game` the one
judge), the closed rounds' racks, tops and boards, and the engine's reason for each void move.

`event_results` is the one reading; `duplicate_report` turns it into the page's input and
`finished_order` into a season event's order. A running game's round whose top is withheld
until the next part (003 r. 22) is left out of both until that part starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from bot.i18n import CatalogueError, t
from bot.publish.duplicate_report import (
    DuplicateGameReport,
    DuplicateReport,
    DuplicateRound,
    TopMove,
    placed_squares,
)
from bot.publish.report import Player as PagePlayer
from bot.publish.report import TournamentReport
from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.duplicate.context import Event, players_of
from bot.services.duplicate.results import game_result as stored_result
from bot.services.duplicate.results import shoot_outs_of
from bot.services.replies import Reply
from bot.services.tournament.propozicie import SetupError
from bot.services.tournament.views import build_report
from bot.store.duplicate import (
    DupEvent,
    DupGame,
    DupRound,
    current_scores,
    get_event,
    list_games,
    list_rounds,
)
from bot.store.rows import Player, Tournament
from rules.duplicate import standings
from rules.duplicate.results import GameResult, Standing, game_result

#: where an event's results stand, and the rule that says so: each game's evaluated results
#: after its parts (003 r. 24), preliminary after the game, open to protests (r. 25, 27),
#: final once the protests are decided (r. 29)
STATUS_RULES = {"running": "003 r. 24", "preliminary": "003 r. 25, 27", "final": "003 r. 29"}


@dataclass(frozen=True, slots=True)
class GameRead:
    game: DupGame
    rounds: tuple[DupRound, ...]  # the closed rounds shown (a withheld top left out)
    result: GameResult  # over the shown rounds
    faults: Mapping[tuple[int, str], str]  # (round, player) → why his move was void, in words
    withheld: int | None  # the closed round whose top waits for the next part (003 r. 22)


@dataclass(frozen=True, slots=True)
class EventResults:
    tournament: Tournament
    event: Event
    status: str  # STATUS_RULES
    games: tuple[GameRead, ...]
    standings: tuple[Standing, ...]
    players: dict[str, Player]  # by rules id (the player's row id as text)


def duplicate_event(db: Database, tournament: Tournament) -> Event | None:
    """The duplicate event of a tournament; None for a classic one."""
    settings = get_event(db, tournament.id)
    return Event(tournament, settings) if settings is not None else None


def event_results(db: Database, event: Event) -> EventResults:
    games = tuple(_read_game(db, event, g) for g in list_games(db, event.id))
    order = standings([g.result for g in games if g.rounds], event.profile,
                      shoot_outs_of(db, event))
    players = {str(p.id): p for _, p in players_of(db, event)}
    return EventResults(event.tournament, event, _status(event.settings, games), games,
                        tuple(order), players)


def _status(event: DupEvent, games: Sequence[GameRead]) -> str:
    if len(games) < event.games or any(g.game.state == "running" for g in games):
        return "running"
    return "final" if all(g.game.state == "final" for g in games) else "preliminary"


def _withheld(event: DupEvent, game: DupGame, rounds: Sequence[DupRound]) -> int | None:
    """003 r. 22: while the game runs, the last closed round of a part keeps its top until
    the next part's first round is opened."""
    if game.state != "running" or not rounds:
        return None
    last = rounds[-1]
    return last.number if last.closed_at is not None and event.last_of_part(last.number) \
        else None


def _read_game(db: Database, event: Event, game: DupGame) -> GameRead:
    every = list_rounds(db, game.id)
    withheld = _withheld(event.settings, game, every)
    shown = tuple(r for r in every if r.closed_at is not None and r.number != withheld)
    result = stored_result(db, event, game)
    if withheld is not None:  # the same sums without the withheld round
        result = game_result(result.game, result.rounds[:len(shown)])
    faults = {(rnd.number, str(s.player_id)): text for rnd in shown
              for s in current_scores(db, rnd.id)
              if s.outcome == "invalid" and (text := _fault_text(s.verdict, s.slip_id))}
    return GameRead(game, shown, result, faults, withheld)


def _fault_text(verdict: Mapping[str, Any], slip_id: int | None) -> str | None:
    """The engine's reason for the counted slip's void move (`duplicate.<kind>.<code>` with
    the parameters the close kept); None when it cannot be put in words."""
    found = next((f for f in verdict.get("slips", []) if f.get("slip_id") == slip_id), None)
    if not found or not found.get("fault"):
        return None
    try:
        return t(f"duplicate.{found.get('fault_kind', 'reason')}.{found['fault']}",
                 **found.get("params", {}))
    except CatalogueError:
        return None


# -- the results page ------------------------------------------------------------------------


def duplicate_report(read: EventResults, now: datetime) -> DuplicateReport:
    """The page's input: every shown round with its rack, tops and board; the seed only once
    its game is final (it stays secret until then)."""
    res = read.event.profile.results
    games = tuple(
        DuplicateGameReport(
            g.game.number, g.result, tuple(_round(r) for r in g.rounds),
            g.game.commitment, g.game.seed if g.game.state == "final" else None, g.faults)
        for g in read.games)
    notes = tuple(t("duplicate_page.withheld", n=g.withheld) for g in read.games if g.withheld)
    players = {p: PagePlayer(p, row.name, row.herna_nick) for p, row in read.players.items()}
    return DuplicateReport(
        name=read.tournament.name, profile_title=read.event.profile.title, generated_at=now,
        status=read.status, players=players, games=games, standings=read.standings,
        standings_rule=f"{res.totals_rule}, {res.percent_sum_rule}, {res.shoot_out_rule}",
        status_rule=STATUS_RULES[read.status], words_rule=res.words_rule,
        shoot_out_rule=res.shoot_out_rule, notes=notes)


def _round(rnd: DupRound) -> DuplicateRound:
    # the tops of equal score first, then the next best below them (issue 24.2's sub-tops)
    tops = tuple(TopMove(str(m["coord"]), str(m["word"]), int(m["score"]))
                 for m in (*rnd.tops.get("tops", ()), *rnd.tops.get("next", ())))
    after = rnd.board_after or rnd.board_before
    return DuplicateRound(rnd.number, rnd.rack, tops, after,
                          placed_squares(rnd.board_before, after), rnd.part)


def _page_report(tx: Tx, slug: str) -> DuplicateReport | TournamentReport:
    tournament = lookup.tournament(tx, slug)
    event = duplicate_event(tx.db, tournament)
    if event is None:
        return build_report(tx, tournament)
    return duplicate_report(event_results(tx.db, event), tx.now)


async def page_report(app: App, slug: str) -> DuplicateReport | TournamentReport | Reply:
    """The results page's input for `slug`: the duplicate page's for a duplicate event, the
    classic page's otherwise (a refusal Reply when there is no such tournament)."""
    return await app.run(_page_report, slug)


# -- the season ladder -----------------------------------------------------------------------


def finished_order(db: Database, event: Event, line: int, read: EventResults
                   ) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    """A finished duplicate event's order for a season ladder (the ČAS duplicate cup): each
    player's herna nick from the first place down, and the places when some are shared (a tie
    no criterion separated: 003 r. 49's shoot-out not entered for all of a level group, or
    level again after it). The order is the one 003 r. 49's shoot-out decided, where it was
    entered (`shootout.enter_shoot_out`). `read`: the event's results, final (003 r. 29: the
    season counts an event whose results are not final yet as pending, before asking)."""
    tournament = event.tournament
    nicks = []
    for s in read.standings:
        player = read.players[s.player]
        if not player.herna_nick:
            raise SetupError(line, t("duplicate_page.season_no_nick", slug=tournament.slug,
                                     name=player.name))
        nicks.append(player.herna_nick)
    ranks = tuple(s.rank for s in read.standings)
    return tuple(nicks), ranks if len(set(ranks)) < len(ranks) else None
