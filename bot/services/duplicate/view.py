"""A duplicate event as plain data for the results page (issue 24 item 6; `duppage` renders it).

`event_view(db_or_tx, slug)` reads everything in one go (call it inside `store.read`, or with
a `Tx`) and returns frozen dataclasses of plain values — nothing that needs the store again:

    EventView
      slug, name, profile, tiles, lexicon_id, mode
      games: [GameView: number, state, commitment, seed (only once final), ended_rule,
              rounds: [RoundView: number, part, rack, source, opened_at, deadline, closed_at,
                       board_before, board_after (15-line text; None while open),
                       top_score, tops: [MoveView: coord, word, score, tiles=[(r, c)…]],
                       withheld (the last top of a part not yet published, 003 r. 22),
                       slips: [SlipView: player, move, points, percent (text, "80.0"),
                               outcome, rule, reason, corrected (bool)]]]
      standings: [StandingView: rank, player, points, top, percent, percent_sum,
                  decided_by (rules.duplicate.DECIDERS), rule]
      words: [WordView: game, round, word, approved, corrected]  (003 r. 26)

While a round is open nothing of it but its number, part, rack, board and deadline is shown (as
its announcement did), nor the board after a withheld top (003 r. 22): a page
rendered mid-round leaks no move. Percentages are `rules.duplicate.percent_text` (one place).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from bot.services.app import Tx
from bot.services.duplicate.context import event_of, players_of
from bot.services.duplicate.results import event_standings, game_result
from bot.store.duplicate import list_games, list_rounds
from rules.duplicate import percent, percent_text


@dataclass(frozen=True, slots=True)
class MoveView:
    coord: str
    word: str
    score: int
    tiles: tuple[tuple[int, int], ...]  # the squares it laid (the page highlights them)


@dataclass(frozen=True, slots=True)
class SlipView:
    player: str
    move: str | None  # the slip that counted (or was judged); None: no slip
    points: int
    percent: str  # of the round's top, "80.0"
    outcome: str  # rules.duplicate.OUTCOMES (catalogue duplicate.slip.<outcome>)
    rule: str
    reason: str | None
    corrected: bool  # a correction after the game changed it (004 §5D)


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    part: int
    rack: str
    source: str
    opened_at: datetime
    deadline: datetime
    closed_at: datetime | None
    board_before: str  # the board the rack is played on (public once the round opens)
    board_after: str | None
    top_score: int
    tops: tuple[MoveView, ...]
    withheld: bool
    slips: tuple[SlipView, ...]


@dataclass(frozen=True, slots=True)
class GameView:
    number: int
    state: str  # running | preliminary | final
    commitment: str
    seed: str | None  # revealed once the game is final
    ended_rule: str | None
    rounds: tuple[RoundView, ...]


@dataclass(frozen=True, slots=True)
class StandingView:
    rank: int
    player: str
    points: int
    top: int
    percent: str
    percent_sum: str
    decided_by: str
    rule: str


@dataclass(frozen=True, slots=True)
class WordView:
    game: int
    round: int
    word: str
    approved: bool
    corrected: bool


@dataclass(frozen=True, slots=True)
class EventView:
    slug: str
    name: str
    profile: str
    tiles: str
    lexicon_id: str
    mode: str
    games: tuple[GameView, ...]
    standings: tuple[StandingView, ...]
    words: tuple[WordView, ...]


def event_view(source: Database | Tx, slug: str) -> EventView:
    """The event `slug` as the module says (Refusal when it is no duplicate event)."""
    db = source.db if isinstance(source, Tx) else source
    event = event_of(db, slug)
    names = {str(p.id): p.name for _, p in players_of(db, event)}
    games: list[GameView] = []
    words: list[WordView] = []
    for game in list_games(db, event.id):
        result = game_result(db, event, game)
        scored = {r.round: r for r in result.rounds}
        rounds: list[RoundView] = []
        closed = [r for r in list_rounds(db, game.id)]
        for rnd in closed:
            last_of_part = event.settings.last_of_part(rnd.number)
            withheld = (rnd.closed_at is not None and last_of_part and game.state == "running"
                        and rnd.number == closed[-1].number)
            if rnd.is_open or withheld:
                rounds.append(RoundView(rnd.number, rnd.part, rnd.rack, rnd.source,
                                        rnd.opened_at, rnd.deadline, rnd.closed_at,
                                        rnd.board_before, None, 0, (),
                                        withheld, ()))
                continue
            tops = tuple(MoveView(m["coord"], m["word"], int(m["score"]),
                                  tuple((int(t[0]), int(t[1])) for t in m["tiles"]))
                         for m in rnd.tops.get("tops", []))
            res = scored[rnd.number]
            slips = tuple(SlipView(names.get(p, p), s.slip.move if s.slip else None, s.points,
                                   percent_text(percent(s.points, res.top), 1), s.outcome,
                                   s.rule, s.reason, bool(s.corrected))
                          for p, s in res.scores.items())
            rounds.append(RoundView(rnd.number, rnd.part, rnd.rack, rnd.source, rnd.opened_at,
                                    rnd.deadline, rnd.closed_at, rnd.board_before,
                                    rnd.board_after, int(rnd.tops.get("top_score", 0)), tops,
                                    False, slips))
        if game.state != "running":
            words += [WordView(game.number, w.round, w.word, w.approved, w.corrected is not None)
                      for w in result.words]
        games.append(GameView(game.number, game.state, game.commitment,
                              game.seed if game.state == "final" else None, game.ended_rule,
                              tuple(rounds)))
    standings = tuple(StandingView(s.rank, names.get(s.player, s.player), s.points, s.top,
                                   percent_text(s.percent, 1), percent_text(s.percent_sum, 1),
                                   s.decided_by, s.rule)
                      for s in event_standings(db, event))
    return EventView(event.tournament.slug, event.tournament.name, event.settings.profile,
                     event.settings.tiles, event.settings.lexicon_id, event.settings.mode,
                     tuple(games), standings, tuple(words))
