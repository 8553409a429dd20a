"""Exclusion thresholds: e-SP 3.6 (RULES.md section 5).

A player is excluded when (a) `no_move_or_resigned` of his games were forfeited against him
while he made no move, or resigned by him — both kinds counted together — or (b) `any_forfeit`
of his games were forfeited against him for any reason. "Forfeited against him" is the
`forfeited` set `score` wrote (rows 4, 5, 6, 7, 10, 11 online); a time loss is never counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.model import Case, End, Exclusion, Result
from rules.profile import Profile
from rules.scoring import END_NAMES_SK

_CLAUSES_SK = {  # after the count: "2 partie ..."; read by the player too, whatever the gender
    "a": "prehraté kontumačne bez vlastného ťahu alebo vzdané",
    "b": "prehraté kontumačne z akéhokoľvek dôvodu",
}


def exclusions(results: Iterable[Result], profile: Profile,
               names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Excluded players -> the reason, citing e-SP 3.6 and naming the games."""
    return {e.player: e.reason for e in exclusion_details(results, profile, names)}


def exclusion_details(results: Iterable[Result], profile: Profile,
                      names: Mapping[str, str] | None = None) -> list[Exclusion]:
    """One `Exclusion` per excluded player, in the order the players were excluded, with the
    games that triggered it (the first ones reaching the threshold). `names` (player id ->
    name) is how the reason names the opponents; ids where absent.

    Games are taken in round order (round 0 = unknown comes first, otherwise input order). When
    both clauses apply, the one whose threshold was reached first is reported (a on a tie).
    """
    rule = profile.exclusion
    thresholds = {"a": rule.no_move_or_resigned, "b": rule.any_forfeit}
    ordered = sorted(results, key=lambda r: r.case.round)
    counted: dict[str, dict[str, list[int]]] = {}
    for index, result in enumerate(ordered):
        case = result.case
        for player in case.players:
            forfeited = player in result.forfeited
            resigned = rule.resignations_count and _resigned(case, player)
            if not (forfeited or resigned):
                continue
            clauses = counted.setdefault(player, {"a": [], "b": []})
            if resigned or player not in case.moved:
                clauses["a"].append(index)
            if forfeited:
                clauses["b"].append(index)
    found: list[tuple[int, str, Exclusion]] = []
    for player, clauses in counted.items():
        # (index of the game that reached the threshold, clause) for each clause reached
        reached = [
            (games[limit - 1], clause)
            for clause, games in clauses.items()
            if (limit := thresholds[clause]) > 0 and len(games) >= limit
        ]
        if not reached:
            continue
        at, clause = min(reached)
        # the games that triggered it: up to the one that reached the threshold
        games = tuple(ordered[i] for i in clauses[clause][: thresholds[clause]])
        found.append((at, player, _exclusion(player, clause, games, profile, names or {})))
    found.sort(key=lambda item: (item[0], item[1]))
    return [exclusion for _, _, exclusion in found]


def _resigned(case: Case, player: str) -> bool:
    return case.end == End.RESIGNED and case.loser == player


def _exclusion(player: str, clause: str, games: tuple[Result, ...], profile: Profile,
               names: Mapping[str, str]) -> Exclusion:
    named = ", ".join(_describe(result, player, names) for result in games)
    n = len(games)
    count = f"{n} partie" if n < 5 else f"{n} partií"  # Slovak plural after 2–4 and 5+
    reason = f"{profile.exclusion.rule} {clause}): {count} {_CLAUSES_SK[clause]} ({named})"
    return Exclusion(player=player, clause=clause, games=games, reason=reason)


def _describe(result: Result, player: str, names: Mapping[str, str]) -> str:
    case = result.case
    opponent = case.opponent(player)
    shown = "—" if opponent is None else names.get(opponent, opponent)
    what = f"{END_NAMES_SK[End(case.end)]}, súper {shown}"
    return f"{case.round}. kolo: {what}" if case.round else what
