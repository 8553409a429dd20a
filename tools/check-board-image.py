"""Inside the image (tools/verify-image.sh, issue 34): the duplicate board drawn as a PNG shows
the Slovak letters with their own glyphs — so the installed package carries the bundled font
and the tile sets. Each letter must draw ink that is not the font's missing-glyph box (the
method of tests/bot/publish/test_board_image.py), and its square on the rendered board must
hold ink and differ from the others. Writes the PNG to the path given (default board.png).

    docker run --rm -i -v VOLUME:/data --entrypoint python stredisko -P - /data/board.png \\
        < tools/check-board-image.py
"""

from __future__ import annotations

import io
import sys

from PIL import Image, ImageDraw

from bot.publish import board_image as bi

TILES = "ÄÔĽŔĹĎŤŇČŠŽ"  # sss-100 tiles, on row 8 from column B
BLANKS = "řěö"  # letters only a blank may be (lower case: a blank on the board)
ROW = 7


def glyph(ch: str) -> bytes:
    image = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(image).text((20, 20), ch, font=bi.font(bi.LETTER_SIZE), fill=255,
                               anchor="mm")
    return image.tobytes()


def square(image: Image.Image, col: int) -> bytes:
    x0, y0, x1, y1 = bi.square_box(ROW, col)
    return image.crop((x0 + 3, y0 + 3, x1 - 3, y1 - 3)).convert("L").tobytes()


def main(out: str) -> int:
    missing = glyph("\ue000")  # a private-use code point: no glyph in the font
    letters = TILES + BLANKS
    bad = [ch for ch in letters.upper() if not any(glyph(ch)) or glyph(ch) == missing]
    assert not bad, f"no glyph for {bad}"
    rows = ["." * 15] * 15
    rows[ROW] = "." + letters + "." * (14 - len(letters))
    png = bi.render_board("\n".join(rows) + "\n", tiles="sss-100", rack="ÄÔĽŔ?")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG", image.format
    squares = [square(image.convert("RGB"), col) for col in range(1, 1 + len(letters))]
    blank = [ch for ch, pixels in zip(letters, squares, strict=True) if min(pixels) >= 90]
    assert not blank, f"no ink on the squares of {blank}"
    assert len(set(squares)) == len(squares), "two letters drew the same square"
    with open(out, "wb") as file:
        file.write(png)
    print(f"board image: {image.size[0]}×{image.size[1]} px, {len(png)} B, "
          f"{len(letters)} letters with their own glyphs ({letters.upper()}) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "board.png"))
