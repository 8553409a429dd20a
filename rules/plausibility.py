"""Is a platform record possible at all? The profile's bounds (`Profile.plausible`) against the
facts one herna.net record states. A record outside them is not evidence of a result: the
caller keeps it, marked refused with these reasons, and scores nothing from it, so a later
valid record of the same game takes its place without anybody's ruling.

Pure: the moment the record was read is a parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from rules.profile import PlausibleRule

#: Why a record is refused; the catalogue has a text per code.
SCORE_NEGATIVE = "score_negative"
SCORE_TOO_HIGH = "score_too_high"
MOVES_NEGATIVE = "moves_negative"
MOVES_TOO_MANY = "moves_too_many"
ENDED_BEFORE_START = "ended_before_start"
TOO_LONG = "too_long"
FROM_THE_FUTURE = "from_the_future"


@dataclass(frozen=True, slots=True)
class Implausible:
    """One reason a record is refused: what (`code`), the number that broke the bound (`value`:
    a score, a move count, minutes), the bound, and the rule the bound rests on."""

    code: str
    value: int
    bound: int
    rule: str

    def as_dict(self) -> dict[str, int | str]:
        return {"code": self.code, "value": self.value, "bound": self.bound, "rule": self.rule}


def check_game(
    bounds: PlausibleRule,
    *,
    scores: Sequence[int],
    moves: Sequence[int],
    started: datetime,
    ended: datetime | None,
    seen_at: datetime,
) -> tuple[Implausible, ...]:
    """Every reason the record is impossible (empty: it may be scored)."""
    out: list[Implausible] = []
    for score in scores:
        if score < 0:
            out.append(Implausible(SCORE_NEGATIVE, score, 0, bounds.rule))
        elif score > bounds.max_score:
            out.append(Implausible(SCORE_TOO_HIGH, score, bounds.max_score, bounds.rule))
    for n in moves:
        if n < 0:
            out.append(Implausible(MOVES_NEGATIVE, n, 0, bounds.moves_rule))
        elif n > bounds.max_moves:
            out.append(Implausible(MOVES_TOO_MANY, n, bounds.max_moves, bounds.moves_rule))
    ahead = timedelta(minutes=bounds.future_minutes)
    latest = max(started, ended or started)
    if latest > seen_at + ahead:
        minutes = _minutes(latest - seen_at)
        out.append(Implausible(FROM_THE_FUTURE, minutes, bounds.future_minutes, bounds.time_rule))
    if ended is not None:
        if ended < started:
            out.append(Implausible(ENDED_BEFORE_START, -_minutes(started - ended), 0,
                                   bounds.time_rule))
        elif ended - started > timedelta(minutes=bounds.max_game_minutes):
            out.append(Implausible(TOO_LONG, _minutes(ended - started), bounds.max_game_minutes,
                                   bounds.time_rule))
    return tuple(out)


def _minutes(span: timedelta) -> int:
    return int(span.total_seconds() // 60)
