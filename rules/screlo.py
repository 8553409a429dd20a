"""Online screlo: RULES.md section 8. Which games feed it, the newcomer's 1600 and the decay:
e-SP 2.4, 5 (live: SP 1.3). The computation — the K table, the 50-game split, K across a band
boundary, the acceleration and the expected-result curve — is the association's published
"výpočet screla" method, not the competition rules; profiles cite it as `screlo.rule`.

One tournament is rated at once: every rated game's expected score comes from the two players'
ratings *before* the tournament, the change is K × (actual − expected), K by rating band and by
rated games before the tournament, applied proportionally when the change crosses a band
boundary, then accelerated for players with few games. The exact formulas and the choices made
where the published method is silent are in docs/decisions.md ("Online screlo").

Replaying a history is cheap: `rate` touches only the players of the tournament, and `replay`
threads one dict through a sequence of tournaments.

Events overlap (DESIGN.md 6b): each is rated from the ratings at its own start, and `compose`
adds its change to the registry as it stands when it finishes, so every finished event's change
counts once, whatever the order of finishes.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Mapping

from rules.model import Rating, Result
from rules.profile import Profile, ScreloRule


def expected(diff: float, profile: Profile) -> float:
    """Expected score of a player rated `diff` points above his opponent (RULES.md 8.1).

    From the profile's explicit table when it has one (the row with the largest difference not
    above |diff|), else from the curve ½(1 + erf(d / scale)) rounded to `probability_decimals`.
    Symmetric by construction: expected(-d) == 1 - expected(d).
    """
    return _expected(abs(diff), diff < 0, profile.screlo)


def _expected(distance: float, below: bool, rule: ScreloRule) -> float:
    if rule.table:
        rows = sorted(rule.table)
        index = bisect_right([row[0] for row in rows], distance) - 1
        p = rows[max(index, 0)][1]
    else:
        scale = 10**rule.probability_decimals
        p = math.floor(0.5 * (1 + math.erf(distance / rule.curve_scale)) * scale + 0.5) / scale
    return round(1 - p, 10) if below else p


def k_factor(rating: float, games_before: int, profile: Profile) -> float:
    """K for a rating and the rated games before the tournament (RULES.md 8.3)."""
    rule = profile.screlo
    ks = rule.k_few_games if games_before < rule.experienced_games else rule.k_many_games
    return ks[bisect_right(rule.k_bands, rating)]


def change(rating: float, games_before: int, surplus: float, profile: Profile) -> float:
    """Rating change for `surplus` = actual − expected points (RULES.md 8.2–8.4).

    Proportional K across band boundaries: the surplus is spent band by band. In a band with
    K_i, reaching the boundary at distance x costs x / K_i of the surplus; what is left is
    applied with the next band's K. E.g. 1780, 60 games, surplus +2: 20 points cost 1.0 at
    K 20, the other 1.0 goes at K 16 -> 1816.
    """
    rule = profile.screlo
    ks = rule.k_few_games if games_before < rule.experienced_games else rule.k_many_games
    bands = rule.k_bands
    value = rating
    band = bisect_right(bands, value)
    left = surplus
    while left:
        k = ks[band]
        step = k * left
        if left > 0 and band < len(bands) and value + step > bands[band]:
            left -= (bands[band] - value) / k
            value, band = float(bands[band]), band + 1
        elif left < 0 and band > 0 and value + step < bands[band - 1]:
            left -= (bands[band - 1] - value) / k
            # a rating exactly on the boundary belongs to the upper band: step just below it
            value, band = float(bands[band - 1]), band - 1
        else:
            value += step
            left = 0
    return value - rating


def accelerate(gain: float, games_before: int, games_now: int, profile: Profile) -> float:
    """RULES.md 8.5: fewer than 51 games before, gain above 5 × games now -> the excess again."""
    rule = profile.screlo
    threshold = rule.acceleration_per_game * games_now
    if games_before < rule.acceleration_below_games and gain > threshold:
        return gain + (gain - threshold)
    return gain


def rate(
    before: Mapping[str, Rating], results: Iterable[Result], profile: Profile
) -> dict[str, Rating]:
    """New ratings after one tournament for every player who appears in `results`.

    Only rated results between two players count (`result.rated`; byes and forfeits never);
    a player absent from `before` is a newcomer at `newcomer_rating` with 0 games. A player
    whose games were all unrated keeps his rating.
    """
    rule = profile.screlo
    newcomer = Rating(rule.newcomer_rating, 0)
    # player -> [expected sum, actual points, rated games]
    tally: dict[str, list[float]] = {}
    old: dict[str, Rating] = {}
    for result in results:
        case = result.case
        for player in case.players:
            if player not in tally:
                tally[player] = [0.0, 0.0, 0]
                old[player] = before.get(player, newcomer)
        if not result.rated or case.second is None:
            continue
        first, second = tally[case.first], tally[case.second]
        diff = old[case.first].value - old[case.second].value
        p = _expected(abs(diff), diff < 0, rule)
        first[0] += p
        second[0] += 1 - p
        first[1] += result.first_points
        second[1] += result.second_points
        first[2] += 1
        second[2] += 1
    new: dict[str, Rating] = {}
    for player, (exp, actual, games) in tally.items():
        start = old[player]
        if not games:
            new[player] = start
            continue
        delta = change(start.value, start.games, actual - exp, profile)
        delta = accelerate(delta, start.games, int(games), profile)
        new[player] = Rating(start.value + delta, start.games + int(games))
    return new


def decay(rating: Rating, inactive_seasons: int, profile: Profile) -> Rating:
    """e-SP 2.4: −50 per season without a qualifier, never below 1600; lower ones stay."""
    if inactive_seasons < 0:
        raise ValueError(f"počet sezón bez turnaja nemôže byť záporný ({inactive_seasons})")
    rule = profile.screlo
    if rating.value <= rule.decay_floor or not inactive_seasons:
        return rating
    lowered = rating.value - rule.decay_per_season * inactive_seasons
    return Rating(max(lowered, rule.decay_floor), rating.games)


def compose(current: Rating | None, start: Rating, after: Rating) -> Rating:
    """The registry after an event finishes: `current` (None: no online screlo yet) plus the
    event's own change `after − start`, value and rated games alike (RULES.md 8; DESIGN.md 6b).

    `start` is what the event rated the player from (his rating at its start, the newcomer's
    `Rating(1600, 0)` for one without); another event, a decay or the association's list may
    have changed the registry since — their changes stay, this event's is added. A player with
    no rating yet counts from the event's own start. With `current == start` this is `after`.
    """
    base = start if current is None else current
    if base == start:  # nothing else changed it: the event's own figures, not a float sum
        return after
    return Rating(base.value + (after.value - start.value), base.games + after.games - start.games)


def replay(
    tournaments: Iterable[Iterable[Result]],
    profile: Profile,
    start: Mapping[str, Rating] | None = None,
) -> dict[str, Rating]:
    """Rate tournaments one after another (oldest first); returns everyone's last rating."""
    ratings = dict(start or {})
    for results in tournaments:
        ratings.update(rate(ratings, results, profile))
    return ratings
