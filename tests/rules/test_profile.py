"""Rule profiles: every RULES.md number is there, and a bad profile names its bad field."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules import Profile, ProfileError
from rules.profile import PROFILE_DIR

BUNDLED = ("sss-online", "sss-live", "cas")


def _raw(name: str = "sss-online") -> dict[str, Any]:
    return tomllib.loads((PROFILE_DIR / f"{name}.toml").read_text(encoding="utf-8"))


def _get(profile: Profile, path: str) -> Any:
    value: Any = profile
    for part in path.split("."):
        value = getattr(value, part)
    return value


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_profiles_load_and_cite_a_rule_everywhere(name: str) -> None:
    profile = Profile.load(name)
    assert profile.name == name
    for table, value in _raw(name).items():
        if isinstance(value, dict):
            assert getattr(profile, table).rule.strip(), f"{name}: [{table}] cites no rule"


# (field, expected value, where RULES.md / e-SP states it)
SSS_ONLINE_NUMBERS = [
    ("points.win", 1.0, "section 2"),
    ("points.draw", 0.5, "row 1"),
    ("disconnect.mode", "margin", "row 4 interpretation"),
    ("disconnect.margin", 50, "row 4, e-SP 4.8"),
    ("no_show.winner_score", 100, "row 5, e-SP 4.3"),
    ("no_show.loser_score", 0, "row 5"),
    ("both_no_show.score", 0, "row 6"),
    ("over_limit.score", 0, "row 7"),
    ("over_limit.ended_after_limit", True, "row 7 interpretation"),
    ("over_limit.unfinished_at_limit", True, "row 7 interpretation"),
    ("bye.points", 1.0, "row 8"),
    ("bye.score", 20, "row 8"),
    ("bye.opponent_score", 0, "row 8"),
    ("save_failed.winner_score", 50, "row 10, e-SP 4.6"),
    ("save_failed.no_agreement_score", 0, "row 11"),
    ("agreed_draw.score", "lower", "row 12, e-SP 3.5"),
    ("agreed_draw.confirmations_required", 2, "row 12"),
    ("resigned.mode", "as_played", "row 3"),
    ("resigned.forfeit", False, "section 5 interpretation"),
    ("rated.require_moves_by_both", True, "rated interpretation"),
    ("exclusion.no_move_or_resigned", 2, "e-SP 3.6 a"),
    ("exclusion.any_forfeit", 3, "e-SP 3.6 b"),
    ("exclusion.resignations_count", True, "section 5 interpretation"),
    ("standings.tiebreaks", ["points", "wins", "median_buchholz", "buchholz", "score"], "6"),
    ("standings.bye_counts_as_win", True, "section 6 interpretation"),
    ("standings.forfeit_win_counts_as_win", True, "section 6 interpretation"),
    ("standings.bye_in_buchholz", False, "section 6 interpretation"),
    ("standings.forfeit_opponent_counts", True, "section 6 interpretation"),
    ("standings.median_drop", 1, "e-SP 2.4"),
    ("timing.game_limit_minutes", 50, "row 7, e-SP 4.5"),
    ("timing.minutes_per_player", 20, "e-SP 4.4"),
    ("timing.max_move_minutes", 8, "e-SP 3.5"),
    ("timing.move_warning_seconds", 35, "e-SP 3.5"),
    ("timing.last_round_dispute_minutes", 10, "e-SP 4.7"),
    ("pairing.newcomer_rating", 1600.0, "e-SP 2.4"),
    ("pairing.top_seed_starts", False, "e-SP 2.4"),
    ("pairing.round_robin_extra", 1, "SP 1.3"),
    ("pairing.format", "swiss", "section 1: online events are Swiss at any size (e-SP 2.4)"),
    ("pairing.balance_rule", "SP 1.3 analogicky", "section 1: balanced starts by analogy"),
    ("over_limit.counting_game", "last_finished", "section 2: e-SP 4.5, the last finished"),
    ("screlo.rule", "výpočet screla SSS", "section 8: the published method, not e-SP"),
    ("screlo.scope_rule", "e-SP 2.4, 5", "section 8: which games, 1600, decay"),
    ("timing.waiting_rule", "e-SP 4.3", "section 3: the propozície set the waiting period"),
]


def test_keys_added_later_may_be_left_out_with_their_old_meaning() -> None:
    """A profile written before issue 12 still loads: a Swiss/round-robin choice by SP 1.3's
    size rule, the counting game of e-SP 4.5 as now read, no screlo scope citation."""
    data = tomllib.loads((PROFILE_DIR / "sss-online.toml").read_text(encoding="utf-8"))
    for table, key in (("pairing", "format"), ("pairing", "format_rule"),
                       ("pairing", "balance_rule"), ("over_limit", "counting_game"),
                       ("screlo", "scope_rule")):
        del data[table][key]
    older = Profile.from_dict(data, "older.toml")
    assert (older.pairing.format, older.over_limit.counting_game) == ("by-size", "last_finished")
    assert older.missed_round.rule == "ČAS 14.4" and "missed_round" not in older.ends


@pytest.mark.parametrize(("table", "key", "value"), [
    ("pairing", "format", "knockout"), ("over_limit", "counting_game", "first"),
])
def test_a_new_choice_outside_its_values_is_refused(table: str, key: str, value: str) -> None:
    data = tomllib.loads((PROFILE_DIR / "sss-online.toml").read_text(encoding="utf-8"))
    data[table][key] = value
    with pytest.raises(ProfileError, match=f"{table}.{key}"):
        Profile.from_dict(data, "broken.toml")


@pytest.mark.parametrize(("field", "expected", "where"), SSS_ONLINE_NUMBERS)
def test_sss_online_has_the_rules_md_numbers(field: str, expected: Any, where: str) -> None:
    assert _get(Profile.load("sss-online"), field) == expected, where


def test_sss_online_rated_rows_1_to_4_9_12() -> None:
    rated = Profile.load("sss-online").rated
    assert set(rated.ends) == {"finished", "time_loss", "resigned", "disconnected", "agreed_draw"}
    assert rated.save_failed_agreed  # row 9


def test_sss_online_qualification_table_is_sp_a3() -> None:
    table = Profile.load("sss-online").qualification.table
    assert table[:8] == [40, 35, 32, 30, 28, 27, 26, 25]
    assert table[8:] == list(range(24, 0, -1))  # places 9..32: 24 down to 1


def test_sss_live_uses_spread_and_round_robin_order_of_sp_1_3() -> None:
    live = Profile.load("sss-live")
    assert live.kind == "live"
    assert live.standings.tiebreaks[-1] == "spread"  # SP 1.3: 5th criterion is Dal − Dostal
    assert live.standings.round_robin_tiebreaks == ["points", "neustadtl", "spread"]
    assert live.resigned.mode == "forfeit_or_difference"  # SP 2.6 d
    assert live.exclusion.any_forfeit == 2  # SP 2.6: two forfeits of any kind
    assert "time_loss" not in live.ends and "agreed_draw" not in live.ends


def test_cas_profile_numbers() -> None:
    cas = Profile.load("cas")
    assert (cas.bye.points, cas.bye.score, cas.bye.opponent_score) == (0.5, 300, 300)  # 14.5
    assert (cas.no_show.winner_score, cas.no_show.loser_score) == (200, 0)  # 14.2
    assert cas.both_no_show.score == 0  # 14.3
    assert cas.resigned.forfeit and cas.resigned.mode == "forfeit_or_current"  # 13.1, 14.2
    assert cas.disconnect.mode == "forfeit_or_current"
    assert cas.exclusion.any_forfeit == 0 and cas.exclusion.no_move_or_resigned == 0
    assert cas.qualification.table == []


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_raw())
    change(data)
    return data


# (what is wrong, how to break the data, words the message must contain)
BROKEN = [
    ("missing", lambda d: d["points"].pop("win"), ["points.win", "missing"]),
    ("missing table", lambda d: d.pop("bye"), ["bye", "missing"]),
    ("missing top-level", lambda d: d.pop("ends"), ["ends", "missing"]),
    ("wrong type", lambda d: d["points"].update(win="one"), ["points.win", "number"]),
    ("bool for int", lambda d: d["bye"].update(score=True), ["bye.score", "integer"]),
    ("wrong list", lambda d: d.update(ends="finished"), ["ends", "list"]),
    ("unknown key", lambda d: d["bye"].update(colour="red"), ["bye", "unknown field 'colour'"]),
    ("unknown table", lambda d: d.update(extra={"rule": "x"}), ["unknown field 'extra'"]),
    ("bad enum", lambda d: d["disconnect"].update(mode="double"), ["disconnect.mode", "double"]),
    ("bad enum", lambda d: d["resigned"].update(mode="sometimes"), ["resigned.mode"]),
    ("bad enum", lambda d: d.update(kind="postal"), ["kind", "postal"]),
    ("bad enum", lambda d: d["agreed_draw"].update(score="higher"), ["agreed_draw.score"]),
    ("bad end", lambda d: d.update(ends=["finished", "walkover"]), ["ends", "walkover"]),
    ("bad end", lambda d: d["rated"].update(ends=["forfeit"]), ["rated.ends", "forfeit"]),
    ("bad criterion", lambda d: d["standings"].update(tiebreaks=["luck"]), ["tiebreaks"]),
    (
        "repeated criterion",
        lambda d: d["standings"].update(tiebreaks=["points", "points"]),
        ["standings.tiebreaks", "each once"],
    ),
    ("negative", lambda d: d["exclusion"].update(any_forfeit=-1), ["exclusion.any_forfeit"]),
    ("negative", lambda d: d["standings"].update(median_drop=-1), ["median_drop"]),
    ("no bound", lambda d: d["plausible"].update(max_score=0), ["plausible.max_score"]),
    ("no bound", lambda d: d["plausible"].update(max_moves=-1), ["plausible.max_moves"]),
    ("negative", lambda d: d["plausible"].update(future_minutes=-5), ["future_minutes"]),
    ("missing", lambda d: d["plausible"].pop("time_rule"), ["plausible.time_rule", "missing"]),
]


@pytest.mark.parametrize(("what", "change", "words"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_profile_names_the_field(what: str, change: Any, words: list[str]) -> None:
    with pytest.raises(ProfileError) as err:
        Profile.from_dict(_broken(change), "broken.toml")
    for word in words:
        assert word in str(err.value), (what, str(err.value))


def test_unknown_profile_name_lists_the_bundled_ones() -> None:
    with pytest.raises(ProfileError, match=r"'nope' not found.*sss-online"):
        Profile.load("nope")


def test_profile_file_that_is_not_toml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.toml: not valid TOML"):
        Profile.load(bad)


def test_profile_loads_from_a_path(tmp_path: Path) -> None:
    data = (PROFILE_DIR / "sss-online.toml").read_text(encoding="utf-8")
    own = tmp_path / "turnaj.toml"
    own.write_text(data.replace("margin = 50", "margin = 70"), encoding="utf-8")
    assert Profile.load(own).disconnect.margin == 70
