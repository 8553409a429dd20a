"""Each entrant's state for pairing: seed, points, who he has met, byes and his starts.

Starts ("who moves first", the colour of the FIDE systems) follow SP 1.3 "starts must be
balanced" as the profile states it: after this round a player's starts and seconds may differ
by at most `max_start_difference`, and nobody starts (or goes second) more than
`max_same_in_a_row` times in a row. Only games actually played count for starts (a no-show
forfeit was never started); every pairing, played or not, counts as "met" (e-SP 2.4: no two
players are paired twice).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from rules.model import End, Entrant, Result
from rules.profile import Profile

#: Ends of a pairing at which no game was started: they leave the start history alone.
UNPLAYED = frozenset({End.NO_SHOW, End.BOTH_NO_SHOW, End.BYE})

_ROUND = attrgetter("case.round")
_POINTS = attrgetter("points")

#: Strength of a start preference: only one side legal > unbalanced > alternation > none.
ABSOLUTE, IMBALANCE, ALTERNATION, NONE = 3, 2, 1, 0


@dataclass(slots=True, eq=False)
class Player:
    id: str
    seed: int  # 0 = top seed: online screlo descending, then registration order (e-SP 2.4)
    points: float = 0.0
    starts: list[bool] = field(default_factory=list)  # played games, round order; True = started
    byes: int = 0
    met: set[str] = field(default_factory=set)
    blocked: set[str] = field(default_factory=set)  # met or kept apart (`avoid`)
    order: int = 0  # place in the pairing order: points descending, then seed
    can_first: bool = True
    can_second: bool = True
    want: int = 0  # +1 wants to start, −1 wants to go second, 0 no wish
    strength: int = NONE
    # what starting / going second costs him (reaches ±limit, repeats his last side); None =
    # not allowed this round
    first_cost: tuple[int, int] | None = None
    second_cost: tuple[int, int] | None = None

    @property
    def balance(self) -> int:
        """Starts minus seconds over the games played so far."""
        return 2 * sum(self.starts) - len(self.starts)


def rating_of(entrant: Entrant, profile: Profile) -> float:
    """The seeding rating; a newcomer (no rating: None or NaN) is seeded at 1600 (e-SP 2.4)."""
    value = entrant.rating
    if value is None or value != value:  # NaN is the one value unequal to itself
        return profile.pairing.newcomer_rating
    return float(value)


def seeded(entrants: Sequence[Entrant], profile: Profile) -> list[Entrant]:
    """Seed order: rating descending; equal ratings keep the registration order (stable sort)."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"hráč {twice[0]!r} je v zozname hráčov viackrát")
    # `rating_of` of each, inline (this runs on every pairing), then a stable sort keyed in C
    newcomer = profile.pairing.newcomer_rating
    ratings = [newcomer if (r := e.rating) is None or r != r else float(r) for e in entrants]
    order = sorted(range(len(entrants)), key=ratings.__getitem__, reverse=True)
    return [entrants[k] for k in order]


def ordered_results(results: Iterable[Result], round_no: int) -> list[Result]:
    """Earlier rounds' results in round order; anything else is refused with a clear message."""
    ordered = sorted(results, key=_ROUND)
    # sorted by round: the range is checked where a round begins, a player twice inside one
    current: int | None = None
    seen: set[str | None] = set()
    for result in ordered:
        case = result.case
        number = case.round
        if number != current:
            if not 1 <= number < round_no:
                raise ValueError(
                    f"výsledok {case.first} – {case.second} má kolo {number}; pri párovaní "
                    f"{round_no}. kola sa berú len výsledky kôl 1 až {round_no - 1}"
                )
            current = number
            seen = {None}  # a bye's empty seat
        first, second = case.first, case.second
        if first in seen or second in seen or first == second:  # a player twice, or a bye
            twice = first if first in seen or first == second else second
            if twice is not None:
                raise ValueError(f"hráč {twice!r} má v {number}. kole viac výsledkov")
        seen.add(first)
        seen.add(second)
    return ordered


def build(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    avoid: Iterable[tuple[str, str]],
    profile: Profile,
) -> list[Player]:
    """The entrants as Players, in pairing order (points descending, then seed)."""
    players = {e.id: Player(e.id, seed) for seed, e in enumerate(seeded(entrants, profile))}
    get = players.get
    for result in results:
        # each seat spelled out (not case.players / opponent()): this loop runs for every
        # result of the event on every pairing
        case = result.case
        first, second = get(case.first), case.second
        if second is None:
            if first is not None:  # a missed round (ČAS 14.4) is no bye: it does not bar one
                first.points += result.first_points
                first.byes += case.end is End.BYE
            continue
        played = case.end not in UNPLAYED
        if first is not None:  # None: withdrawn or excluded, still a past opponent of others
            first.points += result.first_points
            first.met.add(second)
            if played:
                first.starts.append(True)
        other = get(second)
        if other is not None:
            other.points += result.second_points
            other.met.add(case.first)
            if played:
                other.starts.append(False)
    for a, b in avoid:
        for x, y in ((a, b), (b, a)):
            if x in players:
                players[x].blocked.add(y)
    # the dict is in seed order and the sort is stable (also reversed): points, then seed
    ranked = sorted(players.values(), key=_POINTS, reverse=True)
    # the start rules depend only on the balance and the last sides: worked out once per state
    keep = max(1, profile.pairing.max_same_in_a_row)
    states: dict[tuple[int, tuple[bool, ...]], StartState] = {}
    for order, player in enumerate(ranked):
        player.order = order
        # met or kept apart; without an `avoid` the met set itself (neither changes from here)
        player.blocked = player.met | player.blocked if player.blocked else player.met
        starts = player.starts
        key = (2 * sum(starts) - len(starts), tuple(starts[-keep:]))
        state = states.get(key)
        if state is None:
            state = states[key] = start_state(starts, profile)
        (player.can_first, player.can_second, player.want, player.strength,
         player.first_cost, player.second_cost) = state
    return ranked


