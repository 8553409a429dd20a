"""The duplicate board as a PNG (issue 24 items 2 and 8): what the control channel shows.

Inputs are plain data — the board's 15-line text (`rules.duplicate.board`: '.' empty, upper
case a tile, lower case a blank), the squares of the last top to highlight, the tile set's name
(for the values) and the rack — and the output is PNG bytes; nothing here knows Discord. The
same input gives the same bytes (no timestamps, one bundled font), so a message re-sent after a
crash carries an identical picture and the outbox row keeps only the parameters.

Sized for a phone: Discord shows a chat image about 400 px wide; at that scale a tile's letter
is still about 12 px tall (tested). The font is DejaVu Sans Bold, bundled (`fonts/`, its
licence in THIRD_PARTY_NOTICES.md): Pillow's own default font has no Slovak or Czech accents,
and a slim server image has no system fonts.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rules.duplicate.board import SIZE, STANDARD_LAYOUT, Board, parse_board
from rules.duplicate.coords import COLUMNS
from rules.duplicate.errors import DuplicateError
from rules.duplicate.tiles import BLANK, TileSet
from rules.profile import IncompleteInstallError, ProfileError

FONT_FILE = "DejaVuSans-Bold.ttf"

# Geometry (px): a 632 px wide picture; Discord scales it to ~400 on a phone.
CELL = 40
GRID = 2  # the lines between squares
EDGE = 24  # the coordinate margin on the top and on the left
PAD = 8  # right margin
RACK_TILE = 56
RACK_GAP = 6
RACK_TOP_GAP = 14
BOTTOM = 12
WIDTH = EDGE + SIZE * CELL + PAD
BOARD_BOTTOM = EDGE + SIZE * CELL

LETTER_SIZE = 26
VALUE_SIZE = 12
COORD_SIZE = 14
RACK_LETTER_SIZE = 34
RACK_VALUE_SIZE = 15

# The colours of a club board: premium squares as players know them, no legend needed.
FRAME = (29, 77, 59)
COORD_TEXT = (236, 236, 224)
SQUARE = (216, 210, 187)
PREMIUM = {
    "T": (204, 52, 52),  # triple word: red
    "D": (240, 160, 160),  # double word: pink (the centre too)
    "t": (41, 121, 189),  # triple letter: blue
    "d": (166, 211, 242),  # double letter: light blue
}
STAR = (150, 40, 40)
TILE = (243, 217, 164)
TILE_EDGE = (176, 140, 82)
BLANK_TILE = (228, 228, 228)  # a blank: another shade and no value
BLANK_EDGE = (150, 150, 150)
TOP_TILE = (255, 196, 40)  # the last top: a bright amber with a red edge
TOP_BLANK = (255, 233, 160)
TOP_EDGE = (198, 40, 40)
INK = (28, 28, 28)


class BoardImageError(ValueError):
    """The image's parameters do not describe a board (a bug upstream, never player input)."""


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """What one image shows; `highlight` squares are (row, col), 0-based as in
    `rules.duplicate.board` (row 0 is "1", column 0 is "A")."""

    board: str
    highlight: tuple[tuple[int, int], ...] = ()
    tiles: str = "sss-100"
    rack: str = ""

    @classmethod
    def from_params(cls, image: Mapping[str, Any]) -> BoardPicture:
        """From a message's `image` parameter: {"board", "highlight", "tiles", "rack"}."""
        try:
            highlight = tuple((int(r), int(c)) for r, c in image.get("highlight") or ())
            return cls(board=str(image["board"]), highlight=highlight,
                       tiles=str(image.get("tiles") or "sss-100"),
                       rack=str(image.get("rack") or ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise BoardImageError(f"malformed image parameters: {exc}") from None


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    where = resources.files("bot.publish").joinpath("fonts", FONT_FILE)
    try:
        data = where.read_bytes()
    except OSError:  # the package's own file: the installation's fault (issue 43.3)
        raise BoardImageError(
            f"inštalácia strediska je neúplná: chýba pribalené písmo {where}; nejde o chybu "
            "vášho súboru, preinštalujte stredisko") from None
    return ImageFont.truetype(io.BytesIO(data), size)


@lru_cache(maxsize=8)
def _tile_set(name: str) -> TileSet:
    try:
        return TileSet.load(name)
    except (ProfileError, OSError) as exc:
        raise BoardImageError(f"unknown tile set {name!r}: {exc}") from None
    except IncompleteInstallError as exc:  # the message still goes out, as text, saying why
        raise BoardImageError(str(exc)) from None


def render_params(image: Mapping[str, Any]) -> bytes:
    """The PNG for a message's `image` parameter."""
    return render(BoardPicture.from_params(image))


def render_board(board: str, *, highlight: Iterable[Sequence[int]] = (), tiles: str = "sss-100",
                 rack: str = "") -> bytes:
    return render(BoardPicture(board, tuple((r, c) for r, c in highlight), tiles, rack))


def render(picture: BoardPicture) -> bytes:
    """The picture as PNG bytes (deterministic)."""
    tile_set = _tile_set(picture.tiles)
    try:
        board = parse_board(picture.board, frozenset(tile_set.letters), tile_set.blank_letters)
    except DuplicateError as exc:
        raise BoardImageError(str(exc)) from None
    for r, c in picture.highlight:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise BoardImageError(f"highlight outside the board: {(r, c)}")
    rack = list(picture.rack.replace(" ", ""))
    height = BOARD_BOTTOM + (RACK_TOP_GAP + RACK_TILE if rack else 0) + BOTTOM
    image = Image.new("RGB", (WIDTH, height), FRAME)
    draw = ImageDraw.Draw(image)
    _coordinates(draw)
    _squares(draw, board, frozenset(picture.highlight), tile_set.values)
    if rack:
        _rack(draw, rack, tile_set.values)
    out = io.BytesIO()
    # level 3: a third less CPU than the default 6 for a file 15 % larger (~40 KiB)
    image.save(out, "PNG", compress_level=3)
    return out.getvalue()


def square_box(row: int, col: int) -> tuple[int, int, int, int]:
    """The pixel box of a square, inside the grid lines (for tests and callers that crop)."""
    x, y = EDGE + col * CELL, EDGE + row * CELL
    return x + GRID // 2, y + GRID // 2, x + CELL - GRID // 2 - 1, y + CELL - GRID // 2 - 1


def _coordinates(draw: ImageDraw.ImageDraw) -> None:
    small = font(COORD_SIZE)
    for i in range(SIZE):
        middle = EDGE + i * CELL + CELL // 2
        draw.text((middle, EDGE // 2), COLUMNS[i], font=small, fill=COORD_TEXT, anchor="mm")
        draw.text((EDGE // 2, middle), str(i + 1), font=small, fill=COORD_TEXT, anchor="mm")


def _squares(draw: ImageDraw.ImageDraw, board: Board, top: frozenset[tuple[int, int]],
             values: Mapping[str, int]) -> None:
    for r in range(SIZE):
        for c in range(SIZE):
            box = square_box(r, c)
            letter = board.cells[r][c]
            # the square under a tile shows in its rounded corners
            draw.rectangle(box, fill=PREMIUM.get(STANDARD_LAYOUT[r][c], SQUARE))
            if letter is None:
                if (r, c) == (SIZE // 2, SIZE // 2):
                    _star(draw, box)
                continue
            blank = (r, c) in board.blanks
            value = None if blank else values.get(letter)
            _tile(draw, box, letter, value, blank=blank, top=(r, c) in top,
                  sizes=(LETTER_SIZE, VALUE_SIZE))


def _tile(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], letter: str,
          value: int | None, *, blank: bool, top: bool, sizes: tuple[int, int]) -> None:
    """One tile: the letter in the middle, its value in the corner (a blank has none)."""
    if top:
        fill, edge = (TOP_BLANK if blank else TOP_TILE), TOP_EDGE
    else:
        fill, edge = (BLANK_TILE, BLANK_EDGE) if blank else (TILE, TILE_EDGE)
    width = 3 if top else 1
    draw.rounded_rectangle(box, radius=4, fill=fill, outline=edge, width=width)
    x0, y0, x1, y1 = box
    letter_size, value_size = sizes
    if letter:
        # A slightly left-of-centre letter leaves the value its corner, as on a real tile.
        shift = 0 if value is None else -(x1 - x0) // 12
        draw.text(((x0 + x1) // 2 + shift, (y0 + y1) // 2 + 1), letter.upper(),
                  font=font(letter_size), fill=INK, anchor="mm")
    if value is not None:
        draw.text((x1 - width - 1, y1 - width), str(value), font=font(value_size), fill=INK,
                  anchor="rd")


def _star(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """The centre square's star, drawn (no glyph needed)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    outer, inner = (box[2] - box[0]) * 0.38, (box[2] - box[0]) * 0.16
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / 5
        points.append((round(cx + radius * math.cos(angle), 2),
                       round(cy - radius * math.sin(angle), 2)))
    draw.polygon(points, fill=STAR)


def rack_box(index: int, count: int) -> tuple[int, int, int, int]:
    """The pixel box of the rack's `index`-th tile (of `count`), centred under the board."""
    total = count * RACK_TILE + (count - 1) * RACK_GAP
    x = EDGE + (SIZE * CELL - total) // 2 + index * (RACK_TILE + RACK_GAP)
    y = BOARD_BOTTOM + RACK_TOP_GAP
    return x, y, x + RACK_TILE - 1, y + RACK_TILE - 1


def _rack(draw: ImageDraw.ImageDraw, rack: list[str], values: Mapping[str, int]) -> None:
    for i, ch in enumerate(rack):
        blank = ch == BLANK
        letter = "" if blank else ch
        value = None if blank else values.get(ch.lower())
        _tile(draw, rack_box(i, len(rack)), letter, value, blank=blank, top=False,
              sizes=(RACK_LETTER_SIZE, RACK_VALUE_SIZE))
