"""The tile-set profiles (SSS B8 17.1; the Czech set, not in the seeds)."""

from __future__ import annotations

import pytest

from rules.duplicate.tiles import BLANK, TileSet, from_dict
from rules.profile import ProfileError


@pytest.mark.parametrize(("name", "total"), [("sss-100", 100), ("sss-110", 110),
                                             ("cas-100", 100)])
def test_every_set_adds_up_and_cites_each_letter(name: str, total: int) -> None:
    tiles = TileSet.load(name)
    assert sum(tiles.bag.values()) == total
    assert tiles.bag[BLANK] == 2
    assert all(tile.source and tile.count > 0 and tile.value > 0
               for tile in tiles.letters.values())
    assert tiles.vowels & set(tiles.letters)  # the rack rule has vowels to count
    assert set(tiles.letters) - tiles.vowels
    assert tiles.bingo == 50


def test_sss_100_per_b8() -> None:
    tiles = TileSet.load("sss-100")
    counts = {letter: (t.count, t.value) for letter, t in tiles.letters.items()}
    assert counts["a"] == (9, 1) and counts["m"] == (4, 2) and counts["í"] == (1, 5)
    assert counts["ľ"] == (1, 7) and counts["ĺ"] == (1, 10) and counts["ŕ"] == (1, 10)
    assert counts["ó"] == (1, 10) and counts["ô"] == (1, 8)
    assert "TO BE CONFIRMED" in tiles.letters["ó"].source
    assert "TO BE CONFIRMED" in tiles.letters["ô"].source
    assert set("wqöüěř") <= tiles.blank_letters - set(tiles.letters)
    assert {"ä", "ô"} <= tiles.vowels and not {"ĺ", "ŕ"} & tiles.vowels


def test_sss_110_is_the_112_set_without_q_and_w() -> None:
    tiles = TileSet.load("sss-110")
    assert "q" not in tiles.letters and "w" not in tiles.letters
    # every Slovak letter but the digraphs and Q, W: the same letters as the 100-tile set
    assert set(tiles.letters) == set(TileSet.load("sss-100").letters)
    assert len(tiles.letters) == 46 - 3 - 2


def test_a_broken_set_is_refused() -> None:
    with pytest.raises(ProfileError, match="tiles = 5"):
        from_dict({"name": "x", "rule": "r", "tiles": 5, "bingo": 50, "bingo_rule": "r",
                   "rack_size": 7, "blank": {"count": 2, "rule": "r", "extra": []},
                   "vowels": {"rule": "r", "letters": ["a"]},
                   "collation": {"rule": "r", "alphabet": ["a", "b"], "digraphs": [],
                                 "digraph_collation": False},
                   "letters": {"a": {"count": 1, "value": 1, "source": "s"},
                               "b": {"count": 1, "value": 1, "source": "s"}}})
    with pytest.raises(ProfileError, match="not found"):
        TileSet.load("no-such-set")


def test_the_bag_is_the_plain_data_the_rack_draw_reads(sss_100: dict[str, int],
                                                       vowels: frozenset[str]) -> None:
    tiles = TileSet.load("sss-100")
    assert dict(tiles.bag) == sss_100  # the rack draw's tests read B8 the same way
    assert tiles.rack_vowels == vowels
