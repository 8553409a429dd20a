"""Standings and qualification points: e-SP 2.4, 3.6; SP 1.3, A3 (RULES.md sections 5–7).

One pass over the results gathers each player's own aggregates and his list of opponents; a
second pass over those lists adds the opponents' points (Buchholz, median Buchholz, Neustadtl).
Then one sort by the profile's criteria, with the seed order as the last key, gives a total,
deterministic order. Linear in the number of games (plus the sort): no quadratic loops.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from rules.model import End, Result, Standing
from rules.profile import Profile


def standings(
    players: Sequence[str],
    results: Iterable[Result],
    profile: Profile,
    *,
    out: Mapping[str, str] | None = None,
    round_robin: bool = False,
) -> list[Standing]:
    """The final order of `players` (ids in seed order) after `results`.

    `out` maps withdrawn or excluded players to the reason (e-SP 3.6): they are ranked by
    their games like anyone else, get no qualification points, and the points of their place
    go to nobody. `round_robin` switches to the profile's round-robin criteria (SP 1.3).

    Median Buchholz drops the `median_drop` best and worst opponents (by their points, which
    is the same sum as dropping the best- and worst-placed ones, since points rank first). With
    no more than 2 × `median_drop` opponents every opponent is dropped, so it is 0 — the literal
    "all opponents except the best and the worst".
    """
    index = {player: i for i, player in enumerate(players)}
    if len(index) != len(players):
        twice = next(p for p, count in Counter(players).items() if count > 1)
        raise ValueError(f"players: {twice!r} is listed twice")
    out = dict(out or {})
    for player in out:
        if player not in index:
            raise ValueError(f"out: {player!r} is not among the players")
    agg = _Aggregates(len(players), profile)
    for result in results:
        agg.add(result, index)
    agg.add_opponents(profile.standings.median_drop)

    rule = profile.standings
    criteria = rule.round_robin_tiebreaks if round_robin else rule.tiebreaks
    columns = [agg.column(c) for c in criteria]
    order = sorted(range(len(players)), key=lambda i: [-col[i] for col in columns] + [i])
    keys = [[col[i] for col in columns] for i in order]
    table = profile.qualification.table
    lines = []
    for place, i in enumerate(order, 1):
        tied = (place > 1 and keys[place - 2] == keys[place - 1]) or (
            place < len(order) and keys[place] == keys[place - 1]
        )
        reason = out.get(players[i])
        earned = table[place - 1] if reason is None and place <= len(table) else 0
        lines.append(
            Standing(
                rank=place,
                player=players[i],
                points=agg.points[i],
                wins=agg.wins[i],
                median_buchholz=agg.median_buchholz[i],
                buchholz=agg.buchholz[i],
                score=agg.score[i],
                spread=agg.score[i] - agg.conceded[i],
                games=agg.games[i],
                out=reason,
                qualification_points=earned,
                neustadtl=agg.neustadtl[i],
                tied=tied,
            )
        )
    return lines


class _Aggregates:
    """Per-player sums, indexed by seed position."""

    def __init__(self, n: int, profile: Profile) -> None:
        self.rule = profile.standings
        self.win = profile.points.win
        self.draw = profile.points.draw
        self.forfeit_wins = self.rule.forfeit_win_counts_as_win
        self.forfeit_opponents = self.rule.forfeit_opponent_counts
        self.points = [0.0] * n
        self.wins = [0] * n
        self.score = [0] * n
        self.conceded = [0] * n
        self.games = [0] * n
        self.byes = [0] * n  # byes that count as a 0-point opponent (bye_in_buchholz)
        # (opponent, share of his points for Neustadtl: 1 beaten, ½ drawn, 0 lost)
        self.opponents: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        self.rounds: set[tuple[int, int]] = set()
        self.buchholz = [0.0] * n
        self.median_buchholz = [0.0] * n
        self.neustadtl = [0.0] * n

    def add(self, result: Result, index: Mapping[str, int]) -> None:
        case = result.case
        first = self._seat(case.first, case.round, index)
        if case.second is None:  # a bye or a missed round: own points and score, no opponent
            points = result.first_points
            self.points[first] += points
            self.score[first] += result.first_score
            self.conceded[first] += result.second_score
            # a missed round (ČAS 14.4) scores 0 and 0:0 but is no game played
            self.games[first] += case.end != End.MISSED_ROUND
            if self.rule.bye_counts_as_win and points == self.win:
                self.wins[first] += 1
            if self.rule.bye_in_buchholz and case.end == End.BYE:
                self.byes[first] += 1
            return
        second = self._seat(case.second, case.round, index)
        forfeited = result.forfeited
        # written out for both sides: this is the hot loop of the 10,000-player benchmark
        self._side(
            first,
            second,
            case.second,
            result.first_points,
            result.first_score,
            result.second_score,
            forfeited,
        )
        self._side(
            second,
            first,
            case.first,
            result.second_points,
            result.second_score,
            result.first_score,
            forfeited,
        )

    def _side(
        self,
        me: int,
        other: int,
        other_id: str,
        points: float,
        own: int,
        conceded: int,
        forfeited: frozenset[str],
    ) -> None:
        self.points[me] += points
        self.score[me] += own
        self.conceded[me] += conceded
        self.games[me] += 1
        # a forfeit win (the game was forfeited against the opponent) counts when the profile says
        if points == self.win and (self.forfeit_wins or other_id not in forfeited):
            self.wins[me] += 1
        if self.forfeit_opponents or not forfeited:
            share = 1.0 if points == self.win else 0.5 if points == self.draw else 0.0
            self.opponents[me].append((other, share))

    def _seat(self, player: str, round_no: int, index: Mapping[str, int]) -> int:
        seat = index.get(player)
        if seat is None:
            raise ValueError(f"results: {player!r} is not among the players")
        if round_no:
            key = (seat, round_no)
            if key in self.rounds:
                raise ValueError(f"results: {player!r} has two games in round {round_no}")
            self.rounds.add(key)
        return seat

    def add_opponents(self, drop: int) -> None:
        points = self.points
        for me, faced in enumerate(self.opponents):
            values = sorted([points[o] for o, _ in faced] + [0.0] * self.byes[me])
            self.buchholz[me] = sum(values)
            self.median_buchholz[me] = sum(values[drop : len(values) - drop])
            self.neustadtl[me] = sum(points[o] * share for o, share in faced)

    def column(self, criterion: str) -> list[float] | list[int]:
        if criterion == "spread":
            return [s - c for s, c in zip(self.score, self.conceded, strict=True)]
        return getattr(self, criterion)
