"""The top move's tie order (003 r. 5–9) and its settings."""

from __future__ import annotations

import pytest

from rules.duplicate import duplicate_profile, duplicate_profiles
from rules.duplicate.board import Board
from rules.duplicate.move import Move
from rules.duplicate.tiles import TileSet
from rules.duplicate.top import TopSettings, collation_key, rank_tops, top_moves
from rules.lexicon.graph import TrieGraph

SK = TileSet.load("sss-100")


def test_slovak_alphabet_not_code_points() -> None:
    key = collation_key(SK, digraphs=True)
    assert sorted(["ba", "äa", "áa", "ab", "za", "ža"], key=key) == [
        "ab", "áa", "äa", "ba", "za", "ža"]


def test_ch_after_h_is_a_setting() -> None:
    words = ["ci", "chata", "hora", "ihla"]
    assert sorted(words, key=collation_key(SK, digraphs=True)) == ["ci", "hora", "chata", "ihla"]
    assert sorted(words, key=collation_key(SK, digraphs=False)) == ["chata", "ci", "hora", "ihla"]


def test_ties_word_then_row_then_column_then_across() -> None:
    # first move with SLOVO: every placement through H8 across and down scores the same
    # only where premiums agree; the tops are ordered by 003 r. 6–9
    tops = top_moves(Board.empty(), "SLOVOAA", TrieGraph(["slovo", "osla"]), SK)
    assert tops.score == 14
    assert [(m.coord, m.word) for m in tops.tops] == [
        ("H4", "SLOVO"), ("8D", "SLOVO"), ("8H", "SLOVO"), ("H8", "SLOVO")]


def test_earlier_word_wins_over_position() -> None:
    tops = top_moves(Board.empty(), "AKOSLVE", TrieGraph(["kosa", "oska"]), SK)
    words = [m.word for m in tops.tops]
    assert words == sorted(words, key=collation_key(SK, True))
    assert words[0] == "KOSA" and "OSKA" in words


def test_where_the_blank_stands() -> None:
    # the same word, square and direction, one blank each: the real tile first, letter by
    # letter (SLOVo before SLoVO)
    def move(word: str) -> Move:
        laid = tuple((7, 7 + i, ch.lower(), ch.islower()) for i, ch in enumerate(word))
        return Move(7, 7, True, word, 10, laid)

    ranked = rank_tops([move("SLoVO"), move("SLOVo"), move("sLOVO"), move("SLOVO")], SK)
    # (the real SLOVO only shows the key: it never ties with a blank one in a real position)
    assert [m.word for m in ranked.tops] == ["SLOVO", "SLOVo", "SLoVO", "sLOVO"]
    earlier = rank_tops([move("SLOVo"), move("SLoVO")], SK, TopSettings(blank_on="earlier"))
    assert [m.word for m in earlier.tops] == ["SLoVO", "SLOVo"]


def test_no_move() -> None:
    tops = top_moves(Board.empty(), "A", TrieGraph(["slovo"]), SK)
    assert tops.as_dict() == {"count": 0, "top_score": 0, "tops": []}


def test_settings_from_the_game_profiles() -> None:
    for name in duplicate_profiles():
        profile = duplicate_profile(name)
        settings = TopSettings.from_rule(profile.tops)
        assert settings.keys == tuple(profile.tops.keys)
        assert settings.one_tile_main == profile.tops.one_tile_main
    assert TopSettings.from_dict({"one_tile_main": "earlier"}).one_tile_main == "earlier"
    with pytest.raises(ValueError, match="unknown"):
        TopSettings.from_dict({"nonsense": 1})
    with pytest.raises(ValueError, match="one_tile_main"):
        TopSettings(one_tile_main="down")


def test_a_top_without_a_blank_first_is_a_setting() -> None:
    blank = Move(7, 7, True, "Ak", 4, ((7, 7, "a", False), (7, 8, "k", True)))
    plain = Move(6, 7, True, "KO", 4, ((6, 7, "k", False), (6, 8, "o", False)))
    assert rank_tops([plain, blank], SK).tops == (blank, plain)  # AK before KO (r. 6)
    preferred = rank_tops([blank, plain], SK, TopSettings(prefer_no_blank=True))
    assert preferred.tops == (plain, blank)
