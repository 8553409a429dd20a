"""The season totals re-computed from plain data, the rules read afresh — this file imports
nothing of stredisko, so a test comparing it with rules.season compares two readings.

An event is a dict: {"name", "kind", "day", "places": [ids], "out": {ids}, "organizers": {ids}}.
Every total is a Fraction.
"""

from __future__ import annotations

from fractions import Fraction

# SP A3 7.1, as printed
A3 = [40, 35, 32, 30, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
      16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
# seed 003 gives 55 for the winner; the rest as the cas-duplicate-cup profile fills it in
CAS = [55, 50, 47, 45, 43, *range(42, 0, -1)]
MSR_KINDS = {"live-qt", "online-qt", "pairs", "m-version"}
# A5 9.1: slot kinds and coefficients, the best result first
CUP_SLOTS = {
    "live-qt": [1] * 6, "online-qt": [1], "pairs": [1], "m-version": [1], "written": [1],
    "internet": [1], "msr": [2], "msr-vykladacie": [2],
}


def points(event: dict, table: list[int]) -> dict[str, Fraction]:
    """Each placed player's points; out players 0, their place's points to nobody."""
    got = {}
    for i, player in enumerate(event["places"]):
        place = i + 1
        earned = table[place - 1] if place <= len(table) else 0
        got[player] = Fraction(0 if player in event["out"] else earned)
    return got


def msr_totals(events: list[dict]) -> dict[str, Fraction]:
    totals: dict[str, Fraction] = {}
    for e in events:
        for player, pts in points(e, A3).items():
            if e["kind"] in MSR_KINDS:
                totals[player] = totals.get(player, Fraction(0)) + pts
    return totals


def cup_totals(events: list[dict]) -> dict[str, Fraction]:
    # each (player, event): the points that stand for it
    results: dict[tuple[str, str], Fraction] = {}
    kind = {e["name"]: e["kind"] for e in events}
    for e in events:
        for player, pts in points(e, A3).items():
            results[(player, e["name"])] = pts
    # A5 9.1: an organiser of a written or internet event gets his 4th best live result for it;
    # if he also played it, the better of the two (fewer than four live results: no credit)
    live: dict[str, list[Fraction]] = {}
    for e in events:
        if e["kind"] == "live-qt":
            for player, pts in points(e, A3).items():
                live.setdefault(player, []).append(pts)
    for e in events:
        if e["kind"] in ("written", "internet"):
            for organizer in e["organizers"]:
                mine = sorted(live.get(organizer, []), reverse=True)
                if len(mine) >= 4:
                    key = (organizer, e["name"])
                    results[key] = max(results.get(key, Fraction(0)), mine[3])
    totals = {player: Fraction(0) for player, _ in results}
    for player in totals:
        for slot, coefficients in CUP_SLOTS.items():
            mine = sorted((pts for (p, ev), pts in results.items()
                           if p == player and kind[ev] == slot), reverse=True)
            totals[player] += sum(c * x for c, x in zip(coefficients, mine, strict=False))
    return totals


def cas_totals(events: list[dict], kind: str) -> dict[str, Fraction]:
    """Best four of one ČAS ladder; an organiser gets, once, for his first event (by day,
    then name), the average of the events of that ladder he played and did not organise,
    when there are at least three (the better of it and his own place there, if any)."""
    mine = sorted((e for e in events if e["kind"] == kind), key=lambda e: (e["day"], e["name"]))
    results: dict[tuple[str, str], Fraction] = {}
    for e in mine:
        for player, pts in points(e, CAS).items():
            results[(player, e["name"])] = pts
    organisers = {o for e in mine for o in e["organizers"]}
    for organizer in organisers:
        organised = [e["name"] for e in mine if organizer in e["organizers"]]
        other = [pts for (p, ev), pts in results.items() if p == organizer and ev not in organised]
        if len(other) >= 3:
            key = (organizer, organised[0])
            average = sum(other, Fraction(0)) / len(other)
            results[key] = max(results.get(key, Fraction(0)), average)
    totals = {player: Fraction(0) for player, _ in results}
    for player in totals:
        best = sorted((pts for (p, _), pts in results.items() if p == player), reverse=True)
        totals[player] = sum(best[:4], Fraction(0))
    return totals
