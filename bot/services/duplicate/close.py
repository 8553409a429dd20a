"""Closing a round at its deadline (issue 24 items 2, 4; 003 r. 5–10, 19, 22–24, 45; 004 §6).

Three phases, so the move generator never holds the store's thread and a repeat or a crash
replays exactly once:
1. `read_close(tx, …)`: one read transaction takes what the close needs (`CloseInput`);
2. `compute_close(data, lexicon)`: pure, OFF the store's thread (`asyncio.to_thread`): the
   tops (003 r. 5–9), every slip checked and scored (004 §6; 003 r. 19, 41–45);
3. `write_close(tx, data, outcome)`: a second transaction guarded by "the round is still open
   and its board unchanged" (`close_round_row`) — and by "no slip came in since phase 1" (else
   it writes nothing and the close computes again): the scores, the announcements (the top and
   the new board — the last top of a part withheld until the next part, 003 r. 22 — each
   player's evaluation by DM, "N of M found the top", standings after a part, 003 r. 24), and
   online the timer opening the next round. A second close finds the round closed and writes
   and says nothing.
`close_round(app, …)` runs the three; `close_in_tx(tx, …)` runs them in one transaction (the
scheduler's fallback when no async driver closed the round first).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.i18n import SLOVAK, t
from bot.services.app import App, Tx
from bot.services.duplicate import lexicons
from bot.services.duplicate.context import (
    Event,
    announce,
    direct,
    event_of,
    game_of,
    mode_profile,
    players_of,
    round_of,
)
from bot.services.duplicate.game import NEXT_ROUND, announce_top, end_game, leave_of
from bot.services.duplicate.lexicons import LoadedLexicon
from bot.services.duplicate.results import announce_standings, why_text
from bot.services.duplicate.tops import tops_of
from bot.services.replies import Refusal, Reply
from bot.store.duplicate import (
    DupGame,
    DupRound,
    add_score,
    close_round_row,
    current_scores,
    game_by_id,
    list_slips,
    open_rounds,
    round_by_id,
    superseded_slips,
)
from bot.store.timers import add_timer
from bot.store.times import to_text
from rules.duplicate import Slip, score_round
from rules.duplicate.board import Board, parse_board
from rules.duplicate.errors import DuplicateError
from rules.duplicate.tiles import TileSet
from rules.duplicate.validate import score_move
from rules.lexicon.graph import TrieGraph


@dataclass(frozen=True, slots=True)
class SlipInput:
    slip_id: int
    player_id: int
    text: str
    declared: int | None
    received_at: datetime
    superseded: bool = False  # the arbiter's mistyped entry he corrected (003 r. 42)


def slip_inputs(db: Database, round_id: int, player_id: int | None = None
                ) -> tuple[SlipInput, ...]:
    """The round's slips (of `player_id` only, if given) in the order handed in, each saying
    whether the arbiter corrected it as his typo (`dup_slip_fixes`)."""
    fixed = superseded_slips(db, round_id)
    return tuple(SlipInput(s.id, s.player_id, s.text, s.declared, s.received_at, s.id in fixed)
                 for s in list_slips(db, round_id)
                 if player_id is None or s.player_id == player_id)


@dataclass(frozen=True, slots=True)
class CloseInput:
    """Everything phase 2 needs, read in phase 1 (plain data, safe to hand to a thread)."""

    slug: str
    tournament_id: int
    game: int
    game_id: int
    round: int
    round_id: int
    rack: str
    board_before: str
    deadline: datetime
    profile: str
    mode: str  # online | hall: which several-slips setting applies (003 r. 41–42)
    tiles: str
    lexicon: str
    lexicon_id: str
    players: tuple[int, ...]  # everyone in the game, by registration order
    left: dict[int, int]  # player → the first round he no longer played (004 §7)
    slips: tuple[SlipInput, ...]  # in the order handed in


@dataclass(frozen=True, slots=True)
class PlayerScore:
    player_id: int
    points: int
    outcome: str  # rules.duplicate.OUTCOMES
    rule: str
    reason: str | None  # the engine's fault code or the rejected word
    slip_id: int | None
    move: str | None  # the slip that counted, as written
    verdict: dict[str, Any]  # what is stored with the score (the slips' findings)


@dataclass(frozen=True, slots=True)
class CloseOutcome:
    tops: dict[str, Any]  # {"lexicon", "count", "top_score", "tops": [...], "next": [...]}
    board_after: str
    scores: tuple[PlayerScore, ...]


@dataclass(frozen=True, slots=True)
class RoundClosed:
    game: int
    round: int
    closed_now: bool  # False: it was already closed (nothing written, nothing said)
    top: dict[str, Any] | None  # the first top (word, coord, score, tiles) or None
    top_score: int
    board_after: str
    scores: tuple[PlayerScore, ...]
    found_top: int  # players who scored the top
    players: int
    withheld: bool  # the last round of a part: its top is published with the next part
    game_over: bool
    no_top_rule: str = ""  # no scoring move for the computer: the rule the game ends by




ATTEMPTS = 3  # closes computed again because a slip came in meanwhile, before one in one tx


class _Everything(TrieGraph):
    """A lexicon that admits every word: a slip's placement is scored whatever its words, so
    a correction that admits a rejected word later knows what it scores (004 §5D)."""

    def __init__(self) -> None:
        super().__init__(())

    def __contains__(self, word: object) -> bool:
        return True


_EVERYTHING = _Everything()


def read_close(tx: Tx, slug: str, round_no: int | None = None, game: int | None = None
               ) -> CloseInput | RoundClosed:
    """Phase 1 (see the module). A round already closed answers its `RoundClosed` at once
    (closed_now False). `round_no` None: the event's open round."""
    event = event_of(tx.db, slug)
    if round_no is None:
        live = open_rounds(tx.db, event.id)
        if not live:
            raise Refusal("duplicate.online.no_open_round")
        rnd = live[-1]
        dup_game = game_by_id(tx.db, rnd.game_id)
    else:
        dup_game = game_of(tx.db, event, game)
        rnd = round_of(tx.db, dup_game, round_no)
    if not rnd.is_open:
        return closed_answer(tx, event, dup_game, rnd)
    players, left = _players(tx, event, dup_game)
    slips = slip_inputs(tx.db, rnd.id)
    return CloseInput(event.tournament.slug, event.id, dup_game.number, dup_game.id,
                      rnd.number, rnd.id, rnd.rack, rnd.board_before, rnd.deadline,
                      event.settings.profile, event.settings.mode, event.settings.tiles,
                      event.settings.lexicon, event.settings.lexicon_id, players, left, slips)


