"""Scoring one pairing: RULES.md section 2 (e-SP 3.5, 4.3–4.9).

`score(case, profile)` turns what happened at a table into tournament points, the scores to
write, who the game was forfeited against, whether it is rated, and the rule it rests on. Every
number comes from the profile. A case that contradicts itself raises `ValueError` naming the
field: a wrong result must never be produced silently.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.model import ALONE, ENDS_WITH_LOSER, Case, End, Result
from rules.profile import Profile


def score(case: Case, profile: Profile) -> Result:
    """Score `case` under `profile` (one row of RULES.md section 2)."""
    end = _check(case, profile)
    return _SCORERS[end](case, profile)


# --- validation -----------------------------------------------------------------------------


class CaseError(ValueError):
    """A case that contradicts itself. `str()` names the field in English (for developers and
    logs); `code` and `params` let an adapter say it in the reader's language."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def _check(case: Case, profile: Profile) -> End:
    try:
        end = End(case.end)
    except ValueError:
        raise CaseError("end_unknown", f"end: unknown end {case.end!r}", end=case.end) from None
    if end.value not in profile.ends:
        raise CaseError(
            "end_not_in_profile",
            f"end: {end.value!r} does not exist under profile {profile.name!r} "
            f"(its ends: {', '.join(profile.ends)})",
            end=end.value, profile=profile.name, ends=", ".join(profile.ends),
        )
    if not isinstance(case.first, str) or not case.first:
        raise CaseError("first_missing", "first: a player id (non-empty string) is required")
    if end in ALONE:
        if case.second is not None:
            what = "a bye" if end is End.BYE else "a missed round"
            raise CaseError("second_alone",
                            f"second: {what} has no opponent, second must be None", end=end.value)
    elif not isinstance(case.second, str) or not case.second:
        raise CaseError("second_missing",
                        f"second: {end.value} needs an opponent (only a bye has none)",
                        end=end.value)
    if case.first == case.second:
        raise CaseError("second_self", f"second: {case.first!r} cannot play against himself",
                        player=case.first)
    for name in ("first_score", "second_score", "round"):
        value = getattr(case, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise CaseError("not_integer", f"{name}: expected an integer, got {value!r}",
                            field=name, value=value)
        if value < 0:
            raise CaseError("negative", f"{name}: must not be negative, got {value}",
                            field=name, value=value)
    players = case.players
    strangers = sorted(set(case.moved) - set(players))
    if strangers:
        raise CaseError("moved_stranger", f"moved: {strangers[0]!r} did not play in this game",
                        player=strangers[0])
    _check_loser_winner(case, end, players)
    _check_facts(case, end)
    return end


def _check_loser_winner(case: Case, end: End, players: tuple[str, ...]) -> None:
    if end in ENDS_WITH_LOSER:
        if case.loser is None:
            raise CaseError("loser_missing", f"loser: {end.value} needs the player it ended on",
                            end=end.value)
        if case.loser not in players:
            raise CaseError("loser_stranger", f"loser: {case.loser!r} did not play in this game",
                            player=case.loser)
    elif case.loser is not None:
        raise CaseError("loser_none", f"loser: {end.value} has no loser (got {case.loser!r})",
                        end=end.value, player=case.loser)
    if end is not End.SAVE_FAILED:
        if case.winner is not None:
            raise CaseError(
                "winner_only_save_failed",
                f"winner: only save_failed takes a winner (end is {end.value})", end=end.value)
        if case.agreed:
            raise CaseError(
                "agreed_only_save_failed",
                f"agreed: only save_failed takes agreed (end is {end.value})", end=end.value)
    elif case.winner is not None and case.winner not in players:
        raise CaseError("winner_stranger", f"winner: {case.winner!r} did not play in this game",
                        player=case.winner)


def _check_facts(case: Case, end: End) -> None:
    """Facts that cannot go together with this end."""
    has_scores = case.first_score != 0 or case.second_score != 0
    if end in (End.NO_SHOW, End.BOTH_NO_SHOW, *ALONE) and has_scores:
        raise CaseError(
            "scores_without_game",
            f"first_score/second_score: no game was played ({end.value}), must be 0",
            end=end.value)
    if end is End.NO_SHOW and case.loser in case.moved:
        raise CaseError(
            "moved_no_show", f"moved: {case.loser!r} made a move, so he did not fail to show up",
            player=case.loser)
    if end is End.MISSED_ROUND and case.moved:
        raise CaseError("moved_missed_round",
                        "moved: a missed round (ČAS 14.4) was not played, nobody moved")
    if end is End.BOTH_NO_SHOW and case.moved:
        raise CaseError("moved_both_no_show",
                        "moved: nobody came (both_no_show), so nobody can have moved")
    if end is End.SAVE_FAILED:
        if not case.agreed and has_scores:
            raise CaseError("scores_not_agreed",
                            "first_score/second_score: used only when agreed=True (row 9)")
        if case.agreed and case.winner is not None:
            by_score = _higher(case)
            if by_score != case.winner:
                raise CaseError(
                    "winner_contradicts_score",
                    f"winner: {case.winner!r} contradicts the agreed score "
                    f"{case.first_score}:{case.second_score}",
                    player=case.winner, first_score=case.first_score,
                    second_score=case.second_score)


# --- the rows of RULES.md section 2 -------------------------------------------------------------


def _higher(case: Case) -> str | None:
    """The player with the higher score; None on equal scores."""
    if case.first_score == case.second_score:
        return None
    return case.first if case.first_score > case.second_score else case.second


def _result(
    case: Case,
    profile: Profile,
    points: tuple[float, float],
    scores: tuple[int, int],
    forfeited: frozenset[str],
    rule: str,
) -> Result:
    return Result(
        case=case,
        first_points=points[0],
        second_points=points[1],
        first_score=scores[0],
        second_score=scores[1],
        forfeited=forfeited,
        rated=_rated(case, profile),
        rule=rule,
    )


def _won(
    case: Case,
    profile: Profile,
    winner: str,
    scores: tuple[int, int],
    rule: str,
    forfeited: frozenset[str] = frozenset(),
) -> Result:
    """`winner` gets the win; `scores` are (winner's, loser's)."""
    win, loss = profile.points.win, profile.points.loss
    if winner == case.first:
        return _result(case, profile, (win, loss), scores, forfeited, rule)
    return _result(case, profile, (loss, win), (scores[1], scores[0]), forfeited, rule)


def _by_score(case: Case, profile: Profile, rule: str) -> Result:
    """Rows 1, 9, 13: points by the score, the score as played (or as agreed)."""
    winner = _higher(case)
    scores = (case.first_score, case.second_score)
    if winner is None:
        draw = profile.points.draw
        return _result(case, profile, (draw, draw), scores, frozenset(), rule)
    won = scores if winner == case.first else scores[::-1]
    return _won(case, profile, winner, won, rule)


def _both_forfeited(case: Case, profile: Profile, written: int, rule: str) -> Result:
    """Rows 6, 7, 11: nobody gets a point, `written`:`written`, forfeited against both."""
    loss = profile.points.loss
    return _result(case, profile, (loss, loss), (written, written), frozenset(case.players), rule)


def _current(case: Case, loser: str) -> tuple[int, int]:
    """(winner's, loser's) score at the moment the game ended."""
    if loser == case.first:
        return case.second_score, case.first_score
    return case.first_score, case.second_score


def _forfeit_scores(mode: str, current: tuple[int, int], profile: Profile) -> tuple[int, int]:
    """(winner's, loser's) score of a one-sided forfeit of a started game."""
    forfeit = (profile.no_show.winner_score, profile.no_show.loser_score)
    if mode == "forfeit_or_current":
        # ČAS 14.2: whichever is better for the winner; TurČAS weights are unpublished, so the
        # larger lead decides, then the larger own score.
        return max(forfeit, current, key=lambda s: (s[0] - s[1], s[0]))
    if mode == "forfeit_or_difference":
        # SP 2.6 d: 0:100, or 0:lead when the current lead is larger.
        return max(forfeit[0], current[0] - current[1]), forfeit[1]
    return current  # "as_played"


def _finished(case: Case, profile: Profile) -> Result:
    return _by_score(case, profile, profile.finished.rule)


def _time_loss(case: Case, profile: Profile) -> Result:
    # Row 2: the loser gets 0 even if he was ahead; the score as it stood.
    loser = _loser(case)
    return _won(case, profile, _other(case, loser), _current(case, loser), profile.time_loss.rule)


def _resigned(case: Case, profile: Profile) -> Result:
    loser = _loser(case)
    rule = profile.resigned
    scores = _forfeit_scores(rule.mode, _current(case, loser), profile)
    forfeited = frozenset({loser}) if rule.forfeit else frozenset()
    return _won(case, profile, _other(case, loser), scores, rule.rule, forfeited)


def _disconnected(case: Case, profile: Profile) -> Result:
    loser = _loser(case)
    rule = profile.disconnect
    winner_now, loser_now = _current(case, loser)
    if rule.mode == "margin":
        # e-SP 4.8: raised to a lead of `margin`; a bigger lead stays as it is.
        scores = (max(winner_now, loser_now + rule.margin), loser_now)
    else:
        scores = _forfeit_scores(rule.mode, (winner_now, loser_now), profile)
    return _won(case, profile, _other(case, loser), scores, rule.rule, frozenset({loser}))


def _no_show(case: Case, profile: Profile) -> Result:
    loser = _loser(case)
    rule = profile.no_show
    scores = (rule.winner_score, rule.loser_score)
    return _won(case, profile, _other(case, loser), scores, rule.rule, frozenset({loser}))


def _both_no_show(case: Case, profile: Profile) -> Result:
    rule = profile.both_no_show
    return _both_forfeited(case, profile, rule.score, rule.rule)


def _over_limit(case: Case, profile: Profile) -> Result:
    rule = profile.over_limit
    return _both_forfeited(case, profile, rule.score, rule.rule)


def _bye(case: Case, profile: Profile) -> Result:
    rule = profile.bye
    return _result(
        case, profile, (rule.points, 0.0), (rule.score, rule.opponent_score), frozenset(), rule.rule
    )


def _missed_round(case: Case, profile: Profile) -> Result:
    # ČAS 14.4: "nula bodů a skóre 0:0" for each round missed; no opponent, no forfeit
    rule = profile.missed_round
    return _result(case, profile, (rule.points, 0.0), (rule.score, 0), frozenset(), rule.rule)


def _save_failed(case: Case, profile: Profile) -> Result:
    rule = profile.save_failed
    if case.agreed:  # row 9: the whole result agreed
        return _by_score(case, profile, rule.agreed_rule)
    if case.winner is not None:  # row 10: only the winner agreed -> 50:0
        loser = _other(case, case.winner)
        scores = (rule.winner_score, rule.loser_score)
        return _won(case, profile, case.winner, scores, rule.rule, frozenset({loser}))
    return _both_forfeited(case, profile, rule.no_agreement_score, rule.rule)  # row 11


def _agreed_draw(case: Case, profile: Profile) -> Result:
    # Row 12: ½:½; under "lower" both get the lower score (420:300 -> 300:300).
    rule = profile.agreed_draw
    scores = (case.first_score, case.second_score)
    if rule.score == "lower":
        scores = (min(scores), min(scores))
    draw = profile.points.draw
    return _result(case, profile, (draw, draw), scores, frozenset(), rule.rule)


def _loser(case: Case) -> str:
    assert case.loser is not None  # guaranteed by _check
    return case.loser


def _other(case: Case, player: str) -> str:
    other = case.opponent(player)
    assert other is not None  # only a bye has no opponent, and a bye has no loser or winner
    return other


def _rated(case: Case, profile: Profile) -> bool:
    """Interpretation (e-SP 5): only games actually played count for the online screlo."""
    rule = profile.rated
    if case.second is None:
        return False
    end = End(case.end)  # a plain string end was accepted by _check
    if end is End.SAVE_FAILED:
        counted = case.agreed and rule.save_failed_agreed
    else:
        counted = end.value in rule.ends
    if counted and rule.require_moves_by_both:
        return case.first in case.moved and case.second in case.moved
    return counted


_SCORERS: dict[End, Callable[[Case, Profile], Result]] = {
    End.FINISHED: _finished,
    End.TIME_LOSS: _time_loss,
    End.RESIGNED: _resigned,
    End.DISCONNECTED: _disconnected,
    End.NO_SHOW: _no_show,
    End.BOTH_NO_SHOW: _both_no_show,
    End.OVER_LIMIT: _over_limit,
    End.BYE: _bye,
    End.SAVE_FAILED: _save_failed,
    End.AGREED_DRAW: _agreed_draw,
    End.MISSED_ROUND: _missed_round,
}


#: The Slovak name of each end, for reasons and listings shown to players.
END_NAMES_SK: dict[End, str] = {
    End.FINISHED: "dohraná partia",
    End.TIME_LOSS: "prehra na čas",
    End.RESIGNED: "vzdanie",
    End.DISCONNECTED: "odpojenie",
    End.NO_SHOW: "nedostavenie sa",
    End.BOTH_NO_SHOW: "nedostavenie sa oboch hráčov",
    End.OVER_LIMIT: "nedodržaný časový limit",
    End.BYE: "voľno",
    End.SAVE_FAILED: "zlyhalo uloženie",
    End.AGREED_DRAW: "remíza dohodou",
    End.MISSED_ROUND: "vynechané kolo",
}
