"""The reconciler, branch by branch (DESIGN.md section 3; RULES.md sections 2–4, e-SP 4.2–4.9).

Realistic clock: the round starts 09:00 UTC, the waiting period ends 09:10 (e-SP 4.3), the game
time limit is 09:50 (50 minutes, e-SP 4.5). `anna` is the designated starter, `boris` second.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from rules.evidence import (
    AbsenceReport,
    Arrival,
    Dispute,
    DrawConfirmation,
    PairingEvidence,
    PlatformEnd,
    PlatformGame,
    RoundClock,
    Ruling,
    ScoreReport,
)
from rules.model import Case, End
from rules.profile import Profile
from rules.reconcile import Decided, NeedsAdmin, Pending, allowed_rulings, reconcile

A, B = "anna", "boris"
PROFILE = Profile.load("sss-online")


def t(hour: int, minute: int) -> datetime:
    return datetime(2024, 5, 11, hour, minute, tzinfo=UTC)


CLOCK = RoundClock(start=t(9, 0), limit=t(9, 50), waiting_ends=t(9, 10))


def game(
    id: int,
    end: str = "finished",
    *,
    first: str = A,
    scores: tuple[int, int] = (420, 380),
    started: datetime | None = None,
    ended: datetime | None = None,
    on: str | None = None,
    moves: dict[str, int] | None = None,
    flags: tuple[str, ...] = (),
) -> PlatformGame:
    second = B if first == A else A
    return PlatformGame(
        id=id,
        game_id=f"h{id}",
        first=first,
        second=second,
        first_score=scores[0],
        second_score=scores[1],
        end=PlatformEnd(end),
        started=started or t(9, 2),
        ended=None if end == "unfinished" else (ended or t(9, 40)),
        on=on,
        moves={first: 12, second: 11} if moves is None else moves,
        flags=flags,
    )


def report(id: int, player: str, own: int, opponent: int, at: datetime | None = None):
    return ScoreReport(id=id, player=player, at=at or t(9, 45), own=own, opponent=opponent)


def confirm(id: int, player: str, at: datetime) -> DrawConfirmation:
    return DrawConfirmation(id=id, player=player, at=at)


def absent(id: int, reporter: str, at: datetime) -> AbsenceReport:
    return AbsenceReport(id=id, reporter=reporter, at=at)


def arrive(id: int, player: str, at: datetime) -> Arrival:
    return Arrival(id=id, player=player, at=at)


def ruling(id: int, case: Case, at: datetime, reason: str = "dôkaz: snímka obrazovky") -> Ruling:
    return Ruling(id=id, admin="hlavny", at=at, case=case, reason=reason)


def ev(**items: Any) -> PairingEvidence:
    return PairingEvidence(round=3, first=A, second=B, **items)


def check(verdict: Any, kind: type, expect: dict[str, Any]) -> None:
    """`expect` maps an attribute path ("case.end", "allowed.0") to its expected value."""
    assert isinstance(verdict, kind), verdict
    for path, want in expect.items():
        value = verdict
        for part in path.split("."):
            value = value[int(part)] if part.isdigit() else getattr(value, part)
        assert value == want, f"{path}: {value!r} != {want!r} in {verdict}"


FINISHED_GAME = game(1)
WRONG_DRAW = game(1, "draw", first=B, scores=(0, 0), started=t(9, 2), ended=t(9, 3))
REMATCH = game(2, started=t(9, 4), ended=t(9, 41))
# e-SP 4.3 + 4.9: the forfeit stays proposed; the admin hears the game's score and rules
LATE_TOLD = (
    "Príchod až po uplynutí čakacej lehoty: boris (neprítomnosť hlási anna); partia sa napriek "
    "tomu odohrala: anna–boris 420:380 — Partia riadne skončila (e-SP 3.5). Kontumácia podľa "
    "e-SP 4.3 je navrhnutá; hlavný administrátor rozhodne, či platí kontumácia, alebo odohraná "
    "partia (e-SP 4.3, 4.9)"
)

# (id citing the rule, evidence, now, verdict type, expected attributes)
CASES = [
    # -- e-SP 2.6, 5: the head admin's ruling decides --------------------------------------
    pytest.param(
        ev(
            games=[FINISHED_GAME],
            absences=[absent(5, A, t(9, 5))],
            rulings=[
                ruling(8, Case(End.NO_SHOW, A, B, loser=B), t(10, 0)),
                ruling(9, Case(End.FINISHED, A, B, 300, 200), t(10, 5), "oprava"),
            ],
        ),
        t(10, 10),
        Decided,
        {
            "code": "ruling",
            "case.end": End.FINISHED,
            "case.first_score": 300,
            "case.round": 3,
            "rests_on": (9,),
            "proposal": False,
            "rules": ("e-SP 2.6", "e-SP 5"),
        },
        id="e-SP 2.6: the latest ruling overrides record, absence and earlier ruling",
    ),
    pytest.param(
        ev(games=[FINISHED_GAME], rulings=[ruling(9, Case(End.NO_SHOW, A, B, loser=B), t(11, 0))]),
        t(10, 0),
        Decided,
        {"code": "finished"},
        id="a ruling dated after now is not yet known",
    ),
    # -- e-SP 4.5 / 4.2: which game counts -------------------------------------------------
    pytest.param(
        ev(games=[REMATCH, WRONG_DRAW]),
        t(9, 45),
        Decided,
        {
            "code": "finished",
            "case.end": End.FINISHED,
            "case.first": A,
            "case.first_score": 420,
            "rests_on": (1, 2),
            "rules": ("e-SP 4.5", "e-SP 4.2", "e-SP 3.5"),
            "proposal": False,
        },
        id="e-SP 4.2: a wrong-starter draw is superseded by the rematch",
    ),
    pytest.param(
        ev(
            games=[
                game(2, started=t(9, 25), ended=t(9, 48), scores=(350, 410)),
                game(1, "resigned", on=B, started=t(9, 2), ended=t(9, 20)),
            ]
        ),
        t(9, 55),
        Decided,
        {
            "code": "finished",
            "case.first_score": 350,
            "case.second_score": 410,
            "case.loser": None,
            "rests_on": (1, 2),
        },
        id="e-SP 4.5: of two games before the limit the last counts",
    ),
    pytest.param(
        ev(games=[FINISHED_GAME, game(2, started=t(9, 52), ended=t(10, 20), scores=(1, 500))]),
        t(10, 30),
        Decided,
        {"code": "finished", "case.first_score": 420, "rests_on": (1,)},
        id="e-SP 4.5: a game started after the limit does not supersede",
    ),
    pytest.param(
        ev(games=[FINISHED_GAME, game(2, "unfinished", started=t(9, 42), scores=(10, 90))]),
        t(9, 55),
        Decided,
        {"code": "finished", "case.end": End.FINISHED, "case.first_score": 420,
         "case.second_score": 380, "proposal": False, "rests_on": (1, 2)},
        id="e-SP 4.5: a later game unfinished at the limit does not cancel a finished one",
    ),
    pytest.param(
        ev(games=[FINISHED_GAME, game(2, started=t(9, 42), ended=t(9, 53), scores=(10, 90))]),
        t(9, 55),
        Decided,
        {"code": "finished", "case.first_score": 420, "rests_on": (1, 2)},
        id="e-SP 4.5: a later game that ended after the limit does not cancel a finished one",
    ),
    pytest.param(
        ev(games=[FINISHED_GAME, game(2, "unfinished", started=t(9, 42), scores=(10, 90))]),
        t(9, 45),
        Pending,
        {"code": "game_in_progress", "until": t(9, 50)},
        id="e-SP 4.5: before the limit a running later game is awaited (it may count)",
    ),
    pytest.param(
        ev(games=[game(1, "unfinished", started=t(9, 2)),
                  game(2, started=t(9, 5), ended=t(9, 49), scores=(300, 200))]),
        t(9, 55),
        Decided,
        {"code": "finished", "case.first_score": 300, "rests_on": (1, 2)},
        id="e-SP 4.5: the last game finished by the limit counts, whatever started first",
    ),
    pytest.param(
        ev(games=[WRONG_DRAW, game(2, "unfinished", started=t(9, 4))]),
        t(9, 55),
        Decided,
        {"code": "over_limit", "case.end": End.OVER_LIMIT, "proposal": True},
        id="e-SP 4.5, 4.2: a wrong-starter draw is no result; the rematch unfinished -> row 7",
    ),
    pytest.param(
        ev(games=[game(1, ended=t(9, 51))]),
        t(9, 55),
        Decided,
        {
            "code": "over_limit",
            "case.end": End.OVER_LIMIT,
            "proposal": True,
            "rules": ("e-SP 4.5, 4.9",),
            "case.moved": frozenset({A, B}),
        },
        id="e-SP 4.5: a game that ended 09:51 is over the limit",
    ),
    pytest.param(
        ev(games=[game(1, ended=t(9, 50))]),
        t(9, 55),
        Decided,
        {"code": "finished"},
        id="e-SP 4.5: a game that ended exactly at the limit kept it",
    ),
    pytest.param(
        ev(games=[game(1, "unfinished")]),
        t(9, 50),
        Decided,
        {"code": "over_limit", "case.end": End.OVER_LIMIT, "proposal": True},
        id="e-SP 4.5: a game unfinished at 09:50 is over the limit",
    ),
    pytest.param(
        ev(games=[game(1, "unfinished")]),
        t(9, 30),
        Pending,
        {"code": "game_in_progress", "until": t(9, 50)},
        id="e-SP 4.5: a game unfinished at 09:30 is pending until the limit",
    ),
    pytest.param(
        ev(games=[game(1, ended=t(9, 45))]),
        t(9, 30),
        Pending,
        {"code": "game_in_progress"},
        id="as of 09:30 a game that ended 09:45 was still running",
    ),
    pytest.param(
        ev(games=[game(1, "finished", started=t(9, 55), ended=t(10, 30))]),
        t(10, 40),
        Decided,
        {"code": "over_limit", "proposal": True, "rests_on": (1,)},
        id="e-SP 4.5: a game started only after the limit cannot keep it",
    ),
    # -- e-SP 3.5: agreed draw -------------------------------------------------------------
    pytest.param(
        ev(
            games=[game(1, "draw", scores=(420, 300))],
            confirmations=[confirm(5, A, t(9, 40)), confirm(6, B, t(9, 40))],
        ),
        t(9, 42),
        Decided,
        {
            "code": "agreed_draw",
            "case.end": End.AGREED_DRAW,
            "case.first_score": 420,
            "proposal": False,
            "rests_on": (1, 5, 6),
            "rules": ("e-SP 3.5",),
        },
        id="e-SP 3.5 row 12: a draw confirmed by both at 09:40 is an agreed draw",
    ),
    pytest.param(
        ev(games=[game(1, "draw", scores=(420, 300))], confirmations=[confirm(5, A, t(9, 40))]),
        t(9, 55),
        Decided,
        {
            "code": "draw_unconfirmed",
            "case.end": End.FINISHED,
            "case.first_score": 420,
            "rests_on": (1, 5),
        },
        id="e-SP 3.5 row 13: one confirmation -> the game as played after the limit",
    ),
    pytest.param(
        ev(games=[game(1, "draw", scores=(420, 300))], confirmations=[confirm(5, A, t(9, 40))]),
        t(9, 45),
        Pending,
        {"code": "draw_awaiting_confirmation", "until": t(9, 50)},
        id="e-SP 3.5: one confirmation before the limit -> pending",
    ),
    pytest.param(
        ev(
            games=[game(1, "draw", scores=(420, 300))],
            confirmations=[confirm(5, A, t(9, 40)), confirm(6, B, t(9, 55))],
        ),
        t(10, 0),
        Decided,
        {"code": "draw_unconfirmed", "case.end": End.FINISHED},
        id="e-SP 3.5: a confirmation at 09:55 comes too late",
    ),
    pytest.param(
        ev(
            games=[game(1, "draw", scores=(420, 300), started=t(9, 20))],
            confirmations=[confirm(5, A, t(9, 15)), confirm(6, B, t(9, 45))],
        ),
        t(9, 55),
        Decided,
        {"code": "draw_unconfirmed"},
        id="e-SP 3.5: a confirmation made before the game started is not about it",
    ),
    pytest.param(
        ev(games=[WRONG_DRAW], confirmations=[confirm(5, A, t(9, 4)), confirm(6, B, t(9, 4))]),
        t(9, 55),
        NeedsAdmin,
        {"code": "wrong_starter_no_rematch", "rests_on": (1,), "allowed.0": End.OVER_LIMIT},
        id="e-SP 4.2: a wrong-starter draw is never an agreed draw; no rematch -> admin",
    ),
    pytest.param(
        ev(games=[WRONG_DRAW]),
        t(9, 5),
        Pending,
        {"code": "wrong_starter_rematch", "until": t(9, 50)},
        id="e-SP 4.2: a wrong-starter draw before the limit waits for the rematch",
    ),
    pytest.param(
        ev(games=[game(1, first=B)]),
        t(9, 45),
        NeedsAdmin,
        {"code": "wrong_starter_played", "allowed.0": End.FINISHED},
        id="e-SP 4.2: a wrong-starter game played to the end -> admin",
    ),
    pytest.param(
        ev(
            games=[
                game(1, "draw", scores=(0, 0), ended=t(9, 3)),
                game(2, first=B, started=t(9, 4), ended=t(9, 40)),
            ]
        ),
        t(9, 45),
        NeedsAdmin,
        {"code": "wrong_starter_played", "rests_on": (1, 2)},
        id="e-SP 4.2: a draw may not swap a correct starter",
    ),
    # -- e-SP 3.5, 4.8: how the counting game ended ----------------------------------------
    pytest.param(
        ev(games=[game(1, "passes", scores=(250, 260))]),
        t(9, 45),
        Decided,
        {"code": "passes", "case.end": End.FINISHED, "rules": ("e-SP 3.5",)},
        id="e-SP 3.5: two rounds without a valid move = a normal finish",
    ),
    pytest.param(
        ev(games=[game(1, "resigned", on=A, moves={A: 0, B: 1})]),
        t(9, 45),
        Decided,
        {
            "code": "resigned",
            "case.end": End.RESIGNED,
            "case.loser": A,
            "proposal": False,
            "case.moved": frozenset({B}),
        },
        id="e-SP 3.5: resignation, moved = players with a move",
    ),
    pytest.param(
        ev(games=[game(1, "time_loss", on=B, scores=(300, 400))]),
        t(9, 45),
        Decided,
        {"code": "time_loss", "case.end": End.TIME_LOSS, "case.loser": B, "proposal": False},
        id="e-SP 3.5: time loss",
    ),
    pytest.param(
        ev(games=[game(1, "disconnected", on=B)]),
        t(9, 45),
        Decided,
        {
            "code": "disconnected",
            "case.end": End.DISCONNECTED,
            "case.loser": B,
            "proposal": True,
            "rules": ("e-SP 4.8, 4.9",),
        },
        id="e-SP 4.8, 4.9: a disconnection is a forfeit proposed to the admin",
    ),
    # -- reports against the record (e-SP 4.7) --------------------------------------------
    pytest.param(
        ev(
            games=[FINISHED_GAME],
            reports=[report(5, B, 400, 380)],
            disputes=[Dispute(id=7, player=B, at=t(9, 46), text="skóre je zlé")],
        ),
        t(9, 47),
        NeedsAdmin,
        {"code": "report_conflicts_record", "allowed.0": End.FINISHED, "rests_on": (1, 5, 7)},
        id="e-SP 4.7: a report contradicting the record goes to the admin, with the dispute",
    ),
    pytest.param(
        ev(games=[FINISHED_GAME], reports=[report(5, B, 380, 420), report(6, A, 420, 380)]),
        t(9, 47),
        Decided,
        {"code": "finished", "rests_on": (1, 5, 6)},
        id="matching reports confirm the record",
    ),
    pytest.param(
        ev(
            games=[FINISHED_GAME],
            reports=[report(5, B, 400, 380, t(9, 41)), report(6, B, 380, 420, t(9, 42))],
        ),
        t(9, 47),
        Decided,
        {"code": "finished", "rests_on": (1, 6)},
        id="a player's corrected (latest) report counts",
    ),
    pytest.param(
        ev(games=[REMATCH], reports=[report(5, B, 0, 0, t(9, 1))]),
        t(9, 47),
        Decided,
        {"code": "finished"},
        id="a report made before the counting game started is about another game",
    ),
    pytest.param(
        ev(
            games=[game(1, "draw", scores=(420, 300))],
            reports=[report(5, A, 300, 300)],
            confirmations=[confirm(6, A, t(9, 41)), confirm(7, B, t(9, 41))],
        ),
        t(9, 47),
        Decided,
        {"code": "agreed_draw", "rests_on": (1, 5, 6, 7)},
        id="e-SP 3.5: reporting the lower score of an agreed draw matches",
    ),
    pytest.param(
        ev(games=[game(1, "unfinished")], reports=[report(5, A, 420, 380, t(9, 45))]),
        t(9, 55),
        NeedsAdmin,
        {"code": "report_conflicts_record", "allowed.0": End.OVER_LIMIT},
        id="e-SP 4.6: a final score reported for a record left unfinished -> admin",
    ),
    # -- flags ----------------------------------------------------------------------------
    pytest.param(
        ev(games=[game(1, flags=("wrong_settings",))]),
        t(9, 45),
        NeedsAdmin,
        {"code": "flagged_record", "rests_on": (1,)},
        id="a flagged counting record is never scored silently",
    ),
    pytest.param(
        ev(
            games=[
                game(
                    1,
                    "draw",
                    first=B,
                    started=t(8, 55),
                    ended=t(8, 56),
                    flags=("started_before_round",),
                ),
                REMATCH,
            ]
        ),
        t(9, 45),
        Decided,
        {"code": "finished", "rests_on": (1, 2)},
        id="a flagged record superseded by a later game does not count (e-SP 4.5)",
    ),
    # -- e-SP 4.6: no record --------------------------------------------------------------
    pytest.param(
        ev(reports=[report(5, A, 420, 380), report(6, B, 380, 420)]),
        t(9, 45),
        Pending,
        {"code": "no_record_yet", "until": t(9, 50)},
        id="e-SP 4.6: no record before the limit -> pending (the sync may find it)",
    ),
    pytest.param(
        ev(reports=[report(5, A, 420, 380), report(6, B, 380, 420)]),
        t(9, 55),
        Decided,
        {
            "code": "save_failed_agreed",
            "case.end": End.SAVE_FAILED,
            "case.agreed": True,
            "case.first_score": 420,
            "case.second_score": 380,
            "case.winner": A,
            "proposal": True,
            "case.moved": frozenset({A, B}),
            "rules": ("e-SP 4.6",),
            "rests_on": (5, 6),
        },
        id="e-SP 4.6 row 9: both reports agree on the whole result",
    ),
    pytest.param(
        ev(reports=[report(5, A, 300, 410), report(6, B, 400, 300)]),
        t(9, 55),
        Decided,
        {
            "code": "save_failed_winner",
            "case.winner": B,
            "case.agreed": False,
            "case.first_score": 0,
            "proposal": True,
            "rules": ("e-SP 4.6, 4.9",),
        },
        id="e-SP 4.6 row 10: agreement on the winner only",
    ),
    pytest.param(
        ev(reports=[report(5, A, 420, 380), report(6, B, 400, 380)]),
        t(9, 55),
        Decided,
        {"code": "save_failed_no_agreement", "case.winner": None, "proposal": True},
        id="e-SP 4.6 row 11: no agreement even on the winner",
    ),
    pytest.param(
        ev(reports=[report(5, A, 400, 300), report(6, B, 420, 380)]),
        t(9, 55),
        Decided,
        {"code": "save_failed_no_agreement", "proposal": True},
        id="e-SP 4.6 row 11: each claims the win",
    ),
    pytest.param(
        ev(reports=[report(5, A, 400, 400), report(6, B, 380, 380)]),
        t(9, 55),
        NeedsAdmin,
        {"code": "save_failed_draw_scores", "allowed.0": End.SAVE_FAILED, "rests_on": (5, 6),
         "rules": ("e-SP 4.6, 4.9", "e-SP 5")},
        id="e-SP 4.6, 5: both report a draw with different scores -> the admin, no proposal",
    ),
    pytest.param(
        ev(reports=[report(5, A, 420, 380)]),
        t(9, 55),
        NeedsAdmin,
        {"code": "single_report", "allowed.0": End.SAVE_FAILED, "rests_on": (5,)},
        id="e-SP 4.6: only one report -> the admin asks both",
    ),
    # -- e-SP 4.3: absence -----------------------------------------------------------------
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], arrivals=[arrive(4, A, t(8, 58))]),
        t(9, 11),
        Decided,
        {
            "code": "no_show",
            "case.end": End.NO_SHOW,
            "case.loser": B,
            "case.first": A,
            "proposal": True,
            "rules": ("e-SP 4.3, 4.9",),
            "rests_on": (5,),
        },
        id="e-SP 4.3: absent after the waiting period -> NO_SHOW proposed",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))]),
        t(9, 9),
        Pending,
        {"code": "waiting_period", "until": t(9, 10)},
        id="e-SP 4.3: before the waiting period ends -> pending",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], arrivals=[arrive(6, B, t(9, 8))]),
        t(9, 20),
        Pending,
        {"code": "no_record_yet", "until": t(9, 50)},
        id="e-SP 4.3: an arrival at 09:08 prevents the no-show",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], arrivals=[arrive(6, B, t(9, 12))]),
        t(9, 20),
        Decided,
        {"code": "no_show", "rests_on": (5, 6)},
        id="e-SP 4.3: an arrival after the waiting period does not undo it (shown to the admin)",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], games=[game(1, started=t(9, 12))]),
        t(9, 45),
        Decided,
        {"code": "no_show", "case.end": End.NO_SHOW, "case.loser": B, "rests_on": (1, 5),
         "proposal": True, "rules": ("e-SP 4.3, 4.9",), "tell_admin": LATE_TOLD},
        id="e-SP 4.3, 4.9: a game begun after the waiting period -> the forfeit stays "
           "proposed, the admin is told the score",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], arrivals=[arrive(6, B, t(9, 12))],
           games=[game(1, started=t(9, 14))]),
        t(9, 45),
        Decided,
        {"code": "no_show", "case.end": End.NO_SHOW, "rests_on": (1, 5, 6), "proposal": True,
         "tell_admin": LATE_TOLD},
        id="e-SP 4.3, 4.9: absent arrived after the waiting period and played -> NO_SHOW "
           "proposed, told",
    ),

    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], arrivals=[arrive(6, B, t(9, 8))],
           games=[game(1, started=t(9, 12))]),
        t(9, 45),
        Decided,
        {"code": "finished", "tell_admin": ""},
        id="e-SP 4.3: arrived within the waiting period -> nothing to tell",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], games=[game(1, started=t(9, 8))]),
        t(9, 45),
        Decided,
        {"code": "finished", "tell_admin": ""},
        id="e-SP 4.3: the game started within the waiting period -> nothing to tell",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5)), absent(6, B, t(9, 6))]),
        t(9, 11),
        NeedsAdmin,
        {"code": "absence_both", "allowed.0": End.BOTH_NO_SHOW, "rests_on": (5, 6)},
        id="e-SP 4.3: both report each other absent -> admin",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))], reports=[report(6, B, 400, 300, t(9, 45))]),
        t(9, 55),
        NeedsAdmin,
        {"code": "absence_contradicted", "allowed.0": End.NO_SHOW, "rests_on": (5, 6)},
        id="e-SP 4.3: the 'absent' player reports a result -> admin",
    ),
    # -- e-SP 4.9: nobody came -------------------------------------------------------------
    pytest.param(
        ev(),
        t(9, 51),
        Decided,
        {
            "code": "both_no_show",
            "case.end": End.BOTH_NO_SHOW,
            "proposal": True,
            "rests_on": (),
            "rules": ("e-SP 4.9",),
        },
        id="e-SP 4.9: nothing at all after the limit -> BOTH_NO_SHOW proposed",
    ),
    pytest.param(
        ev(),
        t(9, 30),
        Pending,
        {"code": "no_record_yet", "until": t(9, 50)},
        id="e-SP 4.9: nothing at all before the limit -> pending",
    ),
    pytest.param(
        ev(arrivals=[arrive(5, A, t(9, 1))]),
        t(9, 51),
        NeedsAdmin,
        {"code": "no_game_no_reports", "rests_on": (5,)},
        id="e-SP 4.3/5: a player came but followed no absence procedure -> admin",
    ),
    # -- the platform must have been checked before a missing record decides ---------------
    pytest.param(
        replace(ev(), platform_checked=t(9, 30)),
        t(9, 55),
        Pending,
        {"code": "awaiting_sync", "until": None},
        id="no record, platform last checked before the limit -> wait for the sync",
    ),
    pytest.param(
        replace(ev(), platform_checked=t(9, 52)),
        t(9, 55),
        Decided,
        {"code": "both_no_show"},
        id="no record, platform checked after the limit -> decided",
    ),
    pytest.param(
        replace(ev(absences=[absent(5, A, t(9, 5))]), platform_checked=t(9, 5)),
        t(9, 15),
        Pending,
        {"code": "awaiting_sync"},
        id="e-SP 4.3: a no-show waits for a platform check after the waiting period",
    ),
    # -- bye -------------------------------------------------------------------------------
    pytest.param(
        PairingEvidence(round=3, first=A, second=None),
        t(9, 0),
        Decided,
        {"code": "bye", "case.end": End.BYE, "case.second": None, "rules": ("e-SP 4.9",)},
        id="e-SP 4.9: a bye",
    ),
]


@pytest.mark.parametrize(("evidence", "now", "kind", "expect"), CASES)
def test_reconcile(evidence: PairingEvidence, now: datetime, kind: type, expect: dict) -> None:
    check(reconcile(evidence, CLOCK, now, PROFILE), kind, expect)


def test_a_late_game_still_running_does_not_suspend_the_proposed_forfeit() -> None:
    """e-SP 4.3, 4.9: the forfeit is proposed as soon as the waiting period is over; a game
    begun after it changes only what the admin is told."""
    late = ev(absences=[absent(5, A, t(9, 5))], games=[game(1, "unfinished", started=t(9, 12))])
    verdict = reconcile(late, CLOCK, t(9, 30), PROFILE)
    assert isinstance(verdict, Decided) and verdict.proposal
    assert verdict.case.end is End.NO_SHOW and verdict.case.loser == B
    assert "partia sa napriek tomu hrá (ešte nie je ukončená)" in verdict.tell_admin


def test_the_admin_may_rule_the_forfeit_of_a_late_game() -> None:
    """e-SP 4.9: only he decides forfeits — NO_SHOW is allowed although a game was played."""
    late = ev(absences=[absent(5, A, t(9, 5))], games=[game(1, started=t(9, 12))])
    assert End.NO_SHOW in allowed_rulings(late, PROFILE)
    assert End.NO_SHOW not in allowed_rulings(ev(games=[game(1)]), PROFILE)


def test_texts_are_slovak_and_cite_the_rule() -> None:
    verdict = reconcile(ev(games=[game(1, ended=t(9, 51))]), CLOCK, t(9, 55), PROFILE)
    assert verdict.note == "Partia nebola ukončená do časového limitu (e-SP 4.5, 4.9)"
    pending = reconcile(ev(absences=[absent(5, A, t(9, 5))]), CLOCK, t(9, 9), PROFILE)
    assert "čakacej lehoty (e-SP 4.3)" in pending.why
    flagged = reconcile(
        ev(games=[game(1, flags=("wrong_settings", "x"))]), CLOCK, t(9, 45), PROFILE
    )
    assert "nesprávne nastavenie stola (e-SP 4.1), x" in flagged.conflict


def test_over_limit_interpretations_are_profile_settings() -> None:
    """RULES.md Interpretation of row 7: both cases are switches of the profile."""
    lenient = replace(PROFILE, over_limit=replace(PROFILE.over_limit, ended_after_limit=False))
    late = ev(games=[game(1, ended=t(9, 51))])
    check(reconcile(late, CLOCK, t(9, 55), lenient), Decided, {"code": "finished"})
    silent = replace(PROFILE, over_limit=replace(PROFILE.over_limit, unfinished_at_limit=False))
    running = ev(games=[game(1, "unfinished")])
    check(reconcile(running, CLOCK, t(9, 55), silent), NeedsAdmin, {"code": "over_limit_not_ruled"})


def test_confirmations_required_is_a_profile_setting() -> None:
    one = replace(PROFILE, agreed_draw=replace(PROFILE.agreed_draw, confirmations_required=1))
    drawn = ev(games=[game(1, "draw", scores=(420, 300))], confirmations=[confirm(5, B, t(9, 41))])
    check(reconcile(drawn, CLOCK, t(9, 42), one), Decided, {"code": "agreed_draw"})


@pytest.mark.parametrize("order", [1, -1])
def test_same_time_items_are_ordered_by_id(order: int) -> None:
    """Two rulings (or reports) in the same minute: the one the store recorded later wins."""
    rulings = [
        ruling(8, Case(End.BOTH_NO_SHOW, A, B), t(10, 0)),
        ruling(9, Case(End.NO_SHOW, A, B, loser=B), t(10, 0)),
    ][::order]
    check(reconcile(ev(rulings=rulings), CLOCK, t(10, 1), PROFILE), Decided, {"rests_on": (9,)})
    reports = [report(5, B, 400, 380, t(9, 45)), report(6, B, 380, 420, t(9, 45))][::order]
    decided = reconcile(ev(games=[FINISHED_GAME], reports=reports), CLOCK, t(9, 46), PROFILE)
    check(decided, Decided, {"rests_on": (1, 6)})


def test_ruling_without_round_takes_the_pairing_round() -> None:
    ruled = ev(rulings=[ruling(9, Case(End.BOTH_NO_SHOW, A, B, round=5), t(10, 0))])
    assert reconcile(ruled, CLOCK, t(10, 1), PROFILE).case.round == 5


ALLOWED = [
    pytest.param(
        ev(games=[FINISHED_GAME]),
        (
            End.FINISHED,
            End.OVER_LIMIT,
            End.RESIGNED,
            End.TIME_LOSS,
            End.DISCONNECTED,
            End.AGREED_DRAW,
            End.SAVE_FAILED,
        ),
        id="an unflagged record: they sat down, so no no-show rulings (e-SP 4.2)",
    ),
    pytest.param(
        ev(games=[game(1, "draw")], reports=[report(5, A, 1, 2)]),
        (
            End.AGREED_DRAW,
            End.FINISHED,
            End.OVER_LIMIT,
            End.SAVE_FAILED,
            End.RESIGNED,
            End.TIME_LOSS,
            End.DISCONNECTED,
        ),
        id="a draw record: agreed draw or as played first",
    ),
    pytest.param(
        ev(games=[game(1, flags=("unknown_nick",))]),
        (
            End.FINISHED,
            End.OVER_LIMIT,
            End.RESIGNED,
            End.TIME_LOSS,
            End.DISCONNECTED,
            End.AGREED_DRAW,
            End.SAVE_FAILED,
            End.NO_SHOW,
            End.BOTH_NO_SHOW,
        ),
        id="only flagged records prove nothing: every ruling allowed (e-SP 5)",
    ),
    pytest.param(
        ev(absences=[absent(5, A, t(9, 5))]),
        (
            End.NO_SHOW,
            End.BOTH_NO_SHOW,
            End.SAVE_FAILED,
            End.OVER_LIMIT,
            End.FINISHED,
            End.RESIGNED,
            End.TIME_LOSS,
            End.DISCONNECTED,
            End.AGREED_DRAW,
        ),
        id="no record, an absence report: NO_SHOW first",
    ),
    pytest.param(
        ev(reports=[report(5, A, 1, 2)]),
        (
            End.SAVE_FAILED,
            End.BOTH_NO_SHOW,
            End.NO_SHOW,
            End.OVER_LIMIT,
            End.FINISHED,
            End.RESIGNED,
            End.TIME_LOSS,
            End.DISCONNECTED,
            End.AGREED_DRAW,
        ),
        id="no record, a result report: SAVE_FAILED first (e-SP 4.6)",
    ),
    pytest.param(PairingEvidence(round=1, first=A, second=None), (End.BYE,), id="a bye"),
]


@pytest.mark.parametrize(("evidence", "expected"), ALLOWED)
def test_allowed_rulings(evidence: PairingEvidence, expected: tuple[End, ...]) -> None:
    assert allowed_rulings(evidence, PROFILE) == expected


def test_needs_admin_offers_only_allowed_rulings() -> None:
    verdict = reconcile(ev(games=[game(1, first=B)]), CLOCK, t(9, 45), PROFILE)
    assert isinstance(verdict, NeedsAdmin)
    assert set(verdict.allowed) == set(allowed_rulings(ev(games=[game(1, first=B)]), PROFILE))
    assert End.BOTH_NO_SHOW not in verdict.allowed


def test_the_older_reading_of_e_sp_4_5_is_a_profile_value() -> None:
    """over_limit.counting_game = "last_started": the last game started by the limit counts,
    so a later game unfinished at the limit makes the pairing row 7 (not the default)."""
    older = replace(PROFILE, over_limit=replace(PROFILE.over_limit, counting_game="last_started"))
    evidence = ev(games=[FINISHED_GAME, game(2, "unfinished", started=t(9, 42))])
    assert PROFILE.over_limit.counting_game == "last_finished"
    check(reconcile(evidence, CLOCK, t(9, 55), older), Decided,
          {"code": "over_limit", "case.end": End.OVER_LIMIT})
    check(reconcile(evidence, CLOCK, t(9, 55), PROFILE), Decided, {"code": "finished"})