def _players(tx: Tx, event: Event, game: DupGame) -> tuple[tuple[int, ...], dict[int, int]]:
    """Who plays the game and who left it (004 §7): an entrant out before the game started
    is not in it; one who went out during it scores 0 from the first round opened after."""
    players: list[int] = []
    left: dict[int, int] = {}
    rounds = tx.db.execute("SELECT number, opened_at FROM dup_rounds WHERE game_id = ? "
                           "ORDER BY number", [game.id]).fetchall()
    for entry, player in players_of(tx.db, event):
        out = entry.withdrawn_at or entry.excluded_at
        if out is not None and out <= game.started_at:
            continue
        players.append(player.id)
        if out is not None:
            after = [n for n, opened in rounds if opened >= to_text(out)]
            left[player.id] = after[0] if after else len(rounds) + 1
    return tuple(players), left


def compute_close(data: CloseInput, lexicon: LoadedLexicon) -> CloseOutcome:
    """Phase 2 (pure; see the module): the tops in 003 r. 5–9's order (the first goes on the
    board, 003 r. 10) and every player's round score (`rules.duplicate.score_round`)."""
    tiles = TileSet.load(data.tiles)
    board = parse_board(data.board_before, frozenset(tiles.letters), tiles.blank_letters)
    found = tops_of(data.board_before, data.rack, lexicon, data.tiles, data.profile)
    tops = {"lexicon": lexicon.id, "count": found.count, "top_score": found.score,
            "tops": [{**m.as_dict(), "tiles": [list(t) for t in m.tiles]} for m in found.tops],
            "next": [m.as_dict() for m in found.next]}
    after = board
    if found.tops:
        after = board.place({(r, c): (letter, blank) for r, c, letter, blank
                             in found.tops[0].tiles})
    scores = score_slips(data, board, tiles, lexicon)
    return CloseOutcome(tops, after.text(), scores)


