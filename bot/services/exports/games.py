"""Every player's tournament round by round: the common ground of the TSH and TRF exports.

Both formats are a line per player with one cell per round, so both read the same `Sheet`:
the ranked players in seed order (the player's number), and for every paired round what he
had there — a game (opponent, who started, how it was scored) or no table at all. The numbers
come from the stored results exactly as the standings use them (`views.ranking`), so an export
can be checked against the standings it must reproduce.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.services import lookup
from bot.services.app import Tx
from bot.services.tournament.views import (
    Table,
    ranking,
    seed_order,
    seed_rating,
    tables_of,
    to_result,
)
from bot.store import Entry, Tournament, get_player, list_entries, list_rounds
from rules import End, Profile, Result, Standing


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a player's table of one round was scored (RULES.md section 2), from his side."""

    points: float
    score: int  # the score written for him
    opponent_points: float  # 0 at a bye
    opponent_score: int  # 0 at a bye
    rated: bool  # counts for online screlo (RULES.md 2: rows 1–4, 9, 12 where both moved)
    forfeited: bool  # the game was forfeited against him ("Forfeit against", RULES.md 2)
    opponent_forfeited: bool
    end: End
    rule: str


@dataclass(frozen=True, slots=True)
class Seat:
    """What a player had in one round: `table` False = he was not paired in it (withdrawn,
    excluded, a missed round); `opponent` None at a table = a bye; `outcome` None at a table
    = no result yet."""

    round_no: int
    table: bool
    opponent: int | None = None  # the opponent's number on the sheet
    started: bool = False  # he started the game (herna.net's starter, e-SP 4.2)
    outcome: Outcome | None = None

    @property
    def pending(self) -> bool:
        return self.table and self.outcome is None


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # 1-based, seed order (e-SP 2.4)
    name: str
    rating: int  # the seed: online screlo, a newcomer's rating for one without it
    has_screlo: bool  # False: a newcomer, seeded by the profile's newcomer rating
    standing: Standing
    out: bool  # withdrawn or excluded (e-SP 3.6)
    seats: tuple[Seat, ...]  # one per paired round, in round order


@dataclass(frozen=True, slots=True)
class Sheet:
    tournament: Tournament
    profile: Profile
    rounds: tuple[int, ...]  # the round numbers that have pairings
    round_dates: dict[int, date]  # every round's official start date
    lines: tuple[Line, ...]


def _outcome(result: Result, me: str, opponent: str | None) -> Outcome:
    rival = opponent or ""
    return Outcome(
        points=result.points_of(me), score=result.score_of(me),
        opponent_points=result.points_of(rival) if opponent else 0.0,
        opponent_score=result.score_of(rival) if opponent else 0,
        rated=result.rated, forfeited=me in result.forfeited,
        opponent_forfeited=opponent is not None and opponent in result.forfeited,
        end=End(result.case.end), rule=result.rule,
    )


def seat_of(round_no: int, me: str, other: str | None, starter: str, result: Result | None,
            number: dict[str, int]) -> Seat:
    """Player `me`'s seat at a table of round `round_no` against `other` (None: a bye), whose
    scheduled starter is `starter`; `result` None while it has no outcome. `number`: the
    players' numbers on the sheet by rules id."""
    alone = result is not None and result.case.end is End.MISSED_ROUND
    return Seat(
        round_no=round_no, table=not alone,
        opponent=number.get(other) if other is not None else None,
        started=other is not None and (result.case.first if result else starter) == me,
        outcome=_outcome(result, me, other) if result else None,
    )


def _seats(tables: list[Table], number: dict[str, int]) -> dict[tuple[int, str], Seat]:
    """(round, rules id) → his seat, for everyone at a table."""
    seats: dict[tuple[int, str], Seat] = {}
    for tb in tables:
        p = tb.pairing
        result = to_result(p, tb.result) if tb.result is not None else None
        ids = [lookup.rules_id(p.first_id),
               None if p.second_id is None else lookup.rules_id(p.second_id)]
        for me, other in (ids, ids[::-1]):
            if me is not None:
                seats[(p.round_no, me)] = seat_of(p.round_no, me, other, ids[0] or "", result,
                                                  number)
    return seats


def sheet(tx: Tx, slug: str) -> Sheet:
    """The sheet of tournament `slug`: every ranked player (those who sat at a table) in seed
    order, with a seat in every paired round."""
    t = lookup.tournament(tx, slug)
    profile = tx.profile(t.profile)
    tables = tables_of(tx.db, t)
    rank = ranking(tx.db, t, profile, tables)
    standing = {int(s.player): s for s in rank.standings}
    entries: list[Entry] = seed_order(
        [e for e in list_entries(tx.db, t.id) if e.player_id in standing], profile)
    number = {lookup.rules_id(e.player_id): n for n, e in enumerate(entries, start=1)}
    rounds = tuple(sorted({tb.pairing.round_no for tb in tables}))
    seats = _seats(tables, number)
    lines = tuple(
        Line(
            number=n, name=get_player(tx.db, e.player_id).name,
            rating=round(seed_rating(e, profile)), has_screlo=e.seed_rating is not None,
            standing=standing[e.player_id],
            out=e.out is not None,
            seats=tuple(seats.get((r, lookup.rules_id(e.player_id)), Seat(r, table=False))
                        for r in rounds),
        )
        for n, e in enumerate(entries, start=1)
    )
    dates = {r.number: r.starts_at.date() for r in list_rounds(tx.db, t.id)}
    return Sheet(t, profile, rounds, dates, lines)


def surname_first(name: str) -> str:
    """"Anna Nováková" → "Nováková, Anna": TSH and TRF list players surname first."""
    parts = name.split()
    if len(parts) < 2:
        return " ".join(parts) or "?"
    return f"{parts[-1]}, {' '.join(parts[:-1])}"
