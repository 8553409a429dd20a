"""Starting a duplicate game and opening its rounds (issue 24 items 2–5; 003 r. 11–18).

`start_game`: a fresh seed from `secrets`, its commitment announced before round 1 (the racks
are provably fair: `rules.duplicate.racks`); online, round 1 opens at once.
`open_round`: the next round's rack — drawn from the seed (`draw_rack`: the bag after the
previous top, the leave kept) or typed by the arbiter (`check_rack`, 003 r. 11) — its deadline
(now + move time, 003 r. 15), online its timers (the warning, 003 r. 18; the deadline), and the
announcement with the board image's data. A draw that ends the game (004 §5B, §8.2) ends it.
The hall's arbiter may type a command again when unsure it was taken (his console died): the
same `start` before round 1, the same `rack`/`draw` of the round it opened, answer as the first
time and change nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.i18n import SLOVAK, t
from bot.services import bounds
from bot.services.app import Tx
from bot.services.delivery.outbox import Timely
from bot.services.duplicate.context import Event, announce, event_of, game_of, round_of
from bot.services.duplicate.results import announce_preliminary
from bot.services.replies import Refusal
from bot.store import Change, TournamentStatus
from bot.store.duplicate import (
    DupGame,
    DupRound,
    add_game,
    add_round,
    list_games,
    list_rounds,
    list_slips,
    set_game_state,
)
from bot.store.duplicate import correct_rack as correct_rack_row
from bot.store.timers import add_timer
from bot.store.tournaments import set_status
from rules.duplicate import check_rack, commit, draw_rack
from rules.duplicate.board import Board
from rules.duplicate.tiles import BLANK

#: timer kinds of a duplicate event (bot.services.tournament.timers dispatches them here)
WARNING = "dup_warning"
DEADLINE = "dup_deadline"
NEXT_ROUND = "dup_next_round"
TOPS = "dup_tops"  # the move generator started as the round opens (003 r. 17)
GAME_START = "dup_game_start"  # online: a game's start time
KINDS = (WARNING, DEADLINE, NEXT_ROUND, TOPS, GAME_START)
RACK_TEXT_LIMIT = 20  # a typed rack longer than this is no rack: one line, nothing read
OTHERS_SHOWN = 3  # tops of the top's score listed after it; the rest are counted


@dataclass(frozen=True, slots=True)
class RoundOpened:
    game: int
    round: int
    part: int
    rack: str  # sorted, '?' a blank
    deadline: datetime
    board: str  # the board the rack is played on (15 lines)
    source: str  # seed | arbiter
    draw_rule: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    game: int
    after_round: int  # the last round played
    reason: str  # catalogue duplicate.draw.<reason> (empty, one-kind) or "no-move"
    rule: str


@dataclass(frozen=True, slots=True)
class GameStarted:
    game: int
    commitment: str
    opened: RoundOpened | GameEnded | None  # online: round 1; in a hall the arbiter opens it


def start_game(tx: Tx, slug: str, *, seed: str | None = None, admin: str | None = None
               ) -> GameStarted:
    """Start the event's next game: a fresh secret seed (`seed` only for rehearsals and tests),
    its commitment announced (the seed is revealed when the game is final). Online, round 1
    opens in the same transaction; in a hall the arbiter opens it (`open_round`). `admin`:
    who acts (None: the scheduler, at the game's start time). Typed again while the game it
    started waits for its first round: that start again, nothing written or said."""
    event = event_of(tx.db, slug)
    games = list_games(tx.db, event.id)
    if games and games[-1].state == "running":
        last = games[-1]
        if seed in (None, last.seed) and not list_rounds(tx.db, last.id):
            # typed again before any round opened (a hall): the start that was taken
            return GameStarted(last.number, last.commitment, None)
        raise Refusal("duplicate.online.game_running", game=last.number)
    if len(games) >= event.settings.games:
        raise Refusal("duplicate.online.no_more_games", games=event.settings.games)
    seed = seed or secrets.token_hex(32)
    commitment = commit(seed)
    game = add_game(tx.db, event.id, len(games) + 1, seed, commitment,
                    _by(tx, admin, t("duplicate.audit.game_start", SLOVAK,
                                       game=len(games) + 1)))
    if event.tournament.status is not TournamentStatus.RUNNING:
        set_status(tx.db, event.id, TournamentStatus.RUNNING, tx.by_scheduler("duplicate game"))
    announce(tx, event, "duplicate.online.game_start", game=game.number,
             commitment=commitment, rule="003 r. 11–13")
    online = event.settings.mode == "online"
    opened = _open(tx, event, game, None, admin=admin) if online else None
    return GameStarted(game.number, commitment, opened)


def open_round(tx: Tx, slug: str, *, rack: str | None = None, round_no: int | None = None,
               game: int | None = None, admin: str | None = None) -> RoundOpened | GameEnded:
    """Open the next round of the running game: `rack` as the arbiter typed it (checked
    against the bag and the leave, 003 r. 11–13) or drawn from the seed. `round_no`, when
    given, must be the next round (the hall CLI names it). Refusals: no running game, the
    previous round still open, a wrong round number, a rack that cannot be. `admin`: who
    acts (None: the scheduler, after the pause)."""
    event = event_of(tx.db, slug)
    dup_game = game_of(tx.db, event, game)
    return _open(tx, event, dup_game, rack, round_no, admin=admin)


def _by(tx: Tx, admin: str | None, reason: str) -> Change:
    return tx.by_scheduler(reason) if admin is None else tx.by_admin(admin, reason)


def _open(tx: Tx, event: Event, game: DupGame, typed: str | None,
          round_no: int | None = None, *, admin: str | None = None) -> RoundOpened | GameEnded:
    rounds = list_rounds(tx.db, game.id)
    if game.state != "running":
        ended = _ended_by_this_draw(event, game, rounds, typed, round_no)
        if ended is not None:  # typed again, unsure it was taken: the same end, nothing said
            return ended
        raise Refusal("duplicate.online.game_not_running", game=game.number)
    prev = rounds[-1] if rounds else None
    if prev is not None and prev.is_open:
        if round_no == prev.number and _same_rack(prev, typed):
            # typed again, unsure it was taken: the round it opened, nothing written or said
            return _opened(game, prev)
        if typed is not None and round_no == prev.number and prev.source == "arbiter":
            # the same round typed with other tiles: a correction is its own act (with a reason)
            raise Refusal("duplicate.online.rack_differs", round=prev.number, rack=prev.rack)
        raise Refusal("duplicate.online.round_still_open", round=prev.number)
    number = prev.number + 1 if prev else 1
    if round_no is not None and round_no != number:
        raise Refusal("duplicate.online.wrong_round", round=round_no, next=number)
    tiles, profile = event.tiles, event.profile
    bag = dict(prev.bag) if prev else dict(tiles.bag)
    leave = leave_of(prev)
    board = prev.board_after if prev and prev.board_after else Board.empty().text()
    if typed is not None:
        rack, left, draw = _typed_rack(event, typed, bag, leave, number)
        source = "arbiter"
    else:
        drawn = draw_rack(game.seed, number, bag, leave, tiles.rack_vowels, profile)
        if drawn.ended:
            return end_game(tx, event, game, number - 1, drawn.outcome, drawn.rule)
        rack, left, source = drawn.rack, dict(drawn.bag), "seed"
        draw = {"outcome": drawn.outcome, "rule": drawn.rule,
                "rejected": ["".join(r) for r in drawn.rejected]}
    deadline = tx.now + timedelta(seconds=event.settings.move_seconds)
    by = _by(tx, admin, t("duplicate.audit.round_open", SLOVAK, game=game.number, round=number))
    rnd = add_round(tx.db, game, by, number=number,
                    part=event.settings.part_of(number), rack="".join(rack), source=source,
                    draw=draw, bag=left, deadline=deadline, board_before=board)
    if event.settings.mode == "online":
        _schedule(tx, event, game, rnd)
    if prev is not None and event.settings.last_of_part(prev.number):
        announce_top(tx, event, game, prev, withheld_until_now=True)  # 003 r. 22
    announce(tx, event, "duplicate.online.round_open", timely=Timely(event.id, until=deadline),
             game=game.number, round=number, part=rnd.part, rack=rnd.rack,
             values=rack_values(event, rnd.rack), deadline=deadline,
             seconds=event.settings.move_seconds, rule="003 r. 14–15",
             image=image(event, board, rnd.rack, highlight_of(prev)))
    return RoundOpened(game.number, number, rnd.part, rnd.rack, deadline, board, source,
                       str(draw["rule"]))


def _typed_rack(event: Event, typed: str, bag: dict[str, int], leave: tuple[str, ...],
                number: int) -> tuple[str, dict[str, int], dict[str, Any]]:
    """A rack the arbiter typed, checked against the bag and the leave (003 r. 11–13): the
    rack, the bag after it, the draw's record. Refusal with the rule it breaks."""
    if len(typed) > RACK_TEXT_LIMIT:
        raise Refusal("duplicate.online.rack_too_long", n=len(typed))
    tiles, profile = event.tiles, event.profile
    check = check_rack(typed, tiles.bag, bag, leave, tiles.rack_vowels, profile, number)
    if not check.ok:
        problem = check.problems[0]
        raise Refusal("duplicate.online.rack_refused", rule=problem.rule,
                      reason=t(f"duplicate.racks.{problem.code}", **problem.params))
    draw: dict[str, Any] = {"outcome": "drawn", "rule": profile.racks.rule, "rejected": []}
    return "".join(check.rack), dict(check.bag), draw


@dataclass(frozen=True, slots=True)
class RackCorrected:
    opened: RoundOpened
    was: str  # the rack as first typed
    slips: int  # slips already typed: judged at the close on the corrected rack
    changed: bool  # False: the rack was already this one (typed again)


def correct_rack(tx: Tx, slug: str, round_no: int, typed: str, reason: str, *,
                 game: int | None = None, admin: str | None = None) -> RackCorrected:
    """The arbiter mistyped an open round's rack (issue 41.3): the rack is replaced — checked
    against the bag and the leave as if typed first (003 r. 11–13) — and the limit starts
    again, for the right letters are shown only now (003 r. 15). Nothing is judged before the
    close, so the top and every slip already typed are judged on the corrected rack. Audited
    with both racks and `reason`. Refused: a closed round, a rack drawn from the seed (the seed
    decides it), no reason."""
    reason = bounds.clean(reason, bounds.field_name("reason"), lines=False)
    if not reason:
        raise Refusal("duplicate.online.rack_fix_reason")
    event = event_of(tx.db, slug)
    dup_game = game_of(tx.db, event, game)
    rounds = list_rounds(tx.db, dup_game.id)
    rnd = next((r for r in rounds if r.number == round_no), None)
    if rnd is None or not rnd.is_open:
        raise Refusal("duplicate.online.rack_fix_closed", round=round_no, rule="003 r. 11")
    if rnd.source != "arbiter":
        raise Refusal("duplicate.online.rack_fix_seed", round=round_no, rule="003 r. 11")
    prev = next((r for r in rounds if r.number == round_no - 1), None)
    bag = dict(prev.bag) if prev else dict(event.tiles.bag)
    rack, left, draw = _typed_rack(event, typed, bag, leave_of(prev), round_no)
    typed_slips = len([s for s in list_slips(tx.db, rnd.id) if s.replaced_by is None])
    if rack == rnd.rack:
        return RackCorrected(_opened(dup_game, rnd), rnd.rack, typed_slips, False)
    deadline = tx.now + timedelta(seconds=event.settings.move_seconds)
    by = _by(tx, admin, t("duplicate.audit.rack_fix", SLOVAK, round=round_no, was=rnd.rack,
                          rack=rack, reason=reason))
    if not correct_rack_row(tx.db, rnd, by, event.id, rack=rack, bag=left, draw=draw,
                            deadline=deadline):
        raise Refusal("duplicate.online.rack_fix_closed", round=round_no, rule="003 r. 11")
    fixed = round_of(tx.db, dup_game, round_no)
    announce(tx, event, "duplicate.online.rack_fixed", timely=Timely(event.id, until=deadline),
             game=dup_game.number, round=round_no, was=rnd.rack, rack=rack,
             values=rack_values(event, rack), deadline=deadline,
             seconds=event.settings.move_seconds, rule="003 r. 14–15")
    return RackCorrected(_opened(dup_game, fixed), rnd.rack, typed_slips, True)


def _opened(game: DupGame, rnd: DupRound) -> RoundOpened:
    return RoundOpened(game.number, rnd.number, rnd.part, rnd.rack, rnd.deadline,
                       rnd.board_before, rnd.source, str(rnd.draw.get("rule", "")))


def _ended_by_this_draw(event: Event, game: DupGame, rounds: list[DupRound],
                       typed: str | None, round_no: int | None) -> GameEnded | None:
    """The end of a game whose preliminary results came from the seed's draw of the round
    after its last (the tiles ran out or only one kind was left, 003 r. 11–13), when `typed`
    (None) and `round_no` are that draw again: the draw is a function of the seed and the last
    round, so drawing again finds the same end. None for any other command."""
    last = rounds[-1] if rounds else None
    number = last.number + 1 if last else 1
    if (game.state != "preliminary" or typed is not None or round_no not in (None, number)
            or (last is not None and last.is_open)):
        return None
    drawn = draw_rack(game.seed, number, dict(last.bag) if last else dict(event.tiles.bag),
                      leave_of(last), event.tiles.rack_vowels, event.profile)
    if not drawn.ended or drawn.rule != game.ended_rule:
        return None
    return GameEnded(game.number, number - 1, drawn.outcome, drawn.rule)


def _same_rack(rnd: DupRound, typed: str | None) -> bool:
    """Whether opening `rnd` again with `typed` (None: drawn from the seed) is the same command:
    the same source, and a typed rack of the same tiles in any order (as `check_rack` reads
    it)."""
    if typed is None or rnd.source != "arbiter":
        return typed is None and rnd.source == "seed"
    return len(typed) <= RACK_TEXT_LIMIT and "".join(
        sorted(c.upper() for c in typed if not c.isspace())) == rnd.rack


def _schedule(tx: Tx, event: Event, game: DupGame, rnd: DupRound) -> None:
    by = tx.by_scheduler(f"duplicate round {game.number}/{rnd.number}")
    payload = {"game": game.number, "round": rnd.number}
    base = f"{event.tournament.slug}:dup:g{game.number}:r{rnd.number}"
    add_timer(tx.db, TOPS, f"{base}:{TOPS}", tx.now, by, tournament_id=event.id,
              payload=payload)
    warning = rnd.deadline - timedelta(seconds=event.settings.warning_seconds)
    if event.settings.warning_seconds and warning > tx.now:
        add_timer(tx.db, WARNING, f"{base}:{WARNING}", warning, by, tournament_id=event.id,
                  payload=payload)
    add_timer(tx.db, DEADLINE, f"{base}:{DEADLINE}", rnd.deadline, by, tournament_id=event.id,
              payload=payload)


def end_game(tx: Tx, event: Event, game: DupGame, last_round: int, reason: str, rule: str
             ) -> GameEnded:
    """The game is over (the tiles ran out, only one kind is left, or no scoring move):
    preliminary results, the protest window open (003 r. 25–27). Announced once (guarded by
    the game's state)."""
    moved = set_game_state(tx.db, game, "preliminary", tx.by_scheduler(reason),
                           ended_rule=rule)
    if moved is not None:
        announce_preliminary(tx, event, moved, reason, rule)
    return GameEnded(game.number, last_round, reason, rule)


def leave_of(rnd: DupRound | None) -> tuple[str, ...]:
    """What stays on the rack after a round: its rack less the tiles its top laid."""
    if rnd is None:
        return ()
    left = list(rnd.rack)
    for tile in top_tiles(rnd):
        left.remove(BLANK if tile[3] else str(tile[2]).upper())
    return tuple(left)


def top_tiles(rnd: DupRound | None) -> list[list[Any]]:
    """The tiles the round's top laid ([row, col, letter, blank]…); [] before the close or
    without a move."""
    if rnd is None or not rnd.tops.get("tops"):
        return []
    return list(rnd.tops["tops"][0]["tiles"])


def highlight_of(rnd: DupRound | None) -> list[list[int]]:
    return [[int(r), int(c)] for r, c, *_ in top_tiles(rnd)]


def image(event: Event, board: str, rack: str, highlight: list[list[int]]) -> dict[str, Any]:
    """What the Discord side renders the board PNG from (bot/publish/board_image.py)."""
    return {"board": board, "highlight": highlight, "tiles": event.settings.tiles, "rack": rack}


def rack_values(event: Event, rack: str) -> str:
    """"A1 E1 K2 ?0 …": the rack with each tile's value (003 r. 14)."""
    values = event.tiles.values
    return " ".join(f"{ch}{0 if ch == BLANK else values.get(ch.lower(), 0)}" for ch in rack)


def announce_top(tx: Tx, event: Event, game: DupGame, rnd: DupRound, *,
                 withheld_until_now: bool = False) -> None:
    """The round's top move on the channel with the board after it (003 r. 10); the tops of
    equal score after it. `withheld_until_now`: the last top of a part, published as the next
    part starts (003 r. 22)."""
    tops = rnd.tops.get("tops") or []
    shown = image(event, rnd.board_after or rnd.board_before, "", highlight_of(rnd))
    if not tops:
        announce(tx, event, "duplicate.online.no_top", game=game.number, round=rnd.number,
                 rule=event.profile.end_rule("no-move"), image=shown)
        return
    first = tops[0]
    key = "duplicate.online.top_delayed" if withheld_until_now else "duplicate.online.top"
    announce(tx, event, key, game=game.number, round=rnd.number, coord=first["coord"],
             word=first["word"], score=first["score"], tops=tops[:4],
             rule="003 r. 5–10, 22" if withheld_until_now else "003 r. 5–10", image=shown)
    others = tops[1:1 + OTHERS_SHOWN]
    if others:  # the rest counted, not listed (issue 35)
        more = len(tops) - 1 - len(others)
        announce(tx, event, "duplicate.online.top_others_more" if more
                 else "duplicate.online.top_others", round=rnd.number, more=more,
                 others=", ".join(f"{m['coord']} {m['word']}" for m in others))
    sub_tops = rnd.tops.get("next") or []
    if sub_tops:  # the next best moves, for the players' interest (issue 24.2)
        announce(tx, event, "duplicate.online.sub_tops", round=rnd.number,
                 moves=", ".join(f"{m['coord']} {m['word']} ({m['score']})"
                                 for m in sub_tops))
