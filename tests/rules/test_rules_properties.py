"""Property tests (hypothesis) for scoring, exclusion and standings: invariants that must hold
for every case the rules allow (DESIGN.md section 6)."""

from __future__ import annotations

import functools
import random

from hypothesis import given
from hypothesis import strategies as st

from rules import Case, End, Profile, Result, exclusions, score, standings

PROFILES = {name: Profile.load(name) for name in ("sss-online", "sss-live", "cas")}
SSS = ("sss-online", "sss-live")
SCORE = st.integers(min_value=0, max_value=700)


# Strategies are built once per their arguments (issue 21.3): one built in each example is
# validated again in each, which took much of these tests' time.
SAVE_FAILED_AS = st.sampled_from(("agreed", "winner", "none"))
PROFILE_NAMES = st.sampled_from(sorted(PROFILES))


@functools.cache
def valid_case(name: str, a: str = "A", b: str = "B", rnd: int = 0) -> st.SearchStrategy[Case]:
    """Any case the profile `name` accepts for players `a` (starts) and `b`."""
    pair = (a, b)
    return _valid_case(pair, rnd, st.sampled_from(PROFILES[name].ends),
                       st.frozensets(st.sampled_from(pair)), st.sampled_from(pair))


@st.composite
def _valid_case(draw: st.DrawFn, pair: tuple[str, str], rnd: int,
                ends: st.SearchStrategy[str], movers: st.SearchStrategy[frozenset[str]],
                players: st.SearchStrategy[str]) -> Case:
    a, b = pair
    end = End(draw(ends))
    moved = draw(movers)
    if end is End.BYE:
        return Case(end, a, None, moved=moved & {a}, round=rnd)
    if end is End.MISSED_ROUND:  # ČAS 14.4: one player, nobody moved
        return Case(end, a, None, round=rnd)
    if end is End.BOTH_NO_SHOW:
        return Case(end, a, b, round=rnd)
    loser = draw(players)
    if end is End.NO_SHOW:
        return Case(end, a, b, loser=loser, moved=moved - {loser}, round=rnd)
    s1, s2 = draw(SCORE), draw(SCORE)
    if end in (End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED):
        return Case(end, a, b, s1, s2, loser=loser, moved=moved, round=rnd)
    if end is End.SAVE_FAILED:
        kind = draw(SAVE_FAILED_AS)
        if kind == "agreed":
            return Case(end, a, b, s1, s2, agreed=True, moved=moved, round=rnd)
        winner = loser if kind == "winner" else None
        return Case(end, a, b, winner=winner, moved=moved, round=rnd)
    return Case(end, a, b, s1, s2, moved=moved, round=rnd)  # finished, over limit, draw


@given(st.data(), st.sampled_from(SSS))
def test_sss_points_of_a_game_sum_to_1_or_0(data: st.DataObject, name: str) -> None:
    profile = PROFILES[name]
    result = score(data.draw(valid_case(name)), profile)
    assert result.first_points + result.second_points in (0.0, 1.0)
    assert {result.first_points, result.second_points} <= {0.0, 0.5, 1.0}


@given(st.data(), PROFILE_NAMES)
def test_scoring_never_writes_a_negative_score(data: st.DataObject, name: str) -> None:
    profile = PROFILES[name]
    case = data.draw(valid_case(name))
    result = score(case, profile)
    assert result.first_score >= 0 and result.second_score >= 0
    assert result.forfeited <= set(case.players)
    assert result.rule  # every result cites its rule
    assert not (result.rated and case.second is None)


@given(st.data())
def test_online_disconnection_always_leaves_a_lead_of_the_margin(data: st.DataObject) -> None:
    profile = PROFILES["sss-online"]
    loser = data.draw(st.sampled_from("AB"))
    case = Case(End.DISCONNECTED, "A", "B", data.draw(SCORE), data.draw(SCORE), loser=loser)
    result = score(case, profile)
    won, lost = result.score_of(case.opponent(loser) or ""), result.score_of(loser)
    assert won - lost >= profile.disconnect.margin
    assert lost == (case.first_score if loser == "A" else case.second_score)  # loser's kept


ANY_TEXT = st.sampled_from(["A", "B", "C", ""])


