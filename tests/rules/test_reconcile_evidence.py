"""Evidence the reconciler refuses: a clear Slovak message naming the item, never a guess."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rules.evidence import (
    AbsenceReport,
    EvidenceError,
    PairingEvidence,
    PlatformEnd,
    PlatformGame,
    RoundClock,
    Ruling,
    ScoreReport,
)
from rules.model import Case, End
from rules.profile import Profile
from rules.reconcile import allowed_rulings, reconcile

A, B = "anna", "boris"
T = datetime(2024, 5, 11, 9, 0, tzinfo=UTC)
PROFILE = Profile.load("sss-online")


def game(**changes: Any) -> PlatformGame:
    fields: dict[str, Any] = dict(
        id=1, game_id="h1", first=A, second=B, first_score=400, second_score=300,
        end=PlatformEnd.FINISHED, started=T, ended=T + timedelta(minutes=30),
    )  # fmt: skip
    return PlatformGame(**(fields | changes))


BAD_GAMES = [
    pytest.param({"second": A}, "sám so sebou", id="a player against himself"),
    pytest.param({"first_score": -1}, "nezáporné", id="a negative score"),
    pytest.param({"first_score": True}, "nezáporné", id="a boolean score"),
    pytest.param({"end": "abandoned"}, "neznámy spôsob ukončenia", id="an unknown end"),
    pytest.param({"started": datetime(2024, 5, 11, 9, 0)}, "časové pásmo", id="a naive time"),
    pytest.param({"started": "09:00"}, "dátum a čas", id="a time that is not a datetime"),
    pytest.param({"ended": None}, "čas ukončenia", id="ended without an end time"),
    pytest.param(
        {"end": PlatformEnd.UNFINISHED}, "čas ukončenia", id="unfinished with an end time"
    ),
    pytest.param({"ended": T - timedelta(minutes=1)}, "skôr, ako začala", id="ended before start"),
    pytest.param({"end": PlatformEnd.RESIGNED}, "partia skončila", id="resigned without who"),
    pytest.param({"end": PlatformEnd.TIME_LOSS, "on": "cyril"}, "partia skončila", id="a stranger"),
    pytest.param({"on": A}, "sa hráč neuvádza", id="finished naming a player"),
    pytest.param({"moves": {"cyril": 3}}, "nehral", id="moves of a stranger"),
    pytest.param({"moves": {A: -2}}, "počet ťahov", id="negative moves"),
]


@pytest.mark.parametrize(("changes", "message"), BAD_GAMES)
def test_bad_game_records_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(EvidenceError, match=message) as refused:
        game(**changes)
    assert "záznam partie h1 (#1)" in str(refused.value)


def test_a_game_record_is_frozen_and_its_moves_read_only() -> None:
    moves = {A: 3, B: 0}
    record = game(moves=moves)
    moves[B] = 9  # the caller's dict changing later does not change the evidence
    assert record.moves == {A: 3, B: 0}
    assert record.moved == frozenset({A})
    with pytest.raises(TypeError):
        record.moves[A] = 1  # type: ignore[index]
    assert hash(record) == hash(game(moves={A: 3, B: 0}))


def test_bad_reports_and_rulings_are_refused() -> None:
    with pytest.raises(EvidenceError, match="skóre súpera"):
        ScoreReport(id=1, player=A, at=T, own=400, opponent=-5)
    with pytest.raises(EvidenceError, match="časové pásmo"):
        AbsenceReport(id=1, reporter=A, at=datetime(2024, 5, 11, 9, 5))
    with pytest.raises(EvidenceError, match="zdôvodnenie"):
        Ruling(id=1, admin="hlavny", at=T, case=Case(End.BOTH_NO_SHOW, A, B), reason="  ")


BAD_PAIRINGS = [
    pytest.param(
        {"reports": [ScoreReport(id=1, player="cyril", at=T, own=1, opponent=2)]},
        "mimo páru",
        id="a report by a player outside the pair",
    ),
    pytest.param(
        {"games": [game(id=1)], "reports": [ScoreReport(id=1, player=A, at=T, own=1, opponent=2)]},
        "dvakrát",
        id="two items with the same id",
    ),
    pytest.param(
        {"rulings": [Ruling(id=2, admin="h", at=T, case=Case(End.BYE, A, None), reason="x")]},
        "oboch hráčov",
        id="a ruling about only one of the pair",
    ),
    pytest.param({"second": A}, "sám so sebou", id="a pairing against oneself"),
    pytest.param({"platform_checked": datetime(2024, 5, 11)}, "časové pásmo", id="naive check"),
]


@pytest.mark.parametrize(("items", "message"), BAD_PAIRINGS)
def test_bad_pairing_evidence_is_refused(items: dict[str, Any], message: str) -> None:
    with pytest.raises(EvidenceError, match=message):
        PairingEvidence(**({"round": 1, "first": A, "second": B} | items))


def test_items_may_come_as_any_iterable() -> None:
    evidence = PairingEvidence(round=1, first=A, second=B, games=iter([game()]))
    assert evidence.games == (game(),)
    assert [i.id for i in evidence.items()] == [1]


def test_round_clock_from_the_profile_and_the_propozicie() -> None:
    clock = RoundClock.for_round(T, PROFILE)
    assert (clock.limit - T, clock.waiting_ends - T) == (
        timedelta(minutes=50),
        timedelta(minutes=10),
    )
    own = RoundClock.for_round(T, PROFILE, limit_minutes=60, waiting_minutes=15)
    assert (own.limit - T, own.waiting_ends - T) == (timedelta(minutes=60), timedelta(minutes=15))
    with pytest.raises(EvidenceError, match="limit musí byť po začiatku"):
        RoundClock(T, T, T)
    with pytest.raises(EvidenceError, match="čakacia lehota"):
        RoundClock(T, T + timedelta(minutes=50), T + timedelta(minutes=51))


def test_reconcile_needs_an_aware_now() -> None:
    clock = RoundClock.for_round(T, PROFILE)
    evidence = PairingEvidence(round=1, first=A, second=B)
    with pytest.raises(EvidenceError, match="časové pásmo"):
        reconcile(evidence, clock, datetime(2024, 5, 11, 10, 0), PROFILE)


def test_allowed_rulings_keep_to_the_profiles_ends() -> None:
    live = Profile.load("sss-live")
    allowed = allowed_rulings(PairingEvidence(round=1, first=A, second=B), live)
    assert allowed and all(e.value in live.ends for e in allowed)
    assert End.DISCONNECTED not in allowed
    assert End.DISCONNECTED in allowed_rulings(PairingEvidence(round=1, first=A, second=B), PROFILE)
