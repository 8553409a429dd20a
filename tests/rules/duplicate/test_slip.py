"""Reading slips (003 r. 38, 44; 004 §4.3, §8.4) and board files."""

from __future__ import annotations

import pytest

from rules.duplicate.board import Board, parse_board
from rules.duplicate.coords import format_coord, parse_coord
from rules.duplicate.errors import DuplicateError
from rules.duplicate.slip import parse_slip
from rules.duplicate.tiles import TileSet

TILES = TileSet.load("sss-100")
KNOWN = TILES.blank_letters


@pytest.mark.parametrize(("text", "row", "col", "across"), [
    ("8H SLOVO", 7, 7, True),  # row first: across (003 r. 44)
    ("H8 SLOVO", 7, 7, False),  # column first: down
    ("H8 O SLOVO", 7, 7, True),  # 004 §4.3: O = οριζόντια, across
    ("H8 K SLOVO", 7, 7, False),  # K = κάθετα, down
    ("H8 Κ SLOVO", 7, 7, False),  # the Greek capital kappa
    ("8H k SLOVO", 7, 7, False),  # an explicit direction wins over the order
    ("15O SO", 14, 14, True),
    ("a1 SO", 0, 0, False),
    # issue 35: the direction as Slovak and Czech players write it (003 r. 38 "směr"), after
    # the coordinate or glued to it; without it the order decides (r. 44)
    ("H8 V SLOVO", 7, 7, True),  # vodorovne / vodorovně
    ("8H Z SLOVO", 7, 7, False),  # zvisle
    ("8H S SLOVO", 7, 7, False),  # svisle
    ("8h z SLOVO", 7, 7, False),
    ("H8V SLOVO", 7, 7, True),
    ("8HZ SLOVO", 7, 7, False),
    ("8HS SLOVO", 7, 7, False),
    ("15OV SO", 14, 14, True),
    ("O15 SO", 14, 14, False),  # column O first: down, O is no direction here
    ("H8O SLOVO", 7, 7, True),
])
def test_coordinates_and_directions(text: str, row: int, col: int, across: bool) -> None:
    slip = parse_slip(text, KNOWN)
    assert (slip.row, slip.col, slip.across) == (row, col, across)


def test_blanks_lower_case_or_in_parentheses() -> None:
    expected = (("s", False), ("l", False), ("o", True), ("v", False), ("o", False))
    assert parse_slip("8H SLoVO", KNOWN).letters == expected
    assert parse_slip("8H SL(O)VO", KNOWN).letters == expected
    assert parse_slip("8H SL(o)VO", KNOWN).letters == expected
    assert parse_slip("8H ŠŤaVA", KNOWN).letters[0] == ("š", False)
    assert parse_slip("8H wAT", KNOWN).letters[0] == ("w", True)  # a blank-only letter


@pytest.mark.parametrize(("text", "code"), [
    ("P4 SLOVO", "coord_off_board"), ("16A SO", "coord_off_board"), ("0A SO", "coord_off_board"),
    ("A16 SO", "coord_off_board"), ("8H", "slip_unreadable"), ("H8 X Y SO", "slip_unreadable"),
    ("HH SO", "coord_unreadable"), ("8H SL(OV)O", "slip_blank_two"), ("8H SL0VO", "slip_letter"),
    ("8H SLßVO", "slip_letter"), ("8H X SLOVO", "slip_unreadable"), ("8HX SO", "coord_unreadable"),
    ("H8VV SO", "coord_unreadable"),
])
def test_unreadable_slips_are_input_errors(text: str, code: str) -> None:
    with pytest.raises(DuplicateError) as caught:
        parse_slip(text, KNOWN)
    assert caught.value.code == code


def test_coordinates_round_trip() -> None:
    for row in range(15):
        for col in range(15):
            for across in (True, False):
                assert parse_coord(format_coord(row, col, across)) == (row, col, across)


def test_board_file_round_trip_and_errors() -> None:
    lines = ["." * 15] * 15
    lines[7] = ".......SLoVO..."
    board = parse_board("\n".join(lines) + "\n", frozenset(TILES.letters), KNOWN)
    assert board.cells[7][7:12] == ("s", "l", "o", "v", "o")
    assert board.blanks == {(7, 9)}
    assert board.text() == "\n".join(lines) + "\n"
    assert board.transposed().transposed() == board
    bad = {"board_rows": lines[:14], "board_columns": [*lines[:14], "." * 14],
           "board_letter": [*lines[:14], "W" + "." * 14]}  # W: no tile in sss-100
    for code, rows in bad.items():
        with pytest.raises(DuplicateError) as caught:
            parse_board("\n".join(rows), frozenset(TILES.letters), KNOWN)
        assert caught.value.code == code
    assert parse_board(Board.empty().text(), frozenset(TILES.letters), KNOWN).is_empty


@pytest.mark.parametrize(("text", "count"), [("5C Přimetán", 7), ("8H SlOvOk", 3)])
def test_more_lower_case_letters_than_the_set_has_blanks_are_refused(
        text: str, count: int) -> None:
    with pytest.raises(DuplicateError) as caught:
        parse_slip(text, KNOWN, blanks=2)
    assert caught.value.code == "slip_too_many_blanks"
    assert (caught.value.params["count"], caught.value.params["blanks"]) == (count, 2)
    assert parse_slip("8H Sl(O)vO", KNOWN, blanks=2).letters[1] == ("l", True)  # two bare
    # blanks in parentheses are written on purpose (a board's earlier blanks among them):
    # read as written, judged at the close
    assert len(parse_slip("6G (a)(s)(k)", KNOWN, blanks=2).letters) == 3
