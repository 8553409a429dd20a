"""Which pairing a herna.net record belongs to, across every running classic event (issue 44.3).

One bot serves several events, and their players overlap: a poll of event A lists every game
of A's seated players, including the games they play for event C. A record belongs to at most
one event — the one whose pairing it matches (DESIGN.md §6b) — whichever event's poll reads it:

- its two players are paired together at a table of a round (this event's or another running
  classic event's), and the game started in that round's window (`RoundWindow.holds_pair_game`:
  from `EARLY` before the official start to `LATE` after the game time limit, e-SP 4.5);
- when the same two players are paired together in two events whose windows both hold the game
  (they meet in both at overlapping times), herna.net does not say which event a game was for
  and no rule foresees it (e-SP 5: the head admin decides what no rule foresees). The record
  goes to the round it was played *during* (official start ≤ start ≤ limit; a game starts at
  "HRAJEM!", e-SP 4.2) rather than one it is only near; among those, to the round called most
  recently before the game began: the earlier round's game was most likely played already,
  and under the last-game rule (e-SP 4.5, RULES.md §2 "Last game counts") a later game given
  to that round would replace it. Then the nearest window; then the older event.
  Deterministic, so two polls in either order place it alike; a head admin's ruling on the
  pairing decides either way.

This module reads nothing and writes nothing: the sync hands it the windows it read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store import TablePairing, Tournament

#: Games between a paired couple started this long before the official start are still theirs
#: (flagged `started_before_round`); older ones are earlier rounds' or casual games.
EARLY = timedelta(minutes=60)
#: Games between a paired couple started this long after the game time limit still belong to
#: the round (the reconciler scores them OVER_LIMIT, e-SP 4.5).
LATE = timedelta(minutes=30)


@dataclass(frozen=True, slots=True)
class RoundWindow:
    """One round of the pass: its clock and who sits where."""

    number: int
    starts_at: datetime
    limit_at: datetime
    tables: tuple[TablePairing, ...]

    def table_of(self, player_id: int) -> TablePairing | None:
        for table in self.tables:
            if player_id in (table.first_id, table.second_id):
                return table
        return None

    def holds_pair_game(self, started: datetime) -> bool:
        return self.starts_at - EARLY <= started <= self.limit_at + LATE

    def during(self, started: datetime) -> bool:
        return self.starts_at <= started <= self.limit_at

    def pair_table(self, first: int, second: int) -> TablePairing | None:
        """The table where `first` and `second` sit together, if they do."""
        table = self.table_of(first)
        if table is not None and {table.first_id, table.second_id} == {first, second}:
            return table
        return None


@dataclass(frozen=True, slots=True)
class EventRound:
    """A round of some event, as a candidate owner of records."""

    tournament: Tournament
    window: RoundWindow


def owner_of(rounds: Iterable[EventRound], first: int, second: int,
             started: datetime) -> tuple[EventRound, TablePairing] | None:
    """The round and table where the game of `first` and `second` started at `started`
    counts, among `rounds` (see the module docstring for the order); None when they are
    paired nowhere then."""
    best: tuple[tuple[float, ...], EventRound, TablePairing] | None = None
    for er in rounds:
        w = er.window
        table = w.pair_table(first, second)
        if table is None or not w.holds_pair_game(started):
            continue
        key = _closeness(w, started, er.tournament.id)
        if best is None or key < best[0]:
            best = (key, er, table)
    return None if best is None else best[1:]


def _closeness(w: RoundWindow, started: datetime, tournament_id: int) -> tuple[float, ...]:
    if w.during(started):  # played during the round: the round called most recently
        return (0, (started - w.starts_at).total_seconds(), tournament_id)
    gap = w.starts_at - started if started < w.starts_at else started - w.limit_at
    return (1, gap.total_seconds(), tournament_id)
