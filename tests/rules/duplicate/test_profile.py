"""Duplicate game profiles: the values the seeds give (003, 004), each citing its rule, and the
strict loading every profile shares — a bad file names FILE:LINE and the field."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rules.duplicate.profile import (
    DUPLICATE_PROFILE_DIR,
    duplicate_profile,
    duplicate_profile_from_text,
    duplicate_profiles,
    load_duplicate_profile,
)
from rules.profile import ProfileError

CAS = duplicate_profile("cas-duplicate")
GREEK = duplicate_profile("greek-duplicate")
CAS_TEXT = (DUPLICATE_PROFILE_DIR / "cas-duplicate.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("profile", "where", "value"), [
    (CAS, "tiles", "cas-100"),
    (CAS, "racks.return_leave", True),              # 003 r. 12 "vrátí všechna písmena"
    (CAS, "racks.blank_counts_as_both", True),      # 003 r. 12
    (CAS, "racks.end_when_one_kind", False),        # 003 r. 13: just no redraw
    (CAS, "slips.declared", "required"),            # 003 r. 38, 45
    (CAS, "results.tiebreaks", ["percent-sum", "shoot-out"]),  # 003 r. 48, 49
    (CAS, "tops.keys", ["word", "row", "column", "horizontal"]),  # 003 r. 6–9
    (CAS, "tops.prefer_no_blank", False),
    (CAS, "round.minutes", 3.0),                    # 003 r. 15
    (CAS, "slips.several", "none"),                 # 003 r. 42 as written (issue 35)
    (CAS, "slips.several_online", "last"),          # r. 41's replacement: Interpretation
    (CAS, "end.no_move_rule", "003 r. 3"),          # "dokud počítač vytvořil bodované slovo"
    (CAS, "end.empty_rule", "003 r. 3"),
    (GREEK, "end.empty_rule", "004 §5B.1"),
    (GREEK, "racks.return_leave", True),            # 004 §8.2 "και τα επτά γράμματα"
    (GREEK, "racks.end_when_one_kind", True),       # 004 §8.2
    (GREEK, "slips.declared", "ignored"),           # 004 §8.1
    (GREEK, "slips.left_rule", "004 §7"),
])
def test_values_from_the_seeds(profile, where, value):
    got = profile
    for part in where.split("."):
        got = getattr(got, part)
    assert got == value


def test_the_setting_that_applied_is_cited_and_the_end_follows_its_reason():
    """Issue 35: a hall plays `slips.several` (r. 42: none counts), online
    `slips.several_online`; what they decide cites the setting's name. The end of a game cites
    the rule of its reason and profile."""
    hall, online = CAS.for_mode("hall").slips, CAS.for_mode("online").slips
    assert (hall.several, hall.several_rule) == ("none", "003 r. 42; slips.several = none")
    assert (online.several, online.several_rule) == (
        "last", "003 r. 41 (Interpretation); slips.several_online = last")
    assert GREEK.for_mode("online").slips.several_rule.endswith("slips.several_online = last")
    assert [CAS.end_rule(r) for r in ("empty", "no-move")] == ["003 r. 3", "003 r. 3"]
    assert [GREEK.end_rule(r) for r in ("empty", "no-move", "one-kind")] == [
        "004 §5B.1", "004 §5B.2 (Interpretation)", "004 §8.2, §5B.3"]
    with pytest.raises(ValueError):
        CAS.end_rule("bored")


def test_the_vowel_phases():
    """003 r. 12: rounds 1–15 two and two, later one and one; 004 §8.2: one and one."""
    assert [(CAS.phase(r).vowels, CAS.phase(r).consonants) for r in (1, 15, 16, 40)] == [
        (2, 2), (2, 2), (1, 1), (1, 1)]
    assert (GREEK.phase(1).vowels, GREEK.phase(30).consonants) == (1, 1)


@pytest.mark.parametrize("name", duplicate_profiles())
def test_every_setting_cites_a_rule(name):
    profile = duplicate_profile(name)
    tables = [profile, *(getattr(profile, f.name) for f in dataclasses.fields(profile)
                         if dataclasses.is_dataclass(getattr(profile, f.name))),
              *profile.racks.phases]
    for table in tables:
        cites = [f.name for f in dataclasses.fields(table) if f.name.endswith("rule")]
        assert cites and all(getattr(table, c).strip() for c in cites), table


@pytest.mark.parametrize(("change", "message"), [
    (("size = 7", "size = 7\nsise = 3"), "cas-duplicate.toml:15: racks: unknown field 'sise'"),
    (("vowels = 1\n", "vowels = 1\nfoo = 2\n"),
     "cas-duplicate.toml:40: racks.phases[1]: unknown field 'foo'"),
    (("title =", "colour = 1\ntitle ="), "cas-duplicate.toml:5: unknown field 'colour'"),
    (('several = "none"', 'several = "first"'),
     "cas-duplicate.toml:47: slips.several: 'first' is not one of 'last', 'none'"),
    (('several_online = "last"', 'several_online = "first"'),
     "cas-duplicate.toml:52: slips.several_online: 'first' is not one of 'last', 'none'"),
    (('late_rule = "003 r. 19"', ""), "cas-duplicate.toml:42: slips.late_rule: missing"),
    (("minutes = 3", 'minutes = "3"'), "cas-duplicate.toml:92: round.minutes: expected a number"),
    (("from_round = 16", "from_round = 1"),
     "cas-duplicate.toml:30: racks.phases: from_round must start at 1 and ascend"),
    (('keys = ["word", "row", "column", "horizontal"]', 'keys = ["word", "row"]'),
     "cas-duplicate.toml:78: tops.keys: must order exactly word, row, column, horizontal"),
])
def test_a_bad_profile_names_the_file_line_and_field(change, message):
    old, new = change
    assert old in CAS_TEXT
    with pytest.raises(ProfileError) as caught:
        duplicate_profile_from_text(CAS_TEXT.replace(old, new, 1), "cas-duplicate.toml")
    assert str(caught.value).startswith(message)


def test_a_missing_profile_names_the_bundled_ones(tmp_path: Path):
    with pytest.raises(ProfileError, match="cas-duplicate, greek-duplicate"):
        load_duplicate_profile(tmp_path / "none.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = ", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"broken\.toml: not valid TOML"):
        load_duplicate_profile(broken)