@given(
    end=st.sampled_from([*End, "walkover"]),
    first=ANY_TEXT,
    second=st.one_of(st.none(), ANY_TEXT),
    first_score=st.one_of(st.integers(-50, 500), st.floats(0, 10), st.booleans()),
    second_score=st.integers(-50, 500),
    loser=st.one_of(st.none(), ANY_TEXT),
    winner=st.one_of(st.none(), ANY_TEXT),
    moved=st.frozensets(ANY_TEXT),
    agreed=st.booleans(),
    name=st.sampled_from(sorted(PROFILES)),
)
def test_any_case_is_either_scored_sanely_or_refused_with_value_error(
    end: End | str,
    first: str,
    second: str | None,
    first_score: int,
    second_score: int,
    loser: str | None,
    winner: str | None,
    moved: frozenset[str],
    agreed: bool,
    name: str,
) -> None:
    case = Case(end, first, second, first_score, second_score, loser, winner, moved, agreed)  # type: ignore[arg-type]
    try:
        result = score(case, PROFILES[name])
    except ValueError:
        return
    assert result.first_score >= 0 and result.second_score >= 0
    assert result.forfeited <= set(case.players)
    if case.loser is not None:  # whoever the game ended on never gets the point
        assert result.points_of(case.loser) == PROFILES[name].points.loss


@functools.cache
def a_game(name: str, a: str, b: str, rnd: int) -> st.SearchStrategy[Case]:
    """A game of two players at a table (not a bye)."""
    return valid_case(name, a, b, rnd).filter(lambda c: c.second)


@st.composite
def tournament(draw: st.DrawFn) -> tuple[Profile, list[str], list[Result], dict[str, str], bool]:
    name = draw(PROFILE_NAMES)
    profile = PROFILES[name]
    players = [f"p{i}" for i in range(draw(st.integers(1, 11)))]
    rng = random.Random(draw(st.integers(0, 2**32)))
    results = []
    for rnd in range(1, draw(st.integers(0, 5)) + 1):
        order = players[:]
        rng.shuffle(order)
        if len(order) % 2:
            bye = order.pop()
            results.append(score(Case(End.BYE, bye, None, round=rnd), profile))
        for k in range(0, len(order), 2):
            case = draw(a_game(name, order[k], order[k + 1], rnd))
            results.append(score(case, profile))
    out = {p: "odstúpil" for p in draw(st.lists(st.sampled_from(players), unique=True))}
    return profile, players, results, out, draw(st.booleans())


@given(tournament())
def test_standings_are_a_total_order_by_the_profile_criteria(
    t: tuple[Profile, list[str], list[Result], dict[str, str], bool],
) -> None:
    profile, players, results, out, round_robin = t
    lines = standings(players, results, profile, out=out, round_robin=round_robin)
    assert sorted(s.player for s in lines) == sorted(players)  # a permutation
    assert [s.rank for s in lines] == list(range(1, len(players) + 1))
    rule = profile.standings
    criteria = rule.round_robin_tiebreaks if round_robin else rule.tiebreaks
    keys = [tuple(getattr(s, c) for c in criteria) for s in lines]
    seed = {p: i for i, p in enumerate(players)}
    for i in range(1, len(lines)):
        assert keys[i - 1] >= keys[i]  # non-increasing, criterion by criterion
        if keys[i - 1] == keys[i]:  # a full tie: seed order, both marked
            assert seed[lines[i - 1].player] < seed[lines[i].player]
            assert lines[i - 1].tied and lines[i].tied
    table = profile.qualification.table
    for s in lines:
        earned = table[s.rank - 1] if s.rank <= len(table) else 0
        assert s.qualification_points == (0 if s.player in out else earned)
        assert s.games == sum(1 for r in results if s.player in r.case.players)
    assert sum(s.points for s in lines) == sum(r.first_points + r.second_points for r in results)


@given(tournament())
def test_exclusion_reasons_cite_the_rule(
    t: tuple[Profile, list[str], list[Result], dict[str, str], bool],
) -> None:
    profile, players, results, _, _ = t
    rule = profile.exclusion
    least = min((t for t in (rule.no_move_or_resigned, rule.any_forfeit) if t), default=None)
    for player, reason in exclusions(results, profile).items():
        assert player in players and least is not None
        assert reason.startswith(rule.rule)
        against = [
            r for r in results
            if player in r.forfeited or (r.case.end == End.RESIGNED and r.case.loser == player)
        ]  # fmt: skip
        assert len(against) >= least