def score_slips(data: CloseInput, board: Board, tiles: TileSet, lexicon: LoadedLexicon
                ) -> tuple[PlayerScore, ...]:
    """Every player's round score from the round's slips (`rules.duplicate.score_round`),
    each with the engine's findings about his slips."""
    judged = [_judge(data, s, board, tiles, lexicon) for s in data.slips]
    rules_slips = [j for j, _ in judged]
    findings = {s.slip_id: f for s, (_, f) in zip(data.slips, judged, strict=True)}
    scored = score_round(data.round, [str(p) for p in data.players], rules_slips,
                         mode_profile(data.profile, data.mode),
                         left={str(p): r for p, r in data.left.items()})
    by_slip = {id(j): s for j, s in zip(rules_slips, data.slips, strict=True)}
    scores = []
    for player in data.players:
        score = scored[str(player)]
        counted = by_slip.get(id(score.slip)) if score.slip is not None else None
        mine = [findings[s.slip_id] for s in data.slips if s.player_id == player]
        scores.append(PlayerScore(player, score.points, score.outcome, score.rule, score.reason,
                                  counted.slip_id if counted else None,
                                  counted.text if counted else None, {"slips": mine}))
    return tuple(scores)


def rescore_straggler(tx: Tx, slug: str, rnd: DupRound, player_id: int) -> PlayerScore:
    """A slip Discord received before the deadline that reached the store after the close
    (003 r. 19: the time of receipt decides): the player's round score again with it, as the
    next score version, and his evaluation by DM. The board and the tops stay."""
    event = event_of(tx.db, slug)
    game = game_by_id(tx.db, rnd.game_id)
    mine = slip_inputs(tx.db, rnd.id, player_id)
    data = CloseInput(slug, event.id, game.number, game.id, rnd.number, rnd.id, rnd.rack,
                      rnd.board_before, rnd.deadline, event.settings.profile,
                      event.settings.mode, event.settings.tiles, event.settings.lexicon,
                      event.settings.lexicon_id, (player_id,), {}, mine)
    tiles = TileSet.load(data.tiles)
    board = parse_board(data.board_before, frozenset(tiles.letters), tiles.blank_letters)
    (score,) = score_slips(data, board, tiles, _lexicon(data, None))
    by = tx.by_player(player_id, "/tah received before the deadline (003 r. 19)")
    add_score(tx.db, rnd, player_id, by, slip_id=score.slip_id, outcome=score.outcome,
              points=score.points, rule=score.rule, reason=score.reason, verdict=score.verdict)
    direct(tx, event, player_id, "duplicate.online.evaluation", game=game.number, round=rnd.number,
           move=score.move or t("duplicate.online.no_move"), points=score.points,
           outcome=score.outcome, reason=score.reason or "",
           why=why_text(score.outcome, score.reason, finding_of(score)), rule=score.rule)
    return score


