"""What the hall's demonstration board shows (issue 41.1; 003 r. 14, 15, 18, 22, 24–26, 32), as
plain JSON-ready data: `board_state(db, slug, now)`. The page (`bot.hall.tabula`) renders it and
`/stav.json` serves it as it is, so another display reads exactly what the projector shows.

Everything comes from the store — the deadline too (the round's row, set when the rack was
entered: 003 r. 15) — so a reload, a second screen or a restarted laptop shows the same clock.
It is built on `view.event_view`, which already hides what must not show: nothing of an open
round but its rack, board and deadline, and the last top of a part until the next part starts
(003 r. 22).

Phases (`phase`, its Slovak words in `phase_text`):
  losovanie           the game started, no rack yet (the organiser draws, 003 r. 11)
  hra                 a round is open and its limit runs (003 r. 15)
  listky_hore         the limit is over, the round not yet closed: slips up (003 r. 19)
  vyhodnotenie        the round is closed, the next rack not yet entered (003 r. 23)
  predbezne_vysledky  the game is over: preliminary results and the words (003 r. 25–27)
  konecne_vysledky    the final results (003 r. 29)
`clock`: "bezi" (more than the warning left), "posledne" (the warning's last seconds, 003
r. 18), "koniec" (the limit is over) or None (no round open).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlite_utils import Database

from bot.i18n import SLOVAK, t
from bot.services.duplicate.context import event_of
from bot.services.duplicate.view import EventView, GameView, RoundView, event_view
from bot.store.times import to_text
from rules.duplicate.tiles import BLANK

PHASES = ("losovanie", "hra", "listky_hore", "vyhodnotenie", "predbezne_vysledky",
          "konecne_vysledky")
STANDINGS_SHOWN = 64  # a hall's field; the page shows as many as fit and counts the rest


def board_state(db: Database, slug: str, now: datetime) -> dict[str, Any]:
    """The board's state of event `slug` at `now` (see the module)."""
    event = event_of(db, slug)
    view = event_view(db, slug)
    values = event.tiles.values
    game = view.games[-1] if view.games else None
    rnd = game.rounds[-1] if game and game.rounds else None
    phase = _phase(game, rnd, now)
    state: dict[str, Any] = {
        "event": view.name, "slug": view.slug, "mode": view.mode,
        "game": game.number if game else None, "games": event.settings.games,
        "phase": phase, "phase_text": t(f"duplicate.board.phase_{phase}", SLOVAK),
        "part": rnd.part if rnd else (1 if game else None),
        "round": rnd.number if rnd else None,
        "rack": [], "deadline": None, "now": to_text(now), "seconds_left": None,
        "move_seconds": event.settings.move_seconds,
        "warning_seconds": event.settings.warning_seconds, "clock": None,
        "board": _board(game, rnd).splitlines(), "highlight": _highlight(game, rnd),
        "last_top": _last_top(game, rnd), "top_withheld": None,
        "standings": [], "standings_after_part": None, "results": None, "words": [],
    }
    if rnd is not None and rnd.closed_at is None:
        left = (rnd.deadline - now).total_seconds()
        state.update(
            rack=[{"letter": ch, "value": 0 if ch == BLANK else values.get(ch.lower(), 0)}
                  for ch in rnd.rack],
            deadline=to_text(rnd.deadline), seconds_left=max(0, int(-(-left // 1))),
            clock="koniec" if left <= 0 else "posledne"
            if left <= event.settings.warning_seconds else "bezi")
    if rnd is not None and rnd.withheld:
        state["top_withheld"] = {"round": rnd.number, "part": rnd.part, "rule": "003 r. 22"}
    ended = game is not None and game.state != "running"
    if ended or (rnd is not None and rnd.closed_at is not None
                 and event.settings.last_of_part(rnd.number)):
        state["standings"] = _standings(view)
        state["standings_after_part"] = None if ended else rnd.part if rnd else None
    if ended and game is not None:
        state["results"] = "konecne" if game.state == "final" else "predbezne"
        state["words"] = [{"round": w.round, "word": w.word, "approved": w.approved}
                          for w in view.words if w.game == game.number]
    return state


def _phase(game: GameView | None, rnd: RoundView | None, now: datetime) -> str:
    if game is not None and game.state != "running":
        return "konecne_vysledky" if game.state == "final" else "predbezne_vysledky"
    if rnd is None:
        return "losovanie"
    if rnd.closed_at is not None:
        return "vyhodnotenie"
    return "hra" if now < rnd.deadline else "listky_hore"


def _shown(game: GameView | None, rnd: RoundView | None) -> RoundView | None:
    """The round whose top the board shows: the latest round once closed, while a round is
    open the one before it; none while that top is withheld (003 r. 22)."""
    if game is None or rnd is None or rnd.withheld:
        return None
    if rnd.closed_at is not None:
        return rnd
    before = [r for r in game.rounds if r.number == rnd.number - 1]
    return before[0] if before and not before[0].withheld else None


def _board(game: GameView | None, rnd: RoundView | None) -> str:
    if rnd is None:
        return "\n".join("." * 15 for _ in range(15))
    if rnd.closed_at is not None and rnd.board_after is not None:
        return rnd.board_after
    return rnd.board_before  # open, or its top withheld (003 r. 22)


def _highlight(game: GameView | None, rnd: RoundView | None) -> list[list[int]]:
    shown = _shown(game, rnd)
    if shown is None or not shown.tops:
        return []
    return [[r, c] for r, c in shown.tops[0].tiles]


def _last_top(game: GameView | None, rnd: RoundView | None) -> dict[str, Any] | None:
    shown = _shown(game, rnd)
    if shown is None:
        return None
    if not shown.tops:
        return {"round": shown.number, "coord": None, "word": None, "score": 0}
    top = shown.tops[0]
    return {"round": shown.number, "coord": top.coord, "word": top.word, "score": top.score}


def _standings(view: EventView) -> list[dict[str, Any]]:
    return [{"rank": s.rank, "name": s.player, "points": s.points, "percent": s.percent,
             "decided_by": s.decided_by} for s in view.standings[:STANDINGS_SHOWN]]
