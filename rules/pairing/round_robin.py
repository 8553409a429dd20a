"""Round robin (SP 1.3): Berger tables, with starts flipped so the top seed does not start.

Positions 1..N (N even; an odd field adds a dummy at N whose opponent has the bye). In round r
positions i, j < N meet when i + j ≡ r + 1 (mod N − 1); the position with i + i ≡ r + 1 meets N.
In the Berger table the lower number has "white" when i + j is odd, the higher when it is even,
and N has white in even rounds. Here "white" goes second, so in round 1 (1–N, 2–(N−1), …)
every lower seed starts and the top seed does not (e-SP 2.4). Such a table meets every pair
once and keeps starts within ±1 with at most two in a row (checked for N up to 24 in tests).

Later rounds must continue the same table, but a withdrawn player is no longer an entrant and
his seed is unknown. So the positions are recovered from the games already played: a small
search assigns positions to all players (withdrawn ones included) so that every earlier round
is exactly that round of the table. The seed-order labelling is tried first, so without
withdrawals it is found at once. A withdrawn player keeps his place; whoever the table pairs
him with gets the bye that round.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.pairing.errors import PairingError

DUMMY = "\x00dummy"  # the extra position of an odd field (never a player id in practice)


def berger_round(size: int, round_no: int) -> list[tuple[int, int]]:
    """Round `round_no` of the Berger table for `size` (even) positions: (white, black)."""
    m = size - 1
    pairs: list[tuple[int, int]] = []
    done: set[int] = set()
    for i in range(1, size):
        if i in done:
            continue
        j = (round_no + 1 - i) % m or m
        if j == i:
            pairs.append((size, i) if round_no % 2 == 0 else (i, size))
            done.add(i)
        else:
            lo, hi = min(i, j), max(i, j)
            pairs.append((lo, hi) if (lo + hi) % 2 else (hi, lo))
            done |= {i, j}
    return pairs


def opponents(size: int, round_no: int) -> dict[int, int]:
    table: dict[int, int] = {}
    for white, black in berger_round(size, round_no):
        table[white], table[black] = black, white
    return table


def schedule(
    roster: Sequence[str],
    games: dict[int, dict[str, str | None]],
    round_no: int,
) -> list[tuple[str, str]]:
    """Round `round_no` as (starts, goes second) pairs of roster ids (DUMMY included).

    `roster`: every player of the event, present ones in seed order first; `games`: for each
    earlier round, player -> opponent (None = no opponent that round).
    """
    nodes = list(roster) + ([DUMMY] if len(roster) % 2 else [])
    size = len(nodes)
    if round_no > size - 1:
        raise PairingError(
            f"SP 1.3: každý s každým pre {len(roster)} hráčov má len {size - 1} kôl; "
            f"{round_no}. kolo nemá rozpis"
        )
    tables = {r: opponents(size, r) for r in range(1, round_no + 1)}
    places = _label(nodes, games, tables, round_no)
    if places is None:
        raise PairingError(
            "SP 1.3: doterajšie kolá nezodpovedajú žiadnemu rozpisu každý s každým "
            "(Bergerove tabuľky); kolo treba spárovať ručne"
        )
    at = {pos: node for node, pos in places.items()}
    return [(at[black], at[white]) for white, black in berger_round(size, round_no)]


def _label(
    nodes: list[str],
    games: dict[int, dict[str, str | None]],
    tables: dict[int, dict[int, int]],
    round_no: int,
) -> dict[str, int] | None:
    """Positions for all nodes consistent with every earlier round, or None."""
    size = len(nodes)
    played = {r: g for r, g in games.items() if r < round_no}

    def propagate(place: dict[str, int], start: str) -> bool:
        queue = [start]
        while queue:
            node = queue.pop()
            for r, rnd in played.items():
                other = rnd.get(node)
                if other is None:
                    continue
                want = tables[r][place[node]]
                if other in place:
                    if place[other] != want:
                        return False
                elif want in place.values():
                    return False
                else:
                    place[other] = want
                    queue.append(other)
        return True

    def consistent(place: dict[str, int]) -> bool:
        # two players who both have a record in a round but no game between them must not be
        # table opponents that round (they would then never meet)
        at = {pos: node for node, pos in place.items()}
        for r, rnd in played.items():
            for node, other in rnd.items():
                if other is None and rnd.get(at[tables[r][place[node]]], "") is None:
                    return False
        return True

    def search(place: dict[str, int]) -> dict[str, int] | None:
        todo = next((n for n in nodes if n not in place), None)
        if todo is None:
            return place if consistent(place) else None
        taken = set(place.values())
        for pos in range(1, size + 1):
            if pos in taken:
                continue
            trial = dict(place)
            trial[todo] = pos
            if propagate(trial, todo):
                found = search(trial)
                if found is not None:
                    return found
        return None

    return search({})