def _judge(data: CloseInput, slip: SlipInput, board: Any, tiles: TileSet,
           lexicon: LoadedLexicon) -> tuple[Slip, dict[str, Any]]:
    """One slip checked on the board (004 §6): its placement's score whatever its words, the
    words the lexicon refuses, or the fault that voids it."""
    late = slip.received_at > data.deadline
    kind, params = "reason", {}
    try:
        verdict = score_move(board, data.rack, slip.text, _EVERYTHING, tiles)
        fault, params = verdict.reason, dict(verdict.params)
        words = tuple(w.upper() for w in verdict.words)
        rejected = frozenset(w for w in words if w.lower() not in lexicon.graph)
        score = verdict.score if verdict.valid else 0
    except DuplicateError as exc:  # unreadable now (it was read at submission): void
        fault, words, rejected, score = exc.code, (), frozenset[str](), 0
        kind, params = "input", dict(exc.params)
    judged = Slip(str(slip.player_id), data.round, slip.text, score, words, rejected, fault,
                  slip.declared, late, slip.superseded)
    return judged, {"slip_id": slip.slip_id, "move": slip.text, "score": score,
                    "words": list(words), "rejected": sorted(rejected), "fault": fault,
                    "fault_kind": kind, "params": {k: str(v) for k, v in params.items()},
                    "declared": slip.declared, "late": late, "superseded": slip.superseded}


def write_close(tx: Tx, data: CloseInput, outcome: CloseOutcome, admin: str | None = None
                ) -> RoundClosed | None:
    """Phase 3 (guarded; see the module). None — nothing written — when a slip came in since
    phase 1 (one sent before the deadline and received just after it): the caller computes
    again with it. `admin`: the arbiter who typed the close (None: the timer), audited."""
    event = event_of(tx.db, data.slug)
    rnd = round_by_id(tx.db, data.round_id)
    game = game_by_id(tx.db, data.game_id)
    if rnd.board_before != data.board_before or not rnd.is_open:
        return closed_answer(tx, event, game, rnd)
    if [s.id for s in list_slips(tx.db, rnd.id)] != [s.slip_id for s in data.slips]:
        return None
    reason = t("duplicate.audit.close", SLOVAK, game=data.game, round=data.round)
    by = tx.by_scheduler(reason) if admin is None else tx.by_admin(admin, reason)
    if not close_round_row(tx.db, rnd, outcome.board_after, outcome.tops, by, event.id):
        return closed_answer(tx, event, game, rnd)
    for score in outcome.scores:
        add_score(tx.db, rnd, score.player_id, by, slip_id=score.slip_id,
                  outcome=score.outcome, points=score.points, rule=score.rule,
                  reason=score.reason, verdict=score.verdict)
    rnd = round_by_id(tx.db, rnd.id)
    answer = closed_answer(tx, event, game, rnd, closed_now=True)
    _announce(tx, event, game, rnd, answer)
    return answer


def closed_answer(tx: Tx, event: Event, game: DupGame, rnd: DupRound,
                  closed_now: bool = False) -> RoundClosed:
    """A closed round as the answer says it (from its rows)."""
    tops = rnd.tops.get("tops") or []
    top_score = int(rnd.tops.get("top_score", 0))
    scores = tuple(PlayerScore(s.player_id, s.points, s.outcome, s.rule, s.reason, s.slip_id,
                               _move_of(s.verdict, s.slip_id), s.verdict)
                   for s in current_scores(tx.db, rnd.id))
    found = sum(1 for s in scores if top_score > 0 and s.points >= top_score)
    last = _is_last_round(tx, event, game, rnd)
    return RoundClosed(game.number, rnd.number, closed_now, tops[0] if tops else None,
                       top_score, rnd.board_after or rnd.board_before, scores, found,
                       len(scores), event.settings.last_of_part(rnd.number) and not last,
                       game.state != "running" or last,
                       "" if tops else event.profile.end_rule("no-move"))


def finding_of(score: PlayerScore) -> dict[str, Any] | None:
    """The engine's findings about the slip that counted."""
    return next((f for f in score.verdict.get("slips", []) if f.get("slip_id") == score.slip_id),
                None)


def _move_of(verdict: dict[str, Any], slip_id: int | None) -> str | None:
    for found in verdict.get("slips", []):
        if found.get("slip_id") == slip_id:
            return str(found.get("move"))
    return None


