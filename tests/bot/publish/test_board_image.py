"""The duplicate board image (issue 24 items 2, 8): decoded back with Pillow and measured."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.publish import board_image as bi
from rules.duplicate.tiles import TILES_DIR, TileSet

EMPTY = "\n".join(["." * 15] * 15) + "\n"
TILE_SETS = sorted(p.stem for p in TILES_DIR.glob("*.toml"))
PHONE_WIDTH = 400  # what Discord shows of a chat image on a phone


def board_with(tiles: dict[tuple[int, int], str]) -> str:
    rows = [list("." * 15) for _ in range(15)]
    for (r, c), ch in tiles.items():
        rows[r][c] = ch
    return "\n".join("".join(row) for row in rows) + "\n"


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def ink_rows(image: Image.Image, box: tuple[int, int, int, int]) -> list[int]:
    """The pixel rows of `box` holding dark ink (a letter or a value), image coordinates."""
    crop = image.crop((box[0], box[1], box[2] + 1, box[3] + 1)).convert("L")
    width, height = crop.size
    pixels = crop.load()
    return [box[1] + y for y in range(height)
            if any(pixels[x, y] < 90 for x in range(width))]


def inset(box: tuple[int, int, int, int], by: int = 5) -> tuple[int, int, int, int]:
    """Inside a tile's rounded edge (the frame shows in its corners)."""
    return box[0] + by, box[1] + by, box[2] - by, box[3] - by


def test_the_same_input_gives_the_same_bytes() -> None:
    board = board_with({(7, 5): "S", (7, 6): "L", (7, 7): "o", (7, 8): "V", (7, 9): "O"})
    first = bi.render_board(board, highlight=[(7, 5), (7, 9)], tiles="sss-100", rack="AEK?RSÝ")
    again = bi.render_params({"board": board, "highlight": [[7, 5], [7, 9]],
                              "tiles": "sss-100", "rack": "AEK?RSÝ"})
    assert first == again
    assert decode(first).size == (bi.WIDTH, bi.BOARD_BOTTOM + bi.RACK_TOP_GAP + bi.RACK_TILE
                                  + bi.BOTTOM)


@pytest.mark.parametrize("name", TILE_SETS)
def test_every_letter_of_every_tile_set_draws_its_own_glyph(name: str) -> None:
    """Ä Ô Ľ Ŕ Ĺ Ď Ť Ň Č Š Ž Ř Ů Ě …: each letter (and each a blank may stand for) shows ink,
    and not the font's "missing glyph" box."""
    tile_set = TileSet.load(name)
    font = bi.font(bi.LETTER_SIZE)

    def glyph(ch: str) -> bytes:
        image = Image.new("L", (40, 40), 0)
        ImageDraw.Draw(image).text((20, 20), ch, font=font, fill=255, anchor="mm")
        return image.tobytes()

    missing = glyph("\ue000")  # a private-use code point: the font has no glyph for it
    letters = sorted(set(tile_set.letters) | tile_set.blank_extra)
    assert letters
    for letter in letters:
        drawn = glyph(letter.upper())
        assert any(drawn) and drawn != missing, f"{name}: {letter.upper()} does not render"
        tile = letter.upper() if letter in tile_set.letters else letter  # extras: blanks only
        image = decode(bi.render_board(board_with({(7, 7): tile}), tiles=name))
        assert ink_rows(image, inset(bi.square_box(7, 7), 3)), f"{name}: no ink for {tile}"


def test_a_tile_letter_is_readable_at_phone_width() -> None:
    """The letter of a tile stays at least 11 px tall when Discord scales the image to 400 px
    (a blank's letter: it has no value under it to confuse the measurement)."""
    image = decode(bi.render_board(board_with({(7, 7): "e"})))
    rows = ink_rows(image, inset(bi.square_box(7, 7), 3))
    height_at_phone = (max(rows) - min(rows) + 1) * PHONE_WIDTH / image.width
    assert height_at_phone >= 11, height_at_phone


