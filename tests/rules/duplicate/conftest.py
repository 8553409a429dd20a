"""Plain tile data for the duplicate game's tests: the SSS 100-tile set as DUPLICATE.md §4
reads seed 000 B8 (the move engine's tile profiles own the real one) and its vowels."""

import pytest

SSS_100 = {
    "A": 9, "O": 9, "E": 8, "I": 5, "N": 5, "R": 4, "S": 4, "T": 4, "V": 4, "M": 4, "D": 3,
    "K": 3, "L": 3, "P": 3, "J": 2, "U": 2, "B": 2, "Á": 1, "C": 1, "H": 1, "Y": 1, "Z": 1,
    "Č": 1, "Í": 1, "Š": 1, "Ý": 1, "Ž": 1, "É": 1, "Ľ": 1, "Ť": 1, "Ú": 1, "Ď": 1, "F": 1,
    "G": 1, "Ň": 1, "Ä": 1, "Ĺ": 1, "Ŕ": 1, "X": 1, "Ó": 1, "Ô": 1, "?": 2,
}
VOWELS = frozenset("AÁÄEÉIÍOÓÔUÚYÝ")


@pytest.fixture(scope="session")
def sss_100() -> dict[str, int]:
    assert sum(SSS_100.values()) == 100
    return dict(SSS_100)


@pytest.fixture(scope="session")
def vowels() -> frozenset[str]:
    return VOWELS
