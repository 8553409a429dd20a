"""What the results page and the season ladder read of a duplicate event (issue 24.6): the
stored results (`bot.store.duplicate`: closed rounds, each player's latest score version,
the corrections after the game) as `rules.duplicate` results, never judged again here.

`event_results` is the one reading; `duplicate_report` turns it into the page's input and
`finished_order` into a season event's order. A running game's round whose top is withheld
until the next part (003 r. 22) is left out of both until that part starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from bot.i18n import t
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
from bot.services.replies import Reply
from bot.services.setup import SetupError
from bot.services.views import build_report
from bot.store import get_player
from bot.store.duplicate import (
    DupEvent,
    DupGame,
    DupRound,
    DupScore,
    DupSlip,
    current_scores,
    get_event,
    list_corrections,
    list_games,
    list_rounds,
    list_slips,
)
from bot.store.rows import Player, Tournament
from rules.duplicate import Correction, DuplicateProfile, Slip, duplicate_profile, standings
from rules.duplicate.players import RoundScore, rejected_words
from rules.duplicate.results import Game, GameResult, RoundResult, Standing, game_result

#: where an event's results stand, and the rule that says so: each game's evaluated results
#: after its parts (003 r. 24), preliminary after the game, open to protests (r. 25, 27),
#: final once the protests are decided (r. 29)
STATUS_RULES = {"running": "003 r. 24", "preliminary": "003 r. 25, 27", "final": "003 r. 29"}


@dataclass(frozen=True, slots=True)
class GameRead:
    game: DupGame
    rounds: tuple[DupRound, ...]  # the closed rounds shown (a withheld top left out)
    result: GameResult
    withheld: int | None  # the closed round whose top waits for the next part (003 r. 22)


@dataclass(frozen=True, slots=True)
class EventResults:
    tournament: Tournament
    event: DupEvent
    profile: DuplicateProfile
    status: str  # STATUS_RULES
    games: tuple[GameRead, ...]
    standings: tuple[Standing, ...]
    players: dict[str, Player]  # by rules id (the player's row id as text)


def duplicate_event(db: Database, tournament: Tournament) -> DupEvent | None:
    """The duplicate settings of a tournament; None for a classic one."""
    return get_event(db, tournament.id)


def event_results(db: Database, tournament: Tournament, event: DupEvent) -> EventResults:
    profile = duplicate_profile(event.profile)
    games = tuple(_read_game(db, event, g) for g in list_games(db, tournament.id))
    ids = {p for g in games for p in g.result.game.players}
    order = standings([g.result for g in games if g.rounds], profile)
    return EventResults(tournament, event, profile, _status(event, games), games,
                        tuple(order), {p: get_player(db, int(p)) for p in ids})


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


def _read_game(db: Database, event: DupEvent, game: DupGame) -> GameRead:
    every = list_rounds(db, game.id)
    withheld = _withheld(event, game, every)
    shown = tuple(r for r in every if r.closed_at is not None and r.number != withheld)
    corrections = tuple(Correction(c.word, c.accepted, c.reason, c.round_no, c.rule)
                        for c in list_corrections(db, game.id))
    results, slips = [], []
    for rnd in shown:
        by_id = {s.id: s for s in list_slips(db, rnd.id)}
        scores = {str(s.player_id): _round_score(s, by_id.get(s.slip_id or 0), rnd.number,
                                                 corrections)
                  for s in current_scores(db, rnd.id)}
        slips += [s.slip for s in scores.values() if s.slip is not None]
        results.append(RoundResult(rnd.number, int(rnd.tops.get("top_score", 0)), scores))
    players = tuple(sorted({p for r in results for p in r.scores}, key=int))
    played = Game(str(game.number), players, tuple(r.top for r in results), tuple(slips),
                  corrections=corrections)
    return GameRead(game, shown, game_result(played, results), withheld)


def _round_score(score: DupScore, slip: DupSlip | None, round_no: int,
                 corrections: Sequence[Correction]) -> RoundScore:
    """A stored score as `rules.duplicate` has it; the slip that counted carries the engine's
    findings kept with the score (`verdict`: score, words, rejected, fault)."""
    player = str(score.player_id)
    found = None
    if slip is not None:
        v = score.verdict
        found = Slip(player, round_no, slip.text, int(v.get("score") or 0),
                     tuple(v.get("words") or ()), frozenset(v.get("rejected") or ()),
                     v.get("fault"), slip.declared, late=score.outcome == "late")
    applied = tuple(rejected_words(found, corrections)[1]) if found else ()
    return RoundScore(player, round_no, score.points, score.outcome, score.rule, found,
                      score.reason, applied)


# -- the results page ------------------------------------------------------------------------


def duplicate_report(read: EventResults, now: datetime) -> DuplicateReport:
    """The page's input: every shown round with its rack, tops and board; the seed only once
    its game is final (it stays secret until then)."""
    res = read.profile.results
    games = tuple(
        DuplicateGameReport(
            g.game.number, g.result, tuple(_round(r, read.event) for r in g.rounds),
            g.game.commitment, g.game.seed if g.game.state == "final" else None)
        for g in read.games)
    notes = tuple(t("duplicate_page.withheld", n=g.withheld) for g in read.games if g.withheld)
    players = {p: PagePlayer(p, row.name, row.herna_nick) for p, row in read.players.items()}
    return DuplicateReport(
        name=read.tournament.name, profile_title=read.profile.title, generated_at=now,
        status=read.status, players=players, games=games, standings=read.standings,
        standings_rule=f"{res.totals_rule}, {res.percent_sum_rule}, {res.shoot_out_rule}",
        status_rule=STATUS_RULES[read.status], words_rule=res.words_rule, notes=notes)


def _round(rnd: DupRound, event: DupEvent) -> DuplicateRound:
    tops = tuple(TopMove(str(m["coord"]), str(m["word"]), int(m["score"]))
                 for m in rnd.tops.get("tops", ()))
    after = rnd.board_after or rnd.board_before
    return DuplicateRound(rnd.number, rnd.rack, tops, after,
                          placed_squares(rnd.board_before, after), rnd.part)


def _page_report(tx: Tx, slug: str) -> DuplicateReport | TournamentReport:
    tournament = lookup.tournament(tx, slug)
    event = duplicate_event(tx.db, tournament)
    if event is None:
        return build_report(tx, tournament)
    return duplicate_report(event_results(tx.db, tournament, event), tx.now)


async def page_report(app: App, slug: str) -> DuplicateReport | TournamentReport | Reply:
    """The results page's input for `slug`: the duplicate page's for a duplicate event, the
    classic page's otherwise (a refusal Reply when there is no such tournament)."""
    return await app.run(_page_report, slug)


# -- the season ladder -----------------------------------------------------------------------


def finished_order(db: Database, tournament: Tournament, event: DupEvent, line: int
                   ) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    """A finished duplicate event's order for a season ladder (the ČAS duplicate cup): each
    player's herna nick from the first place down, and the places when some are shared (a tie
    no criterion separated, 003 r. 49's shoot-out not played). Only final results count
    (003 r. 29): `SetupError` on `line` otherwise, with the reason."""
    read = event_results(db, tournament, event)
    if read.status != "final":
        raise SetupError(line, t("duplicate_page.season_not_final", slug=tournament.slug,
                                 status=t(f"duplicate_page.state.{read.status}"),
                                 rule=STATUS_RULES["final"]))
    nicks = []
    for s in read.standings:
        player = read.players[s.player]
        if not player.herna_nick:
            raise SetupError(line, t("duplicate_page.season_no_nick", slug=tournament.slug,
                                     name=player.name))
        nicks.append(player.herna_nick)
    ranks = tuple(s.rank for s in read.standings)
    return tuple(nicks), ranks if len(set(ranks)) < len(ranks) else None
