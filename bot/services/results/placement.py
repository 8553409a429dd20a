"""Where a herna.net record finds its table, across every running classic event (issue 44.3).

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

`place_all` places a pass's records in one transaction: the players by the registry's nicks,
the windows those the pass read (`plan`); `_place` says where a record no pairing matches goes
(a table flagged `unknown_nick`, or none: listed for the admin). Nothing is written here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.services.app import Tx
from bot.services.results.plan import EventRound, Plan, RoundWindow
from bot.store import TablePairing, Tournament, TournamentStatus, find_player_by_nick
from rules.plausibility import Implausible, check_game
from scrapers.herna import GameRecord


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


#: Why a record found no table; the rule each flag touches comes from FLAG_TEXTS' citation.
NOT_PAIRED = "not_paired"
NOT_PAIRED_RULE = "e-SP 2.4"  # the pairing is the control software's (e-SP 2.4)


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a fetched record belongs: a table (with the store ids standing for its first and
    second nick) or none (`table` None: listed for the admin)."""

    record: GameRecord
    round_no: int
    table: TablePairing | None
    ids: tuple[int, int] | None
    flags: tuple[str, ...]
    # why the record is impossible (the profile's bounds): kept as refused evidence, not scored
    refused: tuple[Implausible, ...] = ()
    # the other running event whose pairing it matches (None: this pass's event or no table)
    elsewhere: Tournament | None = None
    # read back from `platform_records` (held as finished), not fetched again: placed where it
    # belongs if it is not yet, never counted as seen again
    held: bool = False
    # a finished event whose pairing it matches: explained, so no stray here; kept as a shared
    # record, but never placed there (a finished event's results do not change, DESIGN.md 3)
    settled: Tournament | None = None


def place_all(tx: Tx, plan: Plan, records: Iterable[GameRecord],
              held: frozenset[str] = frozenset()) -> list[Placed]:
    placed = (_place(tx, plan, r, r.game_id in held)
              for r in sorted(records, key=lambda r: r.started))
    return [p for p in placed if p is not None]


def _place(tx: Tx, plan: Plan, record: GameRecord, held: bool = False) -> Placed | None:
    """Which table a record belongs to, by the registry's nick → player mapping.

    - both players known and paired together in a round of the pass or of another running
      classic event, the game started in that round's window: their table (`placement`:
      whichever event's poll reads it; flagged if the settings are wrong or it started before
      the round);
    - one nick unknown, the other player seated with an opponent, the game started during the
      round: his table, the unknown nick standing for his opponent, flagged `unknown_nick`
      (the admin decides whether it was the opponent under another nick);
    - otherwise, a seated player's game during a round: no table (listed for the admin);
      anything else is not this tournament's game and is dropped.
    """
    players = [find_player_by_nick(tx.db, nick) for nick in record.nicks]
    ids = [None if p is None else p.id for p in players]
    first, second = ids
    t = plan.tournament
    if first is not None and second is not None:
        owner = owner_of(_owners(plan), first, second, record.started)
        if owner is not None:
            (o, w), table = (owner[0].tournament, owner[0].window), owner[1]
            if o.id != t.id and o.status is TournamentStatus.FINISHED:
                return Placed(record, w.number, None, None, (), _implausible(tx, o, record),
                              held=held, settled=o)
            return Placed(record, w.number, table, (first, second), _flags(o, w, record),
                          _implausible(tx, o, record), None if o.id == t.id else o, held)
    for w in plan.rounds:
        if not w.during(record.started):
            continue
        seated = [(i, w.table_of(i)) for i in ids if i is not None and w.table_of(i)]
        if not seated:
            continue
        # no table: still checked, so the shared record keeps its "refused" mark
        refused = _implausible(tx, t, record)
        if None not in ids:
            return Placed(record, w.number, None, None, (NOT_PAIRED,), refused, held=held)
        known, table = seated[0]
        if table is None or table.second_id is None:
            return Placed(record, w.number, None, None, ("unknown_nick",), refused, held=held)
        opponent = table.second_id if known == table.first_id else table.first_id
        pair = (known, opponent) if ids[0] == known else (opponent, known)
        return Placed(record, w.number, table, pair,
                      ("unknown_nick", *_flags(t, w, record)), refused, held=held)
    return None


def _owners(plan: Plan) -> list[EventRound]:
    return [*(EventRound(plan.tournament, w) for w in plan.rounds), *plan.others]


def _flags(t: Tournament, w: RoundWindow, record: GameRecord) -> tuple[str, ...]:
    flags = []
    if not (_same(record.settings.tempo, t.tempo)
            and _same(record.settings.language, t.language_version)):
        flags.append("wrong_settings")  # the propozície's mandatory table settings (e-SP 4.1)
    if record.started < w.starts_at:
        flags.append("started_before_round")
    return tuple(flags)


def _implausible(tx: Tx, t: Tournament, record: GameRecord) -> tuple[Implausible, ...]:
    """The record checked at the boundary against the profile's bounds, as read now."""
    bounds = tx.profile(t.profile).plausible
    return check_game(bounds, scores=(record.first_score, record.second_score),
                      moves=(record.first_moves, record.second_moves),
                      started=record.started, ended=record.ended, seen_at=tx.now)


def _same(a: str, b: str) -> bool:
    def norm(s: str) -> str:
        return "".join(s.split()).replace("×", "x").casefold()
    return norm(a) == norm(b)
