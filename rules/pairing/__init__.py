"""Pairing: e-SP 2.4, SP 1.3 (RULES.md section 1).

`pair_round` pairs one round from the entrants still in the event and all results so far:
- seeding by online screlo (newcomers 1600), equal ratings in registration order;
- round robin (Berger tables) when the event's format says so (`is_round_robin`: online only
  by the propozície, e-SP 2.4; live SP 1.3: at most rounds + `round_robin_extra` players);
- otherwise Swiss: equal points meet where possible, nobody meets twice, starts balanced
  (difference at most 2, never three in a row), one bye for an odd field, to the lowest-placed
  player without one;
- round 1: the top seed does not start; at odd tables the lower seed starts, at even tables the
  higher seed.
A request no pairing can satisfy raises `PairingError` naming the conflict; malformed input
raises ValueError. Why this design and not an existing engine: docs/decisions.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.collector import collector_paused
from rules.model import Entrant, Pairing, Result
from rules.pairing.errors import PairingError
from rules.pairing.lookahead import completable_pairing
from rules.pairing.players import Player, build, legal, ordered_results, seat
from rules.pairing.round_robin import schedule
from rules.profile import Profile

__all__ = ["PairingError", "is_round_robin", "pair_round"]


def is_round_robin(
    players: int, rounds: int, profile: Profile, event_format: str | None = None
) -> bool:
    """Whether the event is a round robin. `event_format` is the propozície's choice
    ("swiss" | "round-robin"); None = the profile's `pairing.format` (sss-online: "swiss",
    e-SP 2.4). "by-size" is SP 1.3: at most rounds + `round_robin_extra` players."""
    fmt = event_format or profile.pairing.format
    if fmt == "round-robin":
        return True
    if fmt == "swiss":
        return False
    if fmt != "by-size":
        raise ValueError(f"neznámy formát turnaja {fmt!r} (swiss, round-robin, by-size)")
    extra = profile.pairing.round_robin_extra
    return extra >= 0 and players <= rounds + extra


def pair_round(
    entrants: Sequence[Entrant],
    results: Iterable[Result],
    round_no: int,
    rounds: int,
    profile: Profile,
    *,
    avoid: Iterable[tuple[str, str]] = (),
    event_format: str | None = None,
) -> list[Pairing]:
    """The pairing of round `round_no`; `first` starts, `second` None is the bye.

    `entrants`: the players still in the event, in registration order (withdrawn and excluded
    players are left out; their past games still count). `results`: every result of the
    earlier rounds, each with `case.round`. `avoid`: pairs that must not meet this round.
    `event_format`: the propozície's format, None = the profile's (`is_round_robin`).
    """
    if not 1 <= round_no <= rounds:
        raise ValueError(f"kolo {round_no} nie je medzi 1 a {rounds}")
    return _pair_round(entrants, results, round_no, rounds, profile, avoid, event_format)


@collector_paused  # many short-lived objects, no cycle (rules/collector.py)
def _pair_round(
    entrants: Sequence[Entrant],
    results: Iterable[Result],
    round_no: int,
    rounds: int,
    profile: Profile,
    avoid: Iterable[tuple[str, str]],
    event_format: str | None,
) -> list[Pairing]:
    history = ordered_results(results, round_no)
    avoid = [tuple(pair) for pair in avoid]
    players = build(entrants, history, avoid, profile)
    if (event_format or profile.pairing.format) == "swiss":  # whatever the field's size
        return _swiss(players, round_no, rounds, profile)
    roster = [p.id for p in sorted(players, key=lambda p: p.seed)]
    past = {r.case.first for r in history}
    past |= {r.case.second for r in history if r.case.second is not None}
    roster += sorted(past - set(roster))
    if is_round_robin(len(roster), rounds, profile, event_format):
        return _round_robin(players, roster, history, round_no, profile)
    return _swiss(players, round_no, rounds, profile)


def _swiss(players: list[Player], round_no: int, rounds: int, profile: Profile) -> list[Pairing]:
    """The optimal legal pairing (matching.py) that, in small fields, keeps the remaining
    rounds pairable when any does (lookahead.py)."""
    candidates = [p for p in reversed(players) if p.byes == 0]
    if len(players) % 2 and not candidates:
        raise PairingError(f"e-SP 4.9: kolo {round_no} potrebuje voľno, ale každý hráč ho už mal")
    found = completable_pairing(players, candidates, rounds - round_no, profile)
    if found is None:
        raise PairingError(_conflict(players, round_no, odd=len(players) % 2 == 1))
    return _tables(found.seating or seat(found.pairs, profile), found.bye)


def _tables(seating: list[tuple[Player, Player]], bye: Player | None) -> list[Pairing]:
    """Table 1 holds the highest-placed player; the bye comes last."""
    tables = [
        Pairing(table, first.id, second.id)
        for table, (first, second) in enumerate(seating, start=1)
    ]
    if bye is not None:
        tables.append(Pairing(len(tables) + 1, bye.id, None))
    return tables


def _conflict(players: list[Player], round_no: int, *, odd: bool) -> str:
    """Name what makes the round impossible, as precisely as the cheap checks allow."""
    head = f"e-SP 2.4, SP 1.3: {round_no}. kolo sa nedá spárovať"
    lonely = [p for p in players if not any(legal(p, q) for q in players if q is not p)]
    if lonely:
        parts = [_why_alone(p, players) for p in lonely[:5]]
        return f"{head}: " + "; ".join(parts)
    names = ", ".join(p.id for p in players)
    bye = " a dať voľno hráčovi, ktorý ho ešte nemal" if odd else ""
    return (
        f"{head}: hráčov {names} nemožno rozdeliť do dvojíc tak, aby sa nikto nestretol "
        f"druhýkrát, začínanie zostalo vyvážené a oddelené dvojice sa nestretli{bye}"
    )


def _why_alone(p: Player, players: list[Player]) -> str:
    others = [q for q in players if q is not p]
    met = sum(q.id in p.met for q in others)
    kept = sum(q.id in p.blocked and q.id not in p.met for q in others)
    starts = len(others) - met - kept
    side = "musí začínať" if not p.can_second else "nesmie začínať" if not p.can_first else ""
    reasons = [f"s {met} už hral"] if met else []
    if kept:
        reasons.append(f"s {kept} sa stretnúť nesmie (oddelené dvojice)")
    if starts:
        reasons.append(f"{starts} by porušilo striedanie začínania ({side or 'obaja'})")
    return f"hráč {p.id} nemá súpera – " + ", ".join(reasons)


def _round_robin(
    players: list[Player],
    roster: list[str],
    history: list[Result],
    round_no: int,
    profile: Profile,
) -> list[Pairing]:
    games: dict[int, dict[str, str | None]] = {}
    for result in history:
        case = result.case
        rnd = games.setdefault(case.round, {})
        for pid in case.players:
            rnd[pid] = case.opponent(pid)
    by_id = {p.id: p for p in players}
    made: list[tuple[int, Pairing]] = []
    seed_of = {pid: i for i, pid in enumerate(roster)}
    for first, second in schedule(roster, games, round_no):
        a, b = by_id.get(first), by_id.get(second)
        if a is None and b is None:
            continue
        if a is None or b is None:  # the dummy or a withdrawn player: a bye
            alone = a or b
            made.append((len(roster) + seed_of[alone.id], Pairing(0, alone.id, None)))
            continue
        if b.id in a.blocked:
            why = "už spolu hrali" if b.id in a.met else "sa nesmú stretnúť (oddelené dvojice)"
            raise PairingError(
                f"SP 1.3: rozpis každý s každým páruje v {round_no}. kole hráčov {a.id} a "
                f"{b.id}, ktorí {why}"
            )
        if _worse_start(a, b, profile) > _worse_start(b, a, profile):
            a, b = b, a  # only after a withdrawal can the table's start break the balance
        made.append((min(seed_of[a.id], seed_of[b.id]), Pairing(0, a.id, b.id)))
    made.sort(key=lambda item: item[0])
    return [Pairing(t, p.first, p.second) for t, (_, p) in enumerate(made, start=1)]



def _worse_start(first: Player, second: Player, profile: Profile) -> tuple[int, int]:
    """How far an orientation breaks SP 1.3: (start difference over the limit, runs broken).

    The Berger table keeps every start rule; only a free round left by a withdrawn opponent
    can shift a player's sequence so that neither orientation of a scheduled pair keeps all of
    them. The table is then kept and the orientation breaking less is taken (docs/decisions.md,
    "Round robin after a withdrawal").
    """
    over = 0
    runs = 0
    limit = profile.pairing.max_start_difference
    for player, starts in ((first, True), (second, False)):
        over += max(0, abs(player.balance + (1 if starts else -1)) - limit)
        runs += not (player.can_first if starts else player.can_second)
    return over, runs