def sides(starts: Sequence[bool], limit: int, run: int) -> tuple[bool, bool]:
    """(may start, may go second) next game after the played `starts` (SP 1.3, the profile's
    limit on starts − seconds and on the same side in a row)."""
    balance = 2 * sum(starts) - len(starts)
    last = starts[-run:] if run > 0 else []
    full_run = len(last) == run
    can_first = balance + 1 <= limit and not (full_run and all(last))
    can_second = balance - 1 >= -limit and not (full_run and not any(last))
    if not (can_first or can_second):
        # only a history that already broke the rule (a manual pairing) gets here: the side
        # that brings the balance back is the only one that does not make it worse
        can_first, can_second = balance < 0, balance >= 0
    return can_first, can_second


#: (may start, may go second, wish, its strength, cost of starting, of going second)
StartState = tuple[bool, bool, int, int, tuple[int, int] | None, tuple[int, int] | None]


def start_rules(player: Player, profile: Profile) -> None:
    """Which sides the player may take this round (SP 1.3) and which one he would rather."""
    (player.can_first, player.can_second, player.want, player.strength,
     player.first_cost, player.second_cost) = start_state(player.starts, profile)


def start_state(starts: Sequence[bool], profile: Profile) -> StartState:
    """The start rules after the played `starts`: the sides allowed, the wish and what each
    side costs (reaches ±limit, repeats his last side; None = not allowed)."""
    limit = profile.pairing.max_start_difference
    balance = 2 * sum(starts) - len(starts)
    can_first, can_second = sides(starts, limit, profile.pairing.max_same_in_a_row)
    want, strength = 0, NONE
    if can_first != can_second:
        want, strength = (1 if can_first else -1), ABSOLUTE
    elif balance:
        want, strength = (-1 if balance > 0 else 1), IMBALANCE
    elif starts:
        want, strength = (-1 if starts[-1] else 1), ALTERNATION
    costs = []
    for side, allowed in ((True, can_first), (False, can_second)):
        after = balance + (1 if side else -1)
        cost = (int(abs(after) >= limit > abs(balance)), int(bool(starts) and starts[-1] == side))
        costs.append(cost if allowed else None)
    return can_first, can_second, want, strength, costs[0], costs[1]


def legal(a: Player, b: Player) -> bool:
    """They may meet: never met, not kept apart, and one of them can start while the other
    goes second."""
    return b.id not in a.blocked and (
        (a.can_first and b.can_second) or (a.can_second and b.can_first)
    )


def start_cost(first: Player, second: Player) -> tuple[int, int] | None:
    """(players pushed to the start limit, players repeating their last side) when `first`
    starts against `second`; None when the rules forbid it."""
    a, b = first.first_cost, second.second_cost
    if a is None or b is None:
        return None
    return a[0] + b[0], a[1] + b[1]


def best_start_cost(a: Player, b: Player) -> tuple[int, int] | None:
    """The start cost of the better orientation of a pair; None = the pair is illegal."""
    costs = [c for c in (start_cost(a, b), start_cost(b, a)) if c is not None]
    return min(costs) if costs and b.id not in a.blocked else None


def orient(a: Player, b: Player, table: int, profile: Profile) -> tuple[Player, Player]:
    """(starts, goes second) for a legal pair; `a` is the higher-placed of the two.

    The orientation that pushes fewer players to the start limit, then repeats fewer last
    sides, wins; then the stronger wish; on equal wishes the higher-placed player gets his.
    Without any wish (round 1) the table decides: at odd tables the lower seed starts, at even
    tables the higher seed — so the top seed, at table 1, does not start (e-SP 2.4), and
    "player A" at odd tables is the lower seed as SP 2.1 asks of the live pairing program.
    """
    a_cost, b_cost = start_cost(a, b), start_cost(b, a)
    if a_cost is None or b_cost is None or a_cost != b_cost:
        a_first = b_cost is None or (a_cost is not None and a_cost < b_cost)
        return (a, b) if a_first else (b, a)
    if a.strength or b.strength:
        decider = a if a.strength >= b.strength else b
        other = b if decider is a else a
        return (decider, other) if decider.want > 0 else (other, decider)
    higher, lower = (a, b) if a.seed < b.seed else (b, a)
    higher_starts = (table % 2 == 0) != profile.pairing.top_seed_starts
    return (higher, lower) if higher_starts else (lower, higher)


def seat(pairs: Iterable[tuple[Player, Player]], profile: Profile) -> list[tuple[Player, Player]]:
    """(starts, goes second) per table: table 1 holds the highest-placed player."""
    ordered = sorted(pairs, key=lambda pair: min(pair[0].order, pair[1].order))
    tables = []
    for table, (a, b) in enumerate(ordered, start=1):
        high, low = (a, b) if a.order < b.order else (b, a)
        tables.append(orient(high, low, table, profile))
    return tables