def test_a_blank_differs_from_a_tile_and_has_no_value() -> None:
    tile = decode(bi.render_board(board_with({(7, 7): "E"})))
    blank = decode(bi.render_board(board_with({(7, 7): "e"})))
    box = bi.square_box(7, 7)
    corner = (box[2] - 4, box[1] + 4)  # the tile's own colour, away from the letter
    assert tile.getpixel(corner) == bi.TILE
    assert blank.getpixel(corner) == bi.BLANK_TILE
    # the value "1" sits in the bottom-right corner of a tile; a blank's corner is empty
    value_box = (box[2] - 12, box[3] - 14, box[2] - 3, box[3] - 3)
    assert ink_rows(tile, value_box)
    assert not ink_rows(blank, value_box)


def test_the_highlight_changes_only_the_last_tops_squares() -> None:
    tiles = {(7, 5 + i): ch for i, ch in enumerate("SLOVO")} | {(8, 9): "K"}
    top = [(7, 5), (7, 6), (7, 7), (7, 8), (7, 9)]
    plain = decode(bi.render_board(board_with(tiles)))
    marked = decode(bi.render_board(board_with(tiles), highlight=top))
    changed = {(x, y) for y in range(plain.height) for x in range(plain.width)
               if plain.getpixel((x, y)) != marked.getpixel((x, y))}
    assert changed
    boxes = [bi.square_box(r, c) for r, c in top]
    assert all(any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes) for x, y in changed)
    for r, c in top:  # every highlighted square changed
        b = bi.square_box(r, c)
        assert any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for x, y in changed)
    assert marked.getpixel((bi.square_box(7, 5)[0] + 5, bi.square_box(7, 5)[1] + 5)) == bi.TOP_TILE


@pytest.mark.parametrize(("square", "kind"), [
    ((0, 0), "T"), ((1, 1), "D"), ((1, 5), "t"), ((0, 3), "d"), ((7, 7), "D"),
])
def test_premium_squares_have_their_colours(square: tuple[int, int], kind: str) -> None:
    image = decode(bi.render_board(EMPTY))
    box = bi.square_box(*square)
    assert image.getpixel((box[0] + 2, box[1] + 2)) == bi.PREMIUM[kind]
    assert image.getpixel((bi.square_box(0, 1)[0] + 2, bi.square_box(0, 1)[1] + 2)) == bi.SQUARE


def test_the_coordinates_are_drawn_on_the_frame() -> None:
    image = decode(bi.render_board(EMPTY))
    for i in range(15):
        middle = bi.EDGE + i * bi.CELL + bi.CELL // 2
        column = image.crop((middle - 8, 2, middle + 8, bi.EDGE - 2))
        row = image.crop((2, middle - 8, bi.EDGE - 2, middle + 8))
        for label in (column, row):
            assert bi.COORD_TEXT in {p for _, p in label.getcolors(1024) or []}


def test_the_rack_shows_its_tiles_with_values_and_the_blank_empty() -> None:
    image = decode(bi.render_board(EMPTY, rack="AEK?RSÝ"))
    for i in range(7):
        box = bi.rack_box(i, 7)
        corner = (box[2] - 5, box[1] + 5)
        if i == 3:
            assert image.getpixel(corner) == bi.BLANK_TILE
            assert not ink_rows(image, inset(box))
        else:
            assert image.getpixel(corner) == bi.TILE
            assert ink_rows(image, inset(box))
    # Ý is worth 5 in sss-100: its value is drawn where K's "2" and A's "1" are
    assert ink_rows(image, (bi.rack_box(6, 7)[2] - 14, bi.rack_box(6, 7)[3] - 18,
                            bi.rack_box(6, 7)[2] - 2, bi.rack_box(6, 7)[3] - 2))


def test_no_rack_means_no_rack_row() -> None:
    assert decode(bi.render_board(EMPTY)).height == bi.BOARD_BOTTOM + bi.BOTTOM


@pytest.mark.parametrize("image", [
    {"board": "ABC"},
    {"board": EMPTY, "tiles": "no-such-set"},
    {"board": EMPTY, "highlight": [[15, 0]]},
    {"board": EMPTY, "highlight": [["x"]]},
    {"highlight": []},
    {"board": board_with({(0, 0): "Ř"})},  # Ř has no tile in sss-100: only a blank (ř)
])
def test_malformed_parameters_are_refused(image: dict) -> None:
    with pytest.raises(bi.BoardImageError):
        bi.render_params(image)