def _is_last_round(tx: Tx, event: Event, game: DupGame, rnd: DupRound) -> bool:
    """The game cannot go on after this round: no scoring top (003 r. 3: the last part runs
    until the computer finds no scoring move), or no tile left to draw and none on the rack
    after the top."""
    if rnd.closed_at is None:
        return False
    if int(rnd.tops.get("top_score", 0)) <= 0:
        return True
    return not rnd.bag and not leave_of(rnd)


def _announce(tx: Tx, event: Event, game: DupGame, rnd: DupRound, answer: RoundClosed) -> None:
    """What the close says: the top and the new board (or that it is withheld, 003 r. 22),
    the summary, each player's evaluation by DM, the standings after a part (003 r. 24); then
    the game's end or, online, the timer opening the next round."""
    if answer.withheld:
        announce(tx, event, "duplicate.online.top_withheld", game=game.number,
                 round=rnd.number, part=rnd.part, rule="003 r. 22")
    else:
        announce_top(tx, event, game, rnd)
    announce(tx, event, "duplicate.online.summary", game=game.number, round=rnd.number,
             found=answer.found_top, n=answer.players, top=answer.top_score,
             rule="003 r. 23")
    for score in answer.scores:
        direct(tx, event, score.player_id, "duplicate.online.evaluation", game=game.number,
               round=rnd.number, move=score.move or t("duplicate.online.no_move"),
               points=score.points, outcome=score.outcome, reason=score.reason or "",
               why=why_text(score.outcome, score.reason, finding_of(score)), rule=score.rule)
    if answer.game_over:
        why = "no-move" if answer.top_score <= 0 else "empty"
        end_game(tx, event, game, rnd.number, why, event.profile.end_rule(why))
        return
    if event.settings.last_of_part(rnd.number):
        announce_standings(tx, event, game, part=rnd.part)
    if event.settings.mode == "online":
        at = tx.now + timedelta(seconds=event.settings.pause_seconds)
        add_timer(tx.db, NEXT_ROUND,
                  f"{event.tournament.slug}:dup:g{game.number}:r{rnd.number + 1}:{NEXT_ROUND}",
                  at, tx.by_scheduler("the next duplicate round"), tournament_id=event.id,
                  payload={"game": game.number, "round": rnd.number + 1})


def _lexicon(data: CloseInput, directory: Path | None) -> LoadedLexicon:
    return lexicons.cached(data.lexicon, data.lexicon_id, directory or Path("."))


async def close_round(app: App, slug: str, round_no: int | None = None, *,
                      game: int | None = None, lexicon_dir: Path | None = None,
                      admin: str | None = None) -> RoundClosed | Reply:
    """The three phases: `RoundClosed`, or the refusal's Reply. The move generator and the
    lexicon's first load run in a worker thread. A slip that came in meanwhile makes it
    compute again (the tops are cached: only the slips are scored again); after
    `ATTEMPTS` such rounds the last one runs in a single transaction."""
    for _ in range(ATTEMPTS):
        data = await app.run(read_close, slug, round_no, game)
        if not isinstance(data, CloseInput):
            return data
        try:
            lexicon = await asyncio.to_thread(_lexicon, data, lexicon_dir)
        except (OSError, ValueError) as exc:
            return Refusal("duplicate.online.lexicon_failed", reason=str(exc)).reply
        outcome = await asyncio.to_thread(compute_close, data, lexicon)
        closed = await app.run(write_close, data, outcome, admin)
        if closed is not None:
            return closed
    return await app.run(close_in_tx, slug, round_no, game, lexicon_dir, admin)


def close_in_tx(tx: Tx, slug: str, round_no: int | None = None, game: int | None = None,
                lexicon_dir: Path | None = None, admin: str | None = None) -> RoundClosed:
    """The three phases in one transaction (the timer's fallback: correct, but the move
    generator holds the store's thread meanwhile)."""
    data = read_close(tx, slug, round_no, game)
    if not isinstance(data, CloseInput):
        return data
    closed = write_close(tx, data, compute_close(data, _lexicon(data, lexicon_dir)), admin)
    assert closed is not None  # one transaction: no slip can come in between
    return closed
