"""Closing a round at its deadline (issue 24 items 2, 4; 003 r. 5–10, 19, 22–24, 45; 004 §6).

Three phases, so the move generator never holds the store's thread and a repeat or a crash
replays exactly once:
1. `read_close(tx, …)`: one read transaction takes what the close needs (`CloseInput`);
2. `compute_close(data, lexicon)`: pure, OFF the store's thread (`asyncio.to_thread`): the
   tops (003 r. 5–9), every slip checked and scored (004 §6; 003 r. 19, 41–45);
3. `write_close(tx, data, outcome)`: a second transaction guarded by "the round is still open
   and its board unchanged" (`close_round_row`): the scores, the announcements (the top and
   the new board — the last top of a part withheld until the next part, 003 r. 22 — each
   player's evaluation by DM, "N of M found the top", standings after a part, 003 r. 24), and
   online the timer opening the next round. A second close finds the round closed and writes
   and says nothing.
`close_round(app, …)` runs the three; `close_in_tx(tx, …)` runs them in one transaction (the
scheduler's fallback when no async driver closed the round first).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class SlipInput:
    slip_id: int
    player_id: int
    text: str
    declared: int | None
    received_at: datetime


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
    tops: dict[str, Any]  # {"lexicon", "count", "top_score", "tops": [...]}
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


def read_close(tx: Any, slug: str, round_no: int | None = None, game: int | None = None
               ) -> CloseInput | RoundClosed:
    """Phase 1 (see the module). A round already closed answers its `RoundClosed` at once."""
    raise NotImplementedError


def compute_close(data: CloseInput, lexicon: Any) -> CloseOutcome:
    """Phase 2 (pure; see the module)."""
    raise NotImplementedError


def write_close(tx: Any, data: CloseInput, outcome: CloseOutcome) -> RoundClosed:
    """Phase 3 (guarded; see the module)."""
    raise NotImplementedError


async def close_round(app: Any, slug: str, round_no: int | None = None, *,
                      game: int | None = None, lexicon_dir: Any = None) -> Any:
    """The three phases: `RoundClosed`, or the refusal's Reply."""
    raise NotImplementedError


def close_in_tx(tx: Any, slug: str, round_no: int | None = None, game: int | None = None,
                lexicon_dir: Any = None) -> RoundClosed:
    """The three phases in one transaction (the timer's fallback)."""
    raise NotImplementedError
