"""Verdict texts name players by the names the caller gives (people read them: the admin's
queue, the channel), in forms that need no grammatical gender; ids only without names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rules.evidence import (
    AbsenceReport,
    PairingEvidence,
    PlatformEnd,
    PlatformGame,
    RoundClock,
    ScoreReport,
)
from rules.profile import Profile
from rules.reconcile import reconcile

PROFILE = Profile.load("sss-online")
NAMES = {"7": "Ľubica Šťastná", "9": "Ján Ďurica"}


def t(minute: int) -> datetime:
    return datetime(2024, 5, 11, 9, minute, tzinfo=UTC)


CLOCK = RoundClock(start=t(0), limit=t(50), waiting_ends=t(10))


def game(end: str, on: str | None = None) -> PlatformGame:
    return PlatformGame(id=1, game_id="h1", first="7", second="9", first_score=380,
                        second_score=400, end=PlatformEnd(end), started=t(2), ended=t(40),
                        on=on, moves={"7": 12, "9": 11})


@pytest.mark.parametrize(("items", "wanted"), [
    ({"games": (game("time_loss", on="9"),)}, "Prehra na čas: Ján Ďurica"),
    ({"games": (game("resigned", on="7"),)}, "Vzdanie partie: Ľubica Šťastná"),
    ({"games": (game("disconnected", on="9"),)}, "Odpojenie: Ján Ďurica"),
    ({"absences": (AbsenceReport(id=2, reporter="7", at=t(3)),)},
     "Neprítomnosť v čakacej lehote: Ján Ďurica; postup pri absencii súpera dodržaný "
     "(Ľubica Šťastná)"),
    ({"games": (game("finished"),),
      "reports": (ScoreReport(id=3, player="9", at=t(45), own=410, opponent=380),)},
     "(Ľubica Šťastná–Ján Ďurica 380:400): Ján Ďurica hlási 410:380"),
    ({"reports": (ScoreReport(id=4, player="7", at=t(45), own=300, opponent=200),
                  ScoreReport(id=5, player="9", at=t(46), own=250, opponent=350))},
     "zhodujú len na víťazovi (Ľubica Šťastná)"),
])
def test_texts_use_the_names_given(items: dict, wanted: str) -> None:
    named = PairingEvidence(round=3, first="7", second="9", names=NAMES, **items)
    verdict = reconcile(named, CLOCK, t(55), PROFILE)
    text = getattr(verdict, "note", None) or getattr(verdict, "conflict", "")
    assert wanted in text
    assert "7 " not in text and " 9" not in text.replace("e-SP 4.9", "")
    # the same evidence without names: the same verdict, the ids in the text
    bare = reconcile(PairingEvidence(round=3, first="7", second="9", **items), CLOCK, t(55),
                     PROFILE)
    assert type(bare) is type(verdict)
    assert getattr(bare, "case", None) == getattr(verdict, "case", None)
